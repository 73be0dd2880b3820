// MCP tools end to end: real servers (server-everything, server-filesystem) over stdio and
// streamable HTTP, the mock LLM calling their tools through the compiled binary.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readMessages, readToolNames } from "../support/mock-llm.ts";
import { everythingStdio, filesystemStdio, mcpJson, startEverythingHttp } from "../support/mcp-servers.ts";
import { RpcAgent } from "../support/rpc.ts";
import { MODEL, mockWorld, sessionMessages } from "../support/world.ts";

function toolResults(request: Parameters<typeof readMessages>[0]) {
	return readMessages(request).filter((m) => m.role === "toolResult");
}

describe("MCP tools over stdio", () => {
	test("a server's tool is declared, called, and its result reaches the model", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio() }));
		world.mock.script({ toolCalls: [{ name: "mcp__everything__echo", arguments: { message: "hello mcp" } }] }, { text: "done" });
		const r = await world.run(["--model", MODEL.openai, "-p", "echo something"]);
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("done\n");
		const tools = readToolNames(world.mock.requests[0]!);
		// Server names keep their letters; other characters of tool names become "_".
		expect(tools).toEqual(expect.arrayContaining(["read", "bash", "mcp__everything__echo", "mcp__everything__get_sum", "mcp__everything__get_tiny_image", "mcp_read_resource"]));
		expect(toolResults(world.mock.requests[1]!)[0]!.text).toBe("Echo: hello mcp");
	});

	test("arguments are checked against the server's JSON Schema before the call; structuredContent and images are kept", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio() }));
		world.mock.script(
			{
				toolCalls: [
					{ name: "mcp__everything__get_sum", arguments: { a: "two", b: 3 } },
					{ name: "mcp__everything__get_structured_content", arguments: { location: "Chicago" } },
					{ name: "mcp__everything__get_tiny_image", arguments: {} },
				],
			},
			{ text: "done" },
		);
		// A model that takes images, so the server's image reaches it as an image.
		const models = JSON.parse(readFileSync(join(world.agentDir, "models.json"), "utf8"));
		models.providers["mock-anthropic"].models[0].input = ["text", "image"];
		world.write("home/.agent/models.json", JSON.stringify(models));
		const r = await world.run(["--model", MODEL.anthropic, "--mode", "json", "-p", "go"]);
		expect(r.code).toBe(0);
		const [sum, weather, image] = toolResults(world.mock.requests[1]!);
		expect(sum!.isError).toBe(true);
		expect(sum!.text).toContain('Invalid arguments for tool "mcp__everything__get_sum"');
		expect(sum!.text).toContain("a: must be number");
		expect(weather!.isError).toBeFalsy();
		expect(JSON.parse(weather!.text)).toEqual({ temperature: 36, conditions: "Light rain / drizzle", humidity: 82 });
		expect(image!.text).toContain("[image]");
		const events = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
		// The calls run in parallel: they end in any order.
		const ended = events.filter((e) => e.type === "tool_execution_end").sort((a, b) => a.toolName.localeCompare(b.toolName));
		expect(ended.map((e) => [e.toolName, e.isError])).toEqual([
			["mcp__everything__get_structured_content", false],
			["mcp__everything__get_sum", true],
			["mcp__everything__get_tiny_image", false],
		]);
		expect(ended[0].result.details).toEqual({
			server: "everything",
			tool: "get-structured-content",
			structuredContent: { temperature: 36, conditions: "Light rain / drizzle", humidity: 82 },
		});
		// The session keeps structuredContent in the tool result's details.
		const saved = sessionMessages(world.onlySessionFile()).find((m) => m.role === "toolResult" && m.toolName === "mcp__everything__get_structured_content");
		expect(saved.details.structuredContent.humidity).toBe(82);
	});

	test("isError from the server is an error result; text over 20 KB is shortened around a marker, the whole in a temp file", async () => {
		await using world = await mockWorld();
		const line = "0123456789abcdefghijklmnopqrstuvwxyz\n";
		world.write("project/big.txt", `START\n${line.repeat(1200)}END\n`);
		world.write("home/.agent/mcp.json", mcpJson({ files: filesystemStdio(world.cwd) }));
		world.mock.script(
			{
				toolCalls: [
					{ name: "mcp__files__read_text_file", arguments: { path: join(world.cwd, "big.txt") } },
					{ name: "mcp__files__read_text_file", arguments: { path: "/etc/hostname" } },
				],
			},
			{ text: "done" },
		);
		const r = await world.run(["--model", MODEL.anthropic, "-p", "read it"]);
		expect(r.stdout).toBe("done\n");
		const [big, denied] = toolResults(world.mock.requests[1]!);
		expect(big!.isError).toBeFalsy();
		expect(big!.text.startsWith("START\n0123456789")).toBe(true);
		expect(big!.text).toMatch(/\n…\d+ chars truncated…\n/);
		expect(big!.text.length).toBeLessThan(20 * 1024);
		const saved = /\[The full result \([\d.]+KB\) is in (\S+)\]$/.exec(big!.text)?.[1];
		expect(saved).toBeDefined();
		expect(saved!.startsWith(join(world.root, "tmp"))).toBe(true);
		expect(readFileSync(saved!, "utf8")).toBe(`START\n${line.repeat(1200)}END\n`);
		expect(denied!.isError).toBe(true);
		expect(denied!.text).toContain("Access denied");
	});

	test("a tool_call guard blocks an MCP tool: the server is never called and the reason reaches the model", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ files: filesystemStdio(world.cwd) }));
		world.write(
			"project/guard.ts",
			`export default (pi) => pi.on("tool_call", (event) => event.toolName.startsWith("mcp__files__write") ? { block: true, reason: "no writes through MCP" } : undefined);\n`,
		);
		world.mock.script({ toolCalls: [{ name: "mcp__files__write_file", arguments: { path: join(world.cwd, "x.txt"), content: "x" } }] }, { text: "ok" });
		const r = await world.run(["--model", MODEL.openai, "-e", "./guard.ts", "-p", "write"]);
		expect(r.stdout).toBe("ok\n");
		expect(toolResults(world.mock.requests[1]!)[0]!.text).toBe("no writes through MCP");
		expect(existsSync(join(world.cwd, "x.txt"))).toBe(false);
	});

	test("progress notifications restart the timeout: a call longer than the timeout that reports progress completes", async () => {
		await using world = await mockWorld();
		// Progress every 250 ms; the call takes 4.5 s against a 3 s timeout.
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio({ timeout: 3 }) }));
		await using rpc = new RpcAgent(world, ["--model", MODEL.openai, "--no-session"]);
		// A run waits for a starting server at most its timeout, and on a loaded machine node may take
		// longer than 3 s to start it: ask until its tools are declared (the start itself is not timed out).
		const tool = "mcp__everything__trigger_long_running_operation";
		for (const deadline = Date.now() + 30_000; ; ) {
			world.mock.script({ text: "ready" });
			const from = rpc.records.length;
			await rpc.request({ type: "prompt", message: "ready?" });
			await rpc.event("agent_end", from);
			if (readToolNames(world.mock.lastRequest()).includes(tool)) break;
			if (Date.now() > deadline) throw new Error(`${tool} never declared:\n${rpc.stderr}`);
		}
		world.mock.script({ toolCalls: [{ name: tool, arguments: { duration: 4.5, steps: 18 } }] }, { text: "waited" });
		const from = rpc.records.length;
		await rpc.request({ type: "prompt", message: "long" });
		await rpc.event("agent_end", from);
		expect(toolResults(world.mock.lastRequest())[0]!.text).toBe("Long running operation completed. Duration: 4.5 seconds, Steps: 18.");
		const updates = rpc.all("tool_execution_update", from);
		// Each progress notification is a tool_execution_update with the progress as its text.
		expect(updates.length).toBeGreaterThan(0);
		for (const u of updates) expect(u.partialResult.content[0].text).toMatch(/^\d+\/18$/);
		expect(await rpc.end()).toBe(0);
	});

	test("--tools with mcp__ patterns keeps only matching MCP tools; without them MCP tools stay; -nt drops them", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio() }));
		world.mock.script({ text: "a" }, { text: "b" }, { text: "c" });
		await world.run(["--model", MODEL.openai, "--tools", "read,mcp__everything__get_*", "-p", "x"]);
		expect(readToolNames(world.mock.requests[0]!).sort()).toEqual([
			"mcp__everything__get_annotated_message",
			"mcp__everything__get_env",
			"mcp__everything__get_resource_links",
			"mcp__everything__get_resource_reference",
			"mcp__everything__get_structured_content",
			"mcp__everything__get_sum",
			"mcp__everything__get_tiny_image",
			"read",
		]);
		await world.run(["--model", MODEL.openai, "--tools", "read", "-p", "x"]);
		expect(readToolNames(world.mock.requests[1]!)).toContain("mcp__everything__echo");
		expect(readToolNames(world.mock.requests[1]!)).not.toContain("bash");
		await world.run(["--model", MODEL.openai, "-nt", "-p", "x"]);
		expect(readToolNames(world.mock.requests[2]!)).toEqual([]);
	});

	test("toolExposure: hidden tools are not declared, exact names win over patterns", async () => {
		await using world = await mockWorld();
		world.write(
			"home/.agent/mcp.json",
			mcpJson({ everything: everythingStdio({ exposure: "hidden", toolExposure: { "get-*": "direct", "get-env": "hidden", echo: "direct" } }) }),
		);
		world.mock.script({ text: "a" });
		await world.run(["--model", MODEL.openai, "-p", "x"]);
		const mcp = readToolNames(world.mock.requests[0]!).filter((n) => n.startsWith("mcp__"));
		expect(mcp).toContain("mcp__everything__echo");
		expect(mcp).toContain("mcp__everything__get_sum");
		expect(mcp).not.toContain("mcp__everything__get_env");
		expect(mcp).not.toContain("mcp__everything__toggle_simulated_logging");
		// A hidden server's resources are not offered either.
		expect(readToolNames(world.mock.requests[0]!)).not.toContain("mcp_read_resource");
	});
});

describe("MCP over streamable HTTP", () => {
	test("an HTTP server's tool result reaches the model; headers are sent with ${VAR} expanded", async () => {
		await using server = await startEverythingHttp();
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ remote: { url: server.url, headers: { "X-Test": "${MCP_TEST_VALUE}" } } }));
		world.mock.script({ toolCalls: [{ name: "mcp__remote__get_sum", arguments: { a: 2, b: 40 } }] }, { text: "sum done" });
		const r = await world.run(["--model", MODEL.openai, "-p", "add"], { env: { MCP_TEST_VALUE: "yes" } });
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("sum done\n");
		expect(toolResults(world.mock.requests[1]!)[0]!.text).toBe("The sum of 2 and 40 is 42.");
	});

	test("a server that restarted (and forgot our session) is connected to again and the call goes through", async () => {
		let server = await startEverythingHttp();
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ remote: { url: server.url } }));
		world.mock.script(
			{ toolCalls: [{ name: "mcp__remote__get_sum", arguments: { a: 1, b: 1 } }] },
			async () => {
				// The server goes down and comes back on the same port, with no memory of the session.
				await server.close();
				server = await startEverythingHttp({ port: server.port });
				return { toolCalls: [{ name: "mcp__remote__get_sum", arguments: { a: 2, b: 2 } }] };
			},
			{ text: "both" },
		);
		try {
			const r = await world.run(["--model", MODEL.openai, "-p", "add twice"]);
			expect(r.stdout).toBe("both\n");
			expect(r.stderr).toBe("");
			expect(toolResults(world.mock.requests[2]!).map((m) => m.text)).toEqual(["The sum of 1 and 1 is 2.", "The sum of 2 and 2 is 4."]);
		} finally {
			await server.close();
		}
	});

	test("a header variable that is not set fails that server with the variable's name; the run goes on", async () => {
		await using server = await startEverythingHttp();
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ remote: { url: server.url, headers: { Authorization: "Bearer ${NOT_SET_TOKEN}" } } }));
		world.mock.script({ text: "fine" });
		const r = await world.run(["--model", MODEL.openai, "-p", "hi"]);
		expect(r.stdout).toBe("fine\n");
		expect(r.stderr).toBe(`Warning: MCP server "remote" failed to start: environment variable NOT_SET_TOKEN (used in headers.Authorization) is not set\n`);
	});
});
