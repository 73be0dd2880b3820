// pi-tui's Editor with the app's keys (pi 1.6's CustomEditor): extension shortcuts first, then the
// app actions (`app.*`), then text editing. Extensions subclass it for modal editors and call
// super.handleInput for keys they leave alone; the host copies its handlers onto theirs.
import { Editor, type EditorOptions, type EditorTheme, type KeybindingsManager, type TUI } from "@earendil-works/pi-tui";

export class CustomEditor extends Editor {
	protected readonly keybindings: KeybindingsManager;
	/** App action id → what it does; the host fills it (and copies it onto a replacement editor). */
	actionHandlers = new Map<string, () => void>();
	/** Escape while no completion menu is open (stop the agent, close something). */
	onEscape?: () => void;
	/** ctrl+d on an empty input. */
	onCtrlD?: () => void;
	onPasteImage?: () => void;
	/** Extension shortcuts: true when one took the key. */
	onExtensionShortcut?: (data: string) => boolean;

	constructor(tui: TUI, theme: EditorTheme, keybindings: KeybindingsManager, options?: EditorOptions) {
		super(tui, theme, options);
		this.keybindings = keybindings;
	}

	/** Register what an app action does. */
	onAction(action: string, handler: () => void): void {
		this.actionHandlers.set(action, handler);
	}

	override handleInput(data: string): void {
		if (this.onExtensionShortcut?.(data)) return;
		const kb = this.keybindings;
		const menuOpen = this.isShowingAutocomplete();
		// An open menu pages with its own keys before any app action sees them.
		if (menuOpen && (kb.matches(data, "tui.select.pageUp") || kb.matches(data, "tui.select.pageDown"))) return super.handleInput(data);
		if (kb.matches(data, "app.clipboard.pasteImage" as never) && this.onPasteImage) return this.onPasteImage();
		if (kb.matches(data, "app.interrupt" as never)) {
			const handler = this.onEscape ?? this.actionHandlers.get("app.interrupt");
			// Escape closes the menu first; the handler runs when there is no menu.
			if (!menuOpen && handler) return handler();
			return super.handleInput(data);
		}
		if (kb.matches(data, "app.exit" as never) && this.getText().length === 0) {
			(this.onCtrlD ?? this.actionHandlers.get("app.exit"))?.();
			return;
		}
		// Explicit history keys win over app actions bound to the same key.
		if (kb.matches(data, "tui.editor.historyPrevious") || kb.matches(data, "tui.editor.historyNext")) return super.handleInput(data);
		for (const [action, handler] of this.actionHandlers) {
			if (action === "app.interrupt" || action === "app.exit") continue;
			if (kb.matches(data, action as never)) return handler();
		}
		super.handleInput(data);
	}
}
