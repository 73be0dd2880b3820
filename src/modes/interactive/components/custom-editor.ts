// pi-tui's Editor with the app's keys (pi 1.6's CustomEditor): extension shortcuts first, then the
// app actions (`app.*`), then text editing. Extensions subclass it for modal editors and call
// super.handleInput for keys they leave alone; the host copies its handlers onto theirs. With
// `embedWorkingStatus` the working indicator is drawn in its top border, as pi's editor does.
import { Editor } from "@earendil-works/pi-tui/dist/components/editor.js";
import { visibleWidth } from "@earendil-works/pi-tui/dist/utils.js";
import type { AutocompleteProvider, EditorOptions, EditorTheme, KeybindingsManager, TUI } from "@earendil-works/pi-tui";

/** What the editor's top border shows while the agent works (a spinner and its message). */
export interface BorderStatus {
	/** Spinner and message, at most `width` columns. */
	renderInBorder(width: number): string;
	/** The spinner alone, when the message does not fit. */
	renderSpinnerInBorder(width: number): string;
}

export type CustomEditorOptions = EditorOptions & {
	/** Draw the working status in the top border instead of on a line of its own. Default false. */
	embedWorkingStatus?: boolean;
};

/** What pi-tui's Editor keeps about completion (TypeScript-private there), read by setAutocompleteProvider. */
interface CompletionFields {
	autocompleteProvider?: AutocompleteProvider;
	autocompleteTriggerCharacters?: unknown;
}

/** Whether `wanted` holds only characters that `current` (the editor's trigger list) has already. */
function addsNoTrigger(current: unknown, wanted: readonly string[] = []): boolean {
	if (!Array.isArray(current)) return false;
	for (const character of wanted) if (!current.includes(character)) return false;
	return true;
}

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

	readonly embedWorkingStatus: boolean;
	private workingStatus: BorderStatus | undefined;

	constructor(tui: TUI, theme: EditorTheme, keybindings: KeybindingsManager, options?: CustomEditorOptions) {
		super(tui, theme, options);
		this.keybindings = keybindings;
		this.embedWorkingStatus = options?.embedWorkingStatus ?? false;
	}

	setWorkingStatusIndicator(indicator: BorderStatus | undefined): void {
		this.workingStatus = indicator;
	}

	/** `── ⠋ Working ─────` (with the `↑ 3 more` label when it fits), or the plain border. */
	protected override renderTopBorder(width: number, hiddenLineCount: number): string {
		const status = this.embedWorkingStatus ? this.workingStatus : undefined;
		if (!status || width <= 0) return super.renderTopBorder(width, hiddenLineCount);
		let text = status.renderInBorder(Math.max(1, width - 5));
		if (visibleWidth(text) === 0) return super.renderTopBorder(width, hiddenLineCount);
		const more = hiddenLineCount > 0 ? ` ↑ ${hiddenLineCount} more ` : "";
		const moreAt = Math.floor((width - visibleWidth(more)) / 2);
		const fitsWithMore = () => more !== "" && visibleWidth(more) + 2 <= width && moreAt - (4 + visibleWidth(text)) >= 1;
		if (more && !fitsWithMore()) text = status.renderSpinnerInBorder(width);
		const used = visibleWidth(text);
		if (fitsWithMore()) {
			const rest = width - moreAt - visibleWidth(more);
			return this.borderColor("── ") + text + this.borderColor(` ${"─".repeat(moreAt - 4 - used)}${more}${"─".repeat(rest)}`);
		}
		if (width >= used + 5) return this.borderColor("── ") + text + this.borderColor(` ${"─".repeat(width - used - 4)}`);
		const spinner = status.renderSpinnerInBorder(width);
		const lead = Math.min(3, Math.max(0, width - visibleWidth(spinner)));
		return this.borderColor("─".repeat(lead)) + spinner + this.borderColor("─".repeat(Math.max(0, width - lead - visibleWidth(spinner))));
	}

	/**
	 * An editor's first provider, when its trigger characters are among the editor's own ("@" and "#"
	 * to start with): only the provider is set. pi-tui's setter would cancel a completion that cannot
	 * have started (none starts without a provider) and build its two trigger patterns again, the same
	 * patterns, with `new RegExp` (~0.3 ms before the first frame). Any other provider goes to pi-tui.
	 */
	override setAutocompleteProvider(provider: AutocompleteProvider): void {
		const fields = this as unknown as CompletionFields;
		if ("autocompleteProvider" in fields && fields.autocompleteProvider === undefined && addsNoTrigger(fields.autocompleteTriggerCharacters, provider.triggerCharacters)) {
			fields.autocompleteProvider = provider;
			return;
		}
		super.setAutocompleteProvider(provider);
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
