// Slash-command completion: matching, the `→ name  [m] description` lines, accepting, arguments.
import { expect, test } from "bun:test";
import { CommandCompletion, type CommandEntry } from "../../../src/modes/interactive/completion.ts";

const plain = (lines: string[]) => lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ""));

function completion(entries: CommandEntry[]) {
	let changes = 0;
	const c = new CommandCompletion(
		() => entries,
		() => changes++,
	);
	return { c, changes: () => changes };
}

test("the seeds' line: name padded to 12, the [t] marker, then the description", () => {
	const { c } = completion([{ name: "help", description: "Show help" }, { name: "hello", description: "Say hello from a book extension", marker: "t" }]);
	c.update("/hello");
	expect(plain(c.lines(120))).toEqual(["→ hello       [t] Say hello from a book extension"]);
	c.update("/hel");
	expect(plain(c.lines(120))).toEqual(["→ help        Show help", "  hello       [t] Say hello from a book extension"]);
});

test("prefix matches first, then letters in order; the column grows with the longest name", () => {
	const { c } = completion([{ name: "model" }, { name: "hellothere-long-name", marker: "u" }, { name: "changelog" }]);
	c.update("/hel");
	expect(plain(c.lines(120))).toEqual(["→ hellothere-long-name  [u] ", "  changelog             "]);
});

test("more than five: a window and a counter; up/down wrap", () => {
	const { c } = completion(Array.from({ length: 7 }, (_, i) => ({ name: `c${i}` })));
	c.update("/");
	expect(plain(c.lines(80)).at(-1)).toBe("  (1/7)");
	c.move(-1);
	expect(plain(c.lines(80))).toEqual(["  c2          ", "  c3          ", "  c4          ", "  c5          ", "→ c6          ", "  (7/7)"]);
});

test("accept: Tab leaves a space for arguments, Enter does not; not a command → closed", () => {
	const { c } = completion([{ name: "hello" }]);
	c.update("/he");
	expect(c.accept(false)).toBe("/hello ");
	c.update("/he");
	expect(c.accept(true)).toBe("/hello");
	c.update("hello");
	expect(c.isOpen).toBe(false);
});

test("argument completions, also async; stale answers are dropped", async () => {
	let resolve!: (v: { value: string; label: string }[]) => void;
	const { c, changes } = completion([
		{ name: "sync", getArgumentCompletions: (p) => ["alpha", "beta"].filter((v) => v.startsWith(p)).map((v) => ({ value: v, label: v, description: `is ${v}` })) },
		{ name: "async", getArgumentCompletions: () => new Promise((r) => (resolve = r)) },
	]);
	c.update("/sync b");
	expect(plain(c.lines(80))).toEqual(["→ beta        is beta"]);
	expect(c.accept(true)).toBe("/sync beta");
	const before = changes();
	c.update("/async x");
	const stale = resolve;
	c.update("/async xy");
	stale([{ value: "old", label: "old" }]);
	await Bun.sleep(0);
	expect(c.isOpen).toBe(false);
	resolve([{ value: "xyz", label: "xyz" }]);
	await Bun.sleep(0);
	expect(changes()).toBe(before + 1);
	expect(c.accept(false)).toBe("/async xyz");
});
