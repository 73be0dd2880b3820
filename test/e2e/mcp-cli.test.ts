// `agent mcp add|list|remove` and the servers in `agent list`: the right file is edited, nothing
// else in it changes, list connects to real servers and says what they offer.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TempWorld } from "../support/agent.ts";
import { EVERYTHING_SERVER, everythingStdio, mcpJson, nodePath } from "../support/mcp-servers.ts";

describe("agent mcp add / remove", () => {
	test("add writes ~/.agent/mcp.json (created if missing); -l the project's; list reads both", async () => {
		await using world = new TempWorld();
		const add = await world.run(["mcp", "add", "everything", "--env", "GREETING=hi ${USER}", "--", nodePath(), EVERYTHING_SERVER, "stdio"]);
		expect(add).toEqual({ code: 0, stderr: "", stdout: 'Added stdio server "everything" to ~/.agent/mcp.json. Check it with: agent mcp list\n' });
		expect(JSON.parse(readFileSync(join(world.agentDir, "mcp.json"), "utf8"))).toEqual({
			mcpServers: { everything: { command: nodePath(), args: [EVERYTHING_SERVER, "stdio"], env: { GREETING: "hi ${USER}" } } },
		});
		const local = await world.run(["mcp", "add", "-l", "docs", "--url", "http://127.0.0.1:9/mcp", "--header", "Authorization: Bearer ${DOCS_TOKEN}", "--exposure", "deferred"]);
		expect(local.stdout).toBe(
			`Added HTTP server "docs" to ${join(world.cwd, ".agent/mcp.json")}. Check it with: agent mcp list\nThis folder is not trusted yet, so its .agent/mcp.json is not read: run "agent trust" (or pass --approve).\n`,
		);
		expect(JSON.parse(readFileSync(join(world.cwd, ".agent/mcp.json"), "utf8"))).toEqual({
			mcpServers: { docs: { url: "http://127.0.0.1:9/mcp", headers: { Authorization: "Bearer ${DOCS_TOKEN}" }, exposure: "deferred" } },
		});
	});

	test("add and remove change only their entry: other keys, other servers and the file's formatting stay", async () => {
		await using world = new TempWorld();
		const original = [
			"{",
			'\t"theme": "dark",',
			'\t"mcpServers": {',
			'\t\t"keep": { "command": "keep-me", "args": ["--x"] }',
			"\t},",
			'\t"autoEnableCodemode": false',
			"}",
			"",
		].join("\n");
		const path = world.write("home/.agent/mcp.json", original);
		expect((await world.run(["mcp", "add", "extra", "--", "extra-server", "--port", "0"])).code).toBe(0);
		const added = readFileSync(path, "utf8");
		expect(added).toContain('\t"theme": "dark",\n\t"mcpServers": {\n\t\t"keep": { "command": "keep-me", "args": ["--x"] },\n\t\t"extra": {\n\t\t\t"command": "extra-server",');
		expect(added).toEndWith('\t},\n\t"autoEnableCodemode": false\n}\n');
		const replaced = await world.run(["mcp", "add", "extra", "--", "other-server"]);
		expect(replaced.stdout).toStartWith('Replaced stdio server "extra" in ~/.agent/mcp.json.');
		expect(JSON.parse(readFileSync(path, "utf8")).mcpServers.extra).toEqual({ command: "other-server" });
		const removed = await world.run(["mcp", "remove", "extra"]);
		expect(removed).toEqual({ code: 0, stderr: "", stdout: 'Removed server "extra" from ~/.agent/mcp.json.\n' });
		expect(readFileSync(path, "utf8")).toBe(original);
	});

	test("remove names the file that has the server; bad input is refused and nothing is written", async () => {
		await using world = new TempWorld();
		world.write("project/.agent/mcp.json", mcpJson({ local: { command: "x" } }));
		const wrongFile = await world.run(["mcp", "remove", "local"]);
		expect(wrongFile).toEqual({
			code: 1,
			stdout: "",
			stderr: `Error: No server "local" in ~/.agent/mcp.json.\nIt is in ${join(world.cwd, ".agent/mcp.json")}: run "agent mcp remove local -l".\n`,
		});
		expect((await world.run(["mcp", "remove", "-l", "local"])).code).toBe(0);
		const sse = await world.run(["mcp", "add", "old", "--transport", "sse", "--url", "http://127.0.0.1:9/sse"]);
		expect(sse.code).toBe(1);
		expect(sse.stderr).toContain("the legacy SSE transport is not supported: use streamable HTTP");
		const broken = world.write("home/.agent/mcp.json", '{ "mcpServers": { "a": 1, } }');
		const refused = await world.run(["mcp", "add", "b", "--", "server"]);
		expect(refused.code).toBe(1);
		expect(refused.stderr.split("\n")[0]).toBe('Error: ~/.agent/mcp.json:1:27: invalid JSON: a trailing comma before "}" (remove it)');
		expect(readFileSync(broken, "utf8")).toBe('{ "mcpServers": { "a": 1, } }');
		expect((await world.run(["mcp", "add", "no", "command"])).stderr).toBe('Error: "agent mcp add" takes one name (got "no" and "command"); put the command after "--": agent mcp add no -- command …\n');
	});
});

describe("agent mcp list", () => {
	test("connects to each enabled server: state, tools, resources and prompts; exit 1 when one fails", async () => {
		await using world = new TempWorld();
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio({ toolExposure: { "toggle-*": "hidden" } }), off: { command: "x", enabled: false } }));
		const ok = await world.run(["mcp", "list"]);
		expect(ok.code).toBe(0);
		const lines = ok.stdout.split("\n");
		expect(lines[0]).toBe("everything  connected · 13 tools");
		expect(lines[2]).toBe("  from user, ~/.agent/mcp.json");
		expect(lines).toContain("    mcp__everything__echo");
		expect(lines).toContain("    mcp__everything__toggle_simulated_logging  (hidden)");
		expect(ok.stdout).toContain("  7 resources · 2 resource templates · prompts: /mcp:everything:simple-prompt, /mcp:everything:args-prompt");
		expect(ok.stdout).toContain("off  disabled\n  stdio x\n");
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio(), broken: { command: "/nonexistent/server" } }));
		const failed = await world.run(["mcp", "list", "--json"]);
		expect(failed.code).toBe(1);
		const { servers } = JSON.parse(failed.stdout);
		expect(servers.map((s: { name: string; state: string }) => [s.name, s.state])).toEqual([
			["everything", "connected"],
			["broken", "failed"],
		]);
		expect(servers[1].error).toContain("program not found: /nonexistent/server");
	});

	test("agent list includes servers with their source and status, without starting them", async () => {
		await using world = new TempWorld();
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio(), off: { command: "x", enabled: false } }));
		world.write("project/.agent/mcp.json", mcpJson({ proj: { command: "y" } }));
		world.write("home/.agent/extensions/reg.ts", `export default (pi) => pi.registerMcpServer("ext", { url: "http://127.0.0.1:9/mcp" });\n`);
		const r = await world.run(["list", "--json"]);
		expect(r.code).toBe(0);
		const listed = JSON.parse(r.stdout);
		expect(listed.mcpServers.map((s: { name: string; source: string; status: string }) => [s.name, s.source, s.status])).toEqual([
			["everything", "user", "enabled"],
			["off", "user", "disabled"],
			["proj", "project", "skipped (untrusted)"],
			["ext", "extension", "enabled"],
		]);
		expect(listed.extensions[0].mcpServers).toEqual(["ext"]);
		const text = await world.run(["list"]);
		expect(text.stdout).toContain("mcp servers\n  everything  enabled  (user, ~/.agent/mcp.json)\n");
	});
});
