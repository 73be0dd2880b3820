// What each key does in the REPL: raw input goes to onTerminalInput handlers first, then extension
// shortcuts (reserved keys excepted), then the REPL's own keys, then the line editor.
import { THINKING_LEVELS } from "../../core/providers/types.ts";
import type { Extension } from "../../core/extensions/types.ts";
import { builtinCommand } from "./commands.ts";
import { decodeKeys, keyId, type KeyPress } from "./keys.ts";
import type { Repl } from "./repl.ts";
import { resolveShortcuts, type ResolvedShortcuts } from "./shortcuts.ts";

/** A second ctrl+c within this many ms of the first (on an empty input) exits. */
const DOUBLE_PRESS_MS = 2000;

export class Keymap {
	private lastCtrlC = 0;
	private shortcuts: { extensions: Extension[]; resolved: ResolvedShortcuts } | undefined;

	constructor(private readonly repl: Repl) {}

	/** Raw bytes from the terminal. */
	handle(data: string): void {
		for (const handler of [...this.repl.inputHandlers]) {
			try {
				if (handler(data) === true) return;
			} catch (error) {
				this.repl.errorOf(error);
			}
		}
		for (const key of decodeKeys(data)) this.key(key);
		this.repl.redraw();
	}

	private shortcutFor(id: string) {
		const extensions = this.repl.extensions();
		if (this.shortcuts?.extensions !== extensions) this.shortcuts = { extensions, resolved: resolveShortcuts(extensions) };
		return this.shortcuts.resolved.byKey.get(id);
	}

	private key(k: KeyPress): void {
		const repl = this.repl;
		const id = keyId(k);
		const hint = repl.hint;
		repl.hint = undefined;
		const shortcut = id ? this.shortcutFor(id) : undefined;
		if (shortcut && repl.host) {
			const ctx = repl.host.createContext();
			void repl.guard(async () => {
				try {
					await shortcut.handler(ctx);
				} catch (error) {
					repl.error(`Shortcut handler error: ${error instanceof Error ? error.message : String(error)}`);
				}
			});
			return;
		}
		switch (id) {
			case "escape":
				repl.interrupt();
				return;
			case "ctrl+c":
				if (repl.editor.text) {
					repl.editor.setText("");
					repl.completion.close();
				} else if (hint && Date.now() - this.lastCtrlC < DOUBLE_PRESS_MS) {
					void repl.exit(0);
				} else {
					this.lastCtrlC = Date.now();
					repl.hint = "Press ctrl+c again to exit";
				}
				return;
			case "ctrl+d":
				if (!repl.editor.text) void repl.exit(0);
				else this.edit(k);
				return;
			case "ctrl+o":
				repl.toggleExpanded();
				return;
			case "enter":
				repl.enter(false);
				return;
			case "alt+enter":
				repl.enter(true);
				return;
			case "tab":
				this.complete();
				return;
			case "shift+tab":
				this.cycleThinking();
				return;
			case "ctrl+l":
				void repl.guard(() => builtinCommand("model")!.run(repl, ""));
				return;
			case "ctrl+g":
				void repl.guard(async () => {
					const text = await repl.dialogs.editor("Edit the message", repl.editor.text);
					if (text !== undefined) repl.editor.setText(text);
				});
				return;
			case "up":
			case "down":
				if (repl.completion.isOpen) {
					repl.completion.move(id === "up" ? -1 : 1);
					return;
				}
				break;
		}
		this.edit(k);
	}

	private edit(k: KeyPress): void {
		const repl = this.repl;
		if (repl.editor.handle(k) === "changed") repl.completion.update(repl.editor.text);
	}

	private complete(): void {
		const repl = this.repl;
		if (!repl.completion.isOpen) {
			repl.completion.update(repl.editor.text);
			return;
		}
		const text = repl.completion.accept(false);
		if (text === undefined) return;
		repl.editor.setText(text);
		repl.completion.update(text);
	}

	private cycleThinking(): void {
		const host = this.repl.host;
		if (!host) return;
		const current = THINKING_LEVELS.indexOf(host.session.thinkingLevel);
		host.setThinkingLevel(THINKING_LEVELS[(current + 1) % THINKING_LEVELS.length]!);
		const level = host.session.thinkingLevel;
		this.repl.hint = `Thinking level: ${level}${level === "off" && current === 0 ? " (this model does not think)" : ""}`;
	}
}
