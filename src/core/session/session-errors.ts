// Errors the session store raises. Each is written for the user (a UserError) and carries the file.
import { readFileSync } from "node:fs";
import { UserError } from "../errors.ts";
import { systemReason } from "../file-reader.ts";

/** A session file that cannot be read or is not a session. */
export class SessionFileError extends UserError {
	constructor(
		message: string,
		readonly path: string,
		hints: string[] = [],
	) {
		super(message, hints);
		this.name = "SessionFileError";
	}
}

/** Appends that did not reach the disk. The entries stay in memory and are retried with the next one. */
export class SessionWriteError extends UserError {
	constructor(
		readonly path: string,
		override readonly cause: unknown,
		/** Entries (the header counts as one) held in memory, not yet on disk. */
		readonly unsaved: number,
	) {
		super(
			`Could not save the session to ${path}: ${systemReason(cause)}. What was already saved is unchanged; ` +
				`the run goes on, and what is not saved yet (${unsaved} ${unsaved === 1 ? "entry" : "entries"} so far) is written as soon as saving works again.`,
			["Free disk space or fix the permissions of the session file and its folder."],
		);
		this.name = "SessionWriteError";
	}
}

/** `--session`/`--fork` with an id prefix that matches no session, or several. */
export class SessionLookupError extends UserError {
	constructor(
		message: string,
		readonly arg: string,
		/** Matching session files, when the prefix was ambiguous. */
		readonly candidates: string[],
		hints: string[] = [],
	) {
		super(message, hints);
		this.name = "SessionLookupError";
	}
}

/** What a lock file says about the process holding it. */
export interface SessionLockOwner {
	pid: number;
	host: string;
	/** The process's start time in clock ticks since boot (Linux), so a reused pid is not mistaken for it. */
	started?: string;
	/** When the lock was taken (ISO time). */
	since: string;
}

/** Another live agent process is writing the session file. */
export class SessionInUseError extends SessionFileError {
	constructor(
		path: string,
		readonly lockPath: string,
		/** undefined: another process is taking the lock over right now. */
		readonly owner: SessionLockOwner | undefined,
	) {
		const elsewhere = owner && owner.host !== hostname();
		const who = owner
			? `in use by another agent process (pid ${owner.pid}${elsewhere ? ` on ${owner.host}` : ""}${owner.since ? `, since ${owner.since.replace(/\.\d+Z$/, "Z")}` : ""})`
			: "being opened by another agent process right now";
		super(`Session ${path} is ${who}; writing to it from here as well would fork its history.`, path, [
			`Wait for that run to end, or continue in a copy of it: agent --fork ${path}`,
			...(elsewhere ? [`If no agent runs on ${owner.host} any more, delete ${lockPath}.`] : []),
		]);
		this.name = "SessionInUseError";
	}
}

/**
 * This machine's name (lock owners are told apart by it). On Linux it is read from the kernel's copy,
 * what gethostname() and so os.hostname() return: a session opened before the TUI's first frame then
 * does not load node:os (~0.5 ms of a compiled start). Elsewhere node:os loads on the first call.
 */
export function hostname(): string {
	if (process.platform === "linux") {
		try {
			return readFileSync("/proc/sys/kernel/hostname", "utf8").trimEnd();
		} catch {
			// No /proc mounted: ask node:os.
		}
	}
	return (require("node:os") as typeof import("node:os")).hostname();
}
