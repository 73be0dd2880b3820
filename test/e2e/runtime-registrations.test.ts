// What extensions register, at work in a run (SPEC §5, §8, reference §4): tools (active by default,
// overriding a built-in, prompt snippets and guidelines, prepareArguments), commands (before the
// model, name:N and the ambiguous error, a throwing handler), and flags parsed after load.
import { describe, expect, test } from "bun:test";
import { readMessages, readToolNames } from "../support/mock-llm.ts";
import { onlySession, runWith, transcript, writeExtension } from "../support/runtime.ts";
import { MODEL, mockWorld } from "../support/world.ts";

describe("tools", () => {
	test("active by default, a built-in name replaces the built-in, snippets and guidelines enter the system prompt, prepareArguments runs first", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"tools",
			`import { Type } from "typebox";
export default function (pi) {
	pi.registerTool({
		name: "greet", label: "Greet", description: "Greets someone",
		promptSnippet: "Greet a person by name", promptGuidelines: ["Greet before you answer."],
		parameters: Type.Object({ name: Type.String() }),
		// Old callers sent { who }: migrate before validation.
		prepareArguments: (args) => ("who" in args ? { name: args.who } : args),
		execute: async (_id, params) => ({ content: [{ type: "text", text: "hello " + params.name }], details: { greeted: params.name } }),
	});
	pi.registerTool({
		name: "read", label: "Read", description: "Reads from the extension",
		parameters: Type.Object({ path: Type.String() }),
		execute: async (_id, params) => ({ content: [{ type: "text", text: "ext read " + params.path }], details: {} }),
	});
	pi.on("tool_call", (e) => log(e.toolName, e.input));
}
`,
		);
		world.write("project/a.txt", "real content\n");
		world.mock.script({ toolCalls: [{ name: "greet", arguments: { who: "Ada" }, id: "c1" }, { name: "read", arguments: { path: "a.txt" }, id: "c2" }] }, { text: "ok" });
		const r = await runWith(world, [ext], ["go"]);
		expect(r.stderr).toBe("");
		const first = world.mock.requests[0]!;
		expect(readToolNames(first)).toEqual(["read", "bash", "edit", "write", "greet"]);
		expect(first.body.tools.find((t: any) => t.function.name === "read").function.description).toBe("Reads from the extension");
		const system = readMessages(first)[0]!.text;
		expect(system).toContain("\n- greet: Greet a person by name\n");
		expect(system).toContain("\n- Greet before you answer.\n");
		expect(r.log).toEqual([
			["greet", { name: "Ada" }],
			["read", { path: "a.txt" }],
		]);
		expect(readMessages(world.mock.lastRequest()).slice(-2).map((m) => m.text)).toEqual(["hello Ada", "ext read a.txt"]);
		expect(onlySession(world).find((e) => e.message?.toolName === "greet").message.details).toEqual({ greeted: "Ada" });
	});
});

describe("commands", () => {
	test("the seeds' hello extension (the README's first extension): /hello runs it, nothing reaches the model", async () => {
		await using world = await mockWorld();
		world.write(
			"home/.agent/extensions/hello.ts",
			`import type { ExtensionAPI } from "@scope/coding-agent";

export default function helloExtension(pi: ExtensionAPI) {
	pi.registerCommand("hello", {
		description: "Say hello from an extension",
		handler: async (_args, ctx) => {
			ctx.ui.notify("Hello from hello.ts!", "info");
			console.log(\`hello ran, hasUI=\${ctx.hasUI}\`);
		},
	});
}
`,
		);
		const r = await world.run(["--model", MODEL.openai, "-p", "/hello"]);
		expect(r).toEqual({ stdout: "", stderr: "Info: Hello from hello.ts!\nhello ran, hasUI=false\n", code: 0 });
		expect(world.mock.requests.length).toBe(0);
	});

	test("`/name args` runs before the model: no input event, no request; unknown commands go to the model", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"cmd",
			`export default function (pi) {
	pi.registerCommand("stats", { description: "Show stats", handler: async (args, ctx) => log("stats", args, ctx.hasUI, typeof ctx.waitForIdle) });
	pi.on("input", (e) => log("input", e.text));
}
`,
		);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [ext], ["/stats  all of it ", "/unknown thing"], { mode: "print" });
		expect(r).toMatchObject({ stdout: "ok\n", stderr: "", code: 0 });
		expect(r.log).toEqual([
			["stats", "all of it", false, "function"],
			["input", "/unknown thing"],
		]);
		expect(world.mock.requests.length).toBe(1);
		expect(transcript(onlySession(world))).toEqual(["user: /unknown thing", "assistant: ok"]);
	});

	test("a name two extensions register: /name:1, /name:2, and the bare name is an error that never reaches the model", async () => {
		await using world = await mockWorld();
		const a = writeExtension(world, "a", `export default (pi) => pi.registerCommand("deploy", { handler: async (args) => log("a", args) });\n`);
		const b = writeExtension(world, "b", `export default (pi) => pi.registerCommand("deploy", { handler: async (args) => log("b", args) });\n`);
		const ok = await runWith(world, [a, b], ["/deploy:2 prod", "/deploy:1"], { mode: "print" });
		expect(ok).toMatchObject({ stdout: "", stderr: "", code: 0 });
		expect(ok.log).toEqual([
			["b", "prod"],
			["a", ""],
		]);
		const bad = await runWith(world, [a, b], ["/deploy now"], { mode: "print" });
		expect(bad.stderr).toBe(`Error: Ambiguous command /deploy: use /deploy:1 (${world.cwd}/a.ts) or /deploy:2 (${world.cwd}/b.ts)\n`);
		expect(bad.code).toBe(1);
		expect(world.mock.requests.length).toBe(0);
	});

	test("a throwing command is reported and counts as handled", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "boom", `export default (pi) => pi.registerCommand("boom", { handler: async () => { throw new Error("command failed"); } });\n`);
		for (const mode of ["print", "json"] as const) {
			const r = await runWith(world, [ext], ["/boom"], { mode });
			expect(r.stderr).toBe("Extension error (command:boom): command failed\n");
			expect(r.code).toBe(0);
		}
		expect(world.mock.requests.length).toBe(0);
	});
});

describe("flags", () => {
	const FLAGS = `export default function (pi) {
	pi.registerFlag("plan", { type: "boolean", description: "Plan only", default: false });
	pi.registerFlag("level", { type: "string", default: "low" });
	log("factory", pi.getFlag("plan"), pi.getFlag("level"), pi.getFlag("not-mine") ?? null);
	pi.on("session_start", () => log("start", pi.getFlag("--plan"), pi.getFlag("level")));
}
`;

	test("parsed after load: a boolean never swallows a word, a string takes its value; getFlag sees the defaults during load", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "flags", FLAGS);
		world.mock.script({ text: "ok" });
		const argv = ["-ne", "-e", ext, "--model", MODEL.openai, "-p", "--plan", "fix the bug", "--level", "high"];
		const r = await world.run(argv, { env: { EXT_LOG: `${world.root}/ext-log.jsonl` } });
		expect(r).toMatchObject({ stdout: "ok\n", stderr: "", code: 0 });
		expect(readMessages(world.mock.lastRequest()).at(-1)!.text).toBe("fix the bug");
		const log = (await Bun.file(`${world.root}/ext-log.jsonl`).text()).trim().split("\n").map((l) => JSON.parse(l));
		expect(log).toEqual([
			["factory", false, "low", null],
			["start", true, "high"],
		]);
	});

	test("defaults when not given; --name=value; errors name the flag", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "flags", FLAGS);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [ext], ["hi"], { mode: "print", args: ["--level=mid"] });
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([
			["factory", false, "low", null],
			["start", false, "mid"],
		]);
		const missing = await runWith(world, [ext], ["hi"], { mode: "print", args: ["--nope"] });
		expect(missing).toMatchObject({ stderr: "Error: Unknown option: --nope\n", code: 1 });
	});
});
