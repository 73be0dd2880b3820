// MCP: what configured servers cost a run (issue 16). Two parts, each against something measured in
// the same run:
//  1. Start-up: spawn of `agent -p` to the first request's arrival at the mock LLM, with no MCP
//     server, with 3 stdio servers none of which has direct tools (`deferred`: nothing waits for
//     them), and with 3 direct ones (the first request waits for them; shown, not a goal).
//     Goal: the 3 deferred servers add ≤ 5 ms (median of per-round differences).
//  2. Per call: an MCP tool call through the agent (the loop's "tools" phase of each turn,
//     AGENT_TIMING=1: validation, hooks, the SDK call, result mapping) beside the same server's
//     `echo` called with the official SDK alone (a compiled floor, same Bun and flags), each call
//     after a request to the mock as the agent's are (an idle server wakes up slower).
// The servers are @modelcontextprotocol/server-everything from node_modules, run with node.
//   bun scripts/bench/mcp.ts [--runs N] [--json] [--binary path]
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import {
	type Bench,
	benchMain,
	BenchWorld,
	fmt,
	fmtRatio,
	goalOf,
	interleave,
	loadAverage,
	measureRounds,
	median,
	mockProvider,
	perRound,
	result,
	runChecked,
	summary,
	type Subject,
	type Table,
} from "./lib.ts";
import { ANSWER, startMockServer, toolsDoneText } from "./mock.ts";
import { parseTiming } from "./timing-rows.ts";

const SERVER = resolve(import.meta.dir, "../../node_modules/@modelcontextprotocol/server-everything/dist/index.js");
const CALLS = 51;

function nodeBinary(): string {
	const node = Bun.which("node");
	if (!node) throw new Error("the MCP benchmark runs server-everything with node, which is not on PATH");
	return node;
}

export const bench: Bench = async (o) => {
	const startLoad = loadAverage();
	await using world = BenchWorld.create("mcp");
	const arrivals = join(world.root, "arrivals");
	writeFileSync(arrivals, "");
	await using mock = await startMockServer({ arrivalsFile: arrivals });
	const node = nodeBinary();
	const server = (extra: Record<string, unknown>) => ({ command: node, args: [SERVER, "stdio"], ...extra });
	// One agent folder per configuration (AGENT_DIR), each with the mock as its model.
	const agentDir = (name: string, servers: Record<string, unknown> | undefined) => {
		const dir = join(world.root, `agent-${name}`);
		world.write(join(dir, "models.json"), JSON.stringify({ providers: { mock: mockProvider(mock.openaiBaseUrl) } }));
		if (servers) world.write(join(dir, "mcp.json"), JSON.stringify({ mcpServers: servers }, null, 2));
		return dir;
	};
	const three = (exposure: string) => ({ one: server({ exposure }), two: server({ exposure }), three: server({ exposure }) });
	const model = ["--model", "mock/mock-model"];

	// ---- 1. start-up ----
	const startup: Subject[] = [
		{ name: "no MCP server", dir: agentDir("none", undefined) },
		{ name: "3 stdio servers, none direct (deferred)", dir: agentDir("deferred", three("deferred")) },
		{ name: "3 stdio servers, direct (the first request waits)", dir: agentDir("direct", three("direct")) },
	].map(({ name, dir }) => ({
		name,
		argv: [o.agent, "--no-session", ...model, "-p", "say hello"],
		env: world.env({ AGENT_DIR: dir, AGENT_TIMING: "1" }),
		cwd: world.cwd,
		expect: { stdout: `${ANSWER}\n`, stderr: /^Timing \(ms\):\n/ },
	}));
	// In-process, from AGENT_TIMING: the start-up phase that sets MCP up (config, manager), per subject.
	const mcpPhase = startup.map(() => [] as number[]);
	const firstRequest = await interleave(startup, o, async (subject, i) => {
		const spawned = performance.timeOrigin + performance.now();
		const out = await runChecked(subject);
		const arrived = readFileSync(arrivals, "utf8").split("\n").filter(Boolean).map(Number).find((t) => t > spawned);
		if (arrived === undefined) throw new Error(`"${subject.name}": the mock recorded no request`);
		mcpPhase[i]!.push(parseTiming(out.stderr).rows.find((r) => r.indent === 0 && r.label === "mcp")?.ms ?? 0);
		return arrived - spawned;
	});
	const added = summary(perRound([firstRequest[1]!, firstRequest[0]!], (withServers, without) => withServers - without));
	const startupTable: Table = {
		title: "spawn to the first request at the mock LLM",
		header: ["", "median ms", "min–max", "added vs no server (per round)", "MCP set-up in process (AGENT_TIMING \"mcp\")"],
		rows: startup.map((s, i) => {
			const all = summary(firstRequest[i]!);
			const diff = i === 0 ? "" : fmt(summary(perRound([firstRequest[i]!, firstRequest[0]!], (a, b) => a - b)), "ms", 2);
			return [s.name, all.median.toFixed(1), `${all.min.toFixed(1)}–${all.max.toFixed(1)}`, diff, i === 0 ? "" : fmt(summary(mcpPhase[i]!), "ms", 2)];
		}),
	};

	// ---- 2. per call ----
	const floor = await world.compileFile("mcp-floor", new URL("./mcp-floor.ts", import.meta.url).pathname, o);
	const done = `${toolsDoneText(CALLS)}\n`;
	const floorSubject = (name: string, extra: string[]): Subject => ({
		name,
		argv: [floor, node, SERVER, String(CALLS), ...extra, "--between", `${mock.openaiBaseUrl}/models`],
		env: world.env(),
		cwd: world.cwd,
		expect: { stdout: new RegExp(`done ${CALLS}\\n$`) },
		sample: (out) => ({ perCall: Number(/per call ([\d.]+) ms/.exec(out.stdout)![1]) }),
	});
	const perCallSubjects: Subject[] = [
		floorSubject(`SDK alone: ${CALLS} echo calls (floor)`, []),
		floorSubject(`SDK Client over the agent's stdio transport: ${CALLS} echo calls`, ["--bun-spawn"]),
		{
			name: `agent: ${CALLS} mcp__everything__echo calls`,
			argv: [o.agent, "--no-session", ...model, "-p", `tools:${CALLS}:mcp__everything__echo`],
			env: world.env({ AGENT_DIR: agentDir("one", { everything: server({}) }), AGENT_TIMING: "1" }),
			cwd: world.cwd,
			expect: { stdout: done },
			sample: (out) => {
				const tools = parseTiming(out.stderr).rows.filter((r) => /^turn \d+$/.test(r.label) && r.parts.tools !== undefined).map((r) => r.parts.tools!);
				if (tools.length !== CALLS) throw new Error(`expected ${CALLS} turns with tool calls, found ${tools.length}`);
				return { perCall: median(tools) };
			},
		},
	];
	const m = await measureRounds(perCallSubjects, { ...o, rssRuns: 0 });
	const floorPer: number[] = m[0]!.samples?.perCall ?? [];
	const ourTransportPer: number[] = m[1]!.samples?.perCall ?? [];
	const agentPer: number[] = m[2]!.samples?.perCall ?? [];
	const overhead = summary(perRound([agentPer, floorPer], (a, f) => a - f));
	const perCallTable: Table = {
		title: `one MCP tool call (median of the ${CALLS} calls of a run; medians over runs)`,
		header: ["", "ms per call (min–max)"],
		rows: [
			["SDK alone: client.callTool (floor)", fmt(summary(floorPer), "", 3)],
			["SDK Client over the agent's stdio transport", fmt(summary(ourTransportPer), "", 3)],
			["agent: the tool call in the loop", fmt(summary(agentPer), "", 3)],
			["overhead (agent − floor, per round)", fmt(overhead, "", 3)],
			["of which the loop (agent − SDK over the agent's transport)", fmt(summary(perRound([agentPer, ourTransportPer], (a, f) => a - f)), "", 3)],
			["agent / floor", fmtRatio(summary(perRound([agentPer, floorPer], (a, f) => a / f)))],
		],
	};
	return result("mcp", "What configured MCP servers add before the first request, and what one MCP tool call costs over the SDK alone (server-everything over stdio).", o, startLoad, [startupTable, perCallTable], [
		goalOf("3 non-direct stdio servers: added before the first request", added, 5, "ms"),
		goalOf("3 non-direct stdio servers: MCP set-up in process", summary(mcpPhase[1]!), 5, "ms"),
	]);
};

if (import.meta.main) await benchMain(bench);
