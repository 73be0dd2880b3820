// A session file on disk: where it lives, how its lines parse (torn and garbage lines are skipped
// with a warning, never fatal; message lines can be read lazily, head first), how v1/v2 files
// migrate in memory, and the I/O seam used to append.
import { appendFileSync, closeSync, fstatSync, mkdirSync, readSync } from "node:fs";
import { join } from "node:path";
import { getSessionsDir } from "../../config.ts";
import { MAX_SESSION_BYTES, openRegularFile, readTextFile } from "../file-reader.ts";
import { entryShapeProblem } from "./entry-shape.ts";
import { FileIds } from "./entry-index.ts";
import { acquireSessionLock, releaseSessionLock } from "./session-lock.ts";
import type { AgentMessage } from "../agent/messages.ts";
import type { FileEntry, SessionEntry, SessionHeader, SessionLoadWarning, SessionMessageEntry } from "./session-entries.ts";

/** Disk access for session files; tests swap it to simulate failures. */
export interface SessionFileOps {
	/** File contents, or undefined when the file does not exist. */
	readFile(path: string): string | undefined;
	/** Append text, creating the file if needed. Never truncates. */
	appendFile(path: string, text: string): void;
	/** Create a directory and its parents. */
	mkdir(dir: string): void;
	/** True when the file exists, is not empty and its last byte is not a newline. */
	endsMidLine(path: string): boolean;
	/** Take the file's writer lock: throws SessionInUseError when another live process holds it, false when none can be made. Absent: no locking. */
	lock?(path: string): boolean;
	/** Give back a lock taken with `lock`. */
	unlock?(path: string): void;
}

export const nodeSessionFileOps: SessionFileOps = {
	readFile(path) {
		// The one reader: a FIFO is refused at once, the size is bounded, errors name the file.
		return readTextFile(path, { maxBytes: MAX_SESSION_BYTES });
	},
	appendFile(path, text) {
		appendFileSync(path, text);
	},
	mkdir(dir) {
		mkdirSync(dir, { recursive: true });
	},
	endsMidLine(path) {
		const fd = openRegularFile(path);
		if (fd === undefined) return false;
		try {
			const size = fstatSync(fd).size;
			if (size === 0) return false;
			const last = Buffer.alloc(1);
			readSync(fd, last, 0, 1, size - 1);
			return last[0] !== 0x0a;
		} finally {
			closeSync(fd);
		}
	},
	lock: acquireSessionLock,
	unlock: releaseSessionLock,
};

/** `/home/u/proj` → `--home-u-proj--` (pi's directory naming, so the layouts match). */
export function encodeCwd(cwd: string): string {
	return `--${cwd.replace(/^[/\\]/, "").replace(/[/\\:]/g, "-")}--`;
}

/** `<sessions root>/--<cwd>--`; the root is `~/.agent/sessions` or `$AGENT_SESSION_DIR`. */
export function defaultSessionDir(cwd: string, sessionsRoot: string = getSessionsDir()): string {
	return join(sessionsRoot, encodeCwd(cwd));
}

/** `<ISO time with : and . as ->_<uuid>.jsonl`, so names sort by creation time. */
export function sessionFileName(timestamp: string, sessionId: string): string {
	return `${timestamp.replace(/[:.]/g, "-")}_${sessionId}.jsonl`;
}

/**
 * A fresh 8-hex entry id not in `taken`: 32 random bits, the last 8 hex digits of a UUIDv7 (Bun
 * makes its final 8 bytes cryptographically random). The session header's id comes from the same
 * generator, so a new session does not also set up `crypto` for its first entries (~0.1 ms, measured).
 */
export function newEntryId(taken: { has(id: string): boolean }): string {
	for (;;) {
		const id = Bun.randomUUIDv7().slice(-8);
		if (!taken.has(id)) return id;
	}
}

export function serializeEntries(entries: readonly FileEntry[]): string {
	let out = "";
	for (const e of entries) out += `${JSON.stringify(e)}\n`;
	return out;
}

export interface ParsedSessionFile {
	/** The first session header line, if any. */
	header: SessionHeader | undefined;
	/** Entries in file order, migrated to v3 in memory. */
	entries: SessionEntry[];
	/**
	 * The sorted keys of the entries' ids (entry-index.ts), for an index with no map until one is
	 * needed; absent when the parser had to build the map (some key repeated): then `byId`.
	 */
	idKeys?: Float64Array;
	/** The same entries by id, when the parser built the map. */
	byId?: Map<string, SessionEntry>;
	warnings: SessionLoadWarning[];
	/** The text does not end with a newline, so the next append must start a fresh line. */
	endsMidLine: boolean;
	/** With `lazy`: where entries whose message is read on first use report a damaged one (the manager sets it). */
	deferred?: DeferredBodies;
	/** How many leading entries descend one from the next, starting at a root (a session that never branched: all). */
	chain: number;
	/** The entries that were parsed whole: every one but the messages read lazily (whose kind, "message", is known). */
	parsedWhole: SessionEntry[];
}

export interface ParseOptions {
	/**
	 * Read a message line's message only when it is first used (its head — id, parent, time — at
	 * once), so opening a long session builds no object per message. A message line is taken this
	 * way only when it has the shape a writer of this format gives it (`{"type":"message","id":…,
	 * "parentId":…,"timestamp":…,"message":{…}}`); any other line is parsed and checked at once.
	 */
	lazy?: boolean;
	/**
	 * Check each id against a map as it is kept, instead of by its number (entry-index.ts) with a
	 * map only when two numbers are the same. What the parse gives is the same; tests compare them.
	 */
	exactIds?: boolean;
}

/**
 * What a message line read lazily turned out to be, when its JSON is damaged or of an unexpected
 * shape: `onDamaged` takes the entry out of the tree (as the loader would have) and reports it.
 */
export interface DeferredBodies {
	/** Message lines not read yet. */
	pending: number;
	/** `rehang`: its children hang from its parent (an entry of the wrong shape); a line that is not JSON has no known children. */
	onDamaged: (entry: SessionMessageEntry, warning: SessionLoadWarning, rehang: boolean) => void;
}

/** What a damaged message reads as once it has been reported: nothing the context or a view shows. */
const SKIPPED = Symbol.for("agent.session.skipped-line");

/** True for the stand-in a damaged lazily read message line gives (the entry is already out of the tree). */
export function isSkippedLine(message: AgentMessage): boolean {
	return (message as unknown as Record<symbol, unknown>)[SKIPPED] === true;
}

function skippedLine(warning: SessionLoadWarning, timestamp: string): AgentMessage {
	const ms = Date.parse(timestamp);
	const message = { role: "custom", customType: "skipped-line", content: warning.message, display: false, details: undefined, timestamp: Number.isNaN(ms) ? 0 : ms };
	Object.defineProperty(message, SKIPPED, { value: true });
	return message as AgentMessage;
}

/**
 * The head of a message line as a writer gives it, checked in one native pass: id, parent (null or
 * an id) and time, none with a quote, backslash (an escape: the full parse decides) or line break
 * inside, then the message object's opening brace. Sticky: it matches at lastIndex only.
 */
const MESSAGE_HEAD = /\{"type":"message","id":"[^"\\\n]+","parentId":(?:null|"[^"\\\n]+"),"timestamp":"[^"\\\n]*","message":\{/y;
/** Where the id starts in such a line. */
const ID_AT = '{"type":"message","id":"'.length;

/** What messageHead() read last (one object for every line: no allocation per line). */
const head = { id: "", parentId: null as string | null, timestamp: "" };

/**
 * The end of a field starting at `from` in a head MESSAGE_HEAD matched: most ids are 8 characters
 * and most times 24, and a quote followed by a comma there can only be the field's own end (the
 * field has no quote, and the text after it has `",` only at its start).
 */
function fieldEnd(text: string, from: number, usual: number): number {
	return text.charCodeAt(from + usual) === 0x22 && text.charCodeAt(from + usual + 1) === 0x2c ? from + usual : text.indexOf('"', from);
}

/**
 * A message line's head, read without parsing the line: the entry's id, parent and time.
 * Undefined when the line is not in the writer's shape (or has escapes in those fields): it is
 * then parsed whole. `previousId`: the id of the entry before, most often the parent.
 */
function messageHead(text: string, start: number, end: number, previousId: string | undefined): typeof head | undefined {
	if (text.charCodeAt(end - 1) !== 0x7d || text.charCodeAt(end - 2) !== 0x7d) return undefined;
	MESSAGE_HEAD.lastIndex = start;
	if (!MESSAGE_HEAD.test(text)) return undefined;
	const idStart = start + ID_AT;
	const idEnd = fieldEnd(text, idStart, 8);
	// Past `","parentId":`.
	let at = idEnd + 13;
	let parentId: string | null;
	if (text.charCodeAt(at) === 0x6e) {
		parentId = null;
		at += 4;
	} else if (previousId !== undefined && text.charCodeAt(at + 1 + previousId.length) === 0x22 && text.startsWith(previousId, at + 1)) {
		// The usual case, a child of the line before: its id string is the parent (no slice).
		parentId = previousId;
		at += previousId.length + 2;
	} else {
		const parentEnd = text.indexOf('"', at + 1);
		parentId = text.slice(at + 1, parentEnd);
		at = parentEnd + 1;
	}
	// Past `,"timestamp":"`.
	const timeStart = at + 14;
	head.id = text.slice(idStart, idEnd);
	head.parentId = parentId;
	head.timestamp = text.slice(timeStart, fieldEnd(text, timeStart, 24));
	return head;
}

/** What the message entries of one file read lazily share: its text and name, and the count of lines not read yet. */
interface LineSource {
	text: string;
	file: string;
	deferred: DeferredBodies;
	/** Where each line starts, built when a damaged line first needs its number. */
	lineStarts?: number[];
}

/** The 1-based number of the line starting at `offset` of the source's text. */
function lineNumberAt(source: LineSource, offset: number): number {
	let starts = source.lineStarts;
	if (!starts) {
		starts = [0];
		for (let at = source.text.indexOf("\n"); at >= 0; at = source.text.indexOf("\n", at + 1)) starts.push(at + 1);
		source.lineStarts = starts;
	}
	let lo = 0;
	let hi = starts.length - 1;
	while (lo < hi) {
		const mid = (lo + hi + 1) >> 1;
		if (starts[mid]! <= offset) lo = mid;
		else hi = mid - 1;
	}
	return lo + 1;
}

/** Returns the object it is given: a subclass's constructor then adds its private fields to that object. */
class Stamped {
	constructor(target: object) {
		return target;
	}
}

/**
 * A message entry whose message is parsed (and checked, as the loader checks every line) when it
 * is first read. The line stays in the file's text until then. The entry is an ordinary object
 * (a plain literal, its fields in the order a writer gives them); `message` is an own, enumerable
 * accessor, so copying, serialising and comparing see the message. The accessor is one pair shared
 * by every entry, not a closure each: it finds the line through two private fields this class
 * stamps onto the literal (four, with the line number and a separate message, made an entry about
 * half again as costly to build, measured; the line number is needed only to report damage, and is
 * found from the offset then).
 */
class LazyMessage extends Stamped {
	/** Where the line starts while the message is unread; the message once read or set. */
	#state: number | AgentMessage;
	#source: LineSource;

	/** `new LazyMessage(…)` is the entry: a literal, stamped (one call per line, not three). */
	constructor(id: string, parentId: string | null, timestamp: string, source: LineSource, start: number) {
		super({ type: "message", id, parentId, timestamp });
		this.#source = source;
		this.#state = start;
		Object.defineProperty(this, "message", LazyMessage.#accessor);
	}

	/** Where the line of `entry` starts, when its message is read lazily and not read yet. */
	static startOf(entry: SessionEntry): number | undefined {
		return #state in entry && typeof (entry as unknown as LazyMessage).#state === "number" ? ((entry as unknown as LazyMessage).#state as number) : undefined;
	}

	static readonly #accessor: PropertyDescriptor = {
		get(this: LazyMessage): AgentMessage {
			const state = this.#state;
			if (typeof state !== "number") return state;
			const source = this.#source;
			source.deferred.pending--;
			const end = source.text.indexOf("\n", state);
			const message = readMessage(this as unknown as SessionMessageEntry, source.text.slice(state, end < 0 ? source.text.length : end), state, source);
			this.#state = message;
			return message;
		},
		set(this: LazyMessage, value: AgentMessage) {
			if (typeof this.#state === "number") this.#source.deferred.pending--;
			this.#state = value;
		},
		enumerable: true,
		configurable: true,
	};
}

function readMessage(entry: SessionMessageEntry, lineText: string, start: number, source: LineSource): AgentMessage {
	let problem: string;
	let rehang = true;
	try {
		const value = JSON.parse(lineText) as Record<string, unknown>;
		const shape = entryShapeProblem(value);
		if (!shape) return value.message as AgentMessage;
		problem = `skipped a "message" entry of an unexpected shape: ${shape}`;
	} catch {
		problem = "skipped a line that is not valid JSON";
		rehang = false;
	}
	const { file } = source;
	const line = lineNumberAt(source, start);
	const warning = { file, line, message: `${file}:${line}: ${problem}` };
	source.deferred.onDamaged(entry, warning, rehang);
	return skippedLine(warning, entry.timestamp);
}

/** A parsed line: its object, and where its text is in the file (for the duplicate check). */
interface RawLine {
	value: Record<string, unknown>;
	start: number;
	end: number;
	line: number;
}

/**
 * Parse a session file's text. `file` only names the file in warnings. Lines are cut out one at a
 * time (no array of every line) and only their offsets are kept. A current (v3) file, whose header
 * comes first, is taken in one pass: each entry is checked and kept as its line is parsed, with no
 * object per line beside the entry. Older files are read whole first, then migrated.
 */
export function parseSessionText(text: string, file: string, options: ParseOptions = {}): ParsedSessionFile {
	// Ids are known by their keys alone unless two keys are the same: only then are the lines read
	// again with a map, which tells a repeated id from two that share a key.
	return (!options.exactIds && parseLines(text, file, options, false)) || parseLines(text, file, options, true)!;
}

/** parseSessionText(); `exactIds`: check each id against a map as it is kept. Otherwise undefined when a key repeats. */
function parseLines(text: string, file: string, options: ParseOptions, exactIds: boolean): ParsedSessionFile | undefined {
	const warnings: SessionLoadWarning[] = [];
	const warn = (line: number, message: string) => warnings.push({ file, line, message: `${file}:${line}: ${message}` });
	const endsMidLine = text.length > 0 && !text.endsWith("\n");
	let header: SessionHeader | undefined;
	/** Lines kept for migration; null once the first line showed a current header (one pass). */
	let raw: RawLine[] | null = [];
	let sawLine = false;
	let headerIndex = -1;

	const entries: SessionEntry[] = [];
	const byId = exactIds ? new Map<string, SessionEntry>() : undefined;
	const ids = exactIds ? undefined : new FileIds();
	/** Keep the id of an entry being kept; false when a kept entry already has it (surely; a repeated key is settled at the end). */
	const claim = (entry: SessionEntry): boolean => {
		if (!byId) return ids!.add(entry);
		if (byId.has(entry.id)) return false;
		byId.set(entry.id, entry);
		return true;
	};
	/** The kept entry known to have `id` already. */
	const keptWith = (id: string): SessionEntry | undefined => (byId ? byId.get(id) : ids!.others.get(id));
	/** The entries parsed whole (all but the lazily read messages). */
	const parsedWhole: SessionEntry[] = [];
	// Where each of those starts (parallel to `parsedWhole`; a lazily read one knows): only a repeated id needs it.
	const wholeStarts: number[] = [];
	const startOf = (entry: SessionEntry) => LazyMessage.startOf(entry) ?? wholeStarts[parsedWhole.indexOf(entry)]!;
	const lineAt = (start: number) => {
		const end = text.indexOf("\n", start);
		return text.slice(start, end < 0 ? text.length : end);
	};
	const lineNumberOf = (offset: number) => {
		let line = 1;
		for (let at = text.indexOf("\n"); at >= 0 && at < offset; at = text.indexOf("\n", at + 1)) line++;
		return line;
	};
	const skippedParents = new Map<string, string | null>();
	/** skippedParents.size > 0, without a call per line. */
	let anySkipped = false;
	let chain = 0;
	/** Count the entry just kept into the chain while every entry before it is in it. */
	const extendChain = (parentId: string | null) => {
		if (chain === entries.length - 1 && parentId === (chain === 0 ? null : entries[chain - 1]!.id)) chain++;
	};
	const deferred: DeferredBodies | undefined = options.lazy ? { pending: 0, onDamaged: () => undefined } : undefined;
	/** Message lines taken lazily (deferred.pending once the parse ends: no message is read before). */
	let pending = 0;
	const source: LineSource | undefined = deferred && { text, file, deferred };
	/** Is `id` taken? A different line with it is reported; an identical one is a retried write. */
	const repeated = (id: string, start: number, end: number, line: number) => {
		const first = keptWith(id);
		if (!first) return false;
		reportRepeat(id, entries.indexOf(first), start, end, line);
		return true;
	};
	const reportRepeat = (id: string, firstIndex: number, start: number, end: number, line: number) => {
		const firstStart = startOf(entries[firstIndex]!);
		if (lineAt(firstStart) !== text.slice(start, end)) warn(line, `skipped an entry whose id ${id} repeats line ${lineNumberOf(firstStart)}`);
	};
	const accept = (e: Record<string, unknown>, start: number, end: number, line: number) => {
		if (typeof e.id !== "string" || e.id === "") {
			warn(line, `skipped a "${String(e.type)}" entry without an id`);
			return;
		}
		// An identical line is a retried write; a different one is damage worth mentioning.
		if (repeated(e.id, start, end, line)) return;
		if (typeof e.parentId !== "string") e.parentId = null;
		// Children of a skipped entry hang from its parent instead, so the rest of the branch resumes.
		while (typeof e.parentId === "string" && skippedParents.has(e.parentId)) e.parentId = skippedParents.get(e.parentId)!;
		const problem = entryShapeProblem(e);
		if (problem) {
			warn(line, `skipped a "${String(e.type)}" entry of an unexpected shape: ${problem}`);
			// One that names itself as parent gives its children none to hang from (they keep the
			// missing parent): recorded, it would send the lookup below round in a loop forever.
			if (e.parentId !== e.id) {
				skippedParents.set(e.id, e.parentId as string | null);
				anySkipped = true;
			}
			// Checked by its number alone, its id may repeat a kept one's, which the map-checked parse
			// reports instead: its number among the kept ones' sends the parse there if so.
			ids?.addKey(e.id);
			return;
		}
		claim(e as unknown as SessionEntry);
		entries.push(e as unknown as SessionEntry);
		parsedWhole.push(e as unknown as SessionEntry);
		wholeStarts.push(start);
		extendChain(e.parentId as string | null);
	};

	for (let start = 0, lineNo = 1; start < text.length; lineNo++) {
		const nl = text.indexOf("\n", start);
		const end = nl < 0 ? text.length : nl;
		const lineStart = start;
		start = end + 1;
		if (end === lineStart) continue;
		// The last line of a file cut off mid-write is parsed at once, so it is reported as torn.
		if (source && raw === null && !(nl < 0 && endsMidLine)) {
			const h = messageHead(text, lineStart, end, entries.length > 0 ? entries[entries.length - 1]!.id : undefined);
			if (h) {
				let parentId = h.parentId;
				if (anySkipped) while (parentId !== null && skippedParents.has(parentId)) parentId = skippedParents.get(parentId)!;
				const entry = new LazyMessage(h.id, parentId, h.timestamp, source, lineStart) as unknown as SessionMessageEntry;
				if (!(ids ? ids.add(entry) : claim(entry))) {
					reportRepeat(entry.id, entries.indexOf(keptWith(entry.id)!), lineStart, end, lineNo);
					continue;
				}
				pending++;
				entries.push(entry);
				// extendChain(), written out (once per line).
				if (chain === entries.length - 1 && parentId === (chain === 0 ? null : entries[chain - 1]!.id)) chain++;
				continue;
			}
		}
		const lineText = text.slice(lineStart, end);
		let value: unknown;
		try {
			value = JSON.parse(lineText);
		} catch {
			if (lineText.trim() === "") continue;
			const torn = nl < 0 && endsMidLine;
			warn(lineNo, torn ? "skipped the last line: it was cut off mid-write" : "skipped a line that is not valid JSON");
			continue;
		}
		if (typeof value !== "object" || value === null || Array.isArray(value) || typeof (value as { type?: unknown }).type !== "string") {
			warn(lineNo, "skipped a line that is not a session entry (no \"type\")");
			continue;
		}
		const obj = value as Record<string, unknown>;
		const firstLine = !sawLine;
		sawLine = true;
		if (obj.type === "session") {
			if (typeof obj.id !== "string") {
				warn(lineNo, "skipped a session header without an id");
			} else if (!header) {
				header = obj as unknown as SessionHeader;
				if (firstLine && (header.version ?? 1) >= 3) raw = null;
				else headerIndex = raw?.length ?? -1;
			} else if (obj.id !== header.id) {
				warn(lineNo, "skipped a second session header");
			}
			// The same header again comes from a retried first write: nothing to say.
			continue;
		}
		if (raw) raw.push({ value: obj, start: lineStart, end, line: lineNo });
		else accept(obj, lineStart, end, lineNo);
	}

	if (raw) {
		const version = header?.version ?? 1;
		if (version < 2) migrateV1(raw, header, headerIndex);
		if (version < 3) migrateV2(raw);
		for (const r of raw) accept(r.value, r.start, r.end, r.line);
	}
	if (deferred) deferred.pending = pending;
	const idKeys = ids?.sorted();
	if (ids && !idKeys) return undefined;
	const found = idKeys ? { idKeys } : { byId };
	return deferred ? { header, entries, ...found, warnings, endsMidLine, deferred, chain, parsedWhole } : { header, entries, ...found, warnings, endsMidLine, chain, parsedWhole };
}

/**
 * v1 files are linear and have no ids. Ids come from the line number so they are the same on every
 * load: entries appended later (which carry real ids) keep pointing at the right parent, and the
 * file never has to be rewritten. Entries that already have an id were appended after migration.
 */
function migrateV1(raw: RawLine[], header: SessionHeader | undefined, headerIndex: number): void {
	// v1 compactions point at entries by their index among all parsed lines, header included.
	const parsedInOrder: Record<string, unknown>[] = raw.map((r) => r.value);
	if (header) parsedInOrder.splice(headerIndex, 0, header as unknown as Record<string, unknown>);
	let previous: string | null = null;
	for (const r of raw) {
		const e = r.value;
		if (typeof e.id === "string") continue;
		e.id = r.line.toString(16).padStart(8, "0");
		e.parentId = previous;
		previous = e.id as string;
	}
	for (const r of raw) {
		const e = r.value;
		if (e.type !== "compaction" || typeof e.firstKeptEntryIndex !== "number") continue;
		const target = parsedInOrder[e.firstKeptEntryIndex];
		if (target && target.type !== "session" && typeof target.id === "string") e.firstKeptEntryId = target.id;
		delete e.firstKeptEntryIndex;
	}
}

/** v2 called extension messages `hookMessage`; v3 calls them `custom`. */
function migrateV2(raw: RawLine[]): void {
	for (const r of raw) {
		const message = r.value.message as { role?: unknown } | undefined;
		if (r.value.type === "message" && message && message.role === "hookMessage") message.role = "custom";
	}
}
