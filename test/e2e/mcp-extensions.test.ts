// pi 1.6's MCP extension API through the binary: pi.registerMcpServer() servers start with the
// session (or at once, when registered later), mcp_servers_change fires, registrations are
// atomic with the extension's load, and a mcp.json server of the same name wins.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readToolNames } from "../support/mock-llm.ts";
import { readMessages } from "../support/mock-llm.ts";
import { EVERYTHING_SERVER, everythingStdio, mcpJson, nodePath } from "../support/mcp-servers.ts";
import { runWith, writeExtension } from "../support/runtime.ts";
import { mockWorld } from "../support/world.ts";

const SERVER = `{ command: ${JSON.stringify(nodePath())}, args: [${JSON.stringify(EVERYTHING_SERVER)}, "stdio"] }`;

describe("pi.registerMcpServer", () => {
	test("a server registered while loading starts with the session; one registered later starts at once and mcp_servers_change fires", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"servers",
			`export default function (pi) {
	pi.registerMcpServer("ext", ${SERVER});
	pi.on("session_start", () => log({ atStart: pi.getMcpServers().map((s) => [s.name, s.extensionPath]) }));
	pi.on("mcp_servers_change", (event) => log({ change: event.servers.map((s) => s.name) }));
	pi.on("tool_call", (event) => { if (event.toolName === "mcp__ext__echo") log({ source: pi.getAllTools().find((t) => t.name === event.toolName)?.sourceInfo }); });
	pi.registerCommand("add-later", { handler: async () => pi.registerMcpServer("later", ${SERVER}) });
	pi.registerCommand("drop", { handler: async () => pi.unregisterMcpServer("later") });
}
`,
		);
		world.mock.script(
			{ toolCalls: [{ name: "mcp__ext__echo", arguments: { message: "from ext" } }] },
			{ text: "one" },
			// "later" has direct tools, so the run after /add-later waits for it to connect.
			{ toolCalls: [{ name: "mcp__later__get_sum", arguments: { a: 1, b: 2 } }] },
			{ text: "two" },
			{ text: "three" },
		);
		const r = await runWith(world, [ext], ["use ext", "/add-later", "use later", "/drop", "again"], { mode: "print", args: [] });
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("three\n");
		expect(r.log).toEqual([{ atStart: [["ext", "./servers.ts"]] }, { source: { source: "builtin", path: "builtin:mcp" } }, { change: ["ext", "later"] }, { change: ["ext"] }]);
		expect(readMessages(world.mock.requests[1]!).find((m) => m.role === "toolResult")?.text).toBe("Echo: from ext");
		expect(readMessages(world.mock.requests[3]!).filter((m) => m.role === "toolResult").at(-1)?.text).toBe("The sum of 1 and 2 is 3.");
		// After pi.unregisterMcpServer the server's tools are gone.
		expect(readToolNames(world.mock.requests[4]!).some((n) => n.startsWith("mcp__later__"))).toBe(false);
		expect(readToolNames(world.mock.requests[4]!)).toContain("mcp__ext__echo");
	});

	test("with no server configured or registered at start, one registered from a command still starts and its tools work", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "late", `export default (pi) => pi.registerCommand("connect", { handler: async () => pi.registerMcpServer("late", ${SERVER}) });\n`);
		world.mock.script({ toolCalls: [{ name: "mcp__late__echo", arguments: { message: "late" } }] }, { text: "done" });
		const r = await runWith(world, [ext], ["/connect", "go"], { mode: "print" });
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("done\n");
		expect(readMessages(world.mock.requests[1]!).find((m) => m.role === "toolResult")?.text).toBe("Echo: late");
	});

	test("an extension that chose the active tools keeps them: tools of servers that connect later are added inactive", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio() }));
		const ext = writeExtension(
			world,
			"plan",
			`export default function (pi) {
	pi.on("session_start", () => pi.setActiveTools(["read"]));
	pi.on("agent_end", () => log(pi.getAllTools().some((t) => t.name === "mcp__everything__echo"), pi.getActiveTools()));
}
`,
		);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [ext], ["x"], { mode: "print" });
		expect(r.stdout).toBe("ok\n");
		expect(readToolNames(world.mock.requests[0]!)).toEqual(["read"]);
		expect(r.log).toEqual([[true, ["read"]]]);
	});

	test("invalid names and configs throw; a name another extension holds throws; a mcp.json server of the same name wins", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ shared: everythingStdio({ toolExposure: { echo: "hidden" } }) }));
		const a = writeExtension(
			world,
			"a",
			`export default function (pi) {
	for (const [name, config] of [["bad name", ${SERVER}], ["nocmd", {}], ["legacy", { type: "sse", url: "http://127.0.0.1:9/sse" }]]) {
		try { pi.registerMcpServer(name, config); } catch (error) { log(error.message); }
	}
	pi.registerMcpServer("taken", ${SERVER});
	pi.registerMcpServer("shared", { command: "/nonexistent/never-started" });
	// pi's exposures are accepted (codemode is read as deferred).
	pi.registerMcpServer("pi-style", { ...${SERVER}, exposure: "codemode", toolExposure: { "get-*": "codemode-deferred" } });
	log(pi.getMcpServers().map((s) => s.config.exposure ?? "direct"));
}
`,
		);
		const b = writeExtension(world, "b", `export default function (pi) { try { pi.registerMcpServer("taken", ${SERVER}); } catch (error) { log(error.message); } }\n`);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [a, b], ["x"], { mode: "print" });
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([
			'registerMcpServer("bad name"): server name "bad name" may contain only letters, digits, "_" and "-"',
			'registerMcpServer("nocmd"): a server needs "command" (a program to start over stdio) or "url" (a streamable HTTP endpoint)',
			'registerMcpServer("legacy"): type: the legacy SSE transport is not supported: use streamable HTTP ("url" without "type", or "type": "http"); servers that document an /sse endpoint usually serve streamable HTTP at /mcp',
			["direct", "direct", "deferred"],
			'registerMcpServer("taken"): the name is already registered by ./a.ts',
		]);
		const tools = readToolNames(world.mock.requests[0]!);
		// "shared" comes from mcp.json (echo hidden there), not from the extension's broken command.
		expect(tools).toContain("mcp__shared__get_sum");
		expect(tools).not.toContain("mcp__shared__echo");
		expect(tools).toContain("mcp__taken__echo");
	});

	test("registrations are part of the load: a factory that throws starts no server", async () => {
		await using world = await mockWorld();
		const marker = join(world.root, "started");
		const ext = writeExtension(
			world,
			"broken",
			`export default function (pi) {
	pi.registerMcpServer("never", { command: "sh", args: ["-c", "touch ${marker}"] });
	throw new Error("broken on purpose");
}
`,
		);
		const r = await runWith(world, [ext], ["x"], { mode: "print" });
		expect(r.code).toBe(1);
		expect(r.stderr).toContain('Error: Failed to load extension "./broken.ts": broken on purpose');
		expect(existsSync(marker)).toBe(false);
	});

	test("--no-mcp: a registered server does not start and the extension hears why", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "reg", `export default function (pi) { pi.registerMcpServer("ext", ${SERVER}); }\n`);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [ext], ["x"], { mode: "print", args: ["--no-mcp"] });
		expect(r.stdout).toBe("ok\n");
		expect(r.stderr).toBe('Extension error (./reg.ts): MCP is off for this run (--no-mcp): server "ext" does not start\n');
		expect(readToolNames(world.mock.requests[0]!).some((n) => n.startsWith("mcp_"))).toBe(false);
	});
});
