// Shared benchmark machinery: run a command repeatedly, collect wall time and peak RSS per run,
// and report medians and p90s against a floor measured in the same run (markdown or JSON).
import { existsSync } from "node:fs";
import { parseArgs, type ParseArgsOptionsConfig } from "node:util";

export interface MeasureOptions {
	cwd?: string;
	/** The child's whole environment (default: this process's). */
	env?: Record<string, string | undefined>;
	/** Timed runs (default 15). */
	runs?: number;
	/** Untimed runs first, so page cache and CPU frequency settle (default 3). */
	warmup?: number;
	/** Text fed to each run's stdin (default: none, stdin closed). */
	stdin?: string;
}

export interface Measurement {
	name: string;
	argv: string[];
	/** Wall time of each timed run, spawn to exit, in nanoseconds. */
	wallNs: number[];
	/** Peak resident set of each timed run in bytes; empty when the platform cannot say. */
	rssBytes: number[];
}

export interface Stats {
	median: number;
	p90: number;
}

/** Row of a report: a measurement's stats, and its ratios to the floor when there is one. */
export interface ReportRow {
	name: string;
	wallMs: Stats;
	rssMb: Stats | null;
	wallRatio: number | null;
	rssRatio: number | null;
}

export class BenchCommandError extends Error {
	constructor(
		readonly argv: string[],
		readonly code: number,
		readonly stderr: string,
	) {
		super(`"${argv.join(" ")}" exited with ${code}; a benchmark must measure a successful run.\n${stderr.trim()}`);
	}
}

export function median(values: number[]): number {
	if (values.length === 0) throw new Error("median of no values");
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Nearest-rank percentile (p in 0..100): the smallest value with at least p% of values at or below it. */
export function percentile(values: number[], p: number): number {
	if (values.length === 0) throw new Error("percentile of no values");
	const sorted = [...values].sort((a, b) => a - b);
	const rank = Math.max(1, Math.ceil((p / 100) * sorted.length));
	return sorted[rank - 1]!;
}

export function stats(values: number[]): Stats {
	return { median: median(values), p90: percentile(values, 90) };
}

/** `value / floor`, or null when there is no meaningful floor. */
export function ratio(value: number, floor: number): number | null {
	return floor > 0 && Number.isFinite(value) ? value / floor : null;
}

export interface Command {
	name: string;
	argv: string[];
}

/** Spawn `argv` `warmup + runs` times; fail loudly if any run exits non-zero. */
export async function measure(name: string, argv: string[], options: MeasureOptions = {}): Promise<Measurement> {
	const [m] = await measureAll([{ name, argv }], options);
	return m!;
}

/**
 * Measure several commands in rounds (each command once per round), so load that comes and goes
 * on the machine falls on all of them alike and ratios between them stay fair.
 */
export async function measureAll(commands: Command[], options: MeasureOptions = {}): Promise<Measurement[]> {
	const runs = options.runs ?? 15;
	const warmup = options.warmup ?? 3;
	const results: Measurement[] = commands.map((c) => ({ name: c.name, argv: c.argv, wallNs: [], rssBytes: [] }));
	for (let round = 0; round < warmup + runs; round++) {
		for (const m of results) {
			const timed = round >= warmup;
			const sample = await runOnce(m.argv, options, timed);
			if (!timed) continue;
			m.wallNs.push(sample.wallNs);
			if (sample.rssBytes !== null) m.rssBytes.push(sample.rssBytes);
		}
	}
	return results;
}

interface Sample {
	wallNs: number;
	rssBytes: number | null;
}

async function runOnce(argv: string[], options: MeasureOptions, withRss: boolean): Promise<Sample> {
	const stdin = options.stdin !== undefined ? new Blob([options.stdin]) : "ignore";
	const started = Bun.nanoseconds();
	const proc = Bun.spawn(argv, { cwd: options.cwd, env: options.env, stdin, stdout: "pipe", stderr: "pipe" });
	// Drain both pipes while waiting so a chatty command cannot block on a full pipe.
	const [, stderr, code] = await Promise.all([new Response(proc.stdout).arrayBuffer(), new Response(proc.stderr).text(), proc.exited]);
	const wallNs = Bun.nanoseconds() - started;
	if (code !== 0) throw new BenchCommandError(argv, code, stderr);
	return { wallNs, rssBytes: withRss ? peakRss(argv, options) : null };
}

/**
 * Peak RSS from a second, untimed run under GNU time (%M is KiB). Not Bun's resourceUsage().maxRSS:
 * on Linux a spawned child's maxRSS starts at the parent's RSS at fork (measured: a 214 MB Bun
 * parent reports 214 MB for /bin/true), so it would report the benchmark's size, not the command's.
 * /usr/bin/time is a small parent. Null where it is missing.
 */
function peakRss(argv: string[], options: MeasureOptions): number | null {
	if (!existsSync("/usr/bin/time")) return null;
	const stdin = options.stdin !== undefined ? new Blob([options.stdin]) : "ignore";
	const r = Bun.spawnSync(["/usr/bin/time", "-f", "%M", ...argv], { cwd: options.cwd, env: options.env, stdin, stdout: "ignore", stderr: "pipe" });
	const kib = Number(r.stderr.toString().trim().split("\n").at(-1));
	return r.exitCode === 0 && Number.isFinite(kib) && kib > 0 ? kib * 1024 : null;
}

/** Medians, p90s and ratios of each measurement against `floor` (which may be one of `rows`). */
export function summarize(rows: Measurement[], floor?: Measurement): ReportRow[] {
	const floorWall = floor ? median(floor.wallNs) : 0;
	const floorRss = floor && floor.rssBytes.length > 0 ? median(floor.rssBytes) : 0;
	return rows.map((m) => {
		const wall = stats(m.wallNs);
		const rss = m.rssBytes.length > 0 ? stats(m.rssBytes) : null;
		return {
			name: m.name,
			wallMs: { median: wall.median / 1e6, p90: wall.p90 / 1e6 },
			rssMb: rss ? { median: rss.median / 2 ** 20, p90: rss.p90 / 2 ** 20 } : null,
			wallRatio: ratio(wall.median, floorWall),
			rssRatio: rss ? ratio(rss.median, floorRss) : null,
		};
	});
}

/** A markdown table of report rows; ratios are medians over the floor's medians. */
export function table(rows: ReportRow[]): string {
	const fmtRatio = (r: number | null) => (r === null ? "–" : `${r.toFixed(2)}×`);
	const fmtStats = (s: Stats | null, unit: string) => (s === null ? "–" : `${s.median.toFixed(1)} ${unit}`);
	const fmtP90 = (s: Stats | null, unit: string) => (s === null ? "–" : `${s.p90.toFixed(1)} ${unit}`);
	const header = ["command", "wall median", "wall p90", "wall vs floor", "peak RSS median", "RSS p90", "RSS vs floor"];
	const body = rows.map((r) => [
		r.name,
		fmtStats(r.wallMs, "ms"),
		fmtP90(r.wallMs, "ms"),
		fmtRatio(r.wallRatio),
		fmtStats(r.rssMb, "MB"),
		fmtP90(r.rssMb, "MB"),
		fmtRatio(r.rssRatio),
	]);
	const lines = [header, header.map(() => "---"), ...body].map((cells) => `| ${cells.join(" | ")} |`);
	return `${lines.join("\n")}\n`;
}

export interface BenchFlags {
	json: boolean;
	/** Timed runs per command (default 15). */
	runs: number;
	/** Values of the script's own options (`extra`). */
	options: Record<string, string | boolean | undefined>;
}

/** Flags every benchmark script takes (`--json`, `--runs N`) plus the script's own `extra` options. */
export function parseBenchFlags(argv: string[], extra: ParseArgsOptionsConfig = {}): BenchFlags {
	const { values } = parseArgs({
		args: argv,
		options: { ...extra, json: { type: "boolean", default: false }, runs: { type: "string", default: "15" } },
		strict: true,
	});
	const { json, runs: rawRuns, ...options } = values as Record<string, string | boolean | undefined>;
	const runs = Number(rawRuns);
	if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a positive integer, got "${rawRuns}"`);
	return { json: json === true, runs, options };
}

/** The report as markdown (default) or JSON, for stdout. */
export function formatReport(rows: ReportRow[], flags: Pick<BenchFlags, "json">, meta: Record<string, unknown> = {}): string {
	if (flags.json) return `${JSON.stringify({ ...meta, rows }, null, 2)}\n`;
	return table(rows);
}

/** Run a benchmark's `main(argv)` as a script: its exit code, or 1 with one line for an error. */
export async function runMain(main: (argv: string[]) => Promise<number>): Promise<never> {
	try {
		process.exit(await main(process.argv.slice(2)));
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
