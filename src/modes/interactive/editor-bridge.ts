// The input editor: ours (a CustomEditor) or one an extension sets, wired the same way either way:
// Enter submits (steers while the agent works), history, completion, the app's key actions and the
// extensions' shortcuts. setEditorComponent swaps the component and keeps all of that.
import { matchesKey } from "@earendil-works/pi-tui/dist/keys.js";
import type { AutocompleteProvider, Component, EditorComponent, KeybindingsManager, KeyId, TUI } from "@earendil-works/pi-tui";
import type { Extension, ExtensionShortcut } from "../../core/extensions/types.ts";
import { CustomEditor } from "./components/custom-editor.ts";
import type { EditorSlot } from "./layout.ts";
import { resolveShortcuts } from "./shortcuts.ts";
import { getEditorTheme } from "./theme/styles.ts";

export type EditorFactory = (tui: TUI, theme: ReturnType<typeof getEditorTheme>, keybindings: KeybindingsManager) => EditorComponent;

export interface EditorBridgeOptions {
	tui: TUI;
	keybindings: KeybindingsManager;
	slot: () => EditorSlot;
	/** Enter (or Alt+Enter: `followUp`). */
	submit(text: string, followUp: boolean): void;
	/** App action id → what it does. */
	actions: Record<string, () => void>;
	/** The extensions of the moment (their shortcuts). */
	extensions(): readonly Extension[];
	/** Run an extension's shortcut handler. */
	runShortcut(shortcut: ExtensionShortcut): void;
	/** The editor component was swapped. */
	editorChanged?(): void;
}

/** What a CustomEditor subclass carries that we copy onto it (duck-typed: extensions' copies differ). */
interface AppKeys {
	actionHandlers?: Map<string, () => void>;
	onEscape?: () => void;
	onCtrlD?: () => void;
	onExtensionShortcut?: (data: string) => boolean;
}

export class EditorBridge {
	readonly defaultEditor: CustomEditor;
	private active: EditorComponent;
	private factory: EditorFactory | undefined;
	private provider: AutocompleteProvider | undefined;
	private shortcuts: { extensions: readonly Extension[]; byKey: Map<string, ExtensionShortcut> } | undefined;
	private followUpNext = false;

	constructor(private readonly options: EditorBridgeOptions) {
		const editor = new CustomEditor(options.tui, getEditorTheme(), options.keybindings, { embedWorkingStatus: true });
		for (const [action, handler] of Object.entries(options.actions)) editor.onAction(action, handler);
		editor.onAction("app.message.followUp", () => {
			// Alt+Enter: the text as it stands goes out as a follow-up.
			this.followUpNext = true;
			this.submitCurrent();
		});
		editor.onEscape = options.actions["app.interrupt"];
		editor.onCtrlD = options.actions["app.exit"];
		editor.onExtensionShortcut = (data) => this.shortcut(data);
		this.wire(editor);
		this.defaultEditor = editor;
		this.active = editor;
	}

	/** The editor that has the text now. */
	get editor(): EditorComponent {
		return this.active;
	}

	getText(): string {
		return this.active.getExpandedText?.() ?? this.active.getText();
	}

	setText(text: string): void {
		this.active.setText(text);
		this.options.tui.requestRender();
	}

	/** Insert as a paste: a long text becomes a `[paste #1 +40 lines]` marker (ours only). */
	paste(text: string): void {
		this.active.handleInput(`\x1b[200~${text}\x1b[201~`);
		this.options.tui.requestRender();
	}

	/** A prompt for ↑ to bring back (the history of whichever editor is in use). */
	addToHistory(text: string): void {
		if (text.trim()) this.active.addToHistory?.(text);
	}

	setAutocompleteProvider(provider: AutocompleteProvider): void {
		this.provider = provider;
		this.active.setAutocompleteProvider?.(provider);
	}

	get autocompleteProvider(): AutocompleteProvider | undefined {
		return this.provider;
	}

	getFactory(): EditorFactory | undefined {
		return this.factory;
	}

	/** setEditorComponent: an extension's editor (or ours back, with undefined) keeps text, keys and completion. */
	setFactory(factory: EditorFactory | undefined): void {
		const text = this.getText();
		this.factory = factory;
		let next: EditorComponent = this.defaultEditor;
		if (factory) {
			next = factory(this.options.tui, getEditorTheme(), this.options.keybindings);
			this.wire(next);
			const keys = next as EditorComponent & AppKeys;
			const ours = this.defaultEditor;
			if (keys.actionHandlers instanceof Map) {
				keys.onEscape ??= () => ours.onEscape?.();
				keys.onCtrlD ??= () => ours.onCtrlD?.();
				keys.onExtensionShortcut ??= (data) => ours.onExtensionShortcut?.(data) ?? false;
				for (const [action, handler] of ours.actionHandlers) keys.actionHandlers.set(action, handler);
			}
			if (next.borderColor !== undefined) next.borderColor = ours.borderColor;
			next.setPaddingX?.(ours.getPaddingX());
		}
		next.setText(text);
		this.active = next;
		this.options.slot().setEditor(next as Component);
		this.options.editorChanged?.();
	}

	private wire(editor: EditorComponent): void {
		editor.onSubmit = (text) => this.submitted(text);
		if (this.provider) editor.setAutocompleteProvider?.(this.provider);
	}

	private submitted(text: string): void {
		const followUp = this.followUpNext;
		this.followUpNext = false;
		if (text.trim()) this.active.addToHistory?.(text);
		this.options.submit(text, followUp);
	}

	/** Take the text out of the editor and submit it (Alt+Enter). */
	private submitCurrent(): void {
		const text = this.getText();
		this.active.setText("");
		this.submitted(text.trim());
	}

	/** Extension shortcuts: the first whose key matches runs; reserved keys were refused at load. */
	private shortcut(data: string): boolean {
		const extensions = this.options.extensions();
		if (this.shortcuts?.extensions !== extensions) this.shortcuts = { extensions, byKey: resolveShortcuts([...extensions]).byKey };
		for (const [key, shortcut] of this.shortcuts.byKey) {
			if (!matchesKey(data, key as KeyId)) continue;
			this.options.runShortcut(shortcut);
			return true;
		}
		return false;
	}
}
