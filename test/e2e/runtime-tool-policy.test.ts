// pi 1.6 parity for tools and flags that appear after start-up (issue 13): tools an extension
// registers in session_start or from a command obey --tools, -nt and -nbt like factory ones;
// registerFlag without a type is a boolean; a flag named like a built-in one fails the extension.
import { describe, expect, test } from "bun:test";
import { readToolNames } from "../support/mock-llm.ts";
import { readLog, runWith, writeExtension } from "../support/runtime.ts";
import { mockWorld } from "../support/world.ts";

const LATE_TOOL = `import { Type } from "typebox";
const tool = (name) => ({
	name, label: name, description: "a tool registered late",
	parameters: Type.Object({}),
	execute: async () => ({ content: [{ type: "text", text: name + " ran" }], details: {} }),
});
export default function (pi) {
	pi.registerTool(tool("factory_tool"));
	pi.on("session_start", () => {
		pi.registerTool(tool("dynamic_tool"));
		log({ all: pi.getAllTools().map((t) => t.name), active: pi.getActiveTools() });
	});
}
`;

describe("tools registered after the factory obey the command line", () => {
	test("default: a session_start tool is sent with the others", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "late", LATE_TOOL);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [ext], ["hi"], { mode: "print" });
		expect(r.code).toBe(0);
		expect(readToolNames(world.mock.requests[0]!)).toEqual(["read", "bash", "edit", "write", "factory_tool", "dynamic_tool"]);
	});

	test("-nt sends no tool at all, and getAllTools() still lists every tool", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "late", LATE_TOOL);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [ext], ["hi"], { mode: "print", args: ["-nt"] });
		expect(r.code).toBe(0);
		expect(world.mock.requests[0]!.body.tools).toBeUndefined();
		expect(r.log[0].active).toEqual([]);
		expect(r.log[0].all).toEqual(expect.arrayContaining(["read", "grep", "factory_tool", "dynamic_tool"]));
	});

	test("--tools read sends only read; --tools read,dynamic_tool names a session_start tool and is accepted", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "late", LATE_TOOL);
		world.mock.script({ text: "ok" }, { text: "ok" });
		const only = await runWith(world, [ext], ["hi"], { mode: "print", args: ["--tools", "read"] });
		expect(only.code).toBe(0);
		expect(readToolNames(world.mock.requests[0]!)).toEqual(["read"]);
		const both = await runWith(world, [ext], ["hi"], { mode: "print", args: ["--tools", "read,dynamic_tool"] });
		expect(both).toMatchObject({ code: 0, stderr: "" });
		expect(readToolNames(world.mock.requests[1]!)).toEqual(["read", "dynamic_tool"]);
	});

	test("--tools with a name nobody registers is still an error naming it", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "late", LATE_TOOL);
		const r = await runWith(world, [ext], ["hi"], { mode: "print", args: ["--tools", "read,nope"] });
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("Unknown tool in --tools: nope");
		expect(world.mock.requests.length).toBe(0);
	});

	test("-nbt: extension tools only, getAllTools() lists the built-ins and setActiveTools turns one back on", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"nbt",
			LATE_TOOL.replace(
				"log({",
				`if (process.env.TURN_ON) pi.setActiveTools([...pi.getActiveTools(), "grep"]);
		log({`,
			),
		);
		world.mock.script({ text: "ok" }, { text: "ok" });
		const r = await runWith(world, [ext], ["hi"], { mode: "print", args: ["-nbt"] });
		expect(r.code).toBe(0);
		expect(readToolNames(world.mock.requests[0]!)).toEqual(["factory_tool", "dynamic_tool"]);
		expect(r.log[0].all).toEqual(expect.arrayContaining(["read", "bash", "edit", "write", "grep", "find", "ls"]));
		const on = await runWith(world, [ext], ["hi"], { mode: "print", args: ["-nbt"], env: { TURN_ON: "1" } });
		expect(on.code).toBe(0);
		expect(readToolNames(world.mock.requests[1]!)).toEqual(["factory_tool", "dynamic_tool", "grep"]);
	});

	test("a tool a command registers obeys --tools too", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"cmd",
			LATE_TOOL.replace(
				"export default function (pi) {",
				`export default function (pi) {
	pi.registerCommand("more", { handler: async () => pi.registerTool(tool("command_tool")) });`,
			),
		);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [ext], ["/more", "hi"], { mode: "print", args: ["--tools", "read"] });
		expect(r.code).toBe(0);
		expect(readToolNames(world.mock.requests[0]!)).toEqual(["read"]);
	});
});

describe("registerFlag as pi 1.6 has it", () => {
	test("a flag without a type is a boolean: --loud takes no value, the prompt stays the prompt", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"flag",
			`export default function (pi) {
	pi.registerFlag("loud", { description: "shout" });
	pi.on("session_start", () => log(String(pi.getFlag("loud"))));
}
`,
		);
		world.mock.script({ text: "ok" }, { text: "ok" });
		const off = await runWith(world, [ext], ["hi"], { mode: "print" });
		expect(off.code).toBe(0);
		expect(off.log).toEqual(["undefined"]);
		const on = await world.run(["-ne", "-e", ext, "--model", "mock/mock-model", "--loud", "-p", "hello there"], { env: { EXT_LOG: `${world.root}/ext-log.jsonl` } });
		expect(on.code).toBe(0);
		expect(on.stdout).toBe("ok\n");
		expect(on.stderr).toBe("");
		expect(readLog(world)).toEqual(["undefined", "true"]);
		expect(world.mock.requests[1]!.body.messages.at(-1).content).toContain("hello there");
	});

	test("a flag named like a built-in flag is a load error naming the file and the flag", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "clash", `export default function (pi) { pi.registerFlag("model", { type: "string" }); }\n`);
		const r = await runWith(world, [ext], ["hi"], { mode: "print" });
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("clash.ts");
		expect(r.stderr).toContain('registerFlag("model"): --model is a built-in flag; give the extension\'s flag another name');
		expect(world.mock.requests.length).toBe(0);
	});
});

describe("pi.setActiveTools() from a tool", () => {
	test("takes effect for the very next request of the same run", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"narrow",
			`import { Type } from "typebox";
export default function (pi) {
	pi.registerTool({
		name: "narrow", label: "Narrow", description: "leaves only read", parameters: Type.Object({}),
		execute: async () => { pi.setActiveTools(["read"]); return { content: [{ type: "text", text: "narrowed" }], details: {} }; },
	});
}
`,
		);
		world.mock.script({ toolCalls: [{ name: "narrow", arguments: {}, id: "c1" }] }, { text: "done" });
		const r = await runWith(world, [ext], ["go"], { mode: "print" });
		expect(r).toMatchObject({ code: 0, stdout: "done\n", stderr: "" });
		expect(world.mock.requests.map((q) => readToolNames(q))).toEqual([["read", "bash", "edit", "write", "narrow"], ["read"]]);
	});
});
