// A conversation far longer than the window, through the binary in tmux: what scrolled into the
// terminal's scrollback is still there, once and in order, after more answers stream in, and is
// drawn again when it has to be: ctrl+o expands a tool result hundreds of lines up, a resize wraps
// the oldest lines again at the new width.
import { describe, expect, test } from "bun:test";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld } from "../support/world.ts";

const TIMEOUT = 60_000;
const ROWS = 150;

/** An answer of ROWS numbered lines. */
function answer(n: number): string {
	return Array.from({ length: ROWS }, (_, i) => `answer ${n} row ${i + 1}`).join("\n\n");
}

/** How often `text` occurs in `haystack`. */
function count(haystack: string, text: string): number {
	return haystack.split(text).length - 1;
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
		await term.waitForAbove(` answer 2 row ${ROWS}`);
		const all = term.transcript();
		for (const n of [1, 2]) for (const row of [1, 2, ROWS / 2, ROWS]) expect(count(all, ` answer ${n} row ${row}\n`)).toBe(1);
		expect(count(all, question)).toBe(1);
		expect(all.indexOf(" answer 1 row 1\n")).toBeGreaterThan(all.indexOf("   ⎿ three (3 lines, ctrl+o to expand)"));
		expect(all.indexOf(" answer 2 row 1\n")).toBeGreaterThan(all.indexOf(` answer 1 row ${ROWS}\n`));

		// The result is some 600 lines up: ctrl+o draws it expanded where it is, and nothing twice.
		term.keys("C-o");
		const expanded = await term.waitUntil("the expanded result far up", (_p, text) => text.includes("   ⎿ one\n     two\n     three\n") && text.includes(` answer 2 row ${ROWS}\n`));
		const after = term.transcript();
		expect(after).not.toContain("ctrl+o to expand");
		for (const n of [1, 2]) for (const row of [1, ROWS]) expect(count(after, ` answer ${n} row ${row}\n`)).toBe(1);
		expect(expanded.above).toEndWith(` answer 2 row ${ROWS}\n\n Tool output: expanded`);

		// Narrower: the first question, far up, wraps again at the new width.
		term.resize(40, 30);
		const narrow = await term.waitUntil("the narrow layout", (_p, text) => text.split("\n").every((l) => l.length <= 40) && text.includes(` answer 2 row ${ROWS}\n`));
		const lines = term.transcript().split("\n");
		const start = lines.findIndex((l) => l.includes("› The first question"));
		expect(start).toBeGreaterThanOrEqual(0);
		expect(lines.slice(start, start + 4).map((l) => l.replace("›", "").trim()).join(" ").trim()).toBe(question);
		expect(count(lines.join("\n"), " answer 1 row 1\n")).toBe(1);
		expect(narrow.above).toEndWith(` answer 2 row ${ROWS}\n\n Tool output: expanded`);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
