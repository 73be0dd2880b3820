// mcp.json entries: the checks and their messages, exposure rules, tool names, ${VAR} expansion,
// and how the user and project files combine (positions of skipped entries included).
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expandVariables, expandEntry } from "../../../src/core/mcp/expand.ts";
import { formatProblem, loadMcpConfig } from "../../../src/core/mcp/mcp-config.ts";
import { mayHaveDirectTools, toolExposure, validateServerConfig } from "../../../src/core/mcp/server-config.ts";
import { agentToolNames, filterAllows, mcpToolFilter, shortHash } from "../../../src/core/mcp/tool-names.ts";

describe("validateServerConfig", () => {
	test("stdio and HTTP entries, normalised; unknown fields ignored", () => {
		expect(validateServerConfig({ command: "npx", args: ["-y", "x"], env: { A: "1" }, disabled: true })).toEqual({ command: "npx", args: ["-y", "x"], env: { A: "1" } });
		expect(validateServerConfig({ url: "https://x/mcp", headers: { A: "b" }, exposure: "codemode", toolExposure: { "a*": "codemode-deferred" } })).toEqual({
			url: "https://x/mcp",
			headers: { A: "b" },
			exposure: "deferred",
			toolExposure: { "a*": "deferred" },
		});
	});

	test("each problem says what is wrong and where", () => {
		expect(validateServerConfig({})).toEqual({ pointer: "", message: 'a server needs "command" (a program to start over stdio) or "url" (a streamable HTTP endpoint)' });
		expect(validateServerConfig({ command: "npx -y server" })).toEqual({ pointer: "/command", message: '"command" is one program, not a shell line: put its arguments in "args" (["-y", "server"])' });
		expect(validateServerConfig({ command: "x", args: "a b" })).toEqual({ pointer: "/args", message: '"args" must be an array of strings' });
		expect(validateServerConfig({ command: "x", env: { A: 1 } })).toEqual({ pointer: "/env/A", message: '"env.A" must be a string' });
		expect(validateServerConfig({ url: "ftp://x" })).toEqual({ pointer: "/url", message: '"url" must start with http:// or https:// (got "ftp://x")' });
		expect(validateServerConfig({ command: "x", timeout: 0 })).toEqual({ pointer: "/timeout", message: '"timeout" must be a number of seconds above 0' });
		expect(validateServerConfig({ command: "x", exposure: "sometimes" })).toEqual({ pointer: "/exposure", message: '"exposure" must be "direct", "deferred" or "hidden" (got "sometimes")' });
		expect((validateServerConfig({ type: "sse", url: "http://x/sse" }) as { message: string }).message).toStartWith("the legacy SSE transport is not supported: use streamable HTTP");
	});

	test("exposure: an exact name wins over patterns, then the first matching pattern, then the server's", () => {
		const config = { exposure: "hidden" as const, toolExposure: { "get-*": "direct" as const, "get-env": "hidden" as const, "*": "deferred" as const } };
		expect(toolExposure(config, "get-env")).toBe("hidden");
		expect(toolExposure(config, "get-sum")).toBe("direct");
		expect(toolExposure(config, "echo")).toBe("deferred");
		expect(toolExposure({}, "echo")).toBe("direct");
		expect(mayHaveDirectTools({ exposure: "hidden", toolExposure: { echo: "direct" } })).toBe(true);
		expect(mayHaveDirectTools({ exposure: "deferred" })).toBe(false);
	});
});

describe("tool names", () => {
	test("mcp__<server>__<tool>, other characters as _, colliding names hashed, long names cut", () => {
		const names = agentToolNames("my-docs", ["search", "get.page", "get-page", "a".repeat(80)]);
		expect(names.get("search")).toBe("mcp__my_docs__search");
		expect(names.get("get.page")).toBe(`mcp__my_docs__get_page_${shortHash("get.page")}`);
		expect(names.get("get-page")).toBe(`mcp__my_docs__get_page_${shortHash("get-page")}`);
		expect(names.get("get.page")).not.toBe(names.get("get-page"));
		expect(names.get("a".repeat(80))!.length).toBe(64);
		expect(shortHash("x")).toBe(shortHash("x"));
	});

	test("--tools: no MCP entry keeps every MCP tool; mcp__ patterns keep only matches; -nt none", () => {
		expect(mcpToolFilter(["read", "bash"], false)).toBe("all");
		expect(mcpToolFilter(undefined, true)).toBe("none");
		const filter = mcpToolFilter(["read", "mcp__docs__*"], false);
		expect(filterAllows(filter, "mcp__docs__search")).toBe(true);
		expect(filterAllows(filter, "mcp__other__search")).toBe(false);
		expect(filterAllows(filter, "mcp_read_resource")).toBe(false);
	});
});

describe("${VAR} expansion", () => {
	test("set, default, missing", () => {
		expect(expandVariables("Bearer ${T}", "headers.A", { T: "abc" })).toBe("Bearer abc");
		expect(expandVariables("${PORT:-8080}", "args[0]", {})).toBe("8080");
		expect(() => expandVariables("${NOPE}", "env.KEY", {})).toThrow("environment variable NOPE (used in env.KEY) is not set");
	});

	test("a stdio entry: relative cwd against the session folder, only a short list of the agent's environment", () => {
		process.env.MCP_UNIT_SECRET = "s";
		const expanded = expandEntry({ name: "x", source: "user", origin: "/f", config: { command: "srv", args: ["--home", "~/data"], cwd: "sub", env: { K: "v" } } }, "/work");
		if (expanded.kind !== "stdio") throw new Error("expected stdio");
		expect(expanded.spec.cwd).toBe("/work/sub");
		expect(expanded.spec.args[1]).toEndWith("/data");
		expect(expanded.spec.env.K).toBe("v");
		expect(expanded.spec.env.PATH).toBe(process.env.PATH!);
		expect(expanded.spec.env.MCP_UNIT_SECRET).toBeUndefined();
		delete process.env.MCP_UNIT_SECRET;
	});
});

describe("loadMcpConfig", () => {
	let dir: string;
	beforeEach(() => {
		dir = mkdtempSync(join(tmpdir(), "mcp-config-"));
		mkdirSync(join(dir, "project/.agent"), { recursive: true });
	});
	afterEach(() => rmSync(dir, { recursive: true, force: true }));
	const user = () => join(dir, "user.json");

	test("project entries replace or override user ones; problems carry file, line, column", () => {
		writeFileSync(user(), JSON.stringify({ mcpServers: { a: { command: "a" }, b: { command: "b", exposure: "hidden" }, c: { command: "c" } } }, null, 2));
		writeFileSync(
			join(dir, "project/.agent/mcp.json"),
			JSON.stringify({ mcpServers: { a: { url: "http://p/mcp" }, b: { enabled: false, exposure: "direct" }, orphan: { enabled: false }, "bad name": { command: "x" }, c_: {} } }, null, 2),
		);
		const loaded = loadMcpConfig({ cwd: join(dir, "project"), projectTrusted: true, userPath: user() });
		expect(loaded.servers.map((s) => [s.name, s.source, s.config])).toEqual([
			["a", "project", { url: "http://p/mcp" }],
			["b", "user", { command: "b", exposure: "direct", enabled: false }],
			["c", "user", { command: "c" }],
		]);
		expect(loaded.servers[1]!.overriddenBy).toBe(join(dir, "project/.agent/mcp.json"));
		expect(loaded.problems.map((p) => formatProblem(p).replace(dir, "<dir>"))).toEqual([
			`<dir>/project/.agent/mcp.json:10:15: server "orphan": has no "command" or "url", so it can only change a server of that name in ${user()}, and there is none`,
			'<dir>/project/.agent/mcp.json:13:17: server "bad name": server name "bad name" may contain only letters, digits, "_" and "-"',
			`<dir>/project/.agent/mcp.json:16:11: server "c_": has no "command" or "url", so it can only change a server of that name in ${user()}, and there is none`,
		]);
		// Untrusted: the project file is not read.
		expect(loadMcpConfig({ cwd: join(dir, "project"), projectTrusted: false, userPath: user() }).servers.map((s) => s.source)).toEqual(["user", "user", "user"]);
	});

	test("a file that is not JSON, or not the mcpServers shape, throws with its position", () => {
		writeFileSync(user(), '{ "mcpServers": [] }');
		expect(() => loadMcpConfig({ cwd: dir, projectTrusted: false, userPath: user() })).toThrow(`${user()}:1:17: "mcpServers" must be an object of server names to their settings`);
		writeFileSync(user(), "{ mcpServers: {} }");
		expect(() => loadMcpConfig({ cwd: dir, projectTrusted: false, userPath: user() })).toThrow(`${user()}:1:3: invalid JSON: expected a property name in double quotes`);
	});
});
