// What a run imports, read from the binary itself: with AGENT_DEBUG_CHUNKS=1 it names the bundle
// chunks it loaded, and dist/agent.chunks.json (written by the build) says which sources each holds.
// `agent -ne -p` must never load jiti, the MCP SDK or client, the TUI (pi-tui, the interactive mode)
// or a provider SDK it does not use (openai-completions needs none; anthropic-messages its own). Checked by source path, so modules others add later are covered too.
// The TUI's first frame loads none of what only a key, a command or a first message needs (pickers, dialogs, clipboard, the session commands, the message views).
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { agentBinary } from "../support/agent.ts";
import { join, resolve } from "node:path";
import { MODEL, mockWorld, type MockWorld } from "../support/world.ts";

const repoRoot = resolve(import.meta.dir, "../..");

/** Sources a print-mode `-ne` run must not import, by what they are. */
const NEVER_IN_PRINT: Record<string, RegExp> = {
	jiti: /^node_modules\/jiti\//,
	"the MCP SDK": /^node_modules\/@modelcontextprotocol\//,
	// Extensions may register servers (pi.registerMcpServer), so the extension API holds the registry
	// and the entry checks it throws with; everything else of MCP loads only when a session has servers.
	"the MCP client": /^src\/core\/mcp\/(?!registry\.ts$|server-config\.ts$)/,
	"pi-tui": /^node_modules\/@(earendil-works|mariozechner)\/pi-tui\//,
	"the interactive mode": /^src\/modes\/interactive\/index\.ts$/,
	// Print mode shows the start-up list only with --verbose.
	"the start-up list": /^src\/modes\/interactive\/startup-list\.ts$/,
	"the trust prompt (@clack/prompts)": /^node_modules\/@clack\//,
	// A valid models.json is checked by code the build generated; tool arguments (none here) compile a check.
	"typebox's checker and compiler": /^node_modules\/typebox\/build\/(value|compile)\/|^src\/core\/providers\/config-check-source\.ts$/,
	// The config checks call one guard, imported from its own file (config-check-source.ts).
	"typebox's guard modules": /^node_modules\/typebox\/build\/guard\/(?!unicode\/unicode\.mjs$)/,
	// Tool and config schemas are frozen into literals by the build (scripts/frozen-module.ts): sending the tool list builds none.
	// A valid models.json and auth.json pass their precompiled checks by name: the schemas load only to explain a failure.
	"the config schemas": /^src\/core\/providers\/provider-config\.ts$/,
	"typebox's schema builders": /^node_modules\/typebox\/build\/(type|schema|format|index\.mjs|typebox\.mjs)/,
};

/** What the TUI loads on first use: a key or a command needs it, the first frame does not. */
const NOT_FOR_THE_FIRST_FRAME: Record<string, RegExp> = {
	"the dialogs": /^src\/modes\/interactive\/dialogs\.ts$/,
	"the model picker": /^src\/modes\/interactive\/(model-picker|components\/search-list)\.ts$/,
	"the session commands and /tree": /^src\/modes\/interactive\/(session-commands|tree-view)\.ts$/,
	"/hotkeys, /copy, /export": /^src\/modes\/interactive\/info-commands\.ts$/,
	"/mcp": /^src\/modes\/interactive\/mcp-command\.ts$/,
	"the clipboard": /^src\/modes\/interactive\/clipboard(-paste)?\.ts$/,
	"the external editor": /^src\/modes\/interactive\/external-editor\.ts$/,
	"pi-tui's Input": /^node_modules\/@earendil-works\/pi-tui\/dist\/components\/input\.js$/,
	// A new session's first frame holds notices only: answers, tool calls, user messages and `!cmd` come with the first of them.
	"the message views": /^src\/modes\/interactive\/transcript\/(assistant-message|tool-call|tool-defaults|bash-execution|user-message)\.ts$/,
	"pi-tui's Box and Image": /^node_modules\/@earendil-works\/pi-tui\/dist\/components\/(box|image)\.js$/,
	// The first code block (or a read result) brings it; a first frame draws none.
	"the code highlighter": /^src\/modes\/interactive\/theme\/(highlight|hljs)\.ts$/,
};

interface ChunkMap {
	chunks: Record<string, string[]>;
	entry: string;
}

function chunkMap(): ChunkMap {
	const path = join(repoRoot, "dist", "agent.chunks.json");
	if (!existsSync(path)) throw new Error(`${path} is missing: build with "npm run build" (scripts/build.ts writes it beside dist/agent)`);
	return JSON.parse(readFileSync(path, "utf8")) as ChunkMap;
}

/** Every source the run loaded: the entry chunk's and those of each chunk it reported. */
function loadedSources(stderr: string): string[] {
	const line = stderr.split("\n").find((l) => l.startsWith("Loaded chunks: "));
	if (!line) throw new Error(`no "Loaded chunks:" line on stderr:\n${stderr}`);
	const map = chunkMap();
	const names = [map.entry, ...line.slice("Loaded chunks: ".length).split(" ").filter(Boolean)];
	return names.flatMap((name) => map.chunks[name] ?? []);
}

function loadedKinds(sources: string[], kinds: Record<string, RegExp>): string[] {
	return Object.entries(kinds)
		.filter(([, pattern]) => sources.some((s) => pattern.test(s)))
		.map(([kind]) => kind);
}

async function run(world: MockWorld, argv: string[]): Promise<string[]> {
	const r = await world.run(argv, { env: { AGENT_DEBUG_CHUNKS: "1" } });
	expect(r.code).toBe(0);
	return loadedSources(r.stderr);
}

/**
 * `agent -ne` in a pseudo-terminal up to its first frame, then `typed` (each line submitted once the
 * previous screen shows `until`), then ctrl+d: the sources it loaded.
 */
async function tuiRun(world: MockWorld, typed: { line: string; until: string }[] = []): Promise<string[]> {
	const errFile = join(world.root, "tui-stderr.txt");
	let seen = "";
	const decoder = new TextDecoder();
	const proc = Bun.spawn(["sh", "-c", `exec "$@" 2>"${errFile}"`, "sh", agentBinary(), "-ne", "--model", MODEL.openai], {
		cwd: world.cwd,
		env: world.environment({ TERM: "xterm-256color", AGENT_DEBUG_CHUNKS: "1" }),
		terminal: { cols: 120, rows: 40, data: (_t, data) => void (seen += decoder.decode(data, { stream: true })) },
	});
	const until = async (what: string) => {
		const deadline = Date.now() + 15_000;
		while (!seen.includes(what)) {
			if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`no "${what}" on the screen; output:\n${JSON.stringify(seen.slice(-3000))}`);
			await Bun.sleep(20);
		}
	};
	try {
		await until("───");
		for (const { line, until: shows } of typed) {
			proc.terminal!.write(`${line}\r`);
			await until(shows);
		}
		proc.terminal!.write("\x04");
		expect(await proc.exited).toBe(0);
	} finally {
		if (proc.exitCode === null) proc.kill("SIGKILL");
		proc.terminal?.close();
	}
	return loadedSources(readFileSync(errFile, "utf8"));
}

describe("lazy loading, as the binary reports it", () => {
	test("the TUI starts without the pickers, dialogs, clipboard or session commands; a command loads its own", async () => {
		await using world = await mockWorld();
		const started = await tuiRun(world);
		expect(started).toContain("src/modes/interactive/app.ts");
		expect(loadedKinds(started, NOT_FOR_THE_FIRST_FRAME)).toEqual([]);
		// The check can fail: /hotkeys brings its module, and only that one; a `!cmd` brings the message views.
		const used = loadedKinds(await tuiRun(world, [{ line: "/hotkeys", until: "Keyboard shortcuts" }]), NOT_FOR_THE_FIRST_FRAME);
		expect(used).toContain("/hotkeys, /copy, /export");
		expect(used).not.toContain("the session commands and /tree");
		expect(used).not.toContain("the message views");
		expect(loadedKinds(await tuiRun(world, [{ line: "!echo $((6*7))x", until: "42x" }]), NOT_FOR_THE_FIRST_FRAME)).toContain("the message views");
	}, 60_000);

	test("agent -ne -p loads its wire protocol and none of jiti, MCP, the TUI, the trust prompt or a provider SDK", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "hi" });
		const sources = await run(world, ["-ne", "--no-session", "--model", MODEL.openai, "-p", "hello"]);
		// The map works: what a run must load is found.
		expect(sources).toContain("src/main.ts");
		expect(sources).toContain("src/core/providers/openai-completions.ts");
		expect(loadedKinds(sources, NEVER_IN_PRINT)).toEqual([]);
		expect(sources.some((s) => s.startsWith("node_modules/openai/"))).toBe(false);
		expect(sources.some((s) => s.startsWith("node_modules/@anthropic-ai/sdk/"))).toBe(false);
		expect(sources.some((s) => s.startsWith("src/core/extensions/loader.ts"))).toBe(false);
	});

	test("agent -ne --no-session -p with nothing on stdin never loads node:fs; piped text, or a saved session, does", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "hi" }, { text: "piped" }, { text: "saved" });
		const argv = ["-ne", "--no-session", "--model", MODEL.openai, "-p", "hello"];
		// Settings, models, auth and context files read through Bun, the answer written with console.log (file-reader.ts, stdio.ts).
		const quiet = await world.run(argv, { env: { AGENT_DEBUG_CHUNKS: "1" } });
		expect([quiet.code, quiet.stdout]).toEqual([0, "hi\n"]);
		expect(quiet.stderr).toContain("Loaded node:fs: no\n");
		const piped = await world.run(argv, { env: { AGENT_DEBUG_CHUNKS: "1" }, stdin: "from stdin\n" });
		expect([piped.code, piped.stdout]).toEqual([0, "piped\n"]);
		expect(piped.stderr).toContain("Loaded node:fs: yes\n");
		const saved = await world.run(["-ne", "--model", MODEL.openai, "-p", "hello"], { env: { AGENT_DEBUG_CHUNKS: "1" } });
		expect([saved.code, saved.stdout]).toEqual([0, "saved\n"]);
		expect(saved.stderr).toContain("Loaded node:fs: yes\n");
		const requests = world.mock.requests;
		expect(JSON.stringify(requests[1])).toContain("from stdin");
	});

	test("tool descriptions are part of their chunk, not files loaded one by one", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "hi" });
		const r = await world.run(["-ne", "--no-session", "--model", MODEL.openai, "-p", "hello"], { env: { AGENT_DEBUG_CHUNKS: "1" } });
		expect(r.code).toBe(0);
		const line = r.stderr.split("\n").find((l) => l.startsWith("Loaded chunks: ")) ?? "";
		// Bun embeds a text import as a module of its own unless the build inlines it (scripts/build.ts).
		expect(line.split(" ").filter((name) => /\.(md|css)$/.test(name))).toEqual([]);
		expect(loadedSources(r.stderr)).toContain("src/core/tools/read.md");
	});

	test("the same holds with a session saved and the Anthropic protocol", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "hi" });
		const sources = await run(world, ["-ne", "--model", MODEL.anthropic, "-p", "hello"]);
		expect(sources.some((s) => s.startsWith("node_modules/@anthropic-ai/sdk/"))).toBe(true);
		expect(sources.some((s) => s.startsWith("node_modules/openai/"))).toBe(false);
		expect(loadedKinds(sources, NEVER_IN_PRINT)).toEqual([]);
	});

	test("the check can fail: a /reload goes through jiti, and the report says so", async () => {
		await using world = await mockWorld();
		world.write("project/reloader.ts", `export default function (pi) { pi.registerCommand("again", { handler: async (_a, ctx) => ctx.reload() }); }\n`);
		const once = await run(world, ["-ne", "-e", "./reloader.ts", "--no-session", "--model", MODEL.openai, "-p", "/again"]);
		expect(once).toContain("src/core/extensions/loader.ts");
		expect(loadedKinds(once, NEVER_IN_PRINT)).toContain("jiti");
	});
});
