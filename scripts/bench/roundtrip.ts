// Round trip: `agent -ne -p` getting one short streamed answer from the mock LLM (a process of its
// own on 127.0.0.1), beside a compiled floor that makes the same request with fetch, reads the SSE
// stream and prints the text (same Bun, same flags). Goal: `--no-session` ≤ 2.5× the floor (aim 2×).
// A few extra runs with AGENT_TIMING=1 attribute the time to phases. PI_COMPARE=1 adds pi 1.6.0.
//   bun scripts/bench/roundtrip.ts [--runs N] [--json] [--binary path] [--no-minify] [--no-bytecode]
import { type Bench, benchMain, BenchWorld, compare, goalOf, loadAverage, measureRounds, result, rowsTable, type Subject, type Table } from "./lib.ts";
import { ANSWER, startMockServer } from "./mock.ts";
import { buildPi, PI_VERSION } from "./pi.ts";
import { phaseTable } from "./timing-rows.ts";

const PROMPT = "say hello";

export const bench: Bench = async (o) => {
	const startLoad = loadAverage();
	await using world = BenchWorld.create("roundtrip");
	await using mock = await startMockServer();
	const floor = await world.compileFile("roundtrip-floor", new URL("./roundtrip-floor.ts", import.meta.url).pathname, o);
	const model = world.useModel(mock.openaiBaseUrl);
	const env = world.env();
	const answer = { stdout: `${ANSWER}\n` };
	const base = { env, cwd: world.cwd, expect: answer };
	const subjects: Subject[] = [
		{ name: "compiled fetch + SSE (floor)", argv: [floor, mock.openaiBaseUrl, "mock-model", PROMPT], ...base },
		{ name: "agent -ne --no-session -p", argv: [o.agent, "-ne", "--no-session", ...model, "-p", PROMPT], ...base },
		{ name: "agent -ne -p (session saved)", argv: [o.agent, "-ne", ...model, "-p", PROMPT], ...base },
	];
	if (o.piCompare) {
		const pi = await buildPi();
		subjects.push({ name: `pi ${PI_VERSION} -ne --no-session -p (compiled)`, argv: [pi.bin, "-ne", "--no-session", "--offline", ...model, "-p", PROMPT], env: { ...env, ...pi.env(world) }, cwd: world.cwd, expect: answer });
	}
	const rows = compare(await measureRounds(subjects, o));
	const tables: Table[] = [rowsTable("round trip", rows)];
	const timed = { ...subjects[1]!, name: "agent -ne --no-session -p, AGENT_TIMING=1", env: { ...env, AGENT_TIMING: "1" } };
	tables.push(await phaseTable("where agent -ne --no-session -p spends its time (AGENT_TIMING=1, median of 7 runs)", timed, 7));
	return result("roundtrip", "Spawn to exit of one prompt answered by the mock LLM; floor: compiled fetch + SSE read + print (same Bun, same flags).", o, startLoad, tables, [
		goalOf("agent -ne --no-session -p vs floor", rows[1]!.ratio!, 2.5, "×", { aim: 2, cpu: rows[1]!.cpuRatio }),
	]);
};

if (import.meta.main) await benchMain(bench);
