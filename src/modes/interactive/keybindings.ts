// The app's key actions (pi 1.6's `app.*` ids, so extensions' `keybindings.matches(data,
// "app.tools.expand")` and `keyHint("app.interrupt", …)` work) on top of pi-tui's editor keys, and
// the hint helpers extensions import: keyText, keyHint, rawKeyHint.
import { getKeybindings, KeybindingsManager, setKeybindings, TUI_KEYBINDINGS } from "@earendil-works/pi-tui/dist/keybindings.js";
import type { KeybindingDefinitions } from "@earendil-works/pi-tui";
import { currentTheme } from "./theme/styles.ts";

export const APP_KEYBINDINGS = {
	"app.interrupt": { defaultKeys: "escape", description: "Stop the agent or a !command" },
	"app.clear": { defaultKeys: "ctrl+c", description: "Clear the input; twice to exit" },
	"app.exit": { defaultKeys: "ctrl+d", description: "Exit (on an empty input)" },
	"app.suspend": { defaultKeys: "ctrl+z", description: "Suspend to the background (fg resumes)" },
	"app.thinking.cycle": { defaultKeys: "shift+tab", description: "Next thinking level" },
	"app.model.cycleForward": { defaultKeys: "ctrl+p", description: "Next model in the --models scope" },
	"app.model.cycleBackward": { defaultKeys: "shift+ctrl+p", description: "Previous model in the --models scope" },
	"app.model.select": { defaultKeys: "ctrl+l", description: "Choose a model" },
	"app.tools.expand": { defaultKeys: "ctrl+o", description: "Expand or collapse tool output, thinking and the start-up list" },
	"app.thinking.toggle": { defaultKeys: "ctrl+t", description: "Show or hide thinking" },
	"app.editor.external": { defaultKeys: "ctrl+g", description: "Edit the input in $VISUAL / $EDITOR" },
	"app.message.followUp": { defaultKeys: "alt+enter", description: "Queue a follow-up while the agent works" },
	"app.message.dequeue": { defaultKeys: "alt+up", description: "Take queued messages back into the input" },
	"app.clipboard.pasteImage": { defaultKeys: [], description: "Paste an image from the clipboard" },
	"app.session.new": { defaultKeys: [], description: "Start a new session" },
	"app.session.tree": { defaultKeys: [], description: "Open the session tree" },
	"app.session.fork": { defaultKeys: [], description: "Fork the session" },
	"app.session.resume": { defaultKeys: [], description: "Resume a session" },
} as const satisfies KeybindingDefinitions;

export type AppAction = keyof typeof APP_KEYBINDINGS;

/** Keybindings for this run (pi-tui's editor keys and ours); pi-tui components read them too. */
export function createKeybindings(): KeybindingsManager {
	const manager = new KeybindingsManager({ ...TUI_KEYBINDINGS, ...APP_KEYBINDINGS });
	setKeybindings(manager);
	return manager;
}

/** The keys bound to an action, as a person types them (`ctrl+o`, `escape/ctrl+c`). */
export function keyText(keybinding: string): string {
	const keys = getKeybindings().getKeys(keybinding as never);
	// Outside the TUI (an extension in print mode) the app's actions still have their default keys.
	const fallback = (APP_KEYBINDINGS as Record<string, { defaultKeys: string | readonly string[] }>)[keybinding]?.defaultKeys ?? [];
	return (keys.length > 0 ? keys : typeof fallback === "string" ? [fallback] : [...fallback]).join("/");
}

/** `ctrl+o to expand` with the key dim and the words muted. */
export function keyHint(keybinding: string, description: string): string {
	return rawKeyHint(keyText(keybinding), description);
}

export function rawKeyHint(key: string, description: string): string {
	const theme = currentTheme();
	return `${theme.fg("dim", key)}${theme.fg("muted", ` ${description}`)}`;
}
