// A conversation far longer than the window, through the binary in tmux: what scrolled into the
// terminal's scrollback is still there, once and in order, after more answers stream in, and is
// drawn again when it has to be: ctrl+o expands a tool result hundreds of lines up, a resize wraps
// the oldest lines again at the new width.
import { describe, expect, test } from "bun:test";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld } from "../support/world.ts";

const TIMEOUT = 60_000;
const ROWS = 150;

/** An answer of ROWS numbered paragraphs (a line and a blank line each). */
function answer(n: number): string {
	return Array.from({ length: ROWS }, (_, i) => `answer ${n} row ${i + 1}`).join("\n\n");
}

/** How often `text` occurs in `haystack`. */
function count(haystack: string, text: string): number {
	return haystack.split(text).length - 1;
}

/** Both answers whole in the scrollback: their first, middle and last rows once each, in order. */
function expectBothAnswersOnce(text: string): void {
	for (const n of [1, 2]) for (const row of [1, 2, ROWS / 2, ROWS]) expect(count(text, ` answer ${n} row ${row}\n`)).toBe(1);
	expect(text.indexOf(" answer 2 row 1\n")).toBeGreaterThan(text.indexOf(` answer 1 row ${ROWS}\n`));
}

describe.skipIf(!hasTmux)("interactive long transcript", () => {
	test("scrollback keeps every line once, in order; ctrl+o and a resize redraw lines far above the window", async () => {
		await using world = await mockWorld();
		const question = "The first question is long enough that a narrow window has to wrap it again.";
		world.mock.script(
			{ text: "Let me look.", toolCalls: [{ name: "bash", arguments: { command: "printf 'one\\ntwo\\nthree\\n'" } }] },
			{ text: answer(1) },
			{ text: answer(2) },
		);
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai], { width: 100, height: 30 });
		await term.ready();
		term.submit(question);
		await term.waitForAbove(` answer 1 row ${ROWS}`);
		term.submit("more");
		await term.waitToPass("both answers in the scrollback", (p, text) => {
			expect(p.above).toEndWith(` answer 2 row ${ROWS}`);
			expectBothAnswersOnce(text);
			expect(count(text, ` › ${question}\n`)).toBe(1);
			expect(text.indexOf(" answer 1 row 1\n")).toBeGreaterThan(text.indexOf("   ⎿ three (3 lines, ctrl+o to expand)"));
		});

		// The result is some 600 lines up: ctrl+o draws it expanded where it is, and nothing twice.
		term.keys("C-o");
		const expanded = await term.waitToPass("the expanded result far up", (p, text) => {
			expect(text).toContain("   ⎿ one\n     two\n     three\n");
			expect(p.above).toEndWith(` answer 2 row ${ROWS}\n\n Tool output: expanded`);
			expectBothAnswersOnce(text);
		});
		expect(expanded.above).not.toContain("ctrl+o to expand");

		// Narrower: the first question, far up, wraps again at the new width; nothing is lost or doubled.
		term.resize(40, 30);
		await term.waitToPass("the narrow layout", (p, text) => {
			const lines = text.split("\n");
			expect(lines.filter((l) => l.length > 40)).toEqual([]);
			expect(p.above).toEndWith(` answer 2 row ${ROWS}\n\n Tool output: expanded`);
			expectBothAnswersOnce(text);
			const start = lines.findIndex((l) => l.includes("› The first question"));
			expect(start).toBeGreaterThanOrEqual(0);
			const end = lines.findIndex((l, i) => i > start && l.trim() === "");
			expect(end - start).toBeGreaterThan(1);
			expect(lines.slice(start, end).map((l) => l.replace("›", "").trim()).join(" ")).toBe(question);
		});
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
