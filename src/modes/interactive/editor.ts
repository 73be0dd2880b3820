// The input line: text, cursor, history and the emacs-style editing keys a shell user expects.
// Pure state; the REPL decides what Enter, Tab, Escape and ctrl+c/d mean.
import type { KeyPress } from "./keys.ts";

export type EditResult = "changed" | "moved" | "unhandled";

const WORD = /[\p{L}\p{N}_]/u;

export class LineEditor {
	text = "";
	/** Index into `text`. */
	cursor = 0;
	private history: string[] = [];
	/** Position while browsing history; history.length = the line being written. */
	private historyIndex = 0;
	private draft = "";

	setText(text: string): void {
		this.text = text;
		this.cursor = text.length;
		this.historyIndex = this.history.length;
	}

	insert(text: string): void {
		this.text = this.text.slice(0, this.cursor) + text + this.text.slice(this.cursor);
		this.cursor += text.length;
	}

	/** Take the text for submission: cleared, and remembered for up-arrow. */
	take(): string {
		const text = this.text;
		if (text.trim() && this.history.at(-1) !== text) this.history.push(text);
		this.historyIndex = this.history.length;
		this.draft = "";
		this.setText("");
		return text;
	}

	private lineStart(): number {
		return this.text.lastIndexOf("\n", this.cursor - 1) + 1;
	}
	private lineEnd(): number {
		const i = this.text.indexOf("\n", this.cursor);
		return i < 0 ? this.text.length : i;
	}

	private wordLeft(): number {
		let i = this.cursor;
		while (i > 0 && !WORD.test(this.text[i - 1]!)) i--;
		while (i > 0 && WORD.test(this.text[i - 1]!)) i--;
		return i;
	}
	private wordRight(): number {
		let i = this.cursor;
		while (i < this.text.length && !WORD.test(this.text[i]!)) i++;
		while (i < this.text.length && WORD.test(this.text[i]!)) i++;
		return i;
	}

	private remove(from: number, to: number): void {
		this.text = this.text.slice(0, from) + this.text.slice(to);
		this.cursor = from;
	}

	/** Up/down move between lines of a multi-line text, else browse history. */
	private vertical(dir: -1 | 1): EditResult {
		const start = this.lineStart();
		const column = this.cursor - start;
		if (dir < 0 && start > 0) {
			const prevStart = this.text.lastIndexOf("\n", start - 2) + 1;
			this.cursor = Math.min(prevStart + column, start - 1);
			return "moved";
		}
		const end = this.lineEnd();
		if (dir > 0 && end < this.text.length) {
			const nextEnd = this.text.indexOf("\n", end + 1);
			this.cursor = Math.min(end + 1 + column, nextEnd < 0 ? this.text.length : nextEnd);
			return "moved";
		}
		const target = this.historyIndex + dir;
		if (target < 0 || target > this.history.length) return "moved";
		if (this.historyIndex === this.history.length) this.draft = this.text;
		this.historyIndex = target;
		this.text = target === this.history.length ? this.draft : this.history[target]!;
		this.cursor = this.text.length;
		return "changed";
	}

	/** Apply an editing key. Enter, Tab, Escape, ctrl+c and ctrl+d on an empty line are the caller's. */
	handle(k: KeyPress): EditResult {
		if (k.text !== undefined) {
			this.insert(k.text);
			return "changed";
		}
		const name = k.name;
		if (k.ctrl && !k.alt) {
			switch (name) {
				case "a":
					this.cursor = this.lineStart();
					return "moved";
				case "e":
					this.cursor = this.lineEnd();
					return "moved";
				case "b":
					this.cursor = Math.max(0, this.cursor - 1);
					return "moved";
				case "f":
					this.cursor = Math.min(this.text.length, this.cursor + 1);
					return "moved";
				case "u":
					this.remove(this.lineStart(), this.cursor);
					return "changed";
				case "k":
					this.remove(this.cursor, this.lineEnd());
					return "changed";
				case "w":
					this.remove(this.wordLeft(), this.cursor);
					return "changed";
				case "d":
					if (this.cursor >= this.text.length) return "unhandled";
					this.remove(this.cursor, this.cursor + 1);
					return "changed";
				case "j":
					this.insert("\n");
					return "changed";
				case "left":
					this.cursor = this.wordLeft();
					return "moved";
				case "right":
					this.cursor = this.wordRight();
					return "moved";
			}
			return "unhandled";
		}
		if (k.alt) {
			if (name === "b" || name === "left") this.cursor = this.wordLeft();
			else if (name === "f" || name === "right") this.cursor = this.wordRight();
			else if (name === "backspace") this.remove(this.wordLeft(), this.cursor);
			else if (name === "d") this.remove(this.cursor, this.wordRight());
			else return "unhandled";
			return name === "b" || name === "f" || name === "left" || name === "right" ? "moved" : "changed";
		}
		switch (name) {
			case "backspace":
				if (this.cursor === 0) return "moved";
				this.remove(this.cursor - 1, this.cursor);
				return "changed";
			case "delete":
				this.remove(this.cursor, Math.min(this.text.length, this.cursor + 1));
				return "changed";
			case "left":
				this.cursor = Math.max(0, this.cursor - 1);
				return "moved";
			case "right":
				this.cursor = Math.min(this.text.length, this.cursor + 1);
				return "moved";
			case "home":
				this.cursor = this.lineStart();
				return "moved";
			case "end":
				this.cursor = this.lineEnd();
				return "moved";
			case "up":
				return this.vertical(-1);
			case "down":
				return this.vertical(1);
			case "enter":
				if (k.shift) {
					this.insert("\n");
					return "changed";
				}
				return "unhandled";
		}
		return "unhandled";
	}
}
