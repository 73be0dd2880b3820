// Finding sessions on disk: the listing for `--resume`, the newest one for `--continue`, and
// resolving `--session`/`--fork <path|id-prefix>` to a file.
import { closeSync, readdirSync, readSync, statSync } from "node:fs";
import { fsp } from "../tools/fs-async.ts";
import { isAbsolute, join, resolve } from "node:path";
import { getSessionsDir, tildify } from "../../config.ts";
import { MAX_SESSION_BYTES, openRegularFile, readTextFile } from "../file-reader.ts";
import { textOf } from "../agent/messages.ts";
import type { SessionHeader, SessionInfo } from "./session-entries.ts";
import { SessionLookupError } from "./session-errors.ts";
import { defaultSessionDir, parseSessionText } from "./session-file.ts";

/** The session header of a file, reading only its first line when that is enough. */
export function readSessionHeader(path: string): SessionHeader | undefined {
	const fd = openRegularFile(path);
	if (fd === undefined) return undefined;
	try {
		const chunk = Buffer.alloc(4096);
		let text = "";
		for (;;) {
			const n = readSync(fd, chunk, 0, chunk.length, null);
			if (n === 0) break;
			text += chunk.toString("utf8", 0, n);
			const nl = text.indexOf("\n");
			if (nl >= 0) {
				text = text.slice(0, nl);
				break;
			}
			if (text.length > 1 << 20) return undefined;
		}
		const value = JSON.parse(text) as Partial<SessionHeader>;
		return value.type === "session" && typeof value.id === "string" ? (value as SessionHeader) : undefined;
	} catch {
		return undefined;
	} finally {
		closeSync(fd);
	}
}

/** A session belongs to `cwd` when its header says so; headers without a cwd (old files) match any. */
function belongsTo(header: { cwd?: unknown }, cwd: string | undefined): boolean {
	return cwd === undefined || !header.cwd || header.cwd === cwd;
}

/** The most recently modified session of `cwd` in `dir`, or undefined. */
export function findMostRecentSession(dir: string, cwd?: string): string | undefined {
	let names: string[];
	try {
		names = readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
	} catch {
		return undefined;
	}
	let best: { path: string; mtime: number; name: string } | undefined;
	for (const name of names) {
		const path = join(dir, name);
		const header = readSessionHeader(path);
		if (!header || !belongsTo(header, cwd)) continue;
		let mtime: number;
		try {
			mtime = statSync(path).mtimeMs;
		} catch {
			continue;
		}
		// Names start with the creation time, so they break mtime ties in creation order.
		if (!best || mtime > best.mtime || (mtime === best.mtime && name > best.name)) best = { path, mtime, name };
	}
	return best?.path;
}

async function readSessionInfo(path: string): Promise<SessionInfo | undefined> {
	let text: string;
	let mtime: Date;
	try {
		mtime = (await fsp().stat(path)).mtime;
		// The one reader: a FIFO or a huge file among the sessions is passed over, never waited on.
		const read = readTextFile(path, { maxBytes: MAX_SESSION_BYTES });
		if (read === undefined) return undefined;
		text = read;
	} catch {
		return undefined;
	}
	const parsed = parseSessionText(text, path);
	const header = parsed.header;
	if (!header) return undefined;
	let name: string | undefined;
	let messageCount = 0;
	let firstMessage = "";
	const texts: string[] = [];
	for (const entry of parsed.entries) {
		if (entry.type === "session_info") name = entry.name?.trim() || undefined;
		if (entry.type !== "message") continue;
		messageCount++;
		const m = entry.message;
		if (m.role !== "user" && m.role !== "assistant") continue;
		const content = textOf(m.content as Parameters<typeof textOf>[0]).trim();
		if (!content) continue;
		texts.push(content);
		if (!firstMessage && m.role === "user") firstMessage = content;
	}
	const created = new Date(header.timestamp);
	return {
		path,
		id: header.id,
		cwd: typeof header.cwd === "string" ? header.cwd : "",
		name,
		parentSessionPath: header.parentSession,
		created: Number.isNaN(created.getTime()) ? mtime : created,
		modified: mtime,
		messageCount,
		firstMessage: firstMessage || "(no messages)",
		allMessagesText: texts.join(" "),
	};
}

async function listDir(dir: string, cwd: string | undefined): Promise<SessionInfo[]> {
	let names: string[];
	try {
		names = (await fsp().readdir(dir)).filter((n) => n.endsWith(".jsonl"));
	} catch {
		return [];
	}
	const infos = await Promise.all(names.map((n) => readSessionInfo(join(dir, n))));
	return infos.filter((i): i is SessionInfo => i !== undefined && belongsTo(i, cwd));
}

function newestFirst(a: SessionInfo, b: SessionInfo): number {
	return b.modified.getTime() - a.modified.getTime() || (b.path > a.path ? 1 : b.path < a.path ? -1 : 0);
}

/** Sessions of `cwd` (in `sessionDir`, default `<sessions root>/--<cwd>--`), newest first. */
export async function listSessions(cwd: string, sessionDir?: string): Promise<SessionInfo[]> {
	const infos = await listDir(sessionDir ?? defaultSessionDir(cwd), cwd);
	return infos.sort(newestFirst);
}

/** Sessions of every project under the sessions root, newest first. */
export async function listAllSessions(sessionsRoot: string = getSessionsDir()): Promise<SessionInfo[]> {
	let dirs: string[];
	try {
		dirs = (await fsp().readdir(sessionsRoot, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => join(sessionsRoot, d.name));
	} catch {
		return [];
	}
	const all = (await Promise.all(dirs.map((d) => listDir(d, undefined)))).flat();
	return all.sort(newestFirst);
}

export type ResolvedSession =
	/** The argument was a path (it may not exist yet). */
	| { kind: "path"; path: string }
	/** An id prefix matching one session of this project. */
	| { kind: "local"; path: string; info: SessionInfo }
	/** An id prefix matching one session of another project (the caller may offer to fork it). */
	| { kind: "global"; path: string; info: SessionInfo };

export interface ResolveSessionOptions {
	/** The project's session directory, default `<sessions root>/--<cwd>--`. */
	sessionDir?: string;
	/** Default `getSessionsDir()`. */
	sessionsRoot?: string;
}

/**
 * Resolve the value of `--session`/`--fork`: a path (has a slash or ends in .jsonl) as is, else a
 * session id prefix, looked up in this project first and then in every project. No match or more
 * than one throws a SessionLookupError saying where it looked or listing the candidates.
 */
export async function resolveSessionArg(arg: string, cwd: string, options: ResolveSessionOptions = {}): Promise<ResolvedSession> {
	if (arg.includes("/") || arg.includes("\\") || arg.endsWith(".jsonl")) {
		return { kind: "path", path: isAbsolute(arg) ? arg : resolve(cwd, arg) };
	}
	const prefix = arg.trim().toLowerCase();
	if (prefix === "") throw new SessionLookupError("The session id is empty: pass a session file path or the first characters of a session id.", arg, []);
	const localDir = options.sessionDir ?? defaultSessionDir(cwd, options.sessionsRoot);
	const root = options.sessionsRoot ?? getSessionsDir();

	const local = pick(await listSessions(cwd, localDir), prefix, arg);
	if (local) return { kind: "local", path: local.path, info: local };
	const global = pick(await listAllSessions(root), prefix, arg);
	if (global) return { kind: "global", path: global.path, info: global };
	throw new SessionLookupError(
		`No session id starts with "${arg}". Looked in ${tildify(localDir)} (this project) and under ${tildify(root)} (all projects).`,
		arg,
		[],
		["Run with --resume to list this project's sessions, or pass the path of a session file."],
	);
}

function pick(infos: SessionInfo[], prefix: string, arg: string): SessionInfo | undefined {
	const exact = infos.find((i) => i.id.toLowerCase() === prefix);
	if (exact) return exact;
	const matches = infos.filter((i) => i.id.toLowerCase().startsWith(prefix));
	if (matches.length <= 1) return matches[0];
	throw new SessionLookupError(
		`Session id prefix "${arg}" matches ${matches.length} sessions; give more characters of the id:`,
		arg,
		matches.map((m) => m.path),
		matches.map((m) => `  ${m.id}  ${m.modified.toISOString()}  ${m.cwd}  ${oneLine(m.name ?? m.firstMessage)}`),
	);
}

function oneLine(text: string, max = 60): string {
	const flat = text.replace(/\s+/g, " ").trim();
	return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
