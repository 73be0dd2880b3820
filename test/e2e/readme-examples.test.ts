// The README's extension examples type-check against `agent types` output with no node_modules in
// reach: whole files as they are, and each pattern (an excerpt of a file in test/fixtures/extensions/)
// inside the factory the prose puts it in, with the few names it leaves to that file declared.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { TempWorld } from "../support/agent.ts";
import { typeCheck } from "../support/typecheck.ts";

const readme = readFileSync(resolve(import.meta.dir, "../../README.md"), "utf8");

/** Every ts block with the bold title (`**Protected paths** — …`) or heading it follows. */
function tsBlocks(): { title: string; code: string }[] {
	const out: { title: string; code: string }[] = [];
	let title = "";
	const lines = readme.split("\n");
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i]!;
		const bold = /^\*\*(.+?)\*\*/.exec(line);
		if (bold) title = bold[1]!;
		else if (line.startsWith("#")) title = line.replace(/^#+\s*/, "");
		if (line === "```ts") {
			const start = ++i;
			while (lines[i] !== "```") i++;
			out.push({ title, code: `${lines.slice(start, i).join("\n")}\n` });
		}
	}
	return out;
}

/**
 * What the file around each pattern provides: declarations before the factory, and code opening
 * and closing the place the excerpt sits in. A pattern with no entry here fails the test, so a new
 * one gets its context written down.
 */
const CONTEXT: Record<string, { declare?: string; open?: string; close?: string }> = {
	"Protected paths": { declare: "declare const PROTECTED: RegExp[];" },
	"Permission gate": { declare: "declare const DANGEROUS: RegExp[];" },
	"Pirate mode": {},
	"Input transform": {},
	"Inline bash": { open: 'pi.on("input", async (event, ctx) => {\n\tlet text = event.text;', close: "});" },
	"Todo list with state in the session": { declare: "interface Todo { text: string; done: boolean }", open: "let todos: Todo[] = [];" },
	"Plan mode": { declare: "declare const READ_ONLY: string[];", open: "let planning = false;" },
	"Two extensions talking": { open: "const counts: Record<string, number> = {};" },
	"A custom provider": {},
};

describe("README.md", () => {
	test("every ts example type-checks with only `agent types` output", async () => {
		await using world = new TempWorld();
		const blocks = tsBlocks();
		expect(blocks.length).toBeGreaterThanOrEqual(11);
		const files: string[] = [];
		blocks.forEach(({ title, code }, i) => {
			const name = `readme-${String(i + 1).padStart(2, "0")}.ts`;
			files.push(`${name}: ${title}`);
			// A whole file: it has its own default export.
			if (/^export default /m.test(code)) return void world.write(`project/readme/${name}`, code);
			const context = CONTEXT[title];
			if (!context) throw new Error(`README example under "${title}" is an excerpt with no context in this test: add one to CONTEXT`);
			const body = [context.open, code, context.close].filter(Boolean).join("\n");
			world.write(`project/readme/${name}`, `import type { ExtensionAPI } from "@scope/coding-agent";\n${context.declare ?? ""}\nexport default function (pi: ExtensionAPI) {\n${body}\n}\n`);
		});
		const dir = join(world.cwd, "readme");
		expect((await world.run(["types", dir])).code).toBe(0);
		const checked = await typeCheck(dir);
		expect({ files, ...checked }).toEqual({ files, code: 0, output: "" });
	}, 240_000);
});
