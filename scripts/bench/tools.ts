// Tool round trips: `agent -ne --no-session -p "tools:N"` where the mock LLM calls `bash` (`echo k`)
// N times, one call per turn, then answers; beside a floor built in the same run with the same flags:
// a compiled fetch + SSE + `bash -c` loop doing the same conversation. Per call = the slope from 1 to
// 51 calls, paired per round. Goals: ≤ 1.5× the floor per call; ≤ 250 KB peak RSS per call; with
// AGENT_TIMING=1, ≤ 2% of a 51-call run in no row (per-turn rows attribute a long run).
// PI_COMPARE=1 adds pi 1.6.0 (compiled) making the same 51 calls.
//   bun scripts/bench/tools.ts [--runs N] [--json] [--binary path]
import { type Bench, benchMain, BenchWorld, compare, fmt, fmtRatio, goal, goalOf, loadAverage, measureRounds, median, perRound, result, rowsTable, summary, type Subject, type Table } from "./lib.ts";
import { startMockServer, toolsDoneText } from "./mock.ts";
import { buildPi, PI_VERSION } from "./pi.ts";
import { inNoRow, phaseTableOf, timedRuns } from "./timing-rows.ts";

const FEW = 1;
const MANY = 51;

export const bench: Bench = async (o) => {
	const startLoad = loadAverage();
	await using world = BenchWorld.create("tools");
	await using mock = await startMockServer();
	const model = world.useModel(mock.openaiBaseUrl);
	const floor = await world.compileFile("tools-floor", new URL("./tools-floor.ts", import.meta.url).pathname, o);
	const env = world.env();
	const done = (n: number) => ({ stdout: `${toolsDoneText(n)}\n` });
	const agent = (n: number): Subject => ({ name: `agent, ${n} tool call${n === 1 ? "" : "s"}`, argv: [o.agent, "-ne", "--no-session", ...model, "-p", `tools:${n}`], env, cwd: world.cwd, expect: done(n) });
	const bare = (n: number): Subject => ({ name: `floor (fetch + bash -c), ${n} tool call${n === 1 ? "" : "s"}`, argv: [floor, mock.openaiBaseUrl, "mock-model", `tools:${n}`], env, cwd: world.cwd, expect: done(n) });
	const subjects = [bare(FEW), bare(MANY), agent(FEW), agent(MANY)];
	if (o.piCompare) {
		const pi = await buildPi();
		subjects.push({ name: `pi ${PI_VERSION}, ${MANY} tool calls (compiled)`, argv: [pi.bin, "-ne", "--no-session", "--offline", ...model, "-p", `tools:${MANY}`], env: { ...env, ...pi.env(world) }, cwd: world.cwd, expect: done(MANY) });
	}
	const m = await measureRounds(subjects, o);
	const [f1, f51, a1, a51] = m;
	const calls = MANY - FEW;
	const slope = (lo: number[], hi: number[]) => perRound([lo, hi], (l, h) => (h - l) / calls);
	const agentPer = slope(a1!.wallMs, a51!.wallMs);
	const floorPer = slope(f1!.wallMs, f51!.wallMs);
	const ratio = summary(perRound([agentPer, floorPer], (a, f) => a / f));
	const cpuPer = (lo: typeof f1, hi: typeof f1) => slope(lo!.cpuMs!, hi!.cpuMs!);
	const cpuRatio = summary(perRound([cpuPer(a1, a51), cpuPer(f1, f51)], (a, f) => a / f));
	const agentRss = summary(slope(a1!.rssKb, a51!.rssKb));
	const floorRss = summary(slope(f1!.rssKb, f51!.rssKb));
	const perCall: Table = {
		title: `per tool call (slope from ${FEW} to ${MANY} calls, per round)`,
		header: ["", "agent", "floor", "agent / floor"],
		rows: [
			["wall ms per call", fmt(summary(agentPer), "", 2), fmt(summary(floorPer), "", 2), fmtRatio(ratio)],
			["CPU ms per call", fmt(summary(cpuPer(a1, a51)), "", 2), fmt(summary(cpuPer(f1, f51)), "", 2), fmtRatio(cpuRatio)],
			["peak RSS KB per call", fmt(agentRss, "", 0), fmt(floorRss, "", 0), ""],
		],
	};
	const timed = { ...agent(MANY), name: `agent, ${MANY} calls, AGENT_TIMING=1`, env: { ...env, AGENT_TIMING: "1" } };
	const timings = await timedRuns(timed, 3);
	const phases = phaseTableOf(`where a ${MANY}-call run spends its time (AGENT_TIMING=1, median of 3 runs; turns summed)`, timings);
	const noRow = summary(timings.map(inNoRow));
	const runMs = median(timings.map((t) => t.totalMs));
	return result("tools", `\`agent -ne --no-session -p\` with the mock calling \`bash\` ${FEW} or ${MANY} times; floor: a compiled fetch + SSE + \`bash -c\` loop (same Bun, same flags).`, o, startLoad, [rowsTable("whole runs", compare(m)), perCall, phases], [
		goalOf("per tool round trip vs floor", ratio, 1.5, "×", { cpu: cpuRatio }),
		goalOf("peak RSS per tool call", agentRss, 250, "KB"),
		goal(`${MANY}-call run in no AGENT_TIMING row (turn rows)`, noRow.median, 0.02 * runMs, "ms", { detail: `of ${runMs.toFixed(1)} ms (target 2%); min–max ${noRow.min.toFixed(2)}–${noRow.max.toFixed(2)}` }),
	]);
};

if (import.meta.main) await benchMain(bench);
