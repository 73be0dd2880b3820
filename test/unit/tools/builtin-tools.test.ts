import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Value } from "typebox/value";
import { BUILTIN_TOOL_NAMES, createBuiltinTools } from "../../../src/core/tools/index.ts";

const toolsDir = join(import.meta.dir, "../../../src/core/tools");

describe("createBuiltinTools", () => {
	test("all seven, with read, bash, edit and write active by default", () => {
		const { tools, defaultActive } = createBuiltinTools("/project");
		expect(tools.map((t) => t.name)).toEqual([...BUILTIN_TOOL_NAMES]);
		expect(defaultActive).toEqual(["read", "bash", "edit", "write"]);
	});

	test("each tool carries its markdown description, a label and a one-line prompt snippet", () => {
		for (const tool of createBuiltinTools("/project").tools) {
			const markdown = readFileSync(join(toolsDir, `${tool.name}.md`), "utf8");
			expect(tool.description.split("\n")[0]).toBe(markdown.split("\n")[0]!);
			expect(tool.description).not.toContain("{{");
			expect(tool.label.length).toBeGreaterThan(0);
			expect(tool.promptSnippet).toMatch(/^[^\n]+$/);
		}
	});

	test("limits are filled into the descriptions", () => {
		const read = createBuiltinTools("/project").tools.find((t) => t.name === "read")!;
		expect(read.description).toContain("Output stops at 2000 lines or 50KB");
	});

	test("schemas accept good calls and reject bad ones", () => {
		const byName = Object.fromEntries(createBuiltinTools("/project").tools.map((t) => [t.name, t]));
		expect(Value.Check(byName.read!.parameters, { path: "a", offset: 2, limit: 10 })).toBe(true);
		expect(Value.Check(byName.read!.parameters, { path: "a", offset: 0 })).toBe(false);
		expect(Value.Check(byName.edit!.parameters, { path: "a", edits: [{ oldText: "x", newText: "y" }] })).toBe(true);
		expect(Value.Check(byName.edit!.parameters, { path: "a", oldText: "x", newText: "y" })).toBe(false);
		expect(Value.Check(byName.edit!.parameters, byName.edit!.prepareArguments!({ path: "a", oldText: "x", newText: "y" }))).toBe(true);
		expect(Value.Check(byName.bash!.parameters, { command: "ls", timeout: 0 })).toBe(false);
		expect(Value.Check(byName.grep!.parameters, { pattern: "x", context: 2, ignoreCase: true })).toBe(true);
	});
});

describe("bundling", () => {
	test("Bun inlines the markdown descriptions, so the compiled binary needs no files beside it", async () => {
		const result = await Bun.build({ entrypoints: [join(toolsDir, "index.ts")], target: "bun", minify: true });
		expect(result.success).toBe(true);
		expect(result.outputs.length).toBe(1);
		const bundle = await result.outputs[0]!.text();
		expect(bundle).toContain("Edit a file by replacing exact text.");
		expect(bundle).not.toContain("edit.md");
	});
});
