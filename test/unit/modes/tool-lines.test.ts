// One line per tool call, and results collapsed to a summary or shown in full.
import { expect, test } from "bun:test";
import { diffCounts, resultFull, resultSummary, toolCallLine } from "../../../src/modes/interactive/tool-lines.ts";

const plain = (s: string | string[]) => (Array.isArray(s) ? s : [s]).map((l) => l.replace(/\x1b\[[0-9;]*m/g, ""));
const text = (t: string) => ({ content: [{ type: "text" as const, text: t }], details: {} });

test("call lines: bash, read with a range, write, edit with diff counts, grep, unknown tools", () => {
	const cwd = "/repo";
	expect(plain(toolCallLine("bash", { command: "npm test" }, cwd))).toEqual(["bash  npm test"]);
	expect(plain(toolCallLine("bash", { command: "a\nb" }, cwd))).toEqual(["bash  a …"]);
	expect(plain(toolCallLine("read", { path: "/repo/src/a.ts", offset: 10, limit: 5 }, cwd))).toEqual(["read src/a.ts:10-14"]);
	expect(plain(toolCallLine("write", { path: "b.md", content: "x\ny" }, cwd))).toEqual(["write b.md (2 lines)"]);
	const diff = "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,2 +1,4 @@\n-old\n+new\n+more\n+lines\n ctx";
	expect(plain(toolCallLine("edit", { path: "src/a.ts" }, cwd, { diff }))).toEqual(["edit src/a.ts (+3 −1)"]);
	expect(plain(toolCallLine("edit", { path: "src/a.ts", edits: [{ oldText: "a", newText: "b\nc" }] }, cwd))).toEqual(["edit src/a.ts (+2 −1)"]);
	expect(plain(toolCallLine("grep", { pattern: "TODO", path: "/repo/src" }, cwd))).toEqual(["grep TODO in src"]);
	expect(plain(toolCallLine("shout", { text: "hi" }, cwd))).toEqual(['shout {"text":"hi"}']);
	expect(diffCounts(diff)).toEqual({ added: 3, removed: 1 });
});

test("summaries: a command's last line, other tools' first, the line count; silent edits; reads by size", () => {
	expect(plain(resultSummary("bash", text("\none\ntwo\n\nthree\n"), false))).toEqual(["   ⎿ three (5 lines, ctrl+o to expand)"]);
	expect(plain(resultSummary("grep", text("\nfirst\nsecond"), false))).toEqual(["   ⎿ first (3 lines, ctrl+o to expand)"]);
	expect(plain(resultSummary("bash", text("just one"), false))).toEqual(["   ⎿ just one"]);
	expect(plain(resultSummary("bash", text("1 failed\n\nCommand exited with code 1"), true))).toEqual(["   ⎿ 1 failed · exited with code 1 (3 lines, ctrl+o to expand)"]);
	expect(plain(resultSummary("bash", text(""), false))).toEqual(["   ⎿ (no output)"]);
	expect(plain(resultSummary("edit", text("old text not found\nin a.ts"), true))).toEqual(["   ⎿ in a.ts (2 lines, ctrl+o to expand)"]);
	expect(resultSummary("edit", text("Edited"), false)).toEqual([]);
	expect(plain(resultSummary("read", text("a\nb\nc"), false))).toEqual(["   ⎿ 3 lines (ctrl+o to expand)"]);
});

test("full results: every line under the call; an edit shows its diff", () => {
	expect(plain(resultFull("bash", text("one\ntwo"), false))).toEqual(["   ⎿ one", "     two"]);
	expect(plain(resultFull("edit", { content: [], details: { diff: "-a\n+b" } }, false))).toEqual(["     -a", "     +b"]);
});
