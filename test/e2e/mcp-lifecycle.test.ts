// MCP server lifecycle through the compiled binary: what starts (trust, overrides, enabled), what
// is reported (failures once, bad entries with their position), a crash mid-session, and that no
// server process outlives the agent however it ends.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readToolNames, type RecordedRequest } from "../support/mock-llm.ts";
import { everythingStdio, isAlive, mcpJson, nodePath, serverChild, spawnAgent, stubbornEverythingStdio, EVERYTHING_SERVER, waitFor } from "../support/mcp-servers.ts";
import { readMessages } from "../support/mock-llm.ts";
import { MODEL, mockWorld, type MockWorld } from "../support/world.ts";


function toolResultText(request: RecordedRequest): string | undefined {
	return readMessages(request).find((m) => m.role === "toolResult")?.text;
}

describe("what starts", () => {
	test("an untrusted project's mcp.json starts nothing; with --approve it does", async () => {
		await using world = await mockWorld();
		const marker = join(world.root, "started");
		// A real server behind a shell that leaves a marker when it is started at all.
		world.write("project/.agent/mcp.json", mcpJson({ proj: { command: "sh", args: ["-c", `touch ${marker}; exec ${nodePath()} ${EVERYTHING_SERVER} stdio`] } }));
		world.mock.script({ text: "one" }, { text: "two" });
		const r = await world.run(["--model", MODEL.openai, "-p", "hi"]);
		expect(r.stdout).toBe("one\n");
		expect(r.stderr).toBe(`Skipped 1 project MCP server in ${join(world.cwd, ".agent/mcp.json")}: folder not trusted (pass --approve or run "agent trust").\n`);
		expect(readToolNames(world.mock.requests[0]!).some((n) => n.startsWith("mcp_"))).toBe(false);
		expect(existsSync(marker)).toBe(false);
		const approved = await world.run(["--model", MODEL.openai, "-a", "-p", "hi"]);
		expect(approved.stderr).toBe("");
		expect(readToolNames(world.mock.requests[1]!)).toContain("mcp__proj__echo");
		expect(existsSync(marker)).toBe(true);
	});

	test("a trusted project entry without command or url only switches the user's server off", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio() }));
		world.write("project/.agent/mcp.json", mcpJson({ everything: { enabled: false } }));
		world.mock.script({ text: "a" }, { text: "b" });
		await world.run(["--model", MODEL.openai, "-a", "-p", "x"]);
		expect(readToolNames(world.mock.requests[0]!).some((n) => n.startsWith("mcp_"))).toBe(false);
		// Untrusted, the override is not read: the user's server starts.
		await world.run(["--model", MODEL.openai, "-p", "x"]);
		expect(readToolNames(world.mock.requests[1]!)).toContain("mcp__everything__echo");
	});

	test("--no-mcp starts nothing; with no server configured the MCP SDK is never imported", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "a" }, { text: "b" }, { text: "c" });
		const none = await world.run(["--model", MODEL.openai, "-p", "x"], { env: { AGENT_TIMING: "1" } });
		expect(none.stderr).not.toContain("mcp");
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio() }));
		const off = await world.run(["--model", MODEL.openai, "--no-mcp", "-p", "x"], { env: { AGENT_TIMING: "1" } });
		expect(off.stderr).not.toContain("mcp");
		expect(readToolNames(world.mock.requests[1]!).some((n) => n.startsWith("mcp_"))).toBe(false);
		const on = await world.run(["--model", MODEL.openai, "-p", "x"], { env: { AGENT_TIMING: "1" } });
		expect(on.stderr).toContain("    load mcp sdk ");
		expect(on.stderr).toContain("    mcp everything: connected ");
	});

	test("a server nothing waits for starts after the first request went out, not before", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio({ exposure: "deferred" }) }));
		let agent: ReturnType<typeof spawnAgent> | undefined;
		const seen: (number | undefined)[] = [];
		world.mock.script(
			() => {
				// The request is here: nothing has started the server yet.
				seen.push(serverChild(agent!.proc.pid));
				return { text: "first" };
			},
			async () => {
				// Once the first answer came, the server starts in the background.
				seen.push(await waitFor(() => serverChild(agent!.proc.pid), "the server"));
				return { text: "second" };
			},
		);
		agent = spawnAgent(world, ["--model", MODEL.openai, "-p", "one", "two"]);
		const r = await agent.finish();
		expect(r.stdout).toBe("second\n");
		expect(seen[0]).toBeUndefined();
		expect(seen[1]).toBeGreaterThan(0);
		// Its tools were not declared to the first request: nothing waited for them.
		expect(readToolNames(world.mock.requests[0]!).some((n) => n.startsWith("mcp_"))).toBe(false);
	});
});

describe("what is reported", () => {
	test("a malformed mcp.json stops the run with file:line:column and the fix; the file is left alone", async () => {
		await using world = await mockWorld();
		const text = '{\n  "mcpServers": {\n    "a": { "command": "x", }\n  }\n}\n';
		world.write("home/.agent/mcp.json", text);
		const r = await world.run(["--model", MODEL.openai, "-p", "x"]);
		expect(r.code).toBe(1);
		expect(r.stderr.split("\n")[0]).toBe('Error: ~/.agent/mcp.json:3:28: invalid JSON: a trailing comma before "}" (remove it)');
		expect(r.stderr).toContain("Fix the file and run again; it was not changed.");
	});

	test("a bad entry is reported with its position and skipped; the other servers start", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ legacy: { type: "sse", url: "http://127.0.0.1:9/sse" }, everything: everythingStdio() }));
		world.mock.script({ text: "ok" });
		const r = await world.run(["--model", MODEL.openai, "-p", "x"]);
		expect(r.stdout).toBe("ok\n");
		expect(r.stderr).toBe(
			'Warning: ~/.agent/mcp.json:4:15: server "legacy": the legacy SSE transport is not supported: use streamable HTTP ("url" without "type", or "type": "http"); servers that document an /sse endpoint usually serve streamable HTTP at /mcp; the server is skipped.\n',
		);
		expect(readToolNames(world.mock.requests[0]!)).toContain("mcp__everything__echo");
	});

	test("a server that fails to start is reported once, and the session goes on", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ broken: { command: "/nonexistent/mcp-server", args: ["--stdio"] } }));
		world.mock.script({ text: "first" }, { text: "second" });
		const r = await world.run(["--model", MODEL.openai, "-p", "one", "two"]);
		expect(r.stdout).toBe("second\n");
		expect(r.stderr).toBe('Warning: MCP server "broken" failed to start: program not found: /nonexistent/mcp-server (the "command" is one program; put its arguments in "args")\n');
	});

	test("a server that crashes mid-session is reported; the session goes on and the next call starts it again", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio() }));
		let agent: ReturnType<typeof spawnAgent> | undefined;
		let firstPid = 0;
		world.mock.script(
			{ toolCalls: [{ name: "mcp__everything__echo", arguments: { message: "before" } }] },
			async () => {
				// The server is killed between two tool calls; the agent notices and says so.
				firstPid = serverChild(agent!.proc.pid)!;
				process.kill(firstPid, "SIGKILL");
				await waitFor(() => agent!.stderr.includes("stopped"), "the crash report");
				return { toolCalls: [{ name: "mcp__everything__echo", arguments: { message: "after" } }] };
			},
			{ text: "survived" },
		);
		agent = spawnAgent(world, ["--model", MODEL.openai, "-p", "go"]);
		const r = await agent.finish();
		expect(r.stdout).toBe("survived\n");
		expect(r.code).toBe(0);
		expect(r.stderr).toBe('Warning: MCP server "everything" stopped: the process was ended by SIGKILL (stderr: Starting default (STDIO) server...). Its tools reconnect on their next call.\n');
		expect(toolResultText(world.mock.requests[1]!)).toBe("Echo: before");
		expect(readMessages(world.mock.requests[2]!).filter((m) => m.role === "toolResult").map((m) => m.text)).toEqual(["Echo: before", "Echo: after"]);
		expect(firstPid).toBeGreaterThan(0);
	});
});

describe("no server process outlives the agent", () => {
	async function hangingRun(world: MockWorld, options: { newGroup?: boolean } = {}) {
		world.write("home/.agent/mcp.json", mcpJson({ everything: stubbornEverythingStdio() }));
		world.mock.script({ hang: true });
		const agent = spawnAgent(world, ["--model", MODEL.openai, "-p", "go"], options);
		// The first request waits for the (direct) server, so once it is in, the server runs.
		await waitFor(() => world.mock.requests.length > 0, "the first request");
		const server = await waitFor(() => serverChild(agent.proc.pid), "the server process");
		return { agent, server };
	}

	test("a normal exit ends the server, even one that does not stop at the end of its input", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ everything: stubbornEverythingStdio() }));
		world.mock.script({ text: "bye" });
		let server = 0;
		const agent = spawnAgent(world, ["--model", MODEL.openai, "-p", "x"]);
		void waitFor(() => serverChild(agent.proc.pid), "the server").then((pid) => (server = pid), () => {});
		const r = await agent.finish();
		expect(r.stdout).toBe("bye\n");
		if (server) await waitFor(() => !isAlive(server), "the server to end");
	});

	for (const signal of ["SIGTERM", "SIGHUP"] as const) {
		test(`${signal} to the agent ends the server`, async () => {
			await using world = await mockWorld();
			const { agent, server } = await hangingRun(world);
			agent.proc.kill(signal);
			await agent.finish();
			await waitFor(() => !isAlive(server), "the server to end");
		});
	}

	test("a kill of the agent's process group ends the server", async () => {
		await using world = await mockWorld();
		const { agent, server } = await hangingRun(world, { newGroup: true });
		process.kill(-agent.proc.pid, "SIGTERM");
		await agent.finish();
		await waitFor(() => !isAlive(server), "the server to end");
	});
});
