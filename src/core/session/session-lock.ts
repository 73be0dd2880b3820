// Who writes a session file: `<file>.lock` names the writing process (pid, host, start time), so a
// second agent on the same file is told instead of forking its tree. The lock appears whole (a hard
// link to a written temp file) and is taken over at once when its process is gone (kill -9, a crash).
import { closeSync, linkSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { hostname, SessionInUseError, type SessionLockOwner } from "./session-errors.ts";

export type { SessionLockOwner };

/** Lock files this process holds, with how many session managers share each. */
const held = new Map<string, number>();
let exitHookInstalled = false;
let ownStart: string | undefined | null = null;

export function lockPathOf(file: string): string {
	return `${file}.lock`;
}

/**
 * Take the lock of `file` for this process (again, if it holds it already). Throws
 * SessionInUseError when a live process holds it. Returns false when no lock can be made here (a
 * read-only or missing folder): appends to such a file fail on their own and say so.
 */
export function acquireSessionLock(file: string): boolean {
	const lock = lockPathOf(file);
	const count = held.get(lock);
	if (count !== undefined) {
		held.set(lock, count + 1);
		return true;
	}
	const record = `${JSON.stringify(ownRecord())}\n`;
	for (let attempt = 0; attempt < 5; attempt++) {
		const made = tryCreate(lock, record);
		if (made === "failed") return false;
		if (made === "created") {
			hold(lock);
			return true;
		}
		const text = readLock(lock);
		// Gone between the two calls: its owner just released it.
		if (text === undefined) continue;
		const owner = parseOwner(text);
		if (owner && isAlive(owner)) throw new SessionInUseError(file, lock, owner);
		// Whether we removed it or another process is doing so, the next attempt finds out who won.
		breakStale(lock, text);
	}
	// Another process is breaking the same stale lock right now: it is the writer.
	const text = readLock(lock);
	const owner = text === undefined ? undefined : parseOwner(text);
	throw new SessionInUseError(file, lock, owner && isAlive(owner) ? owner : undefined);
}

/** Give back one hold on `file`'s lock; the last one removes the lock file. */
export function releaseSessionLock(file: string): void {
	const lock = lockPathOf(file);
	const count = held.get(lock);
	if (count === undefined) return;
	if (count > 1) {
		held.set(lock, count - 1);
		return;
	}
	held.delete(lock);
	removeIfOurs(lock);
}

function hold(lock: string): void {
	held.set(lock, 1);
	if (exitHookInstalled) return;
	exitHookInstalled = true;
	// Every way out that runs JavaScript (a return, process.exit, a signal handler's exit) lands here.
	process.on("exit", () => {
		for (const path of held.keys()) removeIfOurs(path);
		held.clear();
	});
}

function ownRecord(): SessionLockOwner {
	if (ownStart === null) ownStart = startTimeOf(process.pid);
	return { pid: process.pid, host: hostname(), ...(ownStart ? { started: ownStart } : {}), since: new Date().toISOString() };
}

/** Create `lock` holding `record` in one step, so no reader ever sees it empty. */
function tryCreate(lock: string, record: string): "created" | "exists" | "failed" {
	const temp = `${lock}.${process.pid}.tmp`;
	try {
		try {
			writeFileSync(temp, record);
		} catch {
			// A full disk can make the file and then refuse its bytes: it goes in the finally.
			return "failed";
		}
		linkSync(temp, lock);
		return "created";
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "EEXIST") return "exists";
		// No hard links on this file system (some network and FUSE ones): an exclusive create instead.
		try {
			writeFileSync(lock, record, { flag: "wx" });
			return "created";
		} catch (again) {
			if ((again as NodeJS.ErrnoException).code === "EEXIST") return "exists";
			// Made by us but not written (a full disk): an empty lock would only puzzle the next run.
			removeQuietly(lock);
			return "failed";
		}
	} finally {
		removeQuietly(temp);
	}
}

function removeQuietly(path: string): void {
	try {
		unlinkSync(path);
	} catch {
		// Already gone.
	}
}

function readLock(lock: string): string | undefined {
	try {
		return readFileSync(lock, "utf8");
	} catch {
		return undefined;
	}
}

function parseOwner(text: string): SessionLockOwner | undefined {
	try {
		const value = JSON.parse(text) as Partial<SessionLockOwner>;
		if (typeof value.pid !== "number" || typeof value.host !== "string") return undefined;
		return { pid: value.pid, host: value.host, since: typeof value.since === "string" ? value.since : "", ...(typeof value.started === "string" ? { started: value.started } : {}) };
	} catch {
		// Not a lock we wrote: nobody can be holding it.
		return undefined;
	}
}

/** False when the owner is certainly gone; a process on another host cannot be checked from here. */
function isAlive(owner: SessionLockOwner): boolean {
	if (owner.host !== hostname()) return true;
	// Our pid, but not a lock we hold: a process before us had the same pid (a container's pid 1).
	if (owner.pid === process.pid) return false;
	try {
		process.kill(owner.pid, 0);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ESRCH") return false;
	}
	const started = startTimeOf(owner.pid);
	if (started === "zombie") return false;
	return !(owner.started && started && started !== owner.started);
}

/** Field 22 of /proc/<pid>/stat ("zombie" for a process that has exited); undefined off Linux. */
function startTimeOf(pid: number): string | undefined {
	let stat: string;
	try {
		stat = readFileSync(`/proc/${pid}/stat`, "utf8");
	} catch {
		return undefined;
	}
	// The command name (field 2) may hold spaces and parentheses: count from the last ")".
	const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
	if (fields[0] === "Z" || fields[0] === "X") return "zombie";
	return fields[19];
}

/**
 * Remove a stale lock that still reads `staleText`. A guard file makes this one process's job when
 * several find the same stale lock at once; the others try again and find the new owner.
 */
function breakStale(lock: string, staleText: string): void {
	const guard = `${lock}.break`;
	let fd: number;
	try {
		fd = openSync(guard, "wx");
	} catch {
		// A guard lives for a few system calls; an old one was left by a process killed while breaking.
		try {
			if (Date.now() - statSync(guard).mtimeMs > 10_000) unlinkSync(guard);
		} catch {
			// Gone already.
		}
		return;
	}
	try {
		if (readLock(lock) === staleText) unlinkSync(lock);
	} catch {
		// Removed meanwhile.
	} finally {
		closeSync(fd);
		try {
			unlinkSync(guard);
		} catch {
			// Nothing to clean.
		}
	}
}

function removeIfOurs(lock: string): void {
	const owner = parseOwner(readLock(lock) ?? "");
	if (owner?.pid !== process.pid || owner.host !== hostname()) return;
	try {
		unlinkSync(lock);
	} catch {
		// Already gone.
	}
}
