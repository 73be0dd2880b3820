// What MCP servers offer besides tools, through the binary: resources (read with mcp_read_resource,
// templates listed for the model), prompts as /mcp:<server>:<prompt> commands, and /reload
// starting every server again.
import { describe, expect, test } from "bun:test";
import { readMessages } from "../support/mock-llm.ts";
import { everythingStdio, isAlive, mcpJson, serverChild, spawnAgent, waitFor } from "../support/mcp-servers.ts";
import { writeExtension } from "../support/runtime.ts";
import { MODEL, mockWorld } from "../support/world.ts";

function tool(request: { body: any }, name: string): any {
	return (request.body.tools ?? []).find((t: any) => (t.function?.name ?? t.name) === name);
}

describe("MCP resources", () => {
	test("mcp_read_resource lists resources and templates, and reads one by URI", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio({ description: "The protocol's reference server" }) }));
		world.mock.script(
			{
				toolCalls: [
					{ name: "mcp_read_resource", arguments: { server: "everything", uri: "demo://resource/dynamic/text/7" } },
					{ name: "mcp_read_resource", arguments: { server: "everything", uri: "demo://nothing/here" } },
				],
			},
			{ text: "read" },
		);
		const r = await world.run(["--model", MODEL.openai, "-p", "read"]);
		expect(r.stdout).toBe("read\n");
		const declared = tool(world.mock.requests[0]!, "mcp_read_resource").function;
		expect(declared.description).toContain(`Server "everything" (The protocol's reference server):`);
		expect(declared.description).toContain("- demo://resource/static/document/architecture.md — architecture.md");
		expect(declared.description).toContain("- template demo://resource/dynamic/text/{resourceId} — Dynamic Text Resource");
		expect(declared.parameters.properties.server.enum).toEqual(["everything"]);
		const [found, missing] = readMessages(world.mock.requests[1]!).filter((m) => m.role === "toolResult");
		expect(found!.text).toStartWith("Resource 7: This is a plaintext resource created at ");
		expect(missing!.text).toStartWith("MCP server \"everything\", resource demo://nothing/here: ");
	});
});

describe("MCP prompts", () => {
	test("/mcp:<server>:<prompt> sends what the server's prompt says; arguments by name or in order", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio() }));
		world.mock.script({ text: "sunny" }, { text: "rainy" });
		const r = await world.run(["--model", MODEL.openai, "-p", "/mcp:everything:args-prompt state=Texas city=Paris", "/mcp:everything:args-prompt Chicago"]);
		expect(r.stdout).toBe("rainy\n");
		expect(readMessages(world.mock.requests[0]!).at(-1)).toEqual({ role: "user", text: "What's weather in Paris, Texas?" });
		expect(readMessages(world.mock.requests[1]!).at(-1)).toEqual({ role: "user", text: "What's weather in Chicago?" });
	});

	test("a missing argument or an unknown prompt is an error that names what to type", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio() }));
		const missing = await world.run(["--model", MODEL.openai, "-p", "/mcp:everything:args-prompt"]);
		expect(missing).toEqual({ code: 1, stdout: "", stderr: "Error: Missing argument city (Name of the city). Usage: /mcp:everything:args-prompt <city> [state]\n" });
		const unknown = await world.run(["--model", MODEL.openai, "-p", "/mcp:everything:nope"]);
		expect(unknown.stderr).toBe('Error: MCP server "everything" has no prompt "nope"; it has: simple-prompt, args-prompt, completable-prompt, resource-prompt\n');
		expect(world.mock.requests).toHaveLength(0);
	});
});

describe("/reload", () => {
	test("reconnects: every server is started again and the old process ends", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio() }));
		const ext = writeExtension(world, "reloader", `export default (pi) => pi.registerCommand("again", { handler: async (_args, ctx) => ctx.reload() });\n`);
		let agent: ReturnType<typeof spawnAgent> | undefined;
		const pids: number[] = [];
		const echo = (message: string) => async () => {
			pids.push(await waitFor(() => serverChild(agent!.proc.pid), "the server"));
			return { toolCalls: [{ name: "mcp__everything__echo", arguments: { message } }] };
		};
		world.mock.script(echo("one"), { text: "first" }, echo("two"), { text: "second" });
		agent = spawnAgent(world, ["-ne", "-e", ext, "--model", MODEL.openai, "-p", "x", "/again", "y"]);
		const r = await agent.finish();
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("second\n");
		expect(readMessages(world.mock.requests[3]!).filter((m) => m.role === "toolResult").map((m) => m.text)).toEqual(["Echo: one", "Echo: two"]);
		expect(pids[1]).not.toBe(pids[0]);
		await waitFor(() => !isAlive(pids[0]!), "the first server to end");
	});
});
