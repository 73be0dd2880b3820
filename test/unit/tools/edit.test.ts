import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { unifiedDiff } from "../../../src/core/tools/edit-diff.ts";
import { createEditTool, prepareEditArguments } from "../../../src/core/tools/edit.ts";
import { errorOf, run, TempProject, textOf } from "./fixture.ts";

describe("edit", () => {
	test("replaces a unique block and returns a unified diff", async () => {
		using p = new TempProject();
		p.write("src/a.ts", "one\ntwo\nthree\nfour\nfive\nsix\nseven\n");
		const r = await run(createEditTool(p.cwd), { path: "src/a.ts", edits: [{ oldText: "four", newText: "FOUR\n4" }] });
		expect(textOf(r)).toBe("Applied 1 edit to src/a.ts (first change at line 4)");
		expect(p.read("src/a.ts")).toBe("one\ntwo\nthree\nFOUR\n4\nfive\nsix\nseven\n");
		expect(r.details).toEqual({
			diff: "--- a/src/a.ts\n+++ b/src/a.ts\n@@ -1,7 +1,8 @@\n one\n two\n three\n-four\n+FOUR\n+4\n five\n six\n seven\n",
			firstChangedLine: 4,
		});
	});

	test("takes the older top-level oldText/newText form", async () => {
		using p = new TempProject();
		p.write("a.txt", "hello world\n");
		await run(createEditTool(p.cwd), { path: "a.txt", oldText: "world", newText: "there" });
		expect(p.read("a.txt")).toBe("hello there\n");
		expect(prepareEditArguments({ path: "a", oldText: "x", newText: "y" })).toEqual({ path: "a", edits: [{ oldText: "x", newText: "y" }] });
		expect(prepareEditArguments({ path: "a", edits: '[{"oldText":"x","newText":"y"}]' })).toEqual({
			path: "a",
			edits: [{ oldText: "x", newText: "y" }],
		});
		expect(prepareEditArguments({ path: "a", edits: "[oops" }) as unknown).toEqual({ path: "a", edits: "[oops" });
	});

	test("several edits are matched against the original and applied together", async () => {
		using p = new TempProject();
		p.write("a.txt", "alpha\nbeta\ngamma\n");
		const r = await run(createEditTool(p.cwd), {
			path: "a.txt",
			edits: [
				{ oldText: "gamma", newText: "GAMMA" },
				{ oldText: "alpha", newText: "beta" }, // would collide with "beta" if applied in sequence
			],
		});
		expect(textOf(r)).toBe("Applied 2 edits to a.txt (first change at line 1)");
		expect(p.read("a.txt")).toBe("beta\nbeta\nGAMMA\n");
	});

	test("model-facing errors, and the file is left alone", async () => {
		using p = new TempProject();
		p.write("src/a.ts", "let x = 1;\nlet y = 1;\n");
		p.write("dir/f", "");
		const tool = createEditTool(p.cwd);
		const edit = (edits: unknown, path = "src/a.ts") => errorOf(run(tool, { path, edits }));
		expect(await edit([{ oldText: "let z", newText: "" }])).toBe(
			"oldText not found in src/a.ts; it must match exactly, including whitespace",
		);
		expect(await edit([{ oldText: " = 1;", newText: " = 2;" }])).toBe(
			"oldText matches 2 places in src/a.ts; it must be unique, so include more surrounding lines",
		);
		expect(await edit([{ oldText: "x", newText: "a" }, { oldText: "nope", newText: "b" }])).toBe(
			"edits[1].oldText not found in src/a.ts; it must match exactly, including whitespace",
		);
		expect(await edit([{ oldText: "let x", newText: "a" }, { oldText: "x = 1", newText: "b" }])).toBe(
			"edits[0] and edits[1] overlap in src/a.ts; merge them into one edit",
		);
		expect(await edit([{ oldText: "", newText: "a" }])).toBe("oldText is empty; give the exact text to replace in src/a.ts");
		expect(await edit([{ oldText: "let x", newText: "let x" }])).toBe("No changes made to src/a.ts: newText is identical to oldText");
		expect(await edit([])).toBe("No edits given for src/a.ts; pass edits: [{ oldText, newText }]");
		expect(await edit([{ oldText: "a", newText: "b" }], "nope.ts")).toBe("File not found: nope.ts");
		expect(await edit([{ oldText: "a", newText: "b" }], "dir")).toBe("dir is a directory, not a file");
		expect(await edit([{ oldText: "1\tlet x = 1;", newText: "" }])).toBe(
			"oldText not found in src/a.ts; it must match exactly, including whitespace (leave out the line-number prefixes that read adds)",
		);
		expect(p.read("src/a.ts")).toBe("let x = 1;\nlet y = 1;\n");
	});

	test("keeps CRLF line endings and the BOM", async () => {
		using p = new TempProject();
		const path = p.write("w.cs", "\uFEFFclass A\r\n{\r\n    int x;\r\n}\r\n");
		await run(createEditTool(p.cwd), { path: "w.cs", edits: [{ oldText: "{\n    int x;", newText: "{\n    int x;\n    int y;" }] });
		expect(readFileSync(path)).toEqual(Buffer.from("\uFEFFclass A\r\n{\r\n    int x;\r\n    int y;\r\n}\r\n"));
	});

	test("in a file with mixed endings, LF-only lines still match and stay LF", async () => {
		using p = new TempProject();
		const path = p.write("m.txt", "a\r\nb\nc\n");
		await run(createEditTool(p.cwd), { path: "m.txt", edits: [{ oldText: "b\nc", newText: "B\nC" }] });
		expect(readFileSync(path, "utf8")).toBe("a\r\nB\nC\n");
	});

	test("parallel edits of one file are serialised, so none is lost", async () => {
		using p = new TempProject();
		p.write("n.txt", "a\nb\nc\nd\n");
		const tool = createEditTool(p.cwd);
		await Promise.all(["a", "b", "c", "d"].map((l) => run(tool, { path: join(p.cwd, "n.txt"), edits: [{ oldText: `${l}\n`, newText: `${l}!\n` }] })));
		expect(p.read("n.txt")).toBe("a!\nb!\nc!\nd!\n");
	});
});

describe("unifiedDiff", () => {
	test("separate hunks for distant changes, with 3 lines of context", () => {
		const before = Array.from({ length: 20 }, (_, i) => `l${i + 1}`).join("\n");
		const after = before.replace("l2\n", "L2\n").replace("l18\n", "");
		expect(unifiedDiff(before, after, "f").diff).toBe(
			[
				"--- a/f",
				"+++ b/f",
				"@@ -1,5 +1,5 @@",
				" l1",
				"-l2",
				"+L2",
				" l3",
				" l4",
				" l5",
				"@@ -15,6 +15,5 @@",
				" l15",
				" l16",
				" l17",
				"-l18",
				" l19",
				" l20",
				"",
			].join("\n"),
		);
	});

	test("no change, no diff", () => {
		expect(unifiedDiff("a\n", "a\n", "f")).toEqual({ diff: "", firstChangedLine: undefined });
	});
});
