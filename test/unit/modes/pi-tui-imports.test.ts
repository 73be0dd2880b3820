// Interactive mode imports pi-tui module by module (`@earendil-works/pi-tui/dist/tui.js`, …), never
// values from its index: the index also loads the Markdown component and marked, which the first frame
// does not draw (transcript/markdown.ts loads them right after it). Type-only imports are free.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";

const root = join(import.meta.dir, "../../..");
const IMPORT = /^(import|export)\s+(type\s+)?\{([^}]*)\}\s+from\s+"@(?:earendil-works|mariozechner)\/pi-tui"/gm;

/** `file: names` for every value imported (or re-exported) from pi-tui's index. */
function indexValueImports(file: string): string[] {
	const text = readFileSync(file, "utf8");
	const found: string[] = [];
	for (const match of text.matchAll(IMPORT)) {
		if (match[2]) continue;
		const values = match[3]!.split(",").map((n) => n.trim()).filter((n) => n && !n.startsWith("type "));
		if (values.length > 0) found.push(`${relative(root, file)}: ${values.join(", ")}`);
	}
	return found;
}

describe("pi-tui imports of interactive mode", () => {
	test("no module takes a value from pi-tui's index (use @earendil-works/pi-tui/dist/<module>.js)", () => {
		const files = [...new Bun.Glob("src/modes/interactive/**/*.ts").scanSync({ cwd: root })].map((f) => join(root, f));
		expect(files.length).toBeGreaterThan(20);
		expect(files.flatMap(indexValueImports)).toEqual([]);
	});

	test("the check can fail: a value import is reported, a type-only one is not", () => {
		const dir = mkdtempSync(join(tmpdir(), "pi-tui-imports-"));
		try {
			const file = join(dir, "sample.ts");
			writeFileSync(file, `import type { TUI } from "@earendil-works/pi-tui";\nimport { Markdown, type Component } from "@earendil-works/pi-tui";\n`);
			expect(indexValueImports(file).map((l) => l.split(": ")[1])).toEqual(["Markdown"]);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
