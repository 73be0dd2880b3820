// pi.registerMcpServer's load-time rules (pending until the factory returns, discarded when it
// throws, one owner per name), prompt arguments, and the text edits of agent mcp add/remove.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createExtension, createExtensionAPI, ExtensionRuntime } from "../../../src/core/extensions/api.ts";
import { createEventBus } from "../../../src/core/extensions/event-bus.ts";
import { addServerToFile, removeServerFromFile } from "../../../src/core/mcp/config-edit.ts";
import { parsePromptCommand, promptArguments } from "../../../src/core/mcp/prompt-commands.ts";

function load(runtime: ExtensionRuntime, path: string) {
	const extension = createExtension(path, path, { path, source: "cli", scope: "temporary", origin: "top-level" });
	return createExtensionAPI(extension, runtime, createEventBus());
}

describe("registerMcpServer", () => {
	test("registrations wait for the factory to return; a failed load leaves none", () => {
		const runtime = new ExtensionRuntime("/w");
		const changes: number[] = [];
		runtime.mcpServers.setChangeListener(() => changes.push(runtime.mcpServers.size));
		const a = load(runtime, "/a.ts");
		a.api.registerMcpServer("one", { command: "x" });
		expect(runtime.mcpServers.list()).toEqual([]);
		expect(a.api.getMcpServers().map((s) => s.name)).toEqual(["one"]);
		a.commit();
		expect(runtime.mcpServers.list()).toEqual([{ name: "one", config: { command: "x" }, extensionPath: "/a.ts" }]);
		const b = load(runtime, "/b.ts");
		b.api.registerMcpServer("two", { url: "http://x/mcp" });
		b.discard();
		expect(runtime.mcpServers.list().map((s) => s.name)).toEqual(["one"]);
		expect(changes).toEqual([1]);
	});

	test("one owner per name (also up to - and _); after load, changes apply at once", () => {
		const runtime = new ExtensionRuntime("/w");
		const a = load(runtime, "/a.ts");
		a.api.registerMcpServer("my-srv", { command: "x" });
		a.commit();
		const b = load(runtime, "/b.ts");
		expect(() => b.api.registerMcpServer("my_srv", { command: "y" })).toThrow('registerMcpServer("my_srv"): the name is already registered by /a.ts');
		b.commit();
		b.api.unregisterMcpServer("my-srv");
		expect(runtime.mcpServers.size).toBe(1);
		a.api.registerMcpServer("my-srv", { command: "z" });
		expect(runtime.mcpServers.list()[0]!.config).toEqual({ command: "z" });
		a.api.unregisterMcpServer("my-srv");
		expect(runtime.mcpServers.size).toBe(0);
	});
});

describe("prompt commands", () => {
	const prompt = { name: "ask", arguments: [{ name: "topic", required: true }, { name: "style" }] };
	test("names, order, quotes, and the rest joining the last argument", () => {
		expect(parsePromptCommand("/mcp:docs:ask a b")).toEqual({ server: "docs", prompt: "ask", args: "a b" });
		expect(parsePromptCommand("/mcp:docs")).toBeUndefined();
		expect(promptArguments("docs", prompt, 'style=short "closures in js"')).toEqual({ topic: "closures in js", style: "short" });
		expect(promptArguments("docs", prompt, "a b c")).toEqual({ topic: "a", style: "b c" });
		expect(() => promptArguments("docs", prompt, "")).toThrow("Missing argument topic. Usage: /mcp:docs:ask <topic> [style]");
		expect(() => promptArguments("docs", { name: "plain" }, "x")).toThrow("/mcp:docs:plain takes no arguments");
	});
});

describe("mcp.json edits", () => {
	let dir: string;
	beforeEach(() => (dir = mkdtempSync(join(tmpdir(), "mcp-edit-"))));
	afterEach(() => rmSync(dir, { recursive: true, force: true }));

	test("into an empty mcpServers, a one-line object, a file without mcpServers; remove the only and the first", () => {
		const path = join(dir, "mcp.json");
		writeFileSync(path, '{\n    "mcpServers": {}\n}\n');
		addServerToFile(path, "a", { command: "x" });
		expect(readFileSync(path, "utf8")).toBe('{\n    "mcpServers": {\n        "a": {\n            "command": "x"\n        }\n    }\n}\n');
		removeServerFromFile(path, "a");
		expect(readFileSync(path, "utf8")).toBe('{\n    "mcpServers": {}\n}\n');
		writeFileSync(path, '{ "mcpServers": { "a": { "command": "x" } } }');
		addServerToFile(path, "b", { url: "http://b/mcp" });
		expect(readFileSync(path, "utf8")).toBe('{ "mcpServers": { "a": { "command": "x" }, "b": {"url":"http://b/mcp"} } }');
		removeServerFromFile(path, "a");
		expect(readFileSync(path, "utf8")).toBe('{ "mcpServers": { "b": {"url":"http://b/mcp"} } }');
		writeFileSync(path, '{\n  "other": true\n}\n');
		addServerToFile(path, "c", { command: "c" });
		expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({ other: true, mcpServers: { c: { command: "c" } } });
		expect(() => addServerToFile(path, "c", { command: "c" })).not.toThrow();
		expect(() => addServerToFile(path, "c-", { command: "c" })).not.toThrow();
		expect(() => addServerToFile(path, "c_", { command: "c" })).toThrow('"c_" and "c-" would be the same server');
	});
});
