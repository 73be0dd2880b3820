// The ASCII line wrap the transcript and header use before the first frame: the rows pi-tui's
// wrapTextWithAnsi gives, byte for byte, for plain and theme-coloured printable ASCII; anything
// else is left to pi-tui.
import { expect, test } from "bun:test";
import { wrapTextWithAnsi } from "@earendil-works/pi-tui/dist/utils.js";
import { wrapAsciiLine } from "../../../src/modes/interactive/transcript/ascii-wrap.ts";

let seed = 11;
const next = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
const WORDS = ["a", "an", "key", "ANTHROPIC_API_KEY,", "{", '"providers":', "x".repeat(17), "-", "http://localhost:8080/v1", "or"];
const COLOURS = ["\x1b[38;5;185m", "\x1b[38;5;66m", "\x1b[38;2;255;128;0m"];

/** A random line: words and runs of spaces, sometimes leading or trailing spaces. */
function line(): string {
	let out = " ".repeat(next(3) === 0 ? next(4) : 0);
	const words = 1 + next(14);
	for (let i = 0; i < words; i++) out += WORDS[next(WORDS.length)] + (i < words - 1 ? " ".repeat(1 + (next(5) === 0 ? next(4) : 0)) : "");
	return out + " ".repeat(next(4) === 0 ? 1 + next(3) : 0);
}

test("plain and coloured ASCII lines wrap to pi-tui's rows, byte for byte", () => {
	let fast = 0;
	for (let round = 0; round < 20000; round++) {
		const plain = line();
		const colour = COLOURS[next(COLOURS.length)]!;
		const text = [plain, `${colour}${plain}`, `${colour}${plain}\x1b[39m`][next(3)]!;
		const width = 1 + next(40);
		const rows = wrapAsciiLine(text, width);
		if (rows === undefined) continue;
		fast++;
		expect({ text, width, rows }).toEqual({ text, width, rows: wrapTextWithAnsi(text, width) });
	}
	// Most lines take the fast path: only coloured lines ending in a space are left to pi-tui.
	expect(fast).toBeGreaterThan(16000);
});

test("the first frame's no-model help wraps as pi-tui wraps it", () => {
	const text = "\x1b[38;5;185m  - an API key in the environment: ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY, GROQ_API_KEY or DEEPSEEK_API_KEY\x1b[39m";
	expect(wrapAsciiLine(text, 119)).toEqual(wrapTextWithAnsi(text, 119));
	expect(wrapAsciiLine(text, 119)).toHaveLength(2);
});

test("other text is left to pi-tui: non-ASCII, other escapes, a close without an open", () => {
	for (const text of ["naïve café", "a · b", "\x1b[1mbold\x1b[22m", "\x1b[38;5;185mtwo\x1b[39m \x1b[38;5;66mcolours\x1b[39m", "text\x1b[39m", "tab\there", "\x1b]8;;http://x\x07link\x1b]8;;\x07"]) {
		expect(wrapAsciiLine(text, 5)).toBeUndefined();
	}
});
