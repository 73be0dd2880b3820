// transcript/markdown.ts: text drawn before pi-tui's Markdown component loaded is drawn again once it
// has (the app's redraw runs), and a conversation that waited for the component is not redrawn for
// nothing (a whole frame's work with a long one). Each case runs in a fresh process: the module
// loads once per process.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";

const markdown = join(import.meta.dir, "../../../src/modes/interactive/transcript/markdown.ts");
const styles = join(import.meta.dir, "../../../src/modes/interactive/theme/styles.ts");

/** Run `body` (with LazyMarkdown, loadMarkdown and a theme in scope) in a new process; what it printed. */
function run(body: string): string {
	const code = `import { LazyMarkdown, loadMarkdown } from ${JSON.stringify(markdown)};
import { getMarkdownTheme } from ${JSON.stringify(styles)};
const view = () => new LazyMarkdown("some **bold** text", 0, 0, getMarkdownTheme());
${body}`;
	const r = Bun.spawnSync([process.execPath, "-e", code], { stdout: "pipe", stderr: "pipe" });
	expect(r.stderr.toString()).toBe("");
	return r.stdout.toString();
}

describe("loading the Markdown component", () => {
	test("text drawn as plain lines first: the redraw runs once, and the view then draws Markdown", () => {
		const out = run(`const v = view();
console.log(JSON.stringify(v.render(40)));
let redraws = 0;
await loadMarkdown(() => redraws++);
await loadMarkdown(() => redraws++);
console.log(redraws, JSON.stringify(v.render(40)));`);
		const [before, after] = out.trim().split("\n");
		expect(JSON.parse(before!)).toEqual(["some **bold** text"]);
		expect(after!.startsWith("1 ")).toBe(true);
		expect(after).not.toContain("**");
		expect(after).toContain("bold");
	});

	test("a conversation that waited for it: no redraw", () => {
		const out = run(`let redraws = 0;
await loadMarkdown();
const v = view();
v.render(40);
await loadMarkdown(() => redraws++);
console.log(redraws);`);
		expect(out.trim()).toBe("0");
	});
});
