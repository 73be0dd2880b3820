// What ctx.ui's factories and renderers receive, typed as pi 1.6 declares them: pi-tui's component
// contract (type-only: nothing here loads the TUI), the theme, the footer's data and the editor and
// autocomplete factories. The TUI's own classes implement these (src/modes/interactive).
import type { AutocompleteProvider, Component, EditorComponent, EditorTheme, KeybindingsManager, OverlayHandle, OverlayOptions, TUI } from "@earendil-works/pi-tui";

export type { AutocompleteProvider, Component, EditorComponent, EditorTheme, KeybindingsManager, OverlayHandle, OverlayOptions, TUI };

/** A component a factory returns; `dispose` runs when it goes away. */
export type DisposableComponent = Component & { dispose?(): void };

/** What `theme.style()` applies: a token for each slot, and text attributes. */
export interface ThemeStyle {
	fg?: string;
	bg?: string;
	bold?: boolean;
	dim?: boolean;
	italic?: boolean;
	underline?: boolean;
	inverse?: boolean;
	strikethrough?: boolean;
}

/** The colour theme (pi 1.6's Theme): tokens such as "accent", "muted", "toolTitle", "customMessageBg". */
export interface Theme {
	readonly name?: string;
	readonly sourcePath?: string;
	readonly appearance?: "dark" | "light";
	fg(color: string, text: string): string;
	bg(color: string, text: string): string;
	style(text: string, style: ThemeStyle): string;
	bold(text: string): string;
	dim(text: string): string;
	italic(text: string): string;
	underline(text: string): string;
	inverse(text: string): string;
	strikethrough(text: string): string;
	/** The opening escape of a token ("" for the terminal's default or NO_COLOR). */
	getFgAnsi(color: string): string;
	getBgAnsi(color: string): string;
	getColorMode(): string;
	getThinkingBorderColor(level: string): (text: string) => string;
	getBashModeBorderColor(): (text: string) => string;
}

/** What a custom footer gets beyond ctx: the git branch and the statuses extensions set. */
export interface ReadonlyFooterDataProvider {
	/** The branch, null outside a repository, "detached" for a detached HEAD. */
	getGitBranch(): string | null;
	getExtensionStatuses(): ReadonlyMap<string, string>;
	getAvailableProviderCount(): number;
	/** Called when the branch changes; returns the unsubscribe function. */
	onBranchChange(callback: () => void): () => void;
}

export interface ExtensionUIDialogOptions {
	/** Dismisses the dialog (it answers its default). */
	signal?: AbortSignal;
	/** Milliseconds; the title counts down and the dialog then answers its default. */
	timeout?: number;
}

export type WidgetPlacement = "aboveEditor" | "belowEditor";

export interface ExtensionWidgetOptions {
	/** Default "aboveEditor". */
	placement?: WidgetPlacement;
}

/** Sees raw terminal input first: `{ consume: true }` takes it, `{ data }` replaces it. */
export type TerminalInputHandler = (data: string) => { consume?: boolean; data?: string } | undefined;

export interface WorkingIndicatorOptions {
	/** `[]` hides the indicator; one frame is static. Drawn as given (add your own colours). */
	frames?: string[];
	intervalMs?: number;
}

/** Wraps the editor's autocomplete provider with more behaviour. */
export type AutocompleteProviderFactory = (current: AutocompleteProvider) => AutocompleteProvider;

/** Makes the editor that replaces ours (extend CustomEditor to keep the app's keys). */
export type EditorFactory = (tui: TUI, theme: EditorTheme, keybindings: KeybindingsManager) => EditorComponent;

/** custom()'s options. */
export interface CustomUIOptions {
	overlay?: boolean;
	/** Position and size of the overlay; a function is asked when the overlay is shown. */
	overlayOptions?: OverlayOptions | (() => OverlayOptions);
	/** Gets the overlay's handle once it is shown (setHidden, hide). */
	onHandle?: (handle: OverlayHandle) => void;
	/** pi reports this as the terminal's program status (OSC 7501) while the component waits; accepted here, not reported. */
	blocked?: { kind: "permission" | "question" | "auth"; message: string };
}
