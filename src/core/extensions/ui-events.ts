// ctx.ui as handlers get it: a dialog's `timeout` and `signal` resolve it to its default in every
// mode, and ui_prompt_start / ui_prompt_end surround each dialog a person is shown (SPEC §6, §7).
import type { DialogOptions, ExtensionUIContext } from "./types.ts";

type DialogMethod = "select" | "confirm" | "input" | "editor" | "custom";

export interface DialogEventSink {
	/** Whether dialogs reach a person; without one no prompt events fire. */
	hasUI(): boolean;
	/** pi 1.6's payload (`reason`, `kind`, `title`) plus our `method` (= kind) and, at the end, `cancelled`. */
	emit(event: "ui_prompt_start" | "ui_prompt_end", payload: { reason: "ui_prompt"; kind: DialogMethod; method: DialogMethod; title?: string; cancelled?: boolean }): Promise<void>;
}

/**
 * Resolve `ask()` unless the timeout or the signal comes first; then `fallback`, cancelled. The
 * mode's dialog gets a signal of its own that aborts at that moment, so it closes before the
 * handler goes on (a dialog left on screen would take the next keys).
 */
async function race<T>(ask: (options: DialogOptions | undefined) => Promise<T>, fallback: T, options: DialogOptions | undefined): Promise<{ value: T; cancelled: boolean }> {
	const { signal, timeout } = options ?? {};
	if (signal?.aborted) return { value: fallback, cancelled: true };
	if (!signal && !(timeout && timeout > 0)) {
		const value = await ask(options);
		return { value, cancelled: value === undefined };
	}
	let timer: ReturnType<typeof setTimeout> | undefined;
	let onAbort: (() => void) | undefined;
	const closing = new AbortController();
	const stop = new Promise<{ value: T; cancelled: boolean }>((resolve) => {
		const cancel = () => {
			closing.abort();
			resolve({ value: fallback, cancelled: true });
		};
		if (timeout && timeout > 0) timer = setTimeout(cancel, timeout);
		onAbort = cancel;
		signal?.addEventListener("abort", onAbort, { once: true });
	});
	try {
		return await Promise.race([ask({ ...options, signal: closing.signal }).then((value) => ({ value, cancelled: value === undefined })), stop]);
	} finally {
		clearTimeout(timer);
		if (onAbort) signal?.removeEventListener("abort", onAbort);
	}
}

/** Wrap a mode's UI; everything but the four dialogs passes straight through. */
export function withDialogEvents(ui: ExtensionUIContext, sink: DialogEventSink): ExtensionUIContext {
	const dialog = async <T>(method: DialogMethod, title: string | undefined, fallback: T, options: DialogOptions | undefined, ask: (options: DialogOptions | undefined) => Promise<T>): Promise<T> => {
		const shown = sink.hasUI();
		const base = { reason: "ui_prompt" as const, kind: method, method, ...(title !== undefined ? { title } : {}) };
		if (shown) await sink.emit("ui_prompt_start", base);
		const { value, cancelled } = await race(ask, fallback, options);
		if (shown) await sink.emit("ui_prompt_end", { ...base, cancelled });
		return value;
	};
	const dialogs: Partial<ExtensionUIContext> = {
		select: (title, options, opts) => dialog("select", title, undefined, opts, (o) => ui.select(title, options, o)),
		confirm: (title, message, opts) => dialog("confirm", title, false, opts, (o) => ui.confirm(title, message, o)),
		input: (title, placeholder, opts) => dialog("input", title, undefined, opts, (o) => ui.input(title, placeholder, o)),
		editor: (title, prefill) => dialog("editor", title, undefined, undefined, () => ui.editor(title, prefill)),
		custom: (factory, options) => dialog("custom", undefined, undefined, undefined, () => ui.custom(factory, options)) as never,
	};
	return new Proxy(ui, {
		get(target, prop) {
			if (typeof prop === "string" && prop in dialogs) return dialogs[prop as keyof typeof dialogs];
			const value = Reflect.get(target, prop, target);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
}
