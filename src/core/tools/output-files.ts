// The temp files that hold cut-off tool output (and MCP results' binary content): when the process ends, those no saved session
// entry refers to are removed, and of the rest (and files older runs left) only the newest are
// kept, within an age and a total size. Nothing is read or swept in a run that made no such file.
import { lstatSync, readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { APP_NAME, tmpDir } from "../../config.ts";

export interface OutputFileLimits {
	/** Files older than this are removed. Default 7 days. */
	maxAgeMs: number;
	/** The newest files are kept up to this many bytes in all. Default 64 MB. */
	maxTotalBytes: number;
}

export const DEFAULT_OUTPUT_FILE_LIMITS: OutputFileLimits = { maxAgeMs: 7 * 24 * 3_600_000, maxTotalBytes: 64 * 1024 * 1024 };

/**
 * `agent-bash-0a1b2c3d4e5f.log`, or an MCP result's binary content `agent-mcp-0a1b2c3d4e5f.wav`:
 * what newFullOutputPath makes, and nothing else in the temp dir (not a pasted image's file).
 */
const NAME = new RegExp(`^${APP_NAME}-(?:[a-z][a-z0-9_-]*-[0-9a-f]{12}\\.log|mcp-[0-9a-f]{12}\\.[a-z0-9]+)$`);

/** Files this process made, and whether a saved session entry refers to each. */
const made = new Map<string, boolean>();
let limits = DEFAULT_OUTPUT_FILE_LIMITS;
let hooked = false;

/** Note a file just made for cut-off output; the sweep at exit decides its fate. */
export function trackOutputFile(path: string): void {
	made.set(path, made.get(path) ?? false);
	if (hooked) return;
	hooked = true;
	process.on("exit", () => sweepOutputFiles());
}

/** A saved session entry names `path`: keep it past this process (within the limits). */
export function keepOutputFile(path: string): void {
	if (made.has(path)) made.set(path, true);
}

/**
 * Keep the files a saved message names: a tool result's `details.fullOutputPath` (and an MCP
 * result's `details.savedFiles`), a bash execution's `fullOutputPath`.
 */
export function keepOutputFilesOf(message: object): void {
	if (made.size === 0) return;
	const m = message as { fullOutputPath?: unknown; details?: { fullOutputPath?: unknown; savedFiles?: unknown } };
	const saved = Array.isArray(m.details?.savedFiles) ? m.details.savedFiles : [];
	for (const path of [m.fullOutputPath, m.details?.fullOutputPath, ...saved]) if (typeof path === "string") keepOutputFile(path);
}

/** Limits from settings (`outputFiles`), for the sweep at exit. */
export function setOutputFileLimits(next: Partial<OutputFileLimits>): void {
	limits = { ...DEFAULT_OUTPUT_FILE_LIMITS, ...next };
}

/**
 * Remove this process's unreferenced files, then, among the output files in the temp dir, those
 * past the age limit and the oldest beyond the size limit. Synchronous: it runs in the exit hook.
 * Returns the paths removed.
 */
export function sweepOutputFiles(now = Date.now()): string[] {
	if (made.size === 0) return [];
	const removed: string[] = [];
	const remove = (path: string) => {
		try {
			unlinkSync(path);
			removed.push(path);
		} catch {
			// Gone already, or not ours to remove.
		}
	};
	for (const [path, kept] of made) if (!kept) remove(path);
	const dir = tmpDir();
	let names: string[];
	try {
		names = readdirSync(dir).filter((n) => NAME.test(n));
	} catch {
		names = [];
	}
	const uid = process.getuid?.();
	const files: { path: string; mtimeMs: number; size: number }[] = [];
	for (const name of names) {
		const path = join(dir, name);
		if (made.get(path) === false) continue;
		try {
			const stat = lstatSync(path);
			// Another user's files (a shared /tmp) and anything but a plain file are left alone.
			if (stat.isFile() && (uid === undefined || stat.uid === uid)) files.push({ path, mtimeMs: stat.mtimeMs, size: stat.size });
		} catch {
			// Removed meanwhile.
		}
	}
	files.sort((a, b) => b.mtimeMs - a.mtimeMs);
	let total = 0;
	let full = false;
	for (const file of files) {
		if (now - file.mtimeMs > limits.maxAgeMs) remove(file.path);
		else if (full || total + file.size > limits.maxTotalBytes) {
			// Newest first: once one does not fit, every older one goes too.
			full = true;
			remove(file.path);
		} else total += file.size;
	}
	made.clear();
	return removed;
}
