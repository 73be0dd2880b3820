// The session store: an append-only tree of entries in one JSONL file (reference §8), written
// lazily from the first assistant message, one append per entry, never rewritten or truncated.
import { FileReadError } from "../file-reader.ts";
import { dirname, join, resolve } from "node:path";
import type { ImageContent, TextContent, ThinkingLevel } from "../providers/types.ts";
import { buildContextFromPath, contextSettingsOf, lastContextMessage, type ContextSettings, type PathKinds } from "./session-context.ts";
import {
	CURRENT_SESSION_VERSION,
	type AppendableMessage,
	type DeferredMessages,
	type BranchSummaryEntry,
	type CompactionEntry,
	type CustomEntry,
	type CustomMessageEntry,
	type LabelEntry,
	type ModelChangeEntry,
	type SessionContext,
	type SessionEntry,
	type SessionHeader,
	type SessionInfo,
	type SessionInfoEntry,
	type SessionLoadWarning,
	type SessionMessageEntry,
	type SessionTreeNode,
	type ThinkingLevelChangeEntry,
} from "./session-entries.ts";
import { SessionFileError, SessionWriteError } from "./session-errors.ts";
import {
	defaultSessionDir,
	newEntryId,
	nodeSessionFileOps,
	parseSessionText,
	serializeEntries,
	sessionFileName,
	type DeferredBodies,
	type SessionFileOps,
} from "./session-file.ts";
import { EntryIndex } from "./entry-index.ts";
import { findMostRecentSession, listAllSessions, listSessions } from "./session-list.ts";

/** The read-only view extensions get as `ctx.sessionManager` (reference §3.1). */
export type ReadonlySessionManager = Pick<
	SessionManager,
	| "getCwd"
	| "getSessionDir"
	| "getSessionId"
	| "getSessionFile"
	| "getLeafId"
	| "getLeafEntry"
	| "getEntry"
	| "getLabel"
	| "getBranch"
	| "getHeader"
	| "getEntries"
	| "getTree"
	| "getSessionName"
>;

/** Distributes Omit over the entry union, so each variant keeps its own fields. */
type EntryFields<E> = E extends SessionEntry ? Omit<E, "id" | "parentId" | "timestamp"> : never;

interface SessionState {
	cwd: string;
	/** "" for an in-memory session. */
	sessionDir: string;
	/** undefined for an in-memory session. */
	file: string | undefined;
	header: SessionHeader;
	entries: SessionEntry[];
	/** The sorted keys of the entries' ids, when the parser has them (entry-index.ts). */
	idKeys?: Float64Array;
	/** `entries` by id, when the parser built it. */
	byId?: Map<string, SessionEntry>;
	/** The header and every entry are already in the file. */
	onDisk: boolean;
	/** The file's last line was cut off: the next write starts with a newline. */
	startFreshLine: boolean;
	warnings: SessionLoadWarning[];
	ops: SessionFileOps;
	/** Message lines whose message is read when first used (SessionManager.open). */
	deferred?: DeferredBodies;
	/** chainLength(entries), when the parser already knows it. */
	chain?: number;
	/** The entries that are not lazily read messages, when the parser lists them. */
	parsedWhole?: SessionEntry[];
}

export class SessionManager {
	private readonly cwd: string;
	private readonly sessionDir: string;
	private readonly file: string | undefined;
	private readonly header: SessionHeader;
	private readonly entries: SessionEntry[];
	/** Entries by id (a session from a file builds its map when an id is first looked up). */
	private readonly ids: EntryIndex;
	private readonly labels = new Map<string, { label: string; timestamp: string }>();
	private readonly warnings: SessionLoadWarning[];
	private readonly ops: SessionFileOps;
	private leafId: string | null = null;
	private headerWritten: boolean;
	private entriesWritten: number;
	private startFreshLine: boolean;
	/** A write failed, so the file may end mid-line: check before the next one. */
	private lastWriteFailed = false;
	/** The failure of the latest append, while appends keep failing. */
	private writeFailure: SessionWriteError | undefined;
	/** Whether the handler has been told about the current run of failures (one warning per run). */
	private writeFailureReported = false;
	private hasAssistant = false;
	/** This process holds the file's writer lock. */
	private locked = false;
	private writeErrorHandler: ((error: SessionWriteError) => void) | undefined;
	private readonly deferred: DeferredBodies | undefined;
	/** What a new entry's id must not be. */
	private readonly takenIds = { has: (id: string) => this.ids.taken(id) };
	/** The leaf the file gave: dropping it falls back to the file's previous entry. */
	private initialLeafId: string | null;
	/** Entries that came from the file (the first ones of `entries`). */
	private fromFile: number;
	/** Damaged message lines taken out of the tree since open (a view built before one went must be built again). */
	private dropped = 0;
	private warningHandler: ((warning: SessionLoadWarning) => void) | undefined;
	/** Lines found damaged after open, before a handler was there to hear of them. */
	private unreported: SessionLoadWarning[] = [];
	/**
	 * How many leading entries form one line of descent from a root (each the parent of the next,
	 * as in a session that never branched): a path through the last of them is a slice of `entries`.
	 */
	private chain: number;
	/** Whether any thinking-level change or compaction was ever in `entries` (the context skips looking for them otherwise). */
	private readonly kinds: PathKinds = { thinkingLevelChanges: false, compactions: false };

	private constructor(state: SessionState) {
		this.cwd = state.cwd;
		this.sessionDir = state.sessionDir;
		this.file = state.file;
		this.header = state.header;
		this.entries = state.entries;
		this.warnings = state.warnings;
		this.ops = state.ops;
		this.headerWritten = state.onDisk;
		this.entriesWritten = state.onDisk ? state.entries.length : 0;
		this.startFreshLine = state.startFreshLine;
		this.ids = new EntryIndex(this.entries, state);
		// A file on disk needs no message indexed (see indexKinds): the parser lists the rest.
		for (const entry of state.onDisk && state.parsedWhole ? state.parsedWhole : this.entries) this.indexKinds(entry);
		this.chain = state.chain ?? chainLength(this.entries);
		this.leafId = this.entries[this.entries.length - 1]?.id ?? null;
		this.initialLeafId = this.leafId;
		this.fromFile = this.entries.length;
		this.deferred = state.deferred;
		if (this.deferred) this.deferred.onDamaged = (entry, warning, rehang) => this.dropDamaged(entry, warning, rehang);
	}

	// ----- opening -----------------------------------------------------------------------------

	/** A new session of `cwd`; its file appears with the first assistant message. `parentSession`: the session it continues from (its header names it). */
	static create(cwd: string, sessionDir?: string, ops: SessionFileOps = nodeSessionFileOps, parentSession?: string): SessionManager {
		const dir = resolve(sessionDir ?? defaultSessionDir(cwd));
		const header = newHeader(cwd, parentSession);
		return new SessionManager({
			cwd,
			sessionDir: dir,
			file: join(dir, sessionFileName(header.timestamp, header.id)),
			header,
			entries: [],
			onDisk: false,
			startFreshLine: false,
			warnings: [],
			ops,
		});
	}

	/**
	 * Open a session file. Unreadable lines are skipped and reported by getWarnings(). A missing or
	 * empty file starts a new session that will be written there.
	 * @param sessionDir directory for sessions started from this one; default the file's directory
	 * @param cwdOverride use this cwd instead of the header's
	 */
	static open(path: string, sessionDir?: string, cwdOverride?: string, ops: SessionFileOps = nodeSessionFileOps): SessionManager {
		const file = resolve(path);
		const dir = resolve(sessionDir ?? dirname(file));
		let text: string | undefined;
		try {
			text = ops.readFile(file);
		} catch (error) {
			throw new SessionFileError(error instanceof FileReadError ? error.message : `Cannot read session file ${file}: ${(error as Error).message}`, file);
		}
		// Messages are read when first used: a long session opens without building them.
		const parsed = parseSessionText(text ?? "", file, { lazy: true });
		if (!parsed.header) {
			if (parsed.entries.length > 0) {
				throw new SessionFileError(`${file} is not a session file: it has entries but no session header line.`, file, [
					"Pass a .jsonl file written by agent (or pi), or a session id prefix.",
				]);
			}
			const header = newHeader(cwdOverride ?? process.cwd());
			return new SessionManager({ cwd: header.cwd, sessionDir: dir, file, header, entries: [], onDisk: false, startFreshLine: parsed.endsMidLine, warnings: parsed.warnings, ops });
		}
		const cwd = cwdOverride ?? (parsed.header.cwd || process.cwd());
		return new SessionManager({
			cwd,
			sessionDir: dir,
			file,
			header: parsed.header,
			entries: parsed.entries,
			idKeys: parsed.idKeys,
			byId: parsed.byId,
			onDisk: true,
			startFreshLine: parsed.endsMidLine,
			warnings: parsed.warnings,
			ops,
			deferred: parsed.deferred,
			chain: parsed.chain,
			parsedWhole: parsed.parsedWhole,
		});
	}

	/** The most recently modified session of `cwd`, or a new one when there is none. */
	static continueRecent(cwd: string, sessionDir?: string, ops: SessionFileOps = nodeSessionFileOps): SessionManager {
		const dir = resolve(sessionDir ?? defaultSessionDir(cwd));
		const recent = findMostRecentSession(dir, cwd);
		return recent ? SessionManager.open(recent, dir, cwd, ops) : SessionManager.create(cwd, dir, ops);
	}

	/** A session that is never written (`--no-session`). */
	static inMemory(cwd: string = process.cwd()): SessionManager {
		const header = newHeader(cwd);
		return new SessionManager({ cwd, sessionDir: "", file: undefined, header, entries: [], onDisk: false, startFreshLine: false, warnings: [], ops: nodeSessionFileOps });
	}

	/**
	 * A new session of `targetCwd` holding every entry of `sourcePath`, its header pointing back
	 * with `parentSession`. Written with the next append (the copy already has assistant messages).
	 */
	static forkFrom(sourcePath: string, targetCwd: string, sessionDir?: string, ops: SessionFileOps = nodeSessionFileOps): SessionManager {
		const source = resolve(sourcePath);
		let text: string | undefined;
		try {
			text = ops.readFile(source);
		} catch (error) {
			throw new SessionFileError(`Cannot fork ${source}: ${error instanceof FileReadError ? error.problem : (error as Error).message}`, source);
		}
		if (text === undefined) throw new SessionFileError(`Cannot fork ${source}: the file does not exist.`, source);
		const parsed = parseSessionText(text, source);
		if (!parsed.header) throw new SessionFileError(`Cannot fork ${source}: it is not a session file (no session header line).`, source);
		const dir = resolve(sessionDir ?? defaultSessionDir(targetCwd));
		const header = newHeader(targetCwd, source);
		return new SessionManager({
			cwd: targetCwd,
			sessionDir: dir,
			file: join(dir, sessionFileName(header.timestamp, header.id)),
			header,
			entries: parsed.entries,
			onDisk: false,
			startFreshLine: false,
			warnings: parsed.warnings,
			ops,
			chain: parsed.chain,
		});
	}

	/** Sessions of `cwd`, newest first. */
	static list(cwd: string, sessionDir?: string): Promise<SessionInfo[]> {
		return listSessions(cwd, sessionDir);
	}

	/** Sessions of every project, newest first. */
	static listAll(sessionsRoot?: string): Promise<SessionInfo[]> {
		return listAllSessions(sessionsRoot);
	}

	// ----- identity ----------------------------------------------------------------------------

	getCwd(): string {
		return this.cwd;
	}
	/** "" for an in-memory session. */
	getSessionDir(): string {
		return this.sessionDir;
	}
	getSessionId(): string {
		return this.header.id;
	}
	/** undefined for an in-memory session. */
	getSessionFile(): string | undefined {
		return this.file;
	}
	isPersisted(): boolean {
		return this.file !== undefined;
	}
	getHeader(): SessionHeader {
		return this.header;
	}
	/**
	 * Lines skipped while loading, each naming the file and line; the caller prints them. A message
	 * line is read when its message is first used, so one found damaged then is added here (and
	 * told to the warning handler).
	 */
	getWarnings(): readonly SessionLoadWarning[] {
		return this.warnings;
	}

	/** Told about each message line found damaged after open; ones found before the handler was set are told at once. */
	setWarningHandler(handler: ((warning: SessionLoadWarning) => void) | undefined): void {
		this.warningHandler = handler;
		if (handler) for (const warning of this.unreported.splice(0)) handler(warning);
	}

	/**
	 * A message line read lazily turned out damaged: it leaves the tree as the loader would have
	 * left it out (an entry of the wrong shape leaves its children to its parent; a leaf falls back
	 * to the file's previous entry).
	 */
	private dropDamaged(entry: SessionEntry, warning: SessionLoadWarning, rehang: boolean): void {
		const at = this.entries.indexOf(entry);
		if (at < 0) return;
		this.entries.splice(at, 1);
		// Rehung, the children of an entry of the chain still descend from the one before it.
		if (at < this.chain) this.chain = rehang ? this.chain - 1 : at;
		if (at < this.entriesWritten) this.entriesWritten--;
		if (at < this.fromFile) this.fromFile--;
		this.ids.delete(entry.id);
		if (rehang) for (const e of this.entries) if (e.parentId === entry.id) e.parentId = entry.parentId;
		// The loader makes the file's last good entry the leaf; a leaf moved since falls back to the parent.
		const previous = this.fromFile > 0 ? this.entries[this.fromFile - 1]!.id : null;
		if (this.leafId === entry.id) this.leafId = this.initialLeafId === entry.id ? previous : entry.parentId;
		if (this.initialLeafId === entry.id) this.initialLeafId = previous;
		this.dropped++;
		this.warnings.push(warning);
		if (this.warningHandler) this.warningHandler(warning);
		else this.unreported.push(warning);
	}

	/** Read every message of `entries` not read yet (checking it); true when one was damaged and left the tree. */
	private readMessages(entries: readonly SessionEntry[]): boolean {
		if (!this.deferred || this.deferred.pending === 0) return false;
		const before = this.dropped;
		for (const entry of entries) if (entry.type === "message") void entry.message;
		return this.dropped !== before;
	}
	/** Latest `session_info` name; an empty name clears it. */
	getSessionName(): string | undefined {
		for (let i = this.entries.length - 1; i >= 0; i--) {
			const entry = this.entries[i]!;
			if (entry.type === "session_info") return entry.name?.trim() || undefined;
		}
		return undefined;
	}

	// ----- the writer lock ---------------------------------------------------------------------

	/**
	 * Take the file's writer lock now, so a session another agent is writing is refused before
	 * anything is appended (otherwise the first append takes it). Throws SessionInUseError.
	 */
	lockForWriting(): void {
		if (this.file && !this.locked) this.locked = this.ops.lock?.(this.file) ?? false;
	}

	/** Give back the writer lock (the session was replaced or is done); the process's exit does it too. */
	close(): void {
		if (!this.file || !this.locked) return;
		this.locked = false;
		this.ops.unlock?.(this.file);
	}

	// ----- appending ---------------------------------------------------------------------------

	/** Summaries are not messages here: use appendCompaction / appendBranchSummary. */
	appendMessage(message: AppendableMessage): string {
		return this.append<SessionMessageEntry>({ type: "message", message });
	}
	appendModelChange(provider: string, modelId: string): string {
		return this.append<ModelChangeEntry>({ type: "model_change", provider, modelId });
	}
	appendThinkingLevelChange(thinkingLevel: ThinkingLevel): string {
		return this.append<ThinkingLevelChangeEntry>({ type: "thinking_level_change", thinkingLevel });
	}
	/** Extension state, never sent to the model. */
	appendCustomEntry(customType: string, data?: unknown): string {
		return this.append<CustomEntry>({ type: "custom", customType, data });
	}
	/** An extension message the model sees as a user message. */
	appendCustomMessageEntry<T = unknown>(customType: string, content: string | (TextContent | ImageContent)[], display: boolean, details?: T): string {
		return this.append<CustomMessageEntry>({ type: "custom_message", customType, content, display, details });
	}
	/** Set a label on an entry, or clear it with undefined or "". */
	appendLabelChange(targetId: string, label: string | undefined): string {
		this.requireEntry(targetId);
		return this.append<LabelEntry>({ type: "label", targetId, label });
	}
	appendSessionInfo(name: string): string {
		return this.append<SessionInfoEntry>({ type: "session_info", name: name.trim() });
	}
	/** Messages before `firstKeptEntryId` on the path are replaced by `summary` in the context. */
	appendCompaction<T = unknown>(summary: string, firstKeptEntryId: string, tokensBefore: number, details?: T, fromHook?: boolean): string {
		return this.append<CompactionEntry>({ type: "compaction", summary, firstKeptEntryId, tokensBefore, details, fromHook });
	}
	/** A summary of a branch left behind, appended at the current leaf. */
	appendBranchSummary<T = unknown>(fromId: string, summary: string, details?: T, fromHook?: boolean): string {
		return this.append<BranchSummaryEntry>({ type: "branch_summary", fromId, summary, details, fromHook });
	}

	/**
	 * Told when appends stop reaching the disk: once per run of failures (a full disk must not
	 * print a warning per entry), including one that happened before the handler was set. Appends
	 * never throw; entries stay in memory and are retried with the next append.
	 */
	setWriteErrorHandler(handler: ((error: SessionWriteError) => void) | undefined): void {
		this.writeErrorHandler = handler;
		this.reportWriteFailure();
	}

	/** The failure that keeps entries off the disk right now, with how many; undefined when all is saved. */
	unsavedWrites(): SessionWriteError | undefined {
		return this.writeFailure;
	}

	private reportWriteFailure(): void {
		if (!this.writeFailure || this.writeFailureReported || !this.writeErrorHandler) return;
		this.writeFailureReported = true;
		this.writeErrorHandler(this.writeFailure);
	}

	private append<E extends SessionEntry>(fields: EntryFields<E>): string {
		// type, id, parentId, timestamp first: the lines read well and diff well.
		const head = { type: fields.type, id: newEntryId(this.takenIds), parentId: this.leafId, timestamp: new Date().toISOString() };
		const entry = { ...head, ...fields } as SessionEntry;
		if (this.chain === this.entries.length && head.parentId === (this.chain === 0 ? null : this.entries[this.chain - 1]!.id)) this.chain++;
		this.entries.push(entry);
		this.index(entry);
		this.leafId = entry.id;
		this.flush();
		return entry.id;
	}

	private index(entry: SessionEntry): void {
		this.ids.add(entry);
		this.indexKinds(entry);
	}

	/** What the manager keeps by kind: whether an answer exists (until the file is written), and labels. */
	private indexKinds(entry: SessionEntry): void {
		// A file on disk is written to from now on: its messages need not be read to know that.
		if (!this.headerWritten && !this.hasAssistant && entry.type === "message" && entry.message.role === "assistant") this.hasAssistant = true;
		if (entry.type === "thinking_level_change") this.kinds.thinkingLevelChanges = true;
		else if (entry.type === "compaction") this.kinds.compactions = true;
		else if (entry.type === "label") {
			if (entry.label) this.labels.set(entry.targetId, { label: entry.label, timestamp: entry.timestamp });
			else this.labels.delete(entry.targetId);
		}
	}

	/**
	 * Write what is not on disk yet, as one append. A session with no file yet waits for its first
	 * assistant message, so runs that never got an answer leave nothing behind.
	 */
	private flush(): void {
		if (!this.file) return;
		if (!this.headerWritten && !this.hasAssistant) return;
		const pending = this.entries.slice(this.entriesWritten);
		let text = serializeEntries(this.headerWritten ? pending : [this.header, ...pending]);
		if (text === "") return;
		try {
			if (!this.headerWritten) this.ops.mkdir(dirname(this.file));
			this.lockForWriting();
			// A torn last line (a killed writer, a failed write) must not swallow the next entry.
			if (this.startFreshLine || (this.lastWriteFailed && this.ops.endsMidLine(this.file))) text = `\n${text}`;
			this.ops.appendFile(this.file, text);
		} catch (cause) {
			this.lastWriteFailed = true;
			this.writeFailure = new SessionWriteError(this.file, cause, pending.length + (this.headerWritten ? 0 : 1));
			this.reportWriteFailure();
			return;
		}
		this.lastWriteFailed = false;
		this.writeFailure = undefined;
		this.writeFailureReported = false;
		this.startFreshLine = false;
		this.headerWritten = true;
		this.entriesWritten = this.entries.length;
	}

	// ----- the tree ----------------------------------------------------------------------------

	getLeafId(): string | null {
		return this.leafId;
	}
	getLeafEntry(): SessionEntry | undefined {
		return this.leafId ? this.entryWithId(this.leafId) : undefined;
	}
	getEntry(id: string): SessionEntry | undefined {
		return this.entryWithId(id);
	}
	/**
	 * Every entry in file order (a copy of the list; entries are shared, do not mutate them). A
	 * message is read from the file's text when first used; one found damaged then is reported
	 * (getWarnings, the warning handler), leaves the tree, and reads as a hidden custom message.
	 */
	getEntries(): SessionEntry[] {
		return [...this.entries];
	}
	getChildren(parentId: string): SessionEntry[] {
		return this.entries.filter((e) => e.parentId === parentId);
	}
	getLabel(id: string): string | undefined {
		return this.labels.get(id)?.label;
	}

	/** Entries from the root to `fromId` (default the leaf), every type included; their messages are read (and checked) first. */
	getBranch(fromId?: string): SessionEntry[] {
		return this.readPath(() => fromId);
	}

	/** pathTo(from()) with its messages read: again while one read was damaged (each changes the path, and the leaf when it was one). */
	private readPath(from: () => string | null | undefined): SessionEntry[] {
		for (;;) {
			const path = this.pathTo(from());
			if (!this.readMessages(path)) return path;
		}
	}

	/** getBranch() without reading the messages; null: before the first entry. */
	private pathTo(fromId: string | null | undefined): SessionEntry[] {
		const path: SessionEntry[] = [];
		const start = fromId === undefined ? this.leafId : fromId;
		let current = start ? this.entryWithId(start) : undefined;
		const chainEnd = this.chain > 0 ? this.entries[this.chain - 1] : undefined;
		while (current) {
			// From the end of the chain on, the path is the file's first entries as they are.
			if (current === chainEnd) {
				const chained = this.entries.slice(0, this.chain);
				for (let i = path.length - 1; i >= 0; i--) chained.push(path[i]!);
				return chained;
			}
			path.push(current);
			current = current.parentId ? this.ids.get(current.parentId) : undefined;
			// A path longer than the file has entries went round a parent cycle (a hand-edited file):
			// keep it up to where it first repeats.
			if (current && path.length >= this.entries.length) return cutAtCycle(path.reverse());
		}
		return path.reverse();
	}

	/** Roots (normally one) with their children, oldest first; entries whose parent is missing become roots. */
	getTree(): SessionTreeNode[] {
		this.readMessages([...this.entries]);
		const nodes = new Map<string, SessionTreeNode>();
		for (const entry of this.entries) {
			const label = this.labels.get(entry.id);
			nodes.set(entry.id, { entry, children: [], label: label?.label, labelTimestamp: label?.timestamp });
		}
		const roots: SessionTreeNode[] = [];
		for (const entry of this.entries) {
			const node = nodes.get(entry.id)!;
			const parent = entry.parentId && entry.parentId !== entry.id ? nodes.get(entry.parentId) : undefined;
			(parent ? parent.children : roots).push(node);
		}
		for (const node of nodes.values()) node.children.sort((a, b) => Date.parse(a.entry.timestamp) - Date.parse(b.entry.timestamp));
		return roots;
	}

	/** Move the leaf to an earlier entry; the next append starts a new branch there. */
	branch(entryId: string): void {
		this.requireEntry(entryId);
		this.leafId = entryId;
	}

	/** Move the leaf before the first entry; the next append is a new root. */
	resetLeaf(): void {
		this.leafId = null;
	}

	/** branch() to `entryId` (null: before the first entry), then append a summary of the path left behind. */
	branchWithSummary<T = unknown>(entryId: string | null, summary: string, details?: T, fromHook?: boolean): string {
		if (entryId !== null) this.requireEntry(entryId);
		this.leafId = entryId;
		return this.appendBranchSummary(entryId ?? "root", summary, details, fromHook);
	}

	/** Messages, thinking level and model at the current leaf (or at `fromId`). */
	buildSessionContext(fromId?: string): SessionContext {
		return buildContextFromPath(this.getBranch(fromId));
	}

	/** The model, thinking level and whether there is any message at the current leaf, reading only the last messages. */
	contextSettings(): ContextSettings {
		return this.settled(() => contextSettingsOf(this.pathTo(undefined), this.kinds));
	}

	/** `read()` again until no message it read was damaged (a damaged one changes the path it walked). */
	private settled<T>(read: () => T): T {
		for (;;) {
			const before = this.dropped;
			const result = read();
			if (this.dropped === before) return result;
		}
	}

	/**
	 * The context at the current leaf as it is now, its messages built when first asked for
	 * (AgentSession's `messages`); `findLast` reads messages from the end only.
	 */
	deferredContext(): DeferredMessages {
		const leaf = this.leafId;
		// The leaf itself may turn out damaged: then the context is the loader's, at the entry before it.
		const at = () => (leaf === null || this.entryWithId(leaf) ? leaf : this.initialLeafId);
		return {
			build: () => buildContextFromPath(this.readPath(at)).messages,
			findLast: (test) => this.settled(() => lastContextMessage(this.pathTo(at()), test, this.kinds)),
		};
	}

	/** The entry with `id`: the end of the chain (a resumed session's usual leaf) is found without the map. */
	private entryWithId(id: string): SessionEntry | undefined {
		const chainEnd = this.chain > 0 ? this.entries[this.chain - 1] : undefined;
		return chainEnd !== undefined && chainEnd.id === id ? chainEnd : this.ids.get(id);
	}

	private requireEntry(id: string): void {
		if (!this.entryWithId(id)) throw new Error(`No entry "${id}" in session ${this.file ?? this.header.id}`);
	}
}

/** How many leading entries descend one from the next, starting at a root. */
function chainLength(entries: readonly SessionEntry[]): number {
	let n = 0;
	while (n < entries.length && entries[n]!.parentId === (n === 0 ? null : entries[n - 1]!.id)) n++;
	return n;
}

/** A root-first path whose walk went round a cycle, from the first entry that repeats on. */
function cutAtCycle(path: SessionEntry[]): SessionEntry[] {
	const seen = new Set<string>();
	let from = path.length;
	// The walk went leaf → root, so the cycle is at the root end; keep what came after its first repeat.
	for (let i = path.length - 1; i >= 0; i--) {
		if (seen.has(path[i]!.id)) break;
		seen.add(path[i]!.id);
		from = i;
	}
	return path.slice(from);
}

function newHeader(cwd: string, parentSession?: string): SessionHeader {
	const header: SessionHeader = { type: "session", version: CURRENT_SESSION_VERSION, id: Bun.randomUUIDv7(), timestamp: new Date().toISOString(), cwd };
	if (parentSession) header.parentSession = parentSession;
	return header;
}
