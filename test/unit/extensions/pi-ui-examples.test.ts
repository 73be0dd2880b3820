// Which of pi 1.6's example extensions need a full-screen UI — they import pi-tui, call
// ctx.ui.custom / setHeader / setFooter / setEditorComponent / setWidget, or draw tools, messages or
// entries with their own renderers — and that each of them is driven in a real terminal by one of
// the test/e2e/pi-examples-*.test.ts files (`example(world, "<name>")`). The count: 33 of 33.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { EXAMPLES } from "../../support/pi-examples/copy.ts";

const NEEDS_TUI = /pi-tui|ui\.(custom|setHeader|setFooter|setEditorComponent|setWidget)\b|renderCall|renderResult|registerMessageRenderer|registerEntryRenderer/;

/** The example's source: the file, or every .ts file of the folder. */
function source(name: string): string {
	const path = join(EXAMPLES, name);
	if (!statSync(path).isDirectory()) return readFileSync(path, "utf8");
	return readdirSync(path, { recursive: true, encoding: "utf8" })
		.filter((f) => f.endsWith(".ts"))
		.map((f) => readFileSync(join(path, f), "utf8"))
		.join("\n");
}

const UI_EXAMPLES = readdirSync(EXAMPLES)
	.filter((name) => name !== "README.md" && NEEDS_TUI.test(source(name)))
	.sort();

test("33 of pi's examples need a full-screen UI, and a terminal test drives each one", () => {
	expect(UI_EXAMPLES.length).toBe(33);
	const e2e = resolve(import.meta.dir, "../../e2e");
	const tests = readdirSync(e2e)
		.filter((f) => /^pi-examples-.*\.test\.ts$/.test(f))
		.map((f) => readFileSync(join(e2e, f), "utf8"))
		.join("\n");
	const untested = UI_EXAMPLES.filter((name) => !tests.includes(`example(world, "${name}")`));
	expect(untested).toEqual([]);
});
