// The arithmetic and the words of a benchmark: medians with min–max, ratios paired per round,
// goals and whether they are met, and the markdown (or JSON) a run prints. No I/O here.
import { loadavg } from "node:os";

/** A distribution in one line: its median and its extremes. */
export interface Summary {
	median: number;
	min: number;
	max: number;
}

export function median(values: number[]): number {
	if (values.length === 0) throw new Error("median of no values");
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function summary(values: number[]): Summary {
	if (values.length === 0) throw new Error("summary of no values");
	return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/**
 * `fn` applied round by round to series measured in the same rounds (index = round), e.g. each
 * round's ratio to the floor, or each round's slope between two sizes. Pairing per round keeps load
 * that comes and goes on the machine out of the result: it hit both values of a pair alike.
 */
export function perRound(series: number[][], fn: (...values: number[]) => number): number[] {
	const n = Math.min(...series.map((s) => s.length));
	return Array.from({ length: n }, (_, round) => fn(...series.map((s) => s[round]!)));
}

/** Each round's `value / floor`. */
export function pairedRatios(values: number[], floor: number[]): number[] {
	return perRound([values, floor], (v, f) => v / f);
}

/** What one subject measured, one value per timed round. */
export interface Measurement {
	name: string;
	/** Wall time of each timed round, in ms. */
	wallMs: number[];
	/** CPU time (user + system, all threads) of each timed round, in ms; absent when not measured. */
	cpuMs?: number[];
	/** Peak RSS in KiB, from the first rounds only (it barely varies); empty when not measured. */
	rssKb: number[];
	/** What `Subject.sample` kept from each timed run, by name. */
	samples?: Record<string, number[]>;
}

/** A measurement's summaries, and its per-round ratios to the floor when there is one. */
export interface Row {
	name: string;
	wallMs: Summary;
	cpuMs: Summary | null;
	rssMb: Summary | null;
	/** Per-round wall ratio to the floor; null for the floor itself or without one. */
	ratio: Summary | null;
	cpuRatio: Summary | null;
	rssRatio: Summary | null;
}

/** Rows for `measurements`, with ratios to `measurements[floor]` (pass -1 for none). */
export function compare(measurements: Measurement[], floor = 0): Row[] {
	const f = floor >= 0 ? measurements[floor] : undefined;
	const has = (xs: number[] | undefined): xs is number[] => xs !== undefined && xs.length > 0 && xs.every(Number.isFinite);
	return measurements.map((m, i) => ({
		name: m.name,
		wallMs: summary(m.wallMs),
		cpuMs: has(m.cpuMs) ? summary(m.cpuMs) : null,
		rssMb: m.rssKb.length > 0 ? summary(m.rssKb.map((kb) => kb / 1024)) : null,
		ratio: f && i !== floor ? summary(pairedRatios(m.wallMs, f.wallMs)) : null,
		cpuRatio: f && i !== floor && has(m.cpuMs) && has(f.cpuMs) ? summary(pairedRatios(m.cpuMs, f.cpuMs)) : null,
		rssRatio: f && i !== floor && m.rssKb.length > 0 && f.rssKb.length > 0 ? summary(pairedRatios(m.rssKb, f.rssKb)) : null,
	}));
}

/** A table of a report: cells are already text. */
export interface Table {
	title: string;
	header: string[];
	rows: string[][];
	/** Lines printed under the table. */
	notes?: string[];
}

/** `12.3 ms (11.9–14.0)`; `digits` decimals. */
export function fmt(s: Summary | null, unit = "", digits = 1): string {
	if (!s) return "–";
	const u = unit ? ` ${unit}` : "";
	return `${s.median.toFixed(digits)}${u} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;
}

/** `2.41× (2.20–2.90)`. */
export function fmtRatio(s: Summary | null): string {
	if (!s) return "–";
	return `${s.median.toFixed(2)}× (${s.min.toFixed(2)}–${s.max.toFixed(2)})`;
}

/** The usual table of process measurements: wall and peak RSS, each with its ratio to the floor. */
export function rowsTable(title: string, rows: Row[], notes?: string[]): Table {
	return {
		title,
		header: ["subject", "wall ms, median (min–max)", "vs floor, per round", "CPU ms", "CPU vs floor", "peak RSS MB", "RSS vs floor"],
		rows: rows.map((r) => {
			const vs = (ratio: Summary | null, own: Summary | null) => (ratio ? fmtRatio(ratio) : own ? "1.00×" : "–");
			return [r.name, fmt(r.wallMs), vs(r.ratio, r.wallMs), fmt(r.cpuMs), vs(r.cpuRatio, r.cpuMs), fmt(r.rssMb), vs(r.rssRatio, r.rssMb)];
		}),
		notes,
	};
}

export function formatTable(table: Table): string {
	const lines = [table.header, table.header.map(() => "---"), ...table.rows].map((cells) => `| ${cells.join(" | ")} |`);
	const notes = table.notes?.length ? `\n${table.notes.join("\n")}\n` : "";
	return `${table.title ? `### ${table.title}\n\n` : ""}${lines.join("\n")}\n${notes}`;
}

/** One of the issue's goals: `value` must be at most `target`. */
export interface Goal {
	name: string;
	/** The measured value (a median); NaN when it could not be measured. */
	value: number;
	target: number;
	unit: string;
	met: boolean;
	/** What we aim for beyond the target, when there is such a thing. */
	aim?: number;
	/** Spread or context, e.g. `min–max 2.1–2.6×`. */
	detail?: string;
	/** The same measure on CPU time (user + system), when the goal is about wall time: steadier under load. */
	cpu?: number;
}

export function goal(name: string, value: number, target: number, unit: string, extra: { aim?: number; detail?: string; cpu?: number } = {}): Goal {
	return { name, value, target, unit, met: Number.isFinite(value) && value <= target, ...extra };
}

/** A goal on a per-round distribution: the median must meet the target; min–max goes in the detail. */
export function goalOf(name: string, s: Summary, target: number, unit: string, extra: { aim?: number; cpu?: Summary | null } = {}): Goal {
	const digits = unit === "×" ? 2 : 1;
	const detail = `min–max ${s.min.toFixed(digits)}–${s.max.toFixed(digits)}${unit === "×" ? "×" : ` ${unit}`}`;
	return goal(name, s.median, target, unit, { detail, ...(extra.aim !== undefined ? { aim: extra.aim } : {}), ...(extra.cpu ? { cpu: extra.cpu.median } : {}) });
}

function fmtValue(value: number, unit: string): string {
	if (!Number.isFinite(value)) return "not measured";
	if (unit === "×") return `${value.toFixed(2)}×`;
	return `${value.toFixed(Math.abs(value) < 10 ? 2 : 1)} ${unit}`;
}

/** 1-minute load average, the figure every result carries. */
export function loadAverage(): number {
	return loadavg()[0]!;
}

/** What a benchmark hands back: its tables and goals, and the machine's load while it ran. */
export interface BenchResult {
	bench: string;
	/** One line on what is measured and against which floor. */
	description: string;
	runs: number;
	/** 1-minute load average at start and end. */
	load: { start: number; end: number };
	cores: number;
	tables: Table[];
	goals: Goal[];
}

export function goalsTable(results: BenchResult[]): Table {
	const rows = results.flatMap((r) =>
		r.goals.map((g) => [
			r.bench,
			g.name,
			fmtValue(g.value, g.unit),
			`≤ ${fmtValue(g.target, g.unit)}${g.aim !== undefined ? ` (aim ${fmtValue(g.aim, g.unit)})` : ""}`,
			g.detail ?? "",
			g.cpu !== undefined ? fmtValue(g.cpu, g.unit) : "",
			g.met ? "met" : "**not met**",
		]),
	);
	const met = results.reduce((n, r) => n + r.goals.filter((g) => g.met).length, 0);
	const total = results.reduce((n, r) => n + r.goals.length, 0);
	return { title: "Goals", header: ["bench", "goal", "measured (wall)", "target", "spread", "same on CPU time", "status"], rows, notes: [`${met} of ${total} goals met (on wall time).`] };
}

export function loadLine(r: Pick<BenchResult, "load" | "cores" | "runs">): string {
	return `${r.runs} rounds · load average ${r.load.start.toFixed(2)} → ${r.load.end.toFixed(2)} on ${r.cores} cores`;
}

/** One benchmark's result as markdown: heading, load, tables, its goals. */
export function formatResult(r: BenchResult): string {
	const parts = [`## ${r.bench}\n\n${r.description}\n${loadLine(r)}\n`, ...r.tables.map(formatTable)];
	if (r.goals.length > 0) parts.push(formatTable({ ...goalsTable([r]), title: "" }));
	return `${parts.join("\n")}`;
}
