// Start-up phase timing: `AGENT_TIMING=1` prints a table of phases to stderr. Marks are cheap
// enough to leave on the hot path; nothing prints unless the variable is set.
import { ENV } from "../config.ts";
import { writeStderr } from "../stdio.ts";

interface Row {
	label: string;
	ms: number;
	indent: number;
}

const rows: Row[] = [];
const origin = performance.now();
let last = origin;

export function timingEnabled(): boolean {
	return process.env[ENV.timing] === "1";
}

/** Record the time since the previous mark under `label`. */
export function mark(label: string): void {
	const now = performance.now();
	rows.push({ label, ms: now - last, indent: 0 });
	last = now;
}

/** Record a measured duration as a sub-row (e.g. one extension's import) without moving the clock. */
export function detail(label: string, ms: number): void {
	rows.push({ label, ms, indent: 1 });
}

export function printTiming(): void {
	if (!timingEnabled()) return;
	const total = performance.now() - origin;
	const width = Math.max(24, ...rows.map((r) => r.label.length + r.indent * 2)) + 2;
	const lines = ["Start-up timing (ms):"];
	for (const r of rows) lines.push(`  ${"  ".repeat(r.indent)}${r.label.padEnd(width - r.indent * 2)}${r.ms.toFixed(2).padStart(9)}`);
	lines.push(`  ${"total (since process start of main)".padEnd(width)}${total.toFixed(2).padStart(9)}`);
	lines.push(`  ${"process uptime".padEnd(width)}${(process.uptime() * 1000).toFixed(2).padStart(9)}`);
	writeStderr(`${lines.join("\n")}\n`);
}
