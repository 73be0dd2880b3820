// docs/extensions.md and README.md are tested: every `ts` block type-checks against `agent types`
// output with no node_modules in reach (one tsc run for both), and the guide's first-extension
// walk-through runs through the binary as written.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { TempWorld } from "../support/agent.ts";
import { typeCheck } from "../support/typecheck.ts";

const guide = readFileSync(resolve(import.meta.dir, "../../docs/extensions.md"), "utf8");
const readme = readFileSync(resolve(import.meta.dir, "../../README.md"), "utf8");

/** The fenced blocks of a language, in order, with the heading of the section each is in. */
function blocks(lang: string): { section: string; code: string }[] {
	const out: { section: string; code: string }[] = [];
	let section = "";
	const lines = guide.split("\n");
	for (let i = 0; i < lines.length; i++) {
		const line = lines[i]!;
		if (line.startsWith("## ")) section = line.slice(3);
		if (line === "```" + lang) {
			const start = ++i;
			while (lines[i] !== "```") i++;
			out.push({ section, code: `${lines.slice(start, i).join("\n")}\n` });
		}
	}
	return out;
}

/** The README's ts blocks, each with the bold title (`**Protected paths** — …`) or heading it follows. */
function readmeBlocks(): { title: string; code: string }[] {
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
 * What the file around each README pattern provides (each is an excerpt of a file in
 * test/fixtures/extensions/): declarations before the factory, and code opening and closing the
 * place the excerpt sits in. An excerpt with no entry fails the test, so a new one gets its context.
 */
const README_CONTEXT: Record<string, { declare?: string; open?: string; close?: string }> = {
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

/** A README block as a file: whole files as they are, excerpts inside the factory their context gives. */
function readmeFile({ title, code }: { title: string; code: string }): string {
	if (/^export default /m.test(code)) return code;
	const context = README_CONTEXT[title];
	if (!context) throw new Error(`README example under "${title}" is an excerpt with no context in this test: add one to README_CONTEXT`);
	const body = [context.open, code, context.close].filter(Boolean).join("\n");
	return `import type { ExtensionAPI } from "@scope/coding-agent";\n${context.declare ?? ""}\nexport default function (pi: ExtensionAPI) {\n${body}\n}\n`;
}

/** `$ agent -p "/hello world"` → ["-p", "/hello world"]: words, double quotes group. */
function argv(command: string): string[] {
	const words = [...command.matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);
	expect(words[0]).toBe("agent");
	return words.slice(1);
}

/** `$ command` lines and the output under each, from one `sh` block. */
function transcript(code: string): { command: string; output: string }[] {
	const steps: { command: string; output: string }[] = [];
	for (const line of code.trimEnd().split("\n")) {
		if (line.startsWith("$ ")) steps.push({ command: line.slice(2), output: "" });
		else steps.at(-1)!.output += `${line}\n`;
	}
	return steps;
}

describe("docs/extensions.md", () => {
	test("every ts block of the guide and of README.md type-checks with only `agent types` output", async () => {
		await using world = new TempWorld();
		const ts = blocks("ts");
		expect(ts.length).toBeGreaterThanOrEqual(9);
		ts.forEach((b, i) => world.write(`project/guide/block-${String(i + 1).padStart(2, "0")}.ts`, b.code));
		const fromReadme = readmeBlocks();
		expect(fromReadme.length).toBeGreaterThanOrEqual(11);
		fromReadme.forEach((b, i) => world.write(`project/guide/readme-${String(i + 1).padStart(2, "0")}.ts`, readmeFile(b)));
		const dir = join(world.cwd, "guide");
		expect((await world.run(["types", dir])).code).toBe(0);
		expect(await typeCheck(dir)).toEqual({ code: 0, output: "" });
	}, 240_000);

	test("the first-extension walk-through runs as written", async () => {
		await using world = new TempWorld();
		const walk = blocks("sh").filter((b) => b.section === "Your first extension");
		const [hello] = blocks("ts").filter((b) => b.section === "Your first extension");
		expect(walk).toHaveLength(3);
		world.write("home/.agent/extensions/hello.ts", hello!.code);
		for (const block of walk.slice(0, 2)) {
			for (const step of transcript(block.code)) {
				const r = await world.run(argv(step.command));
				expect(r.stdout + r.stderr).toBe(step.output);
				expect(r.code).toBe(0);
			}
		}
		// "Change export default function hello to export function hello": the load error, with the reader's home.
		expect(hello!.code).toContain("export default function hello(");
		world.write("home/.agent/extensions/hello.ts", hello!.code.replace("export default function hello", "export function hello"));
		const [broken] = transcript(walk[2]!.code);
		const r = await world.run(argv(broken!.command));
		expect(r.stdout + r.stderr).toBe(broken!.output.replaceAll("/home/me", world.home));
		expect(r.code).toBe(1);
	});
});
