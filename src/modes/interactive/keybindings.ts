// The app's key actions (pi 1.6's `app.*` ids, so extensions' `keybindings.matches(data,
// "app.tools.expand")` and `keyHint("app.interrupt", …)` work) on top of pi-tui's editor keys, and
// the hint helpers extensions import: keyText, keyHint, rawKeyHint.
import { getKeybindings, KeybindingsManager, setKeybindings, TUI_KEYBINDINGS } from "@earendil-works/pi-tui/dist/keybindings.js";
import type { KeybindingDefinitions } from "@earendil-works/pi-tui";
import { join } from "node:path";
import { getAgentDir, tildify } from "../../config.ts";
import { readJsonFile } from "../../core/file-reader.ts";
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
	"app.message.copy": { defaultKeys: "ctrl+x", description: "Copy the last answer to the clipboard (/copy)" },
	"app.clipboard.pasteImage": { defaultKeys: process.platform === "win32" ? "alt+v" : "ctrl+v", description: "Paste an image (as a file path) or text from the clipboard" },
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

const MODIFIERS = new Set(["ctrl", "shift", "alt", "super"]);
const NAMED_KEYS = new Set(["escape", "esc", "enter", "return", "tab", "space", "backspace", "delete", "insert", "clear", "home", "end", "pageup", "pagedown", "up", "down", "left", "right"]);
const SYMBOL_KEYS = new Set([..."`-=[]\\;',./!@#$%^&*()_+|~{}:<>?"]);

/** Whether `key` is written as pi's keybindings.json wants (`ctrl+shift+x`, `alt+up`, `f5`, `ctrl+]`). */
function isKeyName(key: string): boolean {
	const parts = key.toLowerCase().split("+");
	// "ctrl++" ends with an empty part: the key is "+".
	const base = key.endsWith("++") ? "+" : parts.pop()!;
	const modifiers = key.endsWith("++") ? parts.slice(0, -2) : parts;
	if (new Set(modifiers).size !== modifiers.length || !modifiers.every((m) => MODIFIERS.has(m))) return false;
	return /^[a-z0-9]$/.test(base) || /^f([1-9]|1[0-2])$/.test(base) || NAMED_KEYS.has(base) || SYMBOL_KEYS.has(base);
}

/** Back to the default keys; a manager already on them (a start with no file) is not built again. */
function useDefaultKeys(manager: KeybindingsManager): void {
	if (Object.keys(manager.getUserBindings()).length > 0) manager.setUserBindings({});
}

/**
 * `~/.agent/keybindings.json` (pi's format: an action id → a key or a list of keys; `[]` unbinds),
 * applied over the defaults. Whatever in it is wrong comes back as a warning naming the file and the
 * entry; the rest applies. No file means the defaults.
 */
export function applyUserKeybindings(manager: KeybindingsManager): string[] {
	const path = join(getAgentDir(), "keybindings.json");
	let value: unknown;
	try {
		value = readJsonFile(path)?.value;
	} catch (error) {
		useDefaultKeys(manager);
		return [`Keybindings file ${(error as Error).message}. The default keys are used.`];
	}
	if (value === undefined) {
		useDefaultKeys(manager);
		return [];
	}
	const file = tildify(path);
	if (typeof value !== "object" || value === null || Array.isArray(value)) {
		useDefaultKeys(manager);
		return [`${file}: expected an object of action ids to keys, such as { "app.session.new": "ctrl+shift+n" }. The default keys are used.`];
	}
	const warnings: string[] = [];
	const bindings: Record<string, string[]> = {};
	for (const [id, keys] of Object.entries(value)) {
		if (id === "$schema") continue;
		if (manager.getDefinition(id as never) === undefined) {
			warnings.push(`${file}: "${id}" is not an action; /hotkeys lists them.`);
			continue;
		}
		const list = typeof keys === "string" ? [keys] : Array.isArray(keys) ? keys : undefined;
		if (!list || !list.every((k): k is string => typeof k === "string")) {
			warnings.push(`${file}: "${id}" must be a key or a list of keys, such as "ctrl+shift+n".`);
			continue;
		}
		const bad = list.filter((k) => !isKeyName(k));
		if (bad.length > 0) {
			warnings.push(`${file}: "${id}": ${bad.map((k) => `"${k}"`).join(", ")} is not a key (write it as ctrl+shift+x, alt+up, f5, …).`);
			continue;
		}
		bindings[id] = list;
	}
	manager.setUserBindings(bindings as never);
	for (const conflict of manager.getConflicts()) warnings.push(`${file}: ${conflict.key} is bound to ${conflict.keybindings.join(" and ")}; the first that applies wins.`);
	return warnings;
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
