// The terminal as the REPL uses it: finished output scrolls up as plain lines, and a small live
// region at the bottom (streaming line, widgets, status, the input line, completions) is erased
// and redrawn in place. Raw stdin is handed to clack while a dialog is open.
import { writeStdout } from "../../stdio.ts";

export interface LiveFrame {
	lines: string[];
	/** Where the terminal cursor rests: a line of `lines` and a visible column in it. */
	cursor?: { line: number; column: number };
}

const ESC = "\x1b[";

/** Rows a line takes in a terminal `columns` wide. */
export function rowsOf(line: string, columns: number): number {
	const width = Bun.stringWidth(line);
	return Math.max(1, Math.ceil(width / Math.max(1, columns)));
}

export class Terminal {
	/** Rows of the live region on screen, and the row (within it) the cursor is on. */
	private rows = 0;
	private cursorRow = 0;
	private suspended = false;
	private queued: string[] = [];
	private frame: () => LiveFrame = () => ({ lines: [] });
	private dataListener: ((data: string) => void) | undefined;
	private started = false;
	/** The terminal went away (hang-up): nothing more is written. */
	private gone = false;
	/** Whether anything has been printed yet (the first block needs no blank line above it). */
	hasOutput = false;

	get columns(): number {
		return process.stdout.columns || 80;
	}
	get height(): number {
		return process.stdout.rows || 24;
	}

	/** Every write goes through here: once the terminal has hung up, writes are dropped, not thrown. */
	private write(text: string): void {
		if (this.gone || text === "") return;
		try {
			writeStdout(text);
		} catch {
			this.gone = true;
		}
	}

	/** The terminal hung up (SIGHUP, end of input): stop writing to it. */
	hangUp(): void {
		this.gone = true;
	}

	/** What the live region shows; called on every redraw. */
	setFrame(frame: () => LiveFrame): void {
		this.frame = frame;
	}

	/** Raw mode on, keys to `onData`. */
	start(onData: (data: string) => void): void {
		this.dataListener = onData;
		this.started = true;
		this.attach();
		process.stdout.on("resize", this.onResize);
	}

	private attach(): void {
		const stdin = process.stdin;
		if (stdin.isTTY) stdin.setRawMode(true);
		stdin.setEncoding("utf8");
		if (this.dataListener) stdin.on("data", this.dataListener);
		stdin.resume();
	}

	private readonly onResize = () => {
		if (!this.suspended) this.redraw();
	};

	/** Leave the terminal as we found it: live region erased, cursor shown, cooked mode, stdin released. */
	stop(): void {
		if (!this.started) return;
		this.started = false;
		this.write(this.eraseSequence() + `${ESC}?25h`);
		this.rows = 0;
		this.cursorRow = 0;
		process.stdout.off("resize", this.onResize);
		const stdin = process.stdin;
		if (this.dataListener) stdin.off("data", this.dataListener);
		try {
			if (stdin.isTTY && !this.gone) stdin.setRawMode(false);
		} catch {
			// The terminal is gone; there is no mode to restore.
		}
		stdin.pause();
	}

	private eraseSequence(): string {
		if (this.rows === 0) return "";
		return `\r${this.cursorRow > 0 ? `${ESC}${this.cursorRow}A` : ""}${ESC}J`;
	}

	private drawSequence(): string {
		// Nothing live until the REPL is ready for keys: start-up output is plain lines.
		if (!this.started) return "";
		const { lines: all, cursor } = this.frame();
		const columns = this.columns;
		// Never taller than the screen, or the erase could not reach its top again.
		const maxRows = Math.max(1, this.height - 1);
		let lines = all;
		let cursorLine = cursor?.line ?? all.length - 1;
		const heights = lines.map((l) => rowsOf(l, columns));
		let total = heights.reduce((a, b) => a + b, 0);
		while (total > maxRows && lines.length > 1) {
			// Drop from the top, keeping the line the cursor is on.
			if (cursorLine === 0) break;
			total -= heights.shift()!;
			lines = lines.slice(1);
			cursorLine--;
		}
		if (lines.length === 0) {
			this.rows = 0;
			this.cursorRow = 0;
			return "";
		}
		let out = lines.join("\r\n");
		const targetRow = heights.slice(0, cursorLine).reduce((a, b) => a + b, 0) + Math.floor((cursor?.column ?? 0) / columns);
		const lastRow = total - 1;
		const up = lastRow - Math.min(targetRow, lastRow);
		if (cursor) {
			const col = cursor.column % columns;
			out += `${up > 0 ? `${ESC}${up}A` : ""}\r${col > 0 ? `${ESC}${col}C` : ""}`;
		}
		this.rows = total;
		this.cursorRow = cursor ? lastRow - up : lastRow;
		return out;
	}

	/** Redraw the live region in place. */
	redraw(): void {
		if (this.suspended) return;
		this.write(`${ESC}?25l${this.eraseSequence()}${this.drawSequence()}${ESC}?25h`);
	}

	/** Print finished lines above the live region (queued while a dialog owns the screen). */
	print(lines: string[]): void {
		if (lines.length === 0) return;
		this.hasOutput = true;
		if (this.suspended) {
			this.queued.push(...lines);
			return;
		}
		this.write(`${ESC}?25l${this.eraseSequence()}${lines.map((l) => `${l}\r\n`).join("")}${this.drawSequence()}${ESC}?25h`);
	}

	/** Write raw bytes (an OSC title) without touching the live region. */
	raw(text: string): void {
		this.write(text);
	}

	get isSuspended(): boolean {
		return this.suspended;
	}

	/** Hand the screen and stdin to someone else (a clack dialog, $EDITOR). */
	suspend(): void {
		if (this.suspended) return;
		this.write(this.eraseSequence());
		this.rows = 0;
		this.cursorRow = 0;
		this.suspended = true;
		if (this.dataListener) process.stdin.off("data", this.dataListener);
	}

	/** Take the screen back: raw mode again, queued output printed, live region drawn. */
	resume(): void {
		if (!this.suspended) return;
		this.suspended = false;
		if (this.started) this.attach();
		const queued = this.queued.splice(0);
		if (queued.length > 0) this.print(queued);
		else this.redraw();
	}
}
