// `AGENT_TIMING=1`: a table on stderr of where a run's time went — start-up phases (marks), sub-rows
// (each extension file), and one row per agent turn split into phases (request build, sdk import,
// response head, stream, tools, hooks). Cheap enough to leave on the hot path; off, nothing is kept.
import { ENV } from "../config.ts";
import { writeStderr } from "../stdio.ts";

interface Row {
	label: string;
	ms: number;
	indent: number;
	/** Shown after the label (`resolve 0.12 · import 0.30`); formatted only when the table is printed. */
	parts?: [string, number][];
}

const enabled = process.env[ENV.timing] === "1";
const rows: Row[] = [];
const origin = performance.now();
let last = origin;
/** Where the latest top-level row or tiled sub-row ended: the next tiled sub-row starts here. */
let cursor = origin;

export function timingEnabled(): boolean {
	return enabled;
}

/** Record the time since the previous mark under `label`. */
export function mark(label: string): void {
	if (!enabled) return;
	const now = performance.now();
	rows.push({ label, ms: now - last, indent: 0 });
	last = now;
	cursor = now;
}

/**
 * Record a measured duration as a sub-row (e.g. one extension's import) without moving the clock.
 * Nothing is formatted here: a row per extension file must cost next to nothing, or the time it
 * takes falls between the rows it writes.
 */
export function detail(label: string, ms: number, parts?: [string, number][]): void {
	if (!enabled) return;
	rows.push(parts ? { label, ms, indent: 1, parts } : { label, ms, indent: 1 });
}

/** Where the next tiled sub-row starts (the end of the latest row, top-level or tiled). */
export function rowCursor(): number {
	return cursor;
}

/**
 * A sub-row from rowCursor() to now, less `excludeMs` (time another row holds, e.g. a file's resolve
 * in discovery; negative adds it); the next tiled row starts here. Rows that tile a phase leave
 * none of it unattributed: the work between two of them belongs to the later one.
 */
export function tile(label: string, excludeMs = 0, parts?: [string, number][]): void {
	if (!enabled) return;
	const now = performance.now();
	rows.push(parts ? { label, ms: now - cursor - excludeMs, indent: 1, parts } : { label, ms: now - cursor - excludeMs, indent: 1 });
	cursor = now;
}

/** `label a 1.00 · b 2.00` — the shape of a row with parts (extension files, turns). */
export function partsLabel(label: string, parts: [string, number][]): string {
	return `${label}  ${parts.map(([k, v]) => `${k} ${v.toFixed(2)}`).join(" · ")}`;
}

// ---- Turns ----

/** A turn's phases, in the order its row lists them. */
export type TurnPhase = "request build" | "sdk import" | "response head" | "stream" | "tools" | "hooks" | "other";
const PHASES: TurnPhase[] = ["request build", "sdk import", "response head", "stream", "tools", "hooks", "other"];

interface Turn {
	label: string;
	started: number;
	phases: Map<TurnPhase, number>;
}

let turn: Turn | undefined;
let phase: TurnPhase = "other";
let phaseSince = 0;

/** Start a turn's row (ending the previous one): from now on every ms goes to one of its phases. */
export function beginTurn(label: string): void {
	if (!enabled) return;
	endTurn();
	const now = performance.now();
	turn = { label, started: now, phases: new Map() };
	phase = "request build";
	phaseSince = now;
}

/** Charge the time since the last switch to the current phase and switch to `next`; returns the previous phase. */
export function enterPhase(next: TurnPhase): TurnPhase {
	const previous = phase;
	if (!enabled || !turn) return previous;
	const now = performance.now();
	turn.phases.set(phase, (turn.phases.get(phase) ?? 0) + now - phaseSince);
	phase = next;
	phaseSince = now;
	return previous;
}

/** Close the current turn's row (a no-op without one). */
export function endTurn(): void {
	if (!enabled || !turn) return;
	enterPhase("other");
	const t = turn;
	turn = undefined;
	const parts = PHASES.filter((p) => t.phases.has(p)).map((p): [string, number] => [p, t.phases.get(p)!]);
	detail(t.label, performance.now() - t.started, parts);
}

/** Run `fn` charged to `p` (then back to the phase before), sync or async. */
export function inPhase<T>(p: TurnPhase, fn: () => T): T {
	if (!enabled || !turn) return fn();
	const previous = enterPhase(p);
	let result: T;
	try {
		result = fn();
	} catch (error) {
		enterPhase(previous);
		throw error;
	}
	if (result instanceof Promise) {
		return result.finally(() => enterPhase(previous)) as T;
	}
	enterPhase(previous);
	return result;
}

/** `obj` with each of `names` (when a function) charged to phase `p`; `obj` itself when timing is off. */
export function phased<T extends object>(obj: T, p: TurnPhase, names: (keyof T)[]): T {
	if (!enabled) return obj;
	const out = { ...obj };
	for (const name of names) {
		const fn = obj[name];
		if (typeof fn !== "function") continue;
		(out as Record<keyof T, unknown>)[name] = (...args: unknown[]) => inPhase(p, () => (fn as (...a: unknown[]) => unknown).apply(obj, args));
	}
	return out;
}

export function printTiming(): void {
	if (!enabled) return;
	endTurn();
	const total = performance.now() - origin;
	const labels = rows.map((r) => (r.parts ? partsLabel(r.label, r.parts) : r.label));
	const width = Math.max(24, ...rows.map((r, i) => labels[i]!.length + r.indent * 2)) + 2;
	const lines = ["Timing (ms):"];
	for (const [i, r] of rows.entries()) lines.push(`  ${"  ".repeat(r.indent)}${labels[i]!.padEnd(width - r.indent * 2)}${r.ms.toFixed(2).padStart(9)}`);
	lines.push(`  ${"total (since process start of main)".padEnd(width)}${total.toFixed(2).padStart(9)}`);
	lines.push(`  ${"process uptime".padEnd(width)}${(process.uptime() * 1000).toFixed(2).padStart(9)}`);
	writeStderr(`${lines.join("\n")}\n`);
}
