import { describe, expect, test } from "bun:test";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { createFindTool } from "../../../src/core/tools/find.ts";
import { createLsTool, type LsOperations } from "../../../src/core/tools/ls.ts";
import { errorOf, run, TempProject, textOf } from "./fixture.ts";

function project(): TempProject {
	const p = new TempProject();
	for (const file of ["a.ts", "b.js", "src/c.ts", "src/d/e.test.ts", "src/d/f.ts", ".config/g.ts", "node_modules/x/i.ts", ".git/h.ts", "build/out.ts"]) {
		p.write(file, "");
	}
	p.write(".gitignore", "# build output\n/build/\n");
	return p;
}

describe("find", () => {
	test("a name glob matches at any depth, sorted, skipping ignored places", async () => {
		using p = project();
		expect(textOf(await run(createFindTool(p.cwd), { pattern: "*.ts" }))).toBe(".config/g.ts\na.ts\nsrc/c.ts\nsrc/d/e.test.ts\nsrc/d/f.ts");
	});

	test("a glob with / matches the path from the search directory; results name paths from cwd", async () => {
		using p = project();
		const find = createFindTool(p.cwd);
		expect(textOf(await run(find, { pattern: "src/**/*.test.ts" }))).toBe("src/d/e.test.ts");
		expect(textOf(await run(find, { pattern: "d/*.ts", path: "src" }))).toBe("src/d/e.test.ts\nsrc/d/f.ts");
	});

	test("stops at the limit and says so", async () => {
		using p = project();
		const r = await run(createFindTool(p.cwd), { pattern: "*.ts", limit: 2 });
		expect(textOf(r)).toBe(".config/g.ts\na.ts\n\n[Stopped at 2 results. Use limit=4 for more, or narrow the pattern]");
		expect(r.details).toEqual({ resultLimitReached: 2 });
		expect((await run(createFindTool(p.cwd), { pattern: "*.ts", limit: 5 })).details).toEqual({});
	});

	test("model-facing messages", async () => {
		using p = project();
		const find = createFindTool(p.cwd);
		expect(textOf(await run(find, { pattern: "*.py" }))).toBe("No files found matching *.py");
		expect(await errorOf(run(find, { pattern: "*", path: "nope" }))).toBe("Path not found: nope");
		expect(await errorOf(run(find, { pattern: "*", path: "a.ts" }))).toBe("Not a directory: a.ts");
	});
});

describe("ls", () => {
	test("sorted case-insensitively, hidden included, directories with /", async () => {
		using p = project();
		p.write("Zeta.md", "");
		symlinkSync(join(p.cwd, "src"), join(p.cwd, "link-to-src"));
		expect(textOf(await run(createLsTool(p.cwd), {}))).toBe(
			[".config/", ".git/", ".gitignore", "a.ts", "b.js", "build/", "link-to-src/", "node_modules/", "src/", "Zeta.md"].join("\n"),
		);
		expect(textOf(await run(createLsTool(p.cwd), { path: "src/d" }))).toBe("e.test.ts\nf.ts");
	});

	test("stops at the limit and says how many there are", async () => {
		using p = project();
		const r = await run(createLsTool(p.cwd), { path: "src", limit: 1 });
		expect(textOf(r)).toBe("c.ts\n\n[Showing 1 of 2 entries. Use limit=2 to see all]");
		expect(r.details).toEqual({ entryLimitReached: 1 });
	});

	test("model-facing messages", async () => {
		using p = project();
		p.write("empty/.keep", "");
		const ls = createLsTool(p.cwd);
		expect(textOf(await run(ls, { path: "node_modules/x" }))).toBe("i.ts");
		expect(await errorOf(run(ls, { path: "nope" }))).toBe("Path not found: nope");
		expect(await errorOf(run(ls, { path: "a.ts" }))).toBe("Not a directory: a.ts");
		using q = new TempProject();
		expect(textOf(await run(createLsTool(q.cwd), {}))).toBe("(empty directory)");
	});

	test("operations can be swapped", async () => {
		const operations: LsOperations = {
			stat: async (path) => ({ isDirectory: () => path === "/r" || path === "/r/sub" }),
			readdir: async () => ["sub", "file"],
		};
		expect(textOf(await run(createLsTool("/r", { operations }), {}))).toBe("file\nsub/");
	});
});
