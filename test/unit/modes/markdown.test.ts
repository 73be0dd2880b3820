// Markdown for the terminal, streamed line by line (colours stripped: we test the text).
import { expect, test } from "bun:test";
import { MarkdownStream, renderMarkdown } from "../../../src/modes/interactive/markdown.ts";

const plain = (lines: string[]) => lines.map((l) => l.replace(/\x1b\[[0-9;]*m/g, ""));

test("headings, lists, quotes, rules, code fences and inline marks", () => {
	const md = "# Title\n## Sub\n- a **bold** item\n  * nested `code`\n3. third\n- [x] done\n> quoted\n---\n```ts\nconst x = 1;\n```\n[link](https://x.y) and _it_";
	expect(plain(renderMarkdown(md))).toEqual([
		"Title",
		"Sub",
		"• a bold item",
		"  • nested code",
		"3. third",
		"• ☑ done",
		"│ quoted",
		"─".repeat(40),
		"┌─ ts",
		"│ const x = 1;",
		"└─",
		"link (https://x.y) and it",
	]);
});

test("a stream prints lines as they complete; the tail is a partial; end closes an open fence", () => {
	const s = new MarkdownStream();
	expect(s.push("Hel")).toEqual([]);
	expect(plain([s.partial])).toEqual(["Hel"]);
	expect(plain(s.push("lo\n```js\nlet"))).toEqual(["Hello", "┌─ js"]);
	// The partial is rendered inside the fence but does not move it.
	expect(plain([s.partial])).toEqual(["│ let"]);
	expect(plain(s.end())).toEqual(["│ let", "└─"]);
	expect(s.partial).toBe("");
});
