// Extension loading: what each extension adds to a real run (`agent -ne -e … --no-session -p`
// answered by the mock LLM) for 0, 20 and 100 trivial extensions (each imports typebox, registers
// a tool and a handler), against a floor: the same Bun (node_modules/.bin/bun, not compiled: a
// compiled Bun 1.4.4 cannot resolve a package whose entry is in a subfolder, typebox's is) doing a
// bare import() of the same files and calling each factory on a stub.
// Per extension = the slope from 20 to 100, paired per round. Goal: ≤ 1.3× the floor's slope.
// AGENT_TIMING runs show that every millisecond of the extensions phase is in a row.
//   bun scripts/bench/extensions.ts [--runs N] [--json] [--binary path]
import { symlinkSync } from "node:fs";
import { join, resolve } from "node:path";
import {
	type Bench,
	benchMain,
	BenchWorld,
	compare,
	fmt,
	fmtRatio,
	goal,
	goalOf,
	loadAverage,
	measureRounds,
	median,
	perRound,
	result,
	rowsTable,
	runChecked,
	summary,
	type Subject,
	type Table,
	trivialExtension,
} from "./lib.ts";
import { ANSWER, startMockServer } from "./mock.ts";
import { parseTiming, phaseTable, unattributedIn } from "./timing-rows.ts";

const repo = resolve(import.meta.dir, "../..");
const COUNTS = [0, 20, 100] as const;

const EXTENSION = (i: number) => trivialExtension(i, `	pi.on("tool_call", () => undefined);`);

// Bun's bare import of the same files, each factory called on a stub API, timed in-process: the floor.
const FLOOR = `import { dirname } from "node:path";
const api = { registerTool() {}, on() {} };
const files = process.argv.slice(2);
// typebox itself is loaded first, untimed: the agent's is in the binary, the floor's in node_modules.
if (files.length > 0) await import(Bun.resolveSync("typebox", dirname(files[0])));
let importMs = 0;
let factoryMs = 0;
for (const file of files) {
	const t0 = performance.now();
	const mod = await import(file);
	const t1 = performance.now();
	mod.default(api);
	importMs += t1 - t0;
	factoryMs += performance.now() - t1;
}
console.log(JSON.stringify({ n: files.length, importMs, factoryMs }));
`;

export const bench: Bench = async (o) => {
	const startLoad = loadAverage();
	await using world = BenchWorld.create("extensions");
	await using mock = await startMockServer();
	const model = world.useModel(mock.openaiBaseUrl);
	const floorScript = world.write("src/import-floor.ts", FLOOR);
	// The same files twice: the agent's folder has no node_modules in reach (typebox comes from the
	// binary, as for a user); the floor's links the repo's, so Bun resolves typebox natively.
	const files = (dir: string, n: number) => Array.from({ length: n }, (_, i) => join(world.root, dir, `ext-${i}.ts`));
	for (let i = 0; i < 100; i++) for (const dir of ["agent-ext", "floor-ext"]) world.write(join(dir, `ext-${i}.ts`), EXTENSION(i));
	symlinkSync(join(repo, "node_modules"), join(world.root, "floor-ext", "node_modules"));

	const env = world.env({ AGENT_TIMING: "1" });
	const agent = (n: number): Subject => ({
		name: `agent, ${n} extensions`,
		argv: [o.agent, "-ne", "--no-session", ...model, ...files("agent-ext", n).flatMap((f) => ["-e", f]), "-p", "hi"],
		env,
		cwd: world.cwd,
		expect: { stdout: `${ANSWER}\n`, stderr: /Timing \(ms\):/ },
		sample: (out) => {
			const timing = parseTiming(out.stderr);
			const phase = timing.rows.find((r) => r.indent === 0 && r.label === "extensions")!;
			const fileRows = timing.rows.filter((r) => r.parent === "extensions" && "import" in r.parts);
			const sum = (k: string) => fileRows.reduce((t, r) => t + (r.parts[k] ?? 0), 0);
			return { phaseMs: phase.ms, importMs: sum("import"), factoryMs: sum("factory"), unattributedMs: unattributedIn(timing, "extensions") };
		},
	});
	const bare = (n: number): Subject => ({
		name: `floor (bare import), ${n} files`,
		argv: [process.execPath, floorScript, ...files("floor-ext", n)],
		env,
		cwd: world.cwd,
		expect: { stdout: new RegExp(`^\\{"n":${n},`) },
		sample: (out) => {
			const r = JSON.parse(out.stdout) as { importMs: number; factoryMs: number };
			return { phaseMs: r.importMs + r.factoryMs, importMs: r.importMs, factoryMs: r.factoryMs };
		},
	});
	const subjects = [...COUNTS.map(agent), ...COUNTS.slice(1).map(bare)];
	const m = await measureRounds(subjects, o);
	const [, a20, a100, f20, f100] = m;
	const slope = (lo: number[], hi: number[]) => perRound([lo, hi], (l, h) => (h - l) / 80);
	const per = (k: string, lo: typeof a20, hi: typeof a20) => slope(lo!.samples![k]!, hi!.samples![k]!);
	const agentPer = per("phaseMs", a20, a100);
	const floorPer = per("phaseMs", f20, f100);
	const ratio = summary(perRound([agentPer, floorPer], (a, f) => a / f));
	const rssPer = (lo: number[], hi: number[]) => (lo.length && hi.length ? summary(slope(lo, hi)) : null);
	const cell = (values: number[]) => fmt(summary(values), "", 3);

	const marginal: Table = {
		title: "per extension, in-process (slope from 20 to 100 extensions, per round)",
		header: ["", "agent", "floor (bare import)", "agent / floor"],
		rows: [
			["whole extensions phase, ms", cell(agentPer), cell(floorPer), fmtRatio(ratio)],
			["  import, ms", cell(per("importMs", a20, a100)), cell(per("importMs", f20, f100)), ""],
			["  factory (+ commit), ms", cell(per("factoryMs", a20, a100)), cell(per("factoryMs", f20, f100)), ""],
			["peak RSS KB per extension", fmt(rssPer(a20!.rssKb, a100!.rssKb), "", 0), fmt(rssPer(f20!.rssKb, f100!.rssKb), "", 0), ""],
		],
		notes: ["The agent's phase is AGENT_TIMING's `extensions` row (trust, discovery, loader, every file); the floor's is its own import + factory loop."],
	};
	const unattributed = summary(a100!.samples!.unattributedMs!);
	const phaseMs = median(a100!.samples!.phaseMs!);
	const phases = await phaseTable("where a 100-extension run spends its time (AGENT_TIMING=1, median of 5 runs)", agent(100), 5);
	const reload = await reloadTable(world, o, files("agent-ext", 20));

	return result("extensions", "`agent -ne --no-session -p` answered by the mock, with 0/20/100 `-e` extensions; floor: the same Bun's bare import() of the same files, timed in-process.", o, startLoad, [rowsTable("whole runs (wall)", compare(m, -1)), marginal, phases, reload], [
		goalOf("per extension vs Bun's bare import", ratio, 1.3, "×"),
		goal("extensions phase in no row (100 extensions)", unattributed.median, 0.02 * phaseMs, "ms", { detail: `of ${phaseMs.toFixed(1)} ms (target 2%); min–max ${unattributed.min.toFixed(2)}–${unattributed.max.toFixed(2)}` }),
	]);
};

/** `/reload` of 20 extensions through jiti, in a compiled harness of its own (3 runs). */
async function reloadTable(world: BenchWorld, o: Parameters<Bench>[0], files: string[]): Promise<Table> {
	const harness = await world.compileFile("reload-harness", join(import.meta.dir, "reload-harness.ts"), o);
	const runs: { firstMs: number; reloadMs: number }[] = [];
	for (let i = 0; i < 3; i++) {
		const out = await runChecked({
			name: "reload harness",
			argv: [harness, ...files],
			env: world.env(),
			cwd: world.cwd,
			expect: { check: (r) => (JSON.parse(r.stdout).errors.length > 0 ? `load errors: ${r.stdout}` : undefined) },
		});
		runs.push(JSON.parse(out.stdout));
	}
	return {
		title: "/reload of 20 extensions (jiti re-evaluates entries and helpers), compiled harness, 3 runs",
		header: ["first load ms", "reload ms (includes importing jiti once)"],
		rows: [[fmt(summary(runs.map((r) => r.firstMs))), fmt(summary(runs.map((r) => r.reloadMs)))]],
	};
}

if (import.meta.main) await benchMain(bench);
