// ctx.ui in rpc mode: dialogs become `extension_ui_request` records answered by the client's
// `extension_ui_response`; notify, status, widgets, title and editor text are sent and forgotten;
// what a remote client cannot show resolves to its default and says so once on stderr.
import type { DialogOptions, ExtensionUIContext, WidgetPlacement } from "../../core/extensions/types.ts";
import { plainTheme } from "../../core/extensions/ui-noop.ts";

export interface RpcUIOptions {
	/** Writes one protocol record to stdout. */
	send(record: object): void;
	/** A line for the person running the agent (stderr). */
	note(text: string): void;
	/** Paths of the loaded extension files, to name the one calling an unavailable method. */
	extensionPaths(): string[];
}

type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

interface PendingDialog {
	/** Checks a response; a bad one is reported and the dialog keeps waiting. */
	accept(response: Record<string, unknown>): string | undefined;
	/** Ends the dialog with its default (no client left to answer). */
	cancel(): void;
}

export class RpcUI {
	readonly context: ExtensionUIContext;
	private readonly pending = new Map<string, PendingDialog>();
	private readonly noted = new Set<string>();
	private closed = false;

	constructor(private readonly options: RpcUIOptions) {
		this.context = this.createContext();
	}

	/** Dialogs waiting for an answer. */
	get waiting(): number {
		return this.pending.size;
	}

	/**
	 * An `extension_ui_response` from the client. Returns an error message when it cannot be
	 * used (unknown id, wrong fields); the dialog it meant, if any, keeps waiting.
	 */
	handleResponse(response: Record<string, unknown>): string | undefined {
		const id = response.id;
		if (typeof id !== "string") return `extension_ui_response needs "id": the id of the extension_ui_request it answers.`;
		const dialog = this.pending.get(id);
		if (!dialog) return `No extension UI request is waiting for an answer with id "${id}" (already answered, timed out, or never sent).`;
		return dialog.accept(response);
	}

	/** The client can no longer answer (end of input, shutdown): open and later dialogs get their defaults. */
	close(): void {
		this.closed = true;
		for (const dialog of [...this.pending.values()]) dialog.cancel();
	}

	private dialog<T>(method: string, fields: Record<string, unknown>, fallback: T, opts: DialogOptions | undefined, parse: (r: Record<string, unknown>) => Parsed<T>): Promise<T> {
		if (this.closed || opts?.signal?.aborted) return Promise.resolve(fallback);
		const id = crypto.randomUUID();
		return new Promise<T>((resolve) => {
			let timer: ReturnType<typeof setTimeout> | undefined;
			const finish = (value: T) => {
				clearTimeout(timer);
				opts?.signal?.removeEventListener("abort", onAbort);
				this.pending.delete(id);
				resolve(value);
			};
			const onAbort = () => finish(fallback);
			opts?.signal?.addEventListener("abort", onAbort, { once: true });
			if (opts?.timeout !== undefined && opts.timeout > 0) timer = setTimeout(onAbort, opts.timeout);
			this.pending.set(id, {
				accept: (response) => {
					if (response.cancelled === true) {
						finish(fallback);
						return undefined;
					}
					const parsed = parse(response);
					if (!parsed.ok) return `Invalid extension_ui_response for ${method} request "${id}": ${parsed.error}. The dialog is still waiting.`;
					finish(parsed.value);
					return undefined;
				},
				cancel: onAbort,
			});
			this.options.send({ type: "extension_ui_request", id, method, ...fields, ...(opts?.timeout !== undefined ? { timeout: opts.timeout } : {}) });
		});
	}

	private fireAndForget(method: string, fields: Record<string, unknown>): void {
		this.options.send({ type: "extension_ui_request", id: crypto.randomUUID(), method, ...fields });
	}

	/** Once per extension and method: what a remote client cannot show, and what happened instead. */
	private unavailable(method: string, outcome: string): void {
		const stack = new Error().stack ?? "";
		const caller = this.options.extensionPaths().find((p) => stack.includes(p));
		const key = `${caller ?? ""}\0${method}`;
		if (this.noted.has(key)) return;
		this.noted.add(key);
		this.options.note(`Note: ctx.ui.${method}() is not available in rpc mode; it ${outcome}${caller ? ` (${caller})` : ""}.`);
	}

	private createContext(): ExtensionUIContext {
		const ui = this;
		const setEditorText = (text: string) => ui.fireAndForget("set_editor_text", { text });
		return {
			select: (title, options, opts) =>
				ui.dialog<string | undefined>("select", { title, options }, undefined, opts, (r) =>
					typeof r.value === "string" && options.includes(r.value) ? { ok: true, value: r.value } : { ok: false, error: `expected "value": one of the options, or "cancelled": true` },
				),
			confirm: (title, message, opts) =>
				ui.dialog<boolean>("confirm", { title, message }, false, opts, (r) =>
					typeof r.confirmed === "boolean" ? { ok: true, value: r.confirmed } : { ok: false, error: `expected "confirmed": true or false, or "cancelled": true` },
				),
			input: (title, placeholder, opts) =>
				ui.dialog<string | undefined>("input", { title, ...(placeholder !== undefined ? { placeholder } : {}) }, undefined, opts, (r) =>
					typeof r.value === "string" ? { ok: true, value: r.value } : { ok: false, error: `expected "value": a string, or "cancelled": true` },
				),
			editor: (title, prefill) =>
				ui.dialog<string | undefined>("editor", { title, ...(prefill !== undefined ? { prefill } : {}) }, undefined, undefined, (r) =>
					typeof r.value === "string" ? { ok: true, value: r.value } : { ok: false, error: `expected "value": a string, or "cancelled": true` },
				),
			notify: (message, type) => ui.fireAndForget("notify", { message, ...(type ? { notifyType: type } : {}) }),
			setStatus: (key, text) => ui.fireAndForget("setStatus", { statusKey: key, statusText: text }),
			setWidget: (key, content, options?: { placement?: WidgetPlacement }) => {
				if (typeof content === "function") return ui.unavailable("setWidget", "shows only string arrays; a component factory is ignored");
				ui.fireAndForget("setWidget", { widgetKey: key, widgetLines: content, ...(options?.placement ? { widgetPlacement: options.placement } : {}) });
			},
			setTitle: (title) => ui.fireAndForget("setTitle", { title }),
			setEditorText,
			pasteToEditor: setEditorText,
			// The editor lives in the client; this side never knows its text.
			getEditorText: () => "",
			custom: async () => {
				ui.unavailable("custom", "resolved to undefined");
				return undefined as never;
			},
			onTerminalInput: () => {
				ui.unavailable("onTerminalInput", "never calls the handler");
				return () => {};
			},
			setWorkingMessage: () => ui.unavailable("setWorkingMessage", "does nothing"),
			setWorkingVisible: () => ui.unavailable("setWorkingVisible", "does nothing"),
			setWorkingIndicator: () => ui.unavailable("setWorkingIndicator", "does nothing"),
			setHiddenThinkingLabel: () => ui.unavailable("setHiddenThinkingLabel", "does nothing"),
			setFooter: () => ui.unavailable("setFooter", "does nothing"),
			setHeader: () => ui.unavailable("setHeader", "does nothing"),
			addAutocompleteProvider: () => ui.unavailable("addAutocompleteProvider", "does nothing"),
			setEditorComponent: () => ui.unavailable("setEditorComponent", "does nothing"),
			getEditorComponent: () => undefined,
			theme: plainTheme,
			getAllThemes: () => [],
			getTheme: () => undefined,
			setTheme: () => ({ success: false, error: "Theme switching is not available in rpc mode" }),
			getToolsExpanded: () => false,
			setToolsExpanded: () => ui.unavailable("setToolsExpanded", "does nothing"),
		};
	}
}
