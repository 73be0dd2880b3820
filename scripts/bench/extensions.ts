// Benchmark: what loading extensions adds to start-up in the compiled binary, for 1, 20 and 100
// trivial extensions (each imports typebox, registers a tool and a handler), warm and cold, with
// peak RSS, against a floor measured in the same run: Bun's own native import of the same files.
// Usage: bun scripts/bench/extensions.ts [--runs 15]   (builds dist/agent if missing)
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildBinary } from "../build.ts";
import { trivialExtension } from "./lib.ts";

const repo = resolve(import.meta.dir, "../..");
const { values } = parseArgs({ options: { runs: { type: "string", default: "15" } } });
const RUNS = Number(values.runs);
const COUNTS = [1, 20, 100];
const bun = process.execPath;

const EXTENSION = (i: number) =>
	trivialExtension(i, `	pi.on("tool_call", () => undefined);`);

const FLOOR = `// Bun's native import of the same files, registering into a stub: the floor.
const api = { registerTool() {}, on() {} };
const started = performance.now();
for (const f of process.argv.slice(2)) (await import(f)).default(api);
if (process.env.PRINT_MS) console.log(performance.now() - started);
`;

const root = mkdtempSync(join(realpathSync(tmpdir()), "agent-bench-ext-"));
process.on("exit", () => rmSync(root, { recursive: true, force: true }));

/** Write `n` extensions into a fresh folder; a node_modules link lets the floor resolve typebox natively. */
function writeExtensions(n: number, tag: string): string[] {
	const dir = join(root, `${tag}-${n}-${Math.random().toString(36).slice(2)}`);
	mkdirSync(dir, { recursive: true });
	symlinkSync(join(repo, "node_modules"), join(dir, "node_modules"));
	return Array.from({ length: n }, (_, i) => {
		const file = join(dir, `ext-${i}.ts`);
		writeFileSync(file, EXTENSION(i));
		return file;
	});
}

interface Sample {
	ms: number;
	rss: number;
}

function run(argv: string[], env: Record<string, string> = {}): Sample {
	const started = performance.now();
	const proc = Bun.spawnSync(argv, { cwd: root, env: { ...process.env, HOME: join(root, "home"), NO_COLOR: "1", ...env }, stdout: "pipe", stderr: "pipe" });
	const ms = performance.now() - started;
	const stderr = proc.stderr.toString();
	if (stderr.includes("Failed to load")) throw new Error(stderr);
	return { ms, rss: proc.resourceUsage?.maxRSS ?? 0 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function measure(argvFor: (files: string[]) => string[], files: () => string[]): { ms: number; rss: number } {
	const samples: Sample[] = [];
	for (let i = 0; i < RUNS; i++) samples.push(run(argvFor(files())));
	return { ms: median(samples.map((s) => s.ms)), rss: Math.max(...samples.map((s) => s.rss)) };
}

const agentPath = join(repo, "dist/agent");
if (!existsSync(agentPath)) await buildBinary({ outfile: agentPath });
const floorScript = join(root, "floor.ts");
writeFileSync(floorScript, FLOOR);
mkdirSync(join(root, "home"));

const agent = (files: string[]) => [agentPath, "-ne", ...files.flatMap((f) => ["-e", f]), "-p", "x"];
const floor = (files: string[]) => [bun, floorScript, ...files];

// Warm-up, then the zero-extension baselines.
for (let i = 0; i < 3; i++) run(agent([]));
const base = measure(agent, () => []);
const floorBase = measure(floor, () => []);

const rows: string[] = [];
const totals = new Map<number, { warm: number; floorWarm: number; cold: number; floorCold: number }>();
const mb = (b: number) => (b / 1024 / 1024).toFixed(1);
for (const n of COUNTS) {
	const warmFiles = writeExtensions(n, "warm");
	run(agent(warmFiles));
	run(floor(warmFiles));
	const warm = measure(agent, () => warmFiles);
	const floorWarm = measure(floor, () => warmFiles);
	// Cold: freshly written files at new paths every run, so nothing is cached by path anywhere.
	const cold = measure(agent, () => writeExtensions(n, "cold"));
	const floorCold = measure(floor, () => writeExtensions(n, "cold"));
	const per = (x: number, b: number) => ((x - b) / n).toFixed(2);
	totals.set(n, { warm: warm.ms, floorWarm: floorWarm.ms, cold: cold.ms, floorCold: floorCold.ms });
	rows.push(
		`| ${n} | ${per(warm.ms, base.ms)} | ${per(floorWarm.ms, floorBase.ms)} | ${per(cold.ms, base.ms)} | ${per(floorCold.ms, floorBase.ms)} | ${mb(warm.rss)} (+${mb(warm.rss - base.rss)}) | ${mb(floorWarm.rss)} |`,
	);
}

// Marginal cost: the slope between 20 and 100 extensions, free of one-off costs (first transpile, typebox).
const [a, b] = [totals.get(20)!, totals.get(100)!];
const slope = (k: "warm" | "floorWarm" | "cold" | "floorCold") => ((b[k] - a[k]) / 80).toFixed(2);

// The reload path (jiti, re-evaluating entries and helpers), inside a compiled binary of its own.
const harness = join(root, "reload-harness");
const harnessBuild = await Bun.build({ entrypoints: [join(import.meta.dir, "reload-harness.ts")], compile: { outfile: harness }, minify: true, bytecode: true, format: "esm", splitting: true });
if (!harnessBuild.success) throw new Error("reload harness failed to build");
const reloadFiles = writeExtensions(20, "reload");
const reload = JSON.parse(Bun.spawnSync([harness, ...reloadFiles], { cwd: root, stdout: "pipe" }).stdout.toString());
if (reload.errors.length > 0) throw new Error(reload.errors.join("\n"));

console.log(`Extension loading, compiled binary, median of ${RUNS} runs (ms per extension added to wall time)

no extensions: agent ${base.ms.toFixed(1)} ms, ${mb(base.rss)} MB peak RSS; floor process (bun, empty import list) ${floorBase.ms.toFixed(1)} ms

| extensions | agent warm | floor warm | agent cold | floor cold | agent peak RSS MB | floor peak RSS MB |
| --- | --- | --- | --- | --- | --- | --- |
${rows.join("\n")}

marginal ms per extension (20 → 100): agent warm ${slope("warm")}, floor warm ${slope("floorWarm")}, agent cold ${slope("cold")}, floor cold ${slope("floorCold")}

reload of 20 extensions through jiti (entries and helpers re-evaluated), in a compiled binary: first load ${reload.firstMs.toFixed(1)} ms, reload ${reload.reloadMs.toFixed(1)} ms (includes importing jiti once)
floor = Bun's native import() of the same files from a node_modules that has typebox; cold = freshly written files at new paths`);
