// Reading the AGENT_TIMING=1 table a run prints on stderr, and folding several runs into one table of
// medians: top-level phases, extension files summed by part, turns summed by phase, and what no
// row accounts for (process uptime minus the top-level rows).
import { median, runChecked, type Subject, type Table } from "./lib.ts";

export interface TimingRow {
	/** 0 for a phase, 1 for a sub-row (an extension file, a turn, …). */
	indent: number;
	/** The label without its parts. */
	label: string;
	/** `resolve 0.12 · import 0.30 …` split into pairs; empty for a plain row. */
	parts: Record<string, number>;
	ms: number;
	/** For a sub-row, the label of the phase it belongs to (the next top-level row). */
	parent?: string;
}

export interface Timing {
	rows: TimingRow[];
	/** `total (since process start of main)` */
	totalMs: number;
	/** `process uptime`: from the process's start to the print. */
	uptimeMs: number;
}

const ROW = /^ {2}( *)(.*?) +(-?\d+\.\d\d)$/;

/** The table in `stderr`; throws when there is none (the run was not timed). */
export function parseTiming(stderr: string): Timing {
	const start = stderr.indexOf("Timing (ms):\n");
	if (start < 0) throw new Error(`no "Timing (ms):" table on stderr:\n${stderr.slice(0, 2000)}`);
	const rows: TimingRow[] = [];
	let totalMs = Number.NaN;
	let uptimeMs = Number.NaN;
	for (const line of stderr.slice(start).split("\n").slice(1)) {
		const m = ROW.exec(line);
		if (!m) break;
		const ms = Number(m[3]);
		const [label, ...rest] = m[2]!.split("  ");
		const parts: Record<string, number> = {};
		for (const pair of rest.join("  ").split(" · ")) {
			const p = /^(.+) (-?\d+\.\d\d)$/.exec(pair.trim());
			if (p) parts[p[1]!] = Number(p[2]);
		}
		if (label === "total (since process start of main)") totalMs = ms;
		else if (label === "process uptime") uptimeMs = ms;
		else rows.push({ indent: m[1]!.length / 2, label: label!, parts, ms });
	}
	let parent: string | undefined;
	for (let i = rows.length - 1; i >= 0; i--) {
		if (rows[i]!.indent === 0) parent = rows[i]!.label;
		else rows[i]!.parent = parent;
	}
	return { rows, totalMs, uptimeMs };
}

/** Milliseconds of phase `label` that none of its sub-rows accounts for. */
export function unattributedIn(timing: Timing, label: string): number {
	const row = timing.rows.find((r) => r.indent === 0 && r.label === label);
	if (!row) throw new Error(`no "${label}" row in the timing table`);
	return row.ms - timing.rows.filter((r) => r.parent === label).reduce((n, r) => n + r.ms, 0);
}

/** A row's key when folding runs: files become "extension files", turns "turns", others keep their label. */
function foldKey(row: TimingRow): string {
	if (row.indent === 0) return row.label;
	if (/^turn \d+$/.test(row.label)) return "turns";
	if ("resolve" in row.parts && "import" in row.parts) return "extension files";
	return row.label;
}

/** One run's rows folded: key → { ms, parts } with sub-rows of the same kind summed. */
export function fold(timing: Timing): Map<string, { indent: number; ms: number; count: number; parts: Record<string, number> }> {
	const out = new Map<string, { indent: number; ms: number; count: number; parts: Record<string, number> }>();
	out.set("before main (runtime start, entry module)", { indent: 0, ms: timing.uptimeMs - timing.totalMs, count: 1, parts: {} });
	for (const row of timing.rows) {
		const key = foldKey(row);
		const entry = out.get(key) ?? { indent: row.indent, ms: 0, count: 0, parts: {} };
		entry.ms += row.ms;
		entry.count++;
		for (const [k, v] of Object.entries(row.parts)) entry.parts[k] = (entry.parts[k] ?? 0) + v;
		out.delete(key);
		out.set(key, entry);
	}
	const topLevel = timing.rows.filter((r) => r.indent === 0).reduce((n, r) => n + r.ms, 0);
	out.set("in no row (total − rows)", { indent: 0, ms: timing.totalMs - topLevel, count: 1, parts: {} });
	out.set("process uptime at print", { indent: 0, ms: timing.uptimeMs, count: 1, parts: {} });
	return out;
}

/**
 * Milliseconds of a run that no row accounts for: the time since main's start outside every
 * top-level row, plus the `run` phase outside its turn rows. What `AGENT_TIMING` per-turn rows are
 * for: a long run's time attributed to turns and their phases.
 */
export function inNoRow(timing: Timing): number {
	const topLevel = timing.rows.filter((r) => r.indent === 0).reduce((n, r) => n + r.ms, 0);
	return timing.totalMs - topLevel + unattributedIn(timing, "run");
}

/** Run `subject` (with AGENT_TIMING=1 in its env) `runs` times; each run's table. */
export async function timedRuns(subject: Subject, runs: number): Promise<Timing[]> {
	const timings: Timing[] = [];
	for (let i = 0; i < runs; i++) timings.push(parseTiming((await runChecked(subject)).stderr));
	return timings;
}

/** The median of each folded row over `timings`. */
export function timingMedians(timings: Timing[]): { key: string; indent: number; ms: number; count: number; parts: Record<string, number> }[] {
	const folded = timings.map(fold);
	// Rows in the order of the last run (sub-rows precede the phase they belong to).
	const keys = [...folded.at(-1)!.keys()];
	return keys.map((key) => {
		const present = folded.map((f) => f.get(key)).filter((e) => e !== undefined);
		const partNames = [...new Set(present.flatMap((e) => Object.keys(e.parts)))];
		return {
			key,
			indent: present[0]!.indent,
			ms: median(present.map((e) => e.ms)),
			count: median(present.map((e) => e.count)),
			parts: Object.fromEntries(partNames.map((p) => [p, median(present.map((e) => e.parts[p] ?? 0))])),
		};
	});
}

/** Run `subject` `runs` times with AGENT_TIMING=1 and fold its tables into one of medians. */
export async function phaseTable(title: string, subject: Subject, runs: number): Promise<Table> {
	return phaseTableOf(title, await timedRuns(subject, runs));
}

/** The medians of `timings` as a report table. */
export function phaseTableOf(title: string, timings: Timing[]): Table {
	const rows = timingMedians(timings);
	return {
		title,
		header: ["phase", "ms (median)", "parts (medians, ms)"],
		rows: rows.map((r) => [
			`${r.indent > 0 ? "  ↳ " : ""}${r.key}${r.count > 1 ? ` (${r.count})` : ""}`,
			r.ms.toFixed(2),
			Object.entries(r.parts)
				.map(([k, v]) => `${k} ${v.toFixed(2)}`)
				.join(" · "),
		]),
	};
}
