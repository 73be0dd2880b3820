// MCP in the interactive TUI (tmux): a server that fails is one warning line in the transcript,
// `/mcp` lists servers with their state, `/mcp tools` a server's tools, `/mcp reconnect` starts one
// again, and a server's prompts complete as /mcp:<server>:<prompt> commands.
import { describe, expect, test } from "bun:test";
import { TempWorld } from "../support/agent.ts";
import { everythingStdio, mcpJson } from "../support/mcp-servers.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";

const TIMEOUT = 60_000;

describe.skipIf(!hasTmux)("/mcp in the TUI", () => {
	test("servers, state, tools, reconnect, prompt commands in completion; a failed server is one warning line", async () => {
		await using world = new TempWorld();
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio({ exposure: "deferred" }), broken: { command: "/nonexistent/mcp-server" } }));
		await using term = new Terminal(world, ["-ne"], { width: 160 });
		const started = await term.waitUntil("the failure line", (p) => p.above.includes('Warning: MCP server "broken" failed to start: program not found: /nonexistent/mcp-server'));
		// Said once, as a line of the transcript.
		expect(started.above.split("failed to start").length).toBe(2);
		term.submit("/mcp reconnect everything");
		await term.waitForAbove("everything: connected · 13 tools");
		term.submit("/mcp");
		const listed = await term.waitForAbove("/mcp tools <server> lists a server's tools; /mcp reconnect [server] starts servers again.");
		expect(listed.above).toContain("MCP servers\n   everything  connected · 13 tools\n     stdio ");
		expect(listed.above).toContain("     from user, ~/.agent/mcp.json · exposure deferred\n");
		expect(listed.above).toContain("   broken  failed: program not found: /nonexistent/mcp-server");
		term.submit("/mcp tools everything");
		const tools = await term.waitForAbove("mcp__everything__simulate_research_query  (deferred)");
		expect(tools.above).toContain("Tools of everything\n   mcp__everything__echo  (deferred)\n");
		term.type("/mcp:everything:ar");
		await term.waitUntil("the prompt command in completion", (p) => p.below.startsWith("→ mcp:everything:args-prompt      [u] A prompt with two arguments, one required and one optional"));
		// ctrl+c clears the input, twice more exits; the server is ended with the session.
		term.keys("C-c");
		await term.waitUntil("an empty editor", (p) => p.editor.trim() === "");
		term.keys("C-c", "C-c");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
