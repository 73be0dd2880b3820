// The app's Screen must put exactly the bytes on the terminal that pi-tui's own main-screen TUI
// does, frame after frame: the same scripted changes (entries appended, the last one streaming,
// an old one edited, shrinking, resizes, forced redraws, a cursor, tabs) go to both, and what each
// wrote is compared. Entries sit on the screen itself, or in our Transcript (sealing the settled
// ones into runs) against a plain pi-tui Container.
import { describe, expect, test } from "bun:test";
import { Container, CURSOR_MARKER } from "@earendil-works/pi-tui/dist/tui.js";
import { TuiMainScreen } from "@earendil-works/pi-tui/dist/tui-main-screen.js";
import type { Component, Terminal } from "@earendil-works/pi-tui";
import { Screen } from "../../../src/modes/interactive/screen.ts";
import { Transcript, type Settling } from "../../../src/modes/interactive/transcript/transcript.ts";

class FakeTerminal implements Terminal {
	out: string[] = [];
	constructor(
		public columns: number,
		public rows: number,
	) {}
	start(): void {}
	stop(): void {}
	async drainInput(): Promise<void> {}
	write(data: string): void {
		this.out.push(data);
	}
	get kittyProtocolActive(): boolean {
		return false;
	}
	moveBy(lines: number): void {
		this.write(`<move ${lines}>`);
	}
	hideCursor(): void {
		this.write("<hide>");
	}
	showCursor(): void {
		this.write("<show>");
	}
	clearLine(): void {}
	clearFromCursor(): void {}
	clearScreen(): void {}
	setTitle(): void {}
	setProgress(): void {}
	setProgramStatus(): void {}
}

/** An entry whose lines are cached until it changes, as transcript entries are; settled or not from the start. */
class Entry implements Component, Settling {
	private cache: { width: number; lines: string[] } | undefined;
	onChange: (() => void) | undefined;
	constructor(
		private text: string[],
		private readonly done = false,
	) {}
	settled(): boolean {
		return this.done;
	}
	set(text: string[]): void {
		this.text = text;
		this.invalidate();
	}
	get lines(): string[] {
		return this.text;
	}
	render(width: number): string[] {
		if (this.cache?.width !== width) this.cache = { width, lines: this.text.map((l) => l.slice(0, Math.max(1, width - 8))) };
		return this.cache.lines;
	}
	invalidate(): void {
		this.cache = undefined;
		this.onChange?.();
	}
}

/** A seeded generator, so a failure replays. */
function random(seed: number): () => number {
	return () => {
		seed = (seed * 1103515245 + 12345) % 2147483648;
		return seed / 2147483648;
	};
}

/** Where a scenario's entries go: on the screen itself, or in a transcript region above the editor. */
type Place = "screen" | "transcript";

function scenario(seed: number, steps: number, place: Place = "screen"): { plain: string; ours: string } {
	const next = random(seed);
	const plainTerm = new FakeTerminal(60, 12);
	const oursTerm = new FakeTerminal(60, 12);
	const plain = new TuiMainScreen(plainTerm);
	const ours = new Screen(oursTerm, { cutAfter: 3 });
	const entries: Entry[][] = [[], []];
	const editor = [new Entry(["> "]), new Entry(["> "])];
	const regions: Container[] = [new Container(), new Transcript()];
	let counter = 0;
	const line = () => `line ${counter++}${next() < 0.1 ? "\tafter a tab" : ""} ${"x".repeat(Math.floor(next() * 40))}`;
	const both = (fn: (tui: TuiMainScreen, list: Entry[], edit: Entry, term: FakeTerminal, host: Container) => void) => {
		fn(plain, entries[0]!, editor[0]!, plainTerm, place === "screen" ? plain : regions[0]!);
		fn(ours, entries[1]!, editor[1]!, oursTerm, place === "screen" ? ours : regions[1]!);
	};
	/** Add an entry after the others (before the editor, on the screen). */
	const append = (tui: TuiMainScreen, host: Container, entry: Entry) => {
		if (host === tui) tui.children.splice(tui.children.length - 1, 0, entry);
		else host.addChild(entry);
	};
	const first = [line(), line(), line()];
	both((tui, list, edit, _term, host) => {
		if (host !== tui) tui.addChild(host);
		for (const text of first) {
			const entry = new Entry([text], true);
			list.push(entry);
			append(tui, host, entry);
		}
		tui.addChild(edit);
		tui.start();
		tui.renderNow();
	});
	for (let step = 0; step < steps; step++) {
		const roll = next();
		const lines = Array.from({ length: 1 + Math.floor(next() * 6) }, line);
		const pick = next();
		const typed = "typed ".repeat(Math.floor(next() * 5));
		const size = [40 + Math.floor(next() * 40), 8 + Math.floor(next() * 10)] as const;
		const done = next() < 0.7;
		both((tui, list, edit, term, host) => {
			if (roll < 0.35) {
				// the last entry streams
				const last = list.at(-1)!;
				last.set([...last.lines, ...lines.slice(0, 1)]);
			} else if (roll < 0.55) {
				const entry = new Entry(lines, done);
				list.push(entry);
				append(tui, host, entry);
			} else if (roll < 0.65) {
				// an old entry changes (ctrl+o, a tool result arriving late)
				list[Math.floor(pick * list.length)]!.set(lines);
			} else if (roll < 0.75) {
				// the editor shows a cursor, or a few lines, or shrinks back
				edit.set([`> ${CURSOR_MARKER}${typed}`, ...lines.slice(0, Math.floor(pick * 3))]);
			} else if (roll < 0.8) {
				// the last entry goes (a status line replaced, a dialog closed)
				const last = list.pop();
				if (last && list.length > 0) host.removeChild(last);
				else if (last) list.push(last);
			} else if (roll < 0.82) {
				// most of the conversation goes (/new, a move in /tree): the rest scrolls back
				const keep = 1 + Math.floor(pick * 3);
				for (const entry of list.splice(keep)) host.removeChild(entry);
			} else if (roll < 0.87) {
				term.columns = size[0];
				term.rows = size[1];
			} else if (roll < 0.9) {
				tui.invalidate();
				tui.renderNow(true);
				return;
			}
			tui.renderNow();
		});
	}
	both((tui) => tui.stop());
	return { plain: plainTerm.out.join(""), ours: oursTerm.out.join("") };
}

describe("Screen", () => {
	test("writes what pi-tui's main-screen TUI writes, frame for frame", () => {
		for (let seed = 1; seed <= 16; seed++) {
			const { plain, ours } = scenario(seed, 300);
			expect({ seed, ours }).toEqual({ seed, ours: plain });
		}
	});

	test("writes the same with the entries in a transcript that seals the settled ones", () => {
		for (let seed = 1; seed <= 16; seed++) {
			const { plain, ours } = scenario(seed, 300, "transcript");
			expect({ seed, ours }).toEqual({ seed, ours: plain });
		}
	});
});
