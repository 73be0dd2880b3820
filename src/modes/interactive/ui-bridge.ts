// ctx.ui in the TUI (SPEC §7): every member of pi 1.6's ExtensionUIContext mapped onto the app's
// components — dialogs in the editor's place, notices in the transcript, status in the footer,
// widgets around the editor, header/footer/editor factories, custom() inline or as an overlay.
import { Text } from "@earendil-works/pi-tui/dist/components/text.js";
import type { Component, OverlayHandle, OverlayOptions, TUI } from "@earendil-works/pi-tui";
import type { ExtensionUIContext, Theme as ThemeShape } from "../../core/extensions/types.ts";
import type { InteractiveApp } from "./app.ts";
import type { EditorFactory } from "./editor-bridge.ts";
import { Layout } from "./layout.ts";
import { currentTheme } from "./theme/styles.ts";
import { Theme } from "./theme/theme.ts";
import { saveThemeSetting } from "./theme/themes.ts";

type Disposable = Component & { dispose?(): void };
type WidgetFactory = (tui: TUI, theme: Theme) => Disposable;
type Placement = "aboveEditor" | "belowEditor";

interface Widget {
	component: Disposable;
	placement: Placement;
}

function dispose(component: Disposable | undefined): void {
	try {
		component?.dispose?.();
	} catch {
		// A component that fails to clean up is still removed.
	}
}

/** The extension UI state of the moment; a reload or a new session starts it afresh. */
export class UiBridge {
	private readonly widgets = new Map<string, Widget>();
	private customHeader: Disposable | undefined;
	private customFooter: Disposable | undefined;
	private readonly inputListeners = new Set<() => void>();
	/** Open custom() components: closed (resolving undefined) when the extensions go away. */
	private readonly customs = new Set<() => void>();

	constructor(private readonly app: InteractiveApp) {}

	private render(): void {
		this.app.tui.requestRender();
	}

	private layoutWidgets(): void {
		const { widgetsAbove, widgetsBelow } = this.app.layout;
		widgetsAbove.clear();
		widgetsBelow.clear();
		for (const widget of this.widgets.values()) (widget.placement === "belowEditor" ? widgetsBelow : widgetsAbove).addChild(widget.component);
		this.render();
	}

	setWidget(key: string, content: string[] | WidgetFactory | undefined, placement: Placement = "aboveEditor"): void {
		dispose(this.widgets.get(key)?.component);
		this.widgets.delete(key);
		if (Array.isArray(content)) this.widgets.set(key, { component: new Text(content.map(String).join("\n"), 1, 0), placement });
		else if (typeof content === "function") this.widgets.set(key, { component: content(this.app.tui, currentTheme()), placement });
		this.layoutWidgets();
	}

	setHeader(factory: ((tui: TUI, theme: Theme) => Disposable) | undefined): void {
		dispose(this.customHeader);
		this.customHeader = factory ? factory(this.app.tui, currentTheme()) : undefined;
		Layout.fill(this.app.layout.header, this.customHeader ?? this.app.header);
		this.render();
	}

	setFooter(factory: ((tui: TUI, theme: Theme, data: unknown) => Disposable) | undefined): void {
		dispose(this.customFooter);
		this.customFooter = factory ? factory(this.app.tui, currentTheme(), this.app.footerData) : undefined;
		Layout.fill(this.app.layout.footer, this.customFooter ?? this.app.footer);
		this.render();
	}

	onTerminalInput(handler: (data: string) => unknown): () => void {
		const remove = this.app.tui.addInputListener((data) => {
			const answer = handler(data) as boolean | { consume?: boolean; data?: string } | undefined;
			if (answer === true) return { consume: true };
			return answer && typeof answer === "object" ? answer : undefined;
		});
		this.inputListeners.add(remove);
		return () => {
			remove();
			this.inputListeners.delete(remove);
		};
	}

	custom<T>(factory: (tui: TUI, theme: Theme, keybindings: unknown, done: (result: T) => void) => Disposable | Promise<Disposable>, options: { overlay?: boolean; overlayOptions?: OverlayOptions | (() => OverlayOptions); onHandle?: (handle: OverlayHandle) => void } = {}): Promise<T | undefined> {
		const app = this.app;
		const savedText = app.editor.getText();
		return new Promise<T | undefined>((resolve, reject) => {
			let component: Disposable | undefined;
			let handle: OverlayHandle | undefined;
			let closeSlot: (() => void) | undefined;
			let closed = false;
			const close = (result: T | undefined) => {
				if (closed) return;
				closed = true;
				this.customs.delete(cancel);
				if (handle) handle.hide();
				else {
					closeSlot?.();
					app.editor.setText(savedText);
				}
				dispose(component);
				this.render();
				resolve(result);
			};
			const cancel = () => close(undefined);
			this.customs.add(cancel);
			Promise.resolve(factory(app.tui, currentTheme(), app.keybindings, (result) => close(result)))
				.then((made) => {
					if (closed) return dispose(made);
					component = made;
					if (options.overlay) {
						const resolveOptions = () => (typeof options.overlayOptions === "function" ? options.overlayOptions() : options.overlayOptions) ?? ((made as { width?: number }).width ? { width: (made as { width?: number }).width } : undefined);
						handle = app.tui.showOverlay(made, resolveOptions());
						options.onHandle?.(handle);
					} else closeSlot = app.open(made);
					this.render();
				})
				.catch((error) => {
					if (closed) return;
					closed = true;
					this.customs.delete(cancel);
					reject(error);
				});
		});
	}

	/** The extensions went away (reload, new session): their widgets, header, footer and listeners too. */
	reset(): void {
		for (const widget of this.widgets.values()) dispose(widget.component);
		this.widgets.clear();
		this.layoutWidgets();
		if (this.customHeader) this.setHeader(undefined);
		if (this.customFooter) this.setFooter(undefined);
		for (const remove of this.inputListeners) remove();
		this.inputListeners.clear();
		for (const cancel of [...this.customs]) cancel();
		this.app.footerData.statuses.clear();
		this.app.working.reset();
		this.app.hiddenThinkingLabel = undefined;
		if (this.app.editor.getFactory()) this.app.editor.setFactory(undefined);
		this.app.refreshFooter();
	}
}

export function createUiContext(app: InteractiveApp, bridge: UiBridge): ExtensionUIContext {
	const ui = {
		// The dialogs' code loads with the first one an extension opens.
		select: async (title: string, options: string[], opts?: { timeout?: number; signal?: AbortSignal }) => (await import("./dialogs.ts")).selectDialog(app, title, options, opts),
		confirm: async (title: string, message: string, opts?: { timeout?: number; signal?: AbortSignal }) => (await import("./dialogs.ts")).confirmDialog(app, title, message, opts),
		input: async (title: string, placeholder?: string, opts?: { timeout?: number; signal?: AbortSignal }) => (await import("./dialogs.ts")).inputDialog(app, title, placeholder, opts),
		editor: async (title: string, prefill?: string) => (await import("./dialogs.ts")).editorDialog(app, title, prefill),
		notify(message: string, type: "info" | "warning" | "error" = "info") {
			if (type === "warning" || type === "error") app.conversation.notice(String(message), type);
			else app.conversation.status(String(message));
		},
		onTerminalInput: (handler: (data: string) => unknown) => bridge.onTerminalInput(handler),
		setStatus(key: string, text: string | undefined) {
			if (text === undefined) app.footerData.statuses.delete(key);
			else app.footerData.statuses.set(key, String(text));
			app.footer.invalidate();
			app.tui.requestRender();
		},
		setWorkingMessage: (message?: string) => app.working.setMessage(message),
		setWorkingVisible: (visible: boolean) => app.working.setVisible(visible),
		setWorkingIndicator: (options?: { frames?: string[]; intervalMs?: number }) => app.working.setIndicator(options),
		setHiddenThinkingLabel(label?: string) {
			app.hiddenThinkingLabel = label;
			app.conversation.transcript.invalidate();
			app.tui.requestRender();
		},
		setWidget: (key: string, content: unknown, options?: { placement?: Placement }) => bridge.setWidget(key, content as never, options?.placement),
		setFooter: (factory: unknown) => bridge.setFooter(factory as never),
		setHeader: (factory: unknown) => bridge.setHeader(factory as never),
		setTitle: (title: string) => app.tui.terminal.setTitle(title),
		custom: (factory: unknown, options?: unknown) => bridge.custom(factory as never, options as never),
		pasteToEditor: (text: string) => app.editor.paste(text),
		setEditorText: (text: string) => app.editor.setText(text),
		getEditorText: () => app.editor.getText(),
		addAutocompleteProvider(factory: (current: unknown) => unknown) {
			const next = factory(app.editor.autocompleteProvider);
			if (next) app.editor.setAutocompleteProvider(next as never);
		},
		setEditorComponent: (factory: unknown) => app.editor.setFactory(factory as EditorFactory | undefined),
		getEditorComponent: () => app.editor.getFactory(),
		get theme(): ThemeShape {
			return currentTheme();
		},
		getAllThemes: () => app.themes.getAllThemes(),
		getTheme: (name: string): ThemeShape | undefined => app.themes.getTheme(name),
		setTheme: (theme: string | ThemeShape) => {
			const result = app.themes.setTheme(theme as string | Theme);
			// A theme chosen by name is remembered, as pi does; a Theme object is for this run.
			if (result.success && typeof theme === "string") saveThemeSetting(theme).catch((error: Error) => app.warn(error.message));
			return result;
		},
		getToolsExpanded: () => app.expanded,
		setToolsExpanded: (expanded: boolean) => app.setExpanded(expanded),
	};
	return ui as unknown as ExtensionUIContext;
}
