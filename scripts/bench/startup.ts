// Start-up: `agent --version` and `agent --help` against a compiled hello-world built in the same
// run with the same flags (the floor). Goal: `--version` stays where it is (≤ 1.5× the floor).
// PI_COMPARE=1 adds pi 1.6.0's `--version`, compiled as pi ships it.
//   bun scripts/bench/startup.ts [--runs N] [--json] [--binary path] [--no-minify] [--no-bytecode]
import { type Bench, benchMain, BenchWorld, compare, goalOf, loadAverage, measureRounds, result, rowsTable, type Subject } from "./lib.ts";
import { buildPi, PI_VERSION } from "./pi.ts";

export const bench: Bench = async (o) => {
	const startLoad = loadAverage();
	await using world = BenchWorld.create("startup");
	const floor = await world.compile("hello", `console.log("hello");\n`, o);
	const env = world.env();
	const base = { env, cwd: world.cwd };
	const version = /^\d+\.\d+\.\d+\n$/;
	const subjects: Subject[] = [
		{ name: "compiled hello-world (floor)", argv: [floor], ...base, expect: { stdout: "hello\n" } },
		{ name: "agent --version", argv: [o.agent, "--version"], ...base, expect: { stdout: version } },
		{ name: "agent --help", argv: [o.agent, "--help"], ...base, expect: { stdout: /Usage:/, stderr: "" } },
	];
	if (o.piCompare) {
		const pi = await buildPi();
		subjects.push({ name: `pi ${PI_VERSION} --version (compiled)`, argv: [pi.bin, "--version"], env: { ...env, ...pi.env(world) }, cwd: world.cwd, expect: { stdout: `${PI_VERSION}\n` } });
	}
	const rows = compare(await measureRounds(subjects, o));
	return result("startup", "Spawn to exit of `--version` and `--help`; floor: a compiled hello-world (same Bun, same flags).", o, startLoad, [rowsTable("start-up", rows)], [
		goalOf("agent --version vs floor", rows[1]!.ratio!, 1.5, "×", { cpu: rows[1]!.cpuRatio }),
	]);
};

if (import.meta.main) await benchMain(bench);
