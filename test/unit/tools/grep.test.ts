import { describe, expect, test } from "bun:test";
import { createGrepTool, type GrepToolOptions } from "../../../src/core/tools/grep.ts";
import { errorOf, run, TempProject, textOf } from "./fixture.ts";

function project(): TempProject {
	const p = new TempProject();
	p.write("src/a.ts", "const foo = 1;\nfunction bar() {\n  return foo;\n}\n");
	p.write("src/b.test.ts", "foo();\n");
	p.write("src/z.ts", "nothing here\n");
	p.write("src/sub/c.ts", "// foo in a subfolder\n");
	p.write("lib/c.js", "FOO\n");
	p.write(".hidden/h.ts", "foo hidden\n");
	p.write("node_modules/x/index.js", "foo\n");
	p.write(".git/config", "foo\n");
	p.write("dist/out.js", "foo\n");
	p.write("notes.log", "foo log\n");
	p.write(".gitignore", "dist/\n*.log\n");
	return p;
}

const rg = Bun.which("rg");
// Both backends must print the same thing; the ripgrep one runs where rg is installed.
const backends: [string, GrepToolOptions, boolean][] = [
	["ripgrep", { ripgrep: rg ?? "rg" }, rg === null],
	["built-in", { ripgrep: false }, false],
];

for (const [name, options, skip] of backends) {
	describe.skipIf(skip)(`grep (${name})`, () => {
		const grep = (p: TempProject, params: Record<string, unknown>) => run(createGrepTool(p.cwd, options), params);

		test("prints file:line: text, sorted, skipping .git, node_modules and .gitignore'd files", async () => {
			using p = project();
			expect(textOf(await grep(p, { pattern: "foo" }))).toBe(
				[".hidden/h.ts:1: foo hidden", "src/a.ts:1: const foo = 1;", "src/a.ts:3:   return foo;", "src/b.test.ts:1: foo();", "src/sub/c.ts:1: // foo in a subfolder"].join(
					"\n",
				),
			);
		});

		test("ignoreCase, literal and glob", async () => {
			using p = project();
			expect(textOf(await grep(p, { pattern: "^foo$", ignoreCase: true, path: "lib" }))).toBe("lib/c.js:1: FOO");
			expect(textOf(await grep(p, { pattern: "bar() {", literal: true }))).toBe("src/a.ts:2: function bar() {");
			expect(textOf(await grep(p, { pattern: "foo", glob: "*.test.ts" }))).toBe("src/b.test.ts:1: foo();");
			expect(textOf(await grep(p, { pattern: "foo", glob: "src/sub/**" }))).toBe("src/sub/c.ts:1: // foo in a subfolder");
		});

		test("context lines use file-line- and groups are separated", async () => {
			using p = project();
			p.write("ctx.txt", "a\nhit\nb\nc\nd\ne\nhit\nf\n");
			expect(textOf(await grep(p, { pattern: "hit", path: "ctx.txt", context: 1 }))).toBe(
				["ctx.txt-1- a", "ctx.txt:2: hit", "ctx.txt-3- b", "--", "ctx.txt-6- e", "ctx.txt:7: hit", "ctx.txt-8- f"].join("\n"),
			);
		});

		test("stops at the limit and says so, keeping the last match's context", async () => {
			using p = project();
			p.write("many.txt", "x1\nx2\nx3\nx4\n");
			const r = await grep(p, { pattern: "x", path: "many.txt", limit: 2, context: 1 });
			expect(textOf(r)).toBe(
				"many.txt:1: x1\nmany.txt:2: x2\nmany.txt-3- x3\n\n[Stopped at 2 matches. Use limit=4 for more, or narrow the pattern or path]",
			);
			expect(r.details).toEqual({ matchLimitReached: 2 });
			const across = await grep(p, { pattern: "foo", limit: 1 });
			expect(textOf(across)).toBe(".hidden/h.ts:1: foo hidden\n\n[Stopped at 1 matches. Use limit=2 for more, or narrow the pattern or path]");
		});

		test("long lines are cut", async () => {
			using p = project();
			p.write("wide.txt", `match ${"w".repeat(600)}\n`);
			const r = await grep(p, { pattern: "match", path: "wide.txt" });
			expect(textOf(r)).toBe(
				`wide.txt:1: match ${"w".repeat(494)}... [truncated]\n\n[Lines longer than 500 characters were cut; read the file to see them whole]`,
			);
			expect(r.details).toEqual({ linesTruncated: true });
		});

		test("a big result is cut to 50KB and saved in full", async () => {
			using p = project();
			// "big.txt:1: hit" and so on: about 17 bytes a line, so 3000 lines pass the line limit first
			p.write("big.txt", "hit\n".repeat(3000));
			const r = await grep(p, { pattern: "hit", path: "big.txt", limit: 3000 });
			const path = r.details.fullOutputPath as string;
			expect(path.startsWith(`${p.tmp}/agent-grep-`)).toBe(true);
			const text = textOf(r);
			expect(text.slice(text.indexOf("big.txt:2000: hit\n"))).toBe(
				`big.txt:2000: hit\n\n[Output truncated to 2000 lines (2000 of 3000 lines shown). Full output: ${path}]`,
			);
			expect(await Bun.file(path).text()).toEndWith("big.txt:2999: hit\nbig.txt:3000: hit");
			p.write("wide.txt", `${"hit ".repeat(100)}\n`.repeat(300));
			const wide = await grep(p, { pattern: "hit", path: "wide.txt", limit: 300 });
			expect(textOf(wide)).toEndWith(`(123 of 300 lines shown). Full output: ${wide.details.fullOutputPath}]`);
			expect(textOf(wide)).toContain("\n[Output truncated to 50.0KB (123 of 300 lines shown)");
		});

		test("no matches, missing path", async () => {
			using p = project();
			expect(textOf(await grep(p, { pattern: "zzz" }))).toBe("No matches found");
			expect(await errorOf(grep(p, { pattern: "foo", path: "nope" }))).toBe("Path not found: nope");
		});
	});
}

describe("grep errors", () => {
	test("built-in: an invalid regex names the pattern and the way out", async () => {
		using p = project();
		expect(await errorOf(run(createGrepTool(p.cwd, { ripgrep: false }), { pattern: "(" }))).toBe(
			'Invalid regex "(": Invalid regular expression: missing ). Set literal: true to search for the text as written',
		);
	});

	test.skipIf(rg === null)("ripgrep: an invalid regex reports rg's message", async () => {
		using p = project();
		expect(await errorOf(run(createGrepTool(p.cwd, { ripgrep: rg! }), { pattern: "(" }))).toStartWith("grep failed: regex parse error:");
	});
});
