// Which key does what (reference §4.4): the app's own keys, and the shortcuts extensions register.
// A reserved key is refused; an editing key may be taken over; two extensions on one key: the later wins.
import type { Extension, ExtensionShortcut } from "../../core/extensions/types.ts";

const ALIASES: Record<string, string> = { esc: "escape", return: "enter", pageup: "pageUp", pagedown: "pageDown", del: "delete" };

/** A KeyId as an extension wrote it (`Ctrl+Alt+P`, `alt+ctrl+p`, `esc`) in one form: `ctrl+alt+p`. */
export function normalizeKeyId(id: string): string {
	const parts = id.split("+").map((p) => p.trim());
	const raw = parts.pop() ?? "";
	const lower = raw.toLowerCase();
	const name = ALIASES[lower] ?? lower;
	const mods = new Set(parts.map((p) => p.toLowerCase()));
	return [mods.has("ctrl") && "ctrl", mods.has("shift") && "shift", mods.has("alt") && "alt", mods.has("super") && "super", name].filter(Boolean).join("+");
}

/** Keys the app will not give up, by action. */
export const RESERVED_KEYS: Record<string, string> = {
	escape: "app.interrupt",
	"ctrl+c": "app.clear",
	"ctrl+d": "app.exit",
	"ctrl+z": "app.suspend",
	"ctrl+o": "app.tools.expand",
	"shift+tab": "app.thinking.cycle",
	"ctrl+l": "app.model.select",
	"ctrl+g": "app.editor.external",
	"alt+enter": "app.message.followUp",
	enter: "tui.input.submit",
	tab: "tui.input.complete",
};

/** Editing keys an extension may take over (with a warning). */
export const EDITING_KEYS: Record<string, string> = {
	"ctrl+a": "tui.editor.cursorLineStart",
	"ctrl+e": "tui.editor.cursorLineEnd",
	"ctrl+b": "tui.editor.cursorLeft",
	"ctrl+f": "tui.editor.cursorRight",
	"ctrl+u": "tui.editor.deleteToLineStart",
	"ctrl+k": "tui.editor.deleteToLineEnd",
	"ctrl+w": "tui.editor.deleteWordBackward",
	"ctrl+j": "tui.editor.newLine",
	"alt+b": "tui.editor.cursorWordLeft",
	"alt+f": "tui.editor.cursorWordRight",
	"alt+d": "tui.editor.deleteWordForward",
	"alt+backspace": "tui.editor.deleteWordBackward",
	up: "tui.editor.cursorUp",
	down: "tui.editor.cursorDown",
	left: "tui.editor.cursorLeft",
	right: "tui.editor.cursorRight",
	home: "tui.editor.cursorLineStart",
	end: "tui.editor.cursorLineEnd",
	backspace: "tui.editor.deleteCharBackward",
	delete: "tui.editor.deleteCharForward",
};

export interface ShortcutIssue {
	path: string;
	message: string;
}

export interface ResolvedShortcuts {
	/** Normalised key id → the shortcut that fires on it. */
	byKey: Map<string, ExtensionShortcut>;
	issues: ShortcutIssue[];
}

export function resolveShortcuts(extensions: Extension[]): ResolvedShortcuts {
	const byKey = new Map<string, ExtensionShortcut>();
	const issues: ShortcutIssue[] = [];
	for (const ext of extensions) {
		for (const shortcut of ext.shortcuts.values()) {
			const key = normalizeKeyId(shortcut.shortcut);
			if (RESERVED_KEYS[key]) {
				issues.push({ path: ext.path, message: `Extension shortcut '${shortcut.shortcut}' from ${ext.path} conflicts with built-in shortcut. Skipping.` });
				continue;
			}
			const earlier = byKey.get(key);
			if (earlier) {
				issues.push({ path: ext.path, message: `Extension shortcut conflict: '${shortcut.shortcut}' registered by both ${earlier.extensionPath} and ${ext.path}. Using ${ext.path}.` });
			} else if (EDITING_KEYS[key]) {
				issues.push({ path: ext.path, message: `Extension shortcut conflict: '${shortcut.shortcut}' is built-in shortcut for ${EDITING_KEYS[key]} and ${ext.path}. Using ${ext.path}.` });
			}
			byKey.set(key, shortcut);
		}
	}
	return { byKey, issues };
}
