// The benchmark kit every script in scripts/bench/ is built on. A benchmark is a function
// `(options) => Promise<BenchResult>`; with this kit it reads:
//
//   export const bench: Bench = async (o) => {
//     await using world = BenchWorld.create("startup");               // temp root: home/, project/, bin/
//     const floor = await world.compile("hello", `console.log("hi");`, o); // same Bun, same flags as the agent
//     const env = world.env();                                         // HOME, PATH, TERM, TMPDIR: nothing of yours
//     const m = await measureRounds([
//       { name: "floor", argv: [floor], env, cwd: world.cwd, expect: { stdout: "hi\n" } },
//       { name: "agent --version", argv: [o.agent, "--version"], env, cwd: world.cwd, expect: { stdout: /^\d/ } },
//     ], o);                                                           // interleaved rounds; every run checked
//     const rows = compare(m);                                         // medians, min–max, ratios per round
//     return result("startup", "…", o, [rowsTable("…", rows)], [goalOf("--version vs floor", rows[1]!.ratio!, 1.3, "×")]);
//   };
//   if (import.meta.main) await benchMain(bench);                      // --runs N --json --binary path
//
// `npm run bench` (all.ts) runs every registered benchmark with one agent binary and prints one
// goal table. The rules this kit enforces: a run that exits wrongly or prints the wrong thing stops
// the benchmark (an error path measures nothing); the child's environment is built from nothing
// (an exported API key must never reach a run); floors are compiled by the same Bun with the same
// flags as the agent; subjects alternate within each round.
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { buildBinary } from "../build.ts";
import { type BenchResult, formatResult, goalsTable, formatTable, loadAverage, type Measurement, type Table, type Goal } from "./report.ts";

export * from "./report.ts";

/** Build flags shared by the agent and every floor of a run. */
export interface BuildFlags {
	minify: boolean;
	bytecode: boolean;
}

/** What every benchmark gets. */
export interface BenchOptions extends BuildFlags {
	/** Timed rounds per subject. */
	runs: number;
	/** The agent binary to measure (outside the repo, no node_modules in reach); "" for a bench declared `agent: false`. */
	agent: string;
	/** PI_COMPARE=1: add pi 1.6.0, compiled as pi compiles its binary. */
	piCompare: boolean;
}

export type Bench = (options: BenchOptions) => Promise<BenchResult>;

/** System directories only: enough for bash, coreutils and /usr/bin/time, nothing of the caller's. */
export const SAFE_PATH = "/usr/local/bin:/usr/bin:/bin";

/**
 * A temporary root with `home/` (the HOME of every run), `project/` (the cwd) and `bin/` (compiled
 * floors). `await using` removes it.
 */
export class BenchWorld implements AsyncDisposable {
	readonly root: string;
	readonly home: string;
	readonly cwd: string;
	readonly bin: string;

	private constructor(root: string) {
		this.root = root;
		this.home = join(root, "home");
		this.cwd = join(root, "project");
		this.bin = join(root, "bin");
		for (const d of [this.home, this.cwd, this.bin, join(root, "tmp")]) mkdirSync(d, { recursive: true });
	}

	static create(tag: string): BenchWorld {
		return new BenchWorld(mkdtempSync(join(realpathSync(tmpdir()), `agent-bench-${tag}-`)));
	}

	/** `~/.agent` of every run. */
	get agentDir(): string {
		return join(this.home, ".agent");
	}

	/** Write `content` at `path` (relative to the root, or absolute); returns the absolute path. */
	write(path: string, content: string): string {
		const full = resolve(this.root, path);
		mkdirSync(dirname(full), { recursive: true });
		writeFileSync(full, content);
		return full;
	}

	/**
	 * A child environment built from nothing: HOME, PATH (system dirs), TERM, TMPDIR, plus `extra`.
	 * TERM is a user's (colour on), not a test's: NO_COLOR would hide the cost of colour detection.
	 */
	env(extra: Record<string, string> = {}): Record<string, string> {
		return { HOME: this.home, PATH: SAFE_PATH, TERM: "xterm-256color", TMPDIR: join(this.root, "tmp"), LANG: "C.UTF-8", ...extra };
	}

	/** Compile `source` (TypeScript text) into `bin/<name>` with the run's build flags; returns its path. */
	async compile(name: string, source: string, flags: BuildFlags): Promise<string> {
		const entry = this.write(`src/${name}.ts`, source);
		return this.compileFile(name, entry, flags);
	}

	/** Compile an existing entry file into `bin/<name>`. */
	async compileFile(name: string, entrypoint: string, flags: BuildFlags): Promise<string> {
		const outfile = join(this.bin, name);
		await buildBinary({ entrypoint, outfile, minify: flags.minify, bytecode: flags.bytecode, quiet: true });
		return outfile;
	}

	/** Point `~/.agent/models.json` at an OpenAI-compatible server; returns the `--model` arguments. */
	useModel(openaiBaseUrl: string): string[] {
		this.write(join(this.agentDir, "models.json"), `${JSON.stringify({ providers: { mock: mockProvider(openaiBaseUrl) } }, null, 2)}\n`);
		return ["--model", "mock/mock-model"];
	}

	async [Symbol.asyncDispose](): Promise<void> {
		rmSync(this.root, { recursive: true, force: true });
	}
}

/** The models.json provider entry for the mock (also written for pi). */
export function mockProvider(openaiBaseUrl: string) {
	return { baseUrl: openaiBaseUrl, api: "openai-completions", apiKey: "bench-key", models: [{ id: "mock-model", contextWindow: 100000, maxTokens: 4096 }] };
}

// ---- Subjects and runs ----

/** What a good run looks like. Every run (warm-up, timed, RSS) is checked against it. */
export interface Expect {
	/** Default 0. */
	code?: number;
	/** Exact text, or a pattern it must match. */
	stdout?: string | RegExp;
	stderr?: string | RegExp;
	/** Any other check: return what is wrong, or nothing. */
	check?(out: RunOutput): string | undefined;
}

/** One command to measure. `env` and `cwd` are required: nothing is inherited by accident. */
export interface Subject {
	name: string;
	argv: string[];
	env: Record<string, string>;
	cwd: string;
	/** Fed to stdin (default: stdin closed). */
	stdin?: string;
	expect: Expect;
	/** Numbers to keep from each timed run's output (e.g. in-process timings), by name. */
	sample?(out: RunOutput): Record<string, number>;
}

export interface RunOutput {
	code: number;
	stdout: string;
	stderr: string;
	wallMs: number;
	/** User + system CPU time of the process (all its threads), in ms: far steadier than wall time on a busy machine. */
	cpuMs: number;
}

export class BenchCheckError extends Error {
	constructor(subject: Subject, problem: string, out: Pick<RunOutput, "stdout" | "stderr" | "code">) {
		super(`"${subject.name}" (${subject.argv.join(" ")}): ${problem}; a benchmark must measure a good run.\n--- exit ${out.code}\n--- stdout\n${out.stdout.slice(0, 2000)}\n--- stderr\n${out.stderr.slice(0, 2000)}`);
		this.name = "BenchCheckError";
	}
}

function matches(text: string, want: string | RegExp): boolean {
	return typeof want === "string" ? text === want : want.test(text);
}

/** What is wrong with `out` according to `expect`, or undefined. */
export function problemWith(expect: Expect, out: RunOutput): string | undefined {
	const code = expect.code ?? 0;
	if (out.code !== code) return `exited with ${out.code}, expected ${code}`;
	if (expect.stdout !== undefined && !matches(out.stdout, expect.stdout)) return `stdout does not match ${String(expect.stdout)}`;
	if (expect.stderr !== undefined && !matches(out.stderr, expect.stderr)) return `stderr does not match ${String(expect.stderr)}`;
	return expect.check?.(out);
}

function stdinOf(subject: Subject): Blob | "ignore" {
	return subject.stdin !== undefined ? new Blob([subject.stdin]) : "ignore";
}

/** Run `subject` once, timed from spawn to exit; throws BenchCheckError when the run is not good. */
export async function runChecked(subject: Subject): Promise<RunOutput> {
	const started = Bun.nanoseconds();
	const proc = Bun.spawn(subject.argv, { cwd: subject.cwd, env: subject.env, stdin: stdinOf(subject), stdout: "pipe", stderr: "pipe" });
	// Both pipes drain while waiting, so a chatty command cannot block on a full pipe.
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	const wallMs = (Bun.nanoseconds() - started) / 1e6;
	const cpu = proc.resourceUsage()?.cpuTime.total;
	const out = { code, stdout, stderr, wallMs, cpuMs: cpu === undefined ? Number.NaN : Number(cpu) / 1000 };
	const problem = problemWith(subject.expect, out);
	if (problem) throw new BenchCheckError(subject, problem, out);
	return out;
}

/**
 * Peak RSS in KiB from an extra, untimed run under GNU time (its own check applies too). Not Bun's
 * resourceUsage().maxRSS: on Linux a spawned child's maxRSS starts at the parent's RSS at fork, so
 * it would report the benchmark's size. Null where /usr/bin/time is missing.
 */
export async function peakRssKb(subject: Subject): Promise<number | null> {
	if (!existsSync("/usr/bin/time")) return null;
	const marker = "\u0001rss:";
	const proc = Bun.spawn(["/usr/bin/time", "-f", `${marker}%M`, ...subject.argv], { cwd: subject.cwd, env: subject.env, stdin: stdinOf(subject), stdout: "pipe", stderr: "pipe" });
	const [stdout, rawStderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	const at = rawStderr.lastIndexOf(marker);
	const stderr = at >= 0 ? rawStderr.slice(0, at) : rawStderr;
	const out = { code, stdout, stderr, wallMs: 0, cpuMs: 0 };
	const problem = problemWith(subject.expect, out);
	if (problem) throw new BenchCheckError(subject, `${problem} (under /usr/bin/time)`, out);
	const kb = at >= 0 ? Number(rawStderr.slice(at + marker.length).trim()) : Number.NaN;
	return Number.isFinite(kb) && kb > 0 ? kb : null;
}

export interface RoundOptions {
	/** Timed rounds. */
	runs: number;
	/** Untimed rounds first, so page cache and CPU frequency settle (default 2). */
	warmup?: number;
	/** Rounds (from the first timed one) that also measure peak RSS, one extra run each (default 5; 0 for none). */
	rssRuns?: number;
}

/**
 * The interleaving loop behind measureRounds, for subjects measured some other way (a pty, an
 * in-process batch): `timeOne(subject)` returns one sample. Each round runs every subject once, in an
 * order rotated per round, so slow spells on the machine fall on all of them alike.
 */
export async function interleave<S>(subjects: S[], options: RoundOptions, timeOne: (subject: S, index: number) => Promise<number>): Promise<number[][]> {
	const samples = subjects.map(() => [] as number[]);
	const warmup = options.warmup ?? 2;
	for (let round = 0; round < warmup + options.runs; round++) {
		for (let k = 0; k < subjects.length; k++) {
			const i = (round + k) % subjects.length;
			const value = await timeOne(subjects[i]!, i);
			if (round >= warmup) samples[i]!.push(value);
		}
	}
	return samples;
}

/** Measure process subjects in interleaved rounds: wall time of every timed run, peak RSS of the first rounds. */
export async function measureRounds(subjects: Subject[], options: RoundOptions): Promise<Measurement[]> {
	const rssRuns = Math.min(options.rssRuns ?? 5, options.runs);
	const rss = subjects.map(() => [] as number[]);
	const cpu = subjects.map(() => [] as number[]);
	const samples = subjects.map(() => ({}) as Record<string, number[]>);
	const counts = subjects.map(() => 0);
	const warmup = options.warmup ?? 2;
	const wall = await interleave(subjects, options, async (subject, i) => {
		const out = await runChecked(subject);
		const timedRound = counts[i]++ - warmup;
		if (timedRound >= 0) cpu[i]!.push(out.cpuMs);
		if (timedRound >= 0 && subject.sample) {
			for (const [k, v] of Object.entries(subject.sample(out))) (samples[i]![k] ??= []).push(v);
		}
		if (timedRound >= 0 && timedRound < rssRuns) {
			const kb = await peakRssKb(subject);
			if (kb !== null) rss[i]!.push(kb);
		}
		return out.wallMs;
	});
	return subjects.map((s, i) => ({ name: s.name, wallMs: wall[i]!, cpuMs: cpu[i]!, rssKb: rss[i]!, samples: samples[i]! }));
}

// ---- Results and the command line ----

/** A BenchResult stamped with the load average now (end) and at `startLoad`. */
export function result(bench: string, description: string, options: Pick<BenchOptions, "runs">, startLoad: number, tables: Table[], goals: Goal[]): BenchResult {
	return { bench, description, runs: options.runs, load: { start: startLoad, end: loadAverage() }, cores: availableParallelism(), tables, goals };
}

/** The agent built from this tree into `dir` (outside the repo, so no node_modules is in reach). */
export async function buildAgent(dir: string, flags: BuildFlags): Promise<string> {
	const outfile = join(dir, "agent");
	await buildBinary({ outfile, minify: flags.minify, bytecode: flags.bytecode, quiet: true });
	return outfile;
}

/**
 * A fresh copy of `binary` in `dir`, measured in its place. The floors are compiled into each run's
 * world, so their files are always newly written; an older file the kernel has evicted and read back
 * through page faults sits in the page cache in small pieces, and a start then costs more system time
 * (measured at 5f705de, byte-identical files, farm-bench 100 pairs: 1.08-1.12x CPU, and 2.50x against
 * 2.16x in bench:roundtrip in the same minute). A copy puts agent and floors in the same state, as a build does.
 */
export function freshCopy(binary: string, dir: string): string {
	const outfile = join(dir, "agent");
	copyFileSync(binary, outfile);
	chmodSync(outfile, 0o755);
	return outfile;
}

export interface CommandLine {
	json: boolean;
	/** Rounds, when given. */
	runs?: number;
	binary?: string;
	flags: BuildFlags;
}

/** `--runs N --json --binary path --no-minify --no-bytecode`. */
export function parseCommandLine(argv: string[]): CommandLine {
	const { values } = parseArgs({
		args: argv,
		options: {
			json: { type: "boolean", default: false },
			runs: { type: "string" },
			binary: { type: "string" },
			"no-minify": { type: "boolean", default: false },
			"no-bytecode": { type: "boolean", default: false },
		},
		strict: true,
	});
	let runs: number | undefined;
	if (values.runs !== undefined) {
		runs = Number(values.runs);
		if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got "${values.runs}"`);
	}
	return {
		json: values.json === true,
		runs,
		binary: values.binary === undefined ? undefined : resolve(values.binary),
		flags: { minify: !values["no-minify"], bytecode: !values["no-bytecode"] },
	};
}

/**
 * Run benchmarks as a script: build the agent unless `--binary` names one, run each bench with
 * `runs` (or `--runs`), print each result and, for more than one, the combined goal table.
 * Exit 1 when a benchmark failed to measure (goals not met do not fail the command).
 */
export async function runBenches(benches: BenchEntry[], argv: string[]): Promise<number> {
	const cli = parseCommandLine(argv);
	const dir = mkdtempSync(join(realpathSync(tmpdir()), "agent-bench-bin-"));
	try {
		const needsAgent = benches.some((b) => b.agent !== false);
		const agent = cli.binary !== undefined ? freshCopy(cli.binary, dir) : needsAgent ? await buildAgent(dir, cli.flags) : "";
		const results: BenchResult[] = [];
		let failed = 0;
		for (const { bench, runs = 15 } of benches) {
			const options: BenchOptions = { ...cli.flags, runs: cli.runs ?? runs, agent, piCompare: process.env.PI_COMPARE === "1" };
			try {
				const r = await bench(options);
				results.push(r);
				if (!cli.json) process.stdout.write(`${formatResult(r)}\n`);
			} catch (error) {
				failed++;
				process.stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
			}
		}
		if (cli.json) process.stdout.write(`${JSON.stringify(results, null, 2)}\n`);
		else if (results.length > 1) process.stdout.write(`${formatTable(goalsTable(results))}`);
		return failed > 0 ? 1 : 0;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** A benchmark and how `npm run bench` runs it. */
export interface BenchEntry {
	bench: Bench;
	/** Default rounds (default 15); `--runs` overrides. */
	runs?: number;
	/** False when it never runs the agent binary (nothing is built for it). Default true. */
	agent?: boolean;
}

/** A benchmark file's `if (import.meta.main)` line. */
export async function benchMain(bench: Bench, entry: Omit<BenchEntry, "bench"> = {}): Promise<never> {
	try {
		process.exit(await runBenches([{ bench, ...entry }], process.argv.slice(2)));
	} catch (error) {
		console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
		process.exit(1);
	}
}

/** A trivial extension for load benchmarks: imports typebox and registers tool `tool_<i>`, plus `extra` lines. */
export function trivialExtension(i: number, extra: string): string {
	return `import { Type } from "typebox";
export default function (pi) {
	pi.registerTool({
		name: "tool_${i}",
		label: "Tool ${i}",
		description: "A trivial tool",
		parameters: Type.Object({ text: Type.String() }),
		execute: async (_id, params) => ({ content: [{ type: "text", text: params.text }], details: {} }),
	});
${extra}
}
`;
}
