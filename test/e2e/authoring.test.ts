// Authoring through the binary: `agent new extension` scaffolds an extension that type-checks with
// only `agent types` output (tsc, no node_modules in reach) and runs as written; `agent types`
// respects a tsconfig.json of the user's own.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TempWorld } from "../support/agent.ts";
import { typeCheck } from "../support/typecheck.ts";
import { readMessages, readToolNames } from "../support/mock-llm.ts";
import { MODEL, mockWorld } from "../support/world.ts";


describe("agent new extension", () => {
	test("scaffolds a typed extension that passes tsc with only `agent types` output, and loads and runs as written", async () => {
		await using world = await mockWorld();
		const made = await world.run(["new", "extension", "word-tools"]);
		expect(made).toEqual({
			stdout:
				"Created word-tools/: index.ts (a tool, a command and an event handler), package.json, tsconfig.json and .agent-types/.\nTry it:  agent -e ./word-tools -p /word-tools\nKeep it: agent install ./word-tools\n",
			stderr: "",
			code: 0,
		});
		const dir = join(world.cwd, "word-tools");
		expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).agent).toEqual({ extensions: ["./index.ts"] });
		// pi's names resolve to the same declarations, so pi extensions type-check here too.
		world.write(
			join(dir, "pi-style.ts"),
			`import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { Type } from "@sinclair/typebox";
import { readFileSync } from "node:fs";
export default function (pi: ExtensionAPI) {
	pi.registerTool({
		name: "first_line",
		label: "First line",
		description: "The first line of a file",
		parameters: Type.Object({ path: Type.String() }),
		execute: async (_id, { path }) => ({ content: [{ type: "text", text: readFileSync(path, "utf8").split("\\n")[0] ?? "" }], details: {} }),
	});
}
`,
		);
		// One deliberate mistake proves the check is real: it must be the only error tsc reports.
		world.write(join(dir, "broken.ts"), `import { Type } from "typebox";\nconst n: number = Type.String();\nexport default n;\n`);
		const checked = await typeCheck(dir);
		expect(checked.output.split("\n").filter((l) => l.includes("error TS"))).toEqual([expect.stringMatching(/^broken\.ts\(2,7\): error TS2322: Type '.*' is not assignable to type 'number'\.$/)]);
		expect(checked.code).toBe(2);

		expect(await world.run(["-e", "./word-tools", "-p", "/word-tools Ann"])).toEqual({ stdout: "", stderr: "Info: Hello from word-tools, Ann!\n", code: 0 });
		world.mock.script(
			{ toolCalls: [{ name: "word_tools_word_count", arguments: { text: "three small words" } }, { name: "bash", arguments: { command: "rm -rf /" } }] },
			{ text: "done" },
		);
		const run = await world.run(["-e", "./word-tools", "-p", "count", "--model", MODEL.openai]);
		expect(run).toEqual({ stdout: "done\n", stderr: "", code: 0 });
		const last = world.mock.lastRequest();
		expect(readToolNames(last)).toContain("word_tools_word_count");
		expect(readMessages(last).filter((m) => m.role === "toolResult").map((m) => m.text)).toEqual(["3 words", "word-tools does not allow rm -rf /"]);
	}, 240_000);

	test("refuses a taken folder and a name that cannot be a command", async () => {
		await using world = new TempWorld();
		world.write("project/taken/file.txt", "x");
		expect(await world.run(["new", "extension", "taken"])).toEqual({ stdout: "", stderr: `Error: ${join(world.cwd, "taken")} already exists and is not empty; pick another name or folder.\n`, code: 1 });
		expect((await world.run(["new", "extension", "Bad Name"])).stderr).toBe('Error: "Bad Name" cannot name an extension: use lower-case letters, digits and "-" (it becomes the /Bad Name command).\n');
		expect((await world.run(["new", "thing", "x"])).stderr).toBe('Error: "agent new" makes an extension: Usage: agent new extension <name>\n');
	}, 60_000);
});

describe("agent types", () => {
	test("writes .agent-types/ and a tsconfig.json; a tsconfig.json of the user's own is left alone and the options printed", async () => {
		await using world = new TempWorld();
		const r = await world.run(["types"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toMatch(/^Wrote declarations for @scope\/coding-agent, typebox, .*@earendil-works\/pi-coding-agent.* \(\d+ files\) to \.agent-types\/\.\nWrote tsconfig\.json: /);
		const tsconfig = JSON.parse(readFileSync(join(world.cwd, "tsconfig.json"), "utf8"));
		expect(tsconfig.compilerOptions.paths["@scope/coding-agent"]).toEqual(["./.agent-types/coding-agent/src/index.d.ts"]);
		expect(existsSync(join(world.cwd, ".agent-types/coding-agent/src/index.d.ts"))).toBe(true);
		expect(existsSync(join(world.cwd, ".agent-types/node_modules/@types/node/package.json"))).toBe(true);
		// Running it again refreshes what it wrote.
		expect((await world.run(["types"])).code).toBe(0);

		world.write("project/mine/tsconfig.json", '{ "compilerOptions": { "strict": false } }\n');
		const own = await world.run(["types", "mine"]);
		expect(own.code).toBe(0);
		expect(own.stdout).toContain("mine/tsconfig.json is your own, so it was left as it is. Add these compilerOptions to it:\n{\n");
		expect(JSON.parse(own.stdout.slice(own.stdout.indexOf("{"))).compilerOptions.paths.typebox).toEqual(["./.agent-types/node_modules/typebox/build/index.d.mts"]);
		expect(readFileSync(join(world.cwd, "mine/tsconfig.json"), "utf8")).toBe('{ "compilerOptions": { "strict": false } }\n');
	}, 60_000);
});
