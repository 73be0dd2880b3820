// Extension loading through the compiled binary, from folders with no node_modules above them:
// the failure lines and exit codes of SPEC §5, the embedded modules, an extension's own deps,
// extension flags, and the loader staying unloaded when there is nothing to load.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { TempWorld } from "../support/agent.ts";
import { NO_MODEL } from "../support/messages.ts";
import { parseTiming, unattributedIn } from "../../scripts/bench/timing-rows.ts";

const HINT = 'Hint: Start without extensions using "agent -ne".';

const TOOL = (name: string) => `import { Type } from "typebox";
export default function (pi) {
	pi.registerTool({ name: "${name}", label: "T", description: "d", parameters: Type.Object({}), execute: async () => ({ content: [], details: {} }) });
}
`;

describe("the seeds' walk-through, step 5", () => {
	test("hello.ts without a default export: two lines, exit 1", async () => {
		await using world = new TempWorld();
		const hello = world.write(
			"tmp/hello.ts",
			`import type { ExtensionAPI } from "@scope/coding-agent";

export function helloExtension(pi: ExtensionAPI) {
	pi.registerCommand("hello", {
		description: "Say hello from a book extension",
		handler: async (_args, ctx) => {
			ctx.ui.notify("Hello from /tmp/hello.ts!", "info");
		},
	});
}
`,
		);
		const r = await world.run(["-e", hello]);
		expect(r).toEqual({
			stdout: "",
			stderr: `Error: Failed to load extension "${hello}": Extension does not export a valid factory function: ${hello}\n${HINT}\n`,
			code: 1,
		});
	});

	test("with the default export it loads and --verbose lists it under path", async () => {
		await using world = new TempWorld();
		const hello = world.write(
			"tmp/hello.ts",
			`import type { ExtensionAPI } from "@scope/coding-agent";\nexport default function (pi: ExtensionAPI) {\n\tpi.registerCommand("hello", { description: "Say hello", handler: async () => {} });\n}\n`,
		);
		const r = await world.run(["-e", hello, "--verbose", "-p", "hi"]);
		expect(r.stderr).toBe(` agent v0.1.0\n\n[Extensions]\n  path\n    ${hello}\n\n${NO_MODEL}`);
	});
});

describe("start-up failure: one line per failed extension, the hint, exit 1", () => {
	const cases: [string, string, (file: string) => string][] = [
		["default export not a function", "export default 42;\n", () => "Extension does not export a valid factory function: ./ext.ts"],
		["factory throws", 'export default function (pi) {\n\tthrow new Error("boom");\n}\n', (f) => `boom (at ${f}:2:12)`],
		["async factory rejects", 'export default async function () {\n\tawait null;\n\tthrow new Error("later");\n}\n', (f) => `later (at ${f}:3:12)`],
		["syntax error names file:line:column", "export default function () {\n\tconst x = ;\n}\n", (f) => `Syntax error at ${f}:2:12: Unexpected ;`],
		["import of a missing module", 'import { thing } from "not-installed";\nexport default () => thing;\n', (f) => `Cannot find module "not-installed" imported at ${f}:1:23`],
		[
			"an action method called in the factory",
			'export default function (pi) {\n\tpi.sendMessage({ customType: "x", content: "hi", display: true });\n}\n',
			(f) => `Extension runtime not initialized. Action methods cannot be called during extension loading. (at ${f}:2:5)`,
		],
		["setModel awaited in the factory", "export default async function (pi) {\n\tawait pi.setModel({});\n}\n", (f) => `Extension runtime not initialized (at ${f}:2:11)`],
	];
	for (const [name, source, reason] of cases) {
		test(name, async () => {
			await using world = new TempWorld();
			const file = world.write("project/ext.ts", source);
			const r = await world.run(["-e", "./ext.ts", "-p", "hi"]);
			expect(r).toEqual({ stdout: "", stderr: `Error: Failed to load extension "./ext.ts": ${reason(file)}\n${HINT}\n`, code: 1 });
		});
	}

	test("a factory that never settles hits the load timeout", async () => {
		await using world = new TempWorld();
		world.write("project/hang.ts", "export default function () {\n\treturn new Promise(() => {});\n}\n");
		const r = await world.run(["-e", "./hang.ts", "-p", "hi"], { env: { AGENT_EXTENSION_TIMEOUT_MS: "300" } });
		expect(r).toEqual({
			stdout: "",
			stderr: `Error: Failed to load extension "./hang.ts": Extension factory did not finish within 300 ms: it awaits something that never settles\n${HINT}\n`,
			code: 1,
		});
	});

	test("a missing -e path", async () => {
		await using world = new TempWorld();
		const r = await world.run(["-e", "./nope.ts"]);
		expect(r).toEqual({ stdout: "", stderr: `Error: Failed to load extension "./nope.ts": Extension path does not exist: ${join(world.cwd, "nope.ts")}\n${HINT}\n`, code: 1 });
	});

	test("tool-name and flag-name conflicts name both files; every failure gets its line", async () => {
		await using world = new TempWorld();
		world.write("project/one.ts", TOOL("greet"));
		world.write("project/two.ts", TOOL("greet"));
		world.write("project/f1.ts", 'export default (pi) => pi.registerFlag("plan", { type: "boolean" });\n');
		world.write("project/f2.ts", 'export default (pi) => pi.registerFlag("plan", { type: "string" });\n');
		const r = await world.run(["-e", "./one.ts", "-e", "./two.ts", "-e", "./f1.ts", "-e", "./f2.ts", "-p", "hi"]);
		expect(r).toEqual({
			stdout: "",
			stderr: `Error: Failed to load extension "./two.ts": Tool "greet" conflicts with ./one.ts\nError: Failed to load extension "./f2.ts": Flag "--plan" conflicts with ./f1.ts\n${HINT}\n`,
			code: 1,
		});
	});

	test("in every mode, before any session; a discovered broken extension fails too", async () => {
		await using world = new TempWorld();
		const broken = world.write("home/.agent/extensions/broken.ts", "export const x = 1;\n");
		world.write("project/good.ts", "export default () => {};\n");
		const expected = `Error: Failed to load extension "${broken}": Extension does not export a valid factory function: ${broken}\n${HINT}\n`;
		for (const argv of [["-p", "hi"], ["--mode", "json", "-p", "hi"], ["--mode", "rpc"], [], ["-e", "./good.ts"]]) {
			const r = await world.run(argv);
			expect({ argv, ...r }).toEqual({ argv, stdout: "", stderr: expected, code: 1 });
		}
		expect((await world.run(["-ne", "-p", "hi"])).stderr).toBe(NO_MODEL);
	});

	test("--help and --version still work with a broken extension", async () => {
		await using world = new TempWorld();
		world.write("project/broken.ts", "export default function () {\n\tconst = ;\n}\n");
		const version = await world.run(["-e", "./broken.ts", "--version"]);
		expect(version).toEqual({ stdout: "0.1.0\n", stderr: "", code: 0 });
		const help = await world.run(["-e", "./broken.ts", "--help"]);
		expect(help.code).toBe(0);
		expect(help.stderr).toBe("");
		expect(help.stdout).toStartWith("agent v0.1.0");
		expect(help.stdout).toEndWith('\n1 extension failed to load, so its flags are not listed: run "agent list" to see why.\n');
	});
});

describe("the embedded framework", () => {
	test("typebox, @sinclair/typebox, @scope/coding-agent and the pi aliases resolve with no node_modules", async () => {
		await using world = new TempWorld();
		world.write(
			"project/all.ts",
			`import { Type } from "typebox";
import { Value } from "typebox/value";
import { Compile } from "typebox/compile";
import { Type as T2 } from "@sinclair/typebox";
import { VERSION, defineTool, isToolCallEventType, getAgentDir } from "@scope/coding-agent";
import * as pi1 from "@mariozechner/pi-coding-agent";
import * as pi2 from "@earendil-works/pi-coding-agent";
import { StringEnum } from "@mariozechner/pi-ai";
import { Text } from "@mariozechner/pi-tui";
import type { AgentMessage } from "@mariozechner/pi-agent-core";
export default function (pi) {
	const schema = Type.Object({ n: Type.Number() });
	const tool = defineTool({ name: "t", label: "T", description: "", parameters: schema, execute: async () => ({ content: [], details: {} }) });
	const e = { type: "tool_call", toolCallId: "1", toolName: "bash", input: { command: "ls" } };
	console.error([VERSION, Value.Check(schema, { n: 1 }), Compile(schema).Check({ n: "x" }), T2 === Type, pi1.VERSION === pi2.VERSION, JSON.stringify(StringEnum(["a"])), new Text("hi", 0, 0).render(10)[0].trimEnd(), isToolCallEventType("bash", e), getAgentDir(), tool.name].join(" "));
}
`,
		);
		const r = await world.run(["-e", "./all.ts", "-p", "x"]);
		expect(r.stderr).toBe(`0.1.0 true false true true {"type":"string","enum":["a"]} hi true ${world.agentDir} t\n${NO_MODEL}`);
	});

	test("a folder extension's own dependencies resolve from its node_modules", async () => {
		await using world = new TempWorld();
		world.write("project/.agent/extensions/with-deps/package.json", JSON.stringify({ name: "with-deps", agent: { extensions: ["./src/main.ts"] } }));
		world.write("project/.agent/extensions/with-deps/node_modules/pad-it/package.json", JSON.stringify({ name: "pad-it", version: "1.0.0", main: "index.js" }));
		world.write("project/.agent/extensions/with-deps/node_modules/pad-it/index.js", "module.exports = (s, n) => String(s).padStart(n, '.');\n");
		world.write("project/.agent/extensions/with-deps/node_modules/esm-dep/package.json", JSON.stringify({ name: "esm-dep", type: "module", exports: "./index.js" }));
		world.write("project/.agent/extensions/with-deps/node_modules/esm-dep/index.js", 'export const shout = (s) => s.toUpperCase() + "!";\n');
		world.write(
			"project/.agent/extensions/with-deps/src/main.ts",
			`import pad from "pad-it";\nimport { shout } from "esm-dep";\nimport { helper } from "./helper.ts";\nexport default function () { console.error(pad(shout(helper), 8)); }\n`,
		);
		world.write("project/.agent/extensions/with-deps/src/helper.ts", 'export const helper = "dep";\n');
		const r = await world.run(["-a", "-p", "x"]);
		expect(r.stderr).toBe(`....DEP!\n${NO_MODEL}`);
	});
});

describe("lazy loading", () => {
	test("with no extension on disk the loader and the virtual-module table are never imported", async () => {
		await using world = new TempWorld();
		const none = await world.run(["-p", "hi"], { env: { AGENT_TIMING: "1" } });
		expect(none.stderr).toContain("  extensions ");
		expect(none.stderr).not.toContain("load virtual modules");
		expect(none.stderr).not.toContain("load jiti");
		world.write("project/one.ts", "export default () => {};\n");
		const one = await world.run(["-e", "./one.ts", "-p", "hi"], { env: { AGENT_TIMING: "1" } });
		expect(one.stderr).toContain("    load virtual modules ");
		expect(one.stderr).toContain("    trust gate, flags ");
		expect(one.stderr).not.toContain("load jiti");
		expect(one.stderr).toMatch(new RegExp(`\\n    ${join(world.cwd, "one.ts")}  resolve \\d+\\.\\d\\d · import \\d+\\.\\d\\d · factory \\d+\\.\\d\\d · commit \\d+\\.\\d\\d +\\d+\\.\\d\\d\\n`));
	});

	test("AGENT_TIMING: the extensions phase is the sum of its rows (set-up, discovery, every file, flags)", async () => {
		await using world = new TempWorld();
		for (const n of ["a", "b", "c"]) world.write(`project/${n}.ts`, TOOL(`tool_${n}`));
		const r = await world.run(["-e", "./a.ts", "-e", "./b.ts", "-e", "./c.ts", "-p", "hi"], { env: { AGENT_TIMING: "1" } });
		const timing = parseTiming(r.stderr);
		const rows = timing.rows.filter((row) => row.parent === "extensions");
		expect(rows.map((row) => row.label)).toEqual(["trust, settings, discovery", "import loader", "load virtual modules", "loader set-up", ...["a", "b", "c"].map((n) => join(world.cwd, `${n}.ts`)), "trust gate, flags"]);
		// Not a timing assertion: an accounting one. Each printed row is rounded to 0.01 ms.
		expect(Math.abs(unattributedIn(timing, "extensions"))).toBeLessThanOrEqual(0.005 * (rows.length + 1) + 0.01);
	});
});

describe("extension flags (second pass)", () => {
	const FLAGS = `export default function (pi) {
	pi.registerFlag("plan", { type: "boolean", description: "Plan before acting" });
	pi.registerFlag("preset", { type: "string", default: "fast" });
}
`;

	test("--help lists Extension flags:", async () => {
		await using world = new TempWorld();
		world.write("project/flags.ts", FLAGS);
		const r = await world.run(["-e", "./flags.ts", "--help"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toContain(`Extension flags:\n  --plan            Plan before acting\n  --preset <value>  Registered by ./flags.ts\n`);
	});

	test("known extension flags are accepted; unknown ones fail after load; a boolean never takes the next word", async () => {
		await using world = new TempWorld();
		world.write("project/flags.ts", FLAGS);
		expect((await world.run(["-e", "./flags.ts", "--plan", "fix", "bug", "--preset", "slow", "-p"])).stderr).toBe(NO_MODEL);
		expect(await world.run(["-e", "./flags.ts", "--plan", "--nope", "-p", "x"])).toEqual({ stdout: "", stderr: "Error: Unknown option: --nope\n", code: 1 });
		expect(await world.run(["-e", "./flags.ts", "-p", "x", "--preset"])).toEqual({ stdout: "", stderr: 'Error: Extension flag "--preset" requires a value\n', code: 1 });
		expect(await world.run(["--plan", "-p", "x"])).toEqual({ stdout: "", stderr: "Error: Unknown option: --plan\n", code: 1 });
	});
});

describe("settings", () => {
	test("extensions listed in settings load, relative to the settings file's folder", async () => {
		await using world = new TempWorld();
		world.write("home/.agent/settings.json", JSON.stringify({ extensions: ["./lib/u.ts"] }));
		world.write("home/.agent/lib/u.ts", "export default () => {};\n");
		const r = await world.run(["--verbose", "-p", "x"]);
		expect(r.stderr).toBe(` agent v0.1.0\n\n[Extensions]\n  user\n    ~/.agent/lib/u.ts\n\n${NO_MODEL}`);
	});

	test("a malformed settings file stops with its line and column and is left untouched", async () => {
		await using world = new TempWorld();
		const text = '{\n  "extensions": ["./a.ts"]\n  "other": 1\n}\n';
		const path = world.write("home/.agent/settings.json", text);
		const r = await world.run(["-p", "x"]);
		expect(r).toEqual({
			stdout: "",
			stderr: `Error: ~/.agent/settings.json:3:3: invalid JSON: expected "," or "}" after a property value\nFix the file and run again (it was not changed), or move it aside to start without it.\n`,
			code: 1,
		});
		expect(await Bun.file(path).text()).toBe(text);
	});
});
