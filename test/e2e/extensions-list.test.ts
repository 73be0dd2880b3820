// `agent list [--json]` and the --verbose start-up list through the binary.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { TempWorld } from "../support/agent.ts";
import { NO_MODEL } from "../support/messages.ts";

const USER_EXT = `import { Type } from "typebox";
export default function (pi) {
	pi.registerTool({ name: "greet", label: "G", description: "", parameters: Type.Object({}), execute: async () => ({ content: [], details: {} }) });
	pi.registerCommand("hello", { handler() {} });
	pi.registerFlag("plan", { type: "boolean" });
	pi.on("session_start", () => {});
	pi.on("tool_call", () => {});
}
`;

function world3(): TempWorld {
	const world = new TempWorld();
	world.write("project/.agent/extensions/p.ts", 'export default (pi) => pi.registerCommand("hello", { handler() {} });\n');
	world.write("home/.agent/extensions/u.ts", USER_EXT);
	world.write("project/bad.ts", "export const x = 1;\n");
	return world;
}

describe("agent list", () => {
	test("grouped project / user / path with status and registrations; exit 1 when one is in error (CI gates on it)", async () => {
		await using world = world3();
		const r = await world.run(["list", "-e", "./bad.ts"]);
		expect(r).toEqual({
			stdout: `project
  ${join(world.cwd, ".agent/extensions/p.ts")}  skipped (untrusted)
user
  ~/.agent/extensions/u.ts  loaded
    tools: greet
    commands: /hello
    flags: --plan
    events: session_start, tool_call
path
  ./bad.ts  error: Extension does not export a valid factory function: ./bad.ts

Project extensions are skipped until you trust the folder: "agent trust" (or --approve for one run).
`,
			stderr: "",
			code: 1,
		});
		const json = await world.run(["list", "--json", "-e", "./bad.ts"]);
		expect(json.code).toBe(1);
		expect(JSON.parse(json.stdout).extensions.map((e: { status: string }) => e.status)).toEqual(["skipped (untrusted)", "loaded", "error"]);
		// Nothing in error: exit 0.
		expect((await world.run(["list"])).code).toBe(0);
	});

	test("--json for machines; -a loads the project ones; what factories print goes to stderr", async () => {
		await using world = world3();
		world.write("project/.agent/extensions/p.ts", 'export default (pi) => { console.log("chatty factory"); pi.registerCommand("hello", { handler() {} }); };\n');
		const r = await world.run(["list", "--json", "-a"]);
		expect(r.code).toBe(0);
		expect(r.stderr).toBe("chatty factory\n");
		const { extensions } = JSON.parse(r.stdout);
		expect(extensions.map((e: { group: string; status: string; commands: string[] }) => [e.group, e.status, e.commands])).toEqual([
			["project", "loaded", ["/hello"]],
			["user", "loaded", ["/hello"]],
		]);
		expect(extensions[1]).toEqual({
			path: join(world.agentDir, "extensions/u.ts"),
			resolvedPath: join(world.agentDir, "extensions/u.ts"),
			group: "user",
			status: "loaded",
			tools: ["greet"],
			commands: ["/hello"],
			flags: ["--plan"],
			events: ["session_start", "tool_call"],
			shortcuts: [],
			providers: [],
			mcpServers: [],
		});
	});

	test("nothing to list says where extensions go", async () => {
		await using world = new TempWorld();
		expect((await world.run(["list"])).stdout).toBe(
			"No extensions found. Put .ts files in .agent/extensions/ (this project) or ~/.agent/extensions/ (all projects), or pass -e <path>.\n",
		);
	});
});

describe("--verbose start-up list", () => {
	test("expanded groups in order, home as ~, index folders by name, command clashes under [Extension issues]", async () => {
		await using world = world3();
		world.write("project/.agent/extensions/dirext/index.ts", "export default () => {};\n");
		world.write("project/tmp-ext.ts", "export default () => {};\n");
		const r = await world.run(["-a", "--verbose", "-e", "./tmp-ext.ts", "-p", "hi"]);
		const p = join(world.cwd, ".agent/extensions");
		expect(r.stderr).toBe(` agent v0.1.0

[Extensions]
  project
    ${p}/dirext
    ${p}/p.ts
  user
    ~/.agent/extensions/u.ts
  path
    ${join(world.cwd, "tmp-ext.ts")}

[Extension issues]
  user ${"~/.agent/extensions/u.ts"}
    Command /hello is also registered by ${p}/p.ts: use /hello:1, /hello:2

${NO_MODEL}`);
	});
});
