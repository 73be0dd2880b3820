// The shapes stored in a session file (JSONL v3, reference §8): the header line, the entry types
// that form the tree, and the views built from them (context, tree nodes, listings).
import type { ImageContent, TextContent, ThinkingLevel } from "../providers/types.ts";
import type {
	AgentMessage,
	BranchSummaryMessage,
	CompactionSummaryMessage,
} from "../agent/messages.ts";

export const CURRENT_SESSION_VERSION = 3;

/** Line 1 of a session file. `version` is absent in v1 files. */
export interface SessionHeader {
	type: "session";
	version?: number;
	/** A UUID. */
	id: string;
	/** ISO time the session was created. */
	timestamp: string;
	cwd: string;
	/** Path of the session this one was forked from. */
	parentSession?: string;
}

export interface SessionEntryBase {
	type: string;
	/** 8 hex characters, unique within the file. */
	id: string;
	/** null for a root entry. */
	parentId: string | null;
	/** ISO time the entry was appended. */
	timestamp: string;
}

export interface SessionMessageEntry extends SessionEntryBase {
	type: "message";
	message: AgentMessage;
}

export interface ThinkingLevelChangeEntry extends SessionEntryBase {
	type: "thinking_level_change";
	thinkingLevel: string;
}

export interface ModelChangeEntry extends SessionEntryBase {
	type: "model_change";
	provider: string;
	modelId: string;
}

export interface CompactionEntry<T = unknown> extends SessionEntryBase {
	type: "compaction";
	summary: string;
	/** First entry on the path that is kept verbatim after the summary. */
	firstKeptEntryId: string;
	tokensBefore: number;
	/** Extension data, never sent to the model. */
	details?: T;
	/** True when an extension produced the summary. */
	fromHook?: boolean;
}

export interface BranchSummaryEntry<T = unknown> extends SessionEntryBase {
	type: "branch_summary";
	/** The entry the branch left from, or "root". */
	fromId: string;
	summary: string;
	details?: T;
	fromHook?: boolean;
}

/** Extension state; never part of the model's context. */
export interface CustomEntry<T = unknown> extends SessionEntryBase {
	type: "custom";
	customType: string;
	data?: T;
}

/** An extension message that is part of the model's context (as a user message). */
export interface CustomMessageEntry<T = unknown> extends SessionEntryBase {
	type: "custom_message";
	customType: string;
	content: string | (TextContent | ImageContent)[];
	/** Shown in the UI when true. */
	display: boolean;
	details?: T;
}

/** Sets (or, with no label, clears) a bookmark on another entry. */
export interface LabelEntry extends SessionEntryBase {
	type: "label";
	targetId: string;
	label: string | undefined;
}

/** Session metadata; the latest one names the session (an empty name clears it). */
export interface SessionInfoEntry extends SessionEntryBase {
	type: "session_info";
	name?: string;
}

export type SessionEntry =
	| SessionMessageEntry
	| ThinkingLevelChangeEntry
	| ModelChangeEntry
	| CompactionEntry
	| BranchSummaryEntry
	| CustomEntry
	| CustomMessageEntry
	| LabelEntry
	| SessionInfoEntry;

export type FileEntry = SessionHeader | SessionEntry;

/** Messages that `appendMessage` accepts: summaries are entries of their own. */
export type AppendableMessage = Exclude<AgentMessage, BranchSummaryMessage | CompactionSummaryMessage>;

/** What the model sees when the session resumes at the current leaf. */
export interface SessionContext {
	messages: AgentMessage[];
	thinkingLevel: ThinkingLevel;
	model: { provider: string; modelId: string } | null;
}

export interface SessionTreeNode {
	entry: SessionEntry;
	/** Oldest first. */
	children: SessionTreeNode[];
	label?: string;
	/** When the label was last set. */
	labelTimestamp?: string;
}

/** One line of a session listing (`--resume`, id-prefix lookup). */
export interface SessionInfo {
	path: string;
	id: string;
	/** Empty for sessions whose header has no cwd. */
	cwd: string;
	name?: string;
	parentSessionPath?: string;
	created: Date;
	/** File modification time. */
	modified: Date;
	/** Number of `message` entries. */
	messageCount: number;
	/** Text of the first user message, or "(no messages)". */
	firstMessage: string;
	/** Text of every user and assistant message, space-joined, for searching. */
	allMessagesText: string;
}

/**
 * A context's messages built when first needed: a resumed session's AgentSession holds this
 * until something uses its messages (a prompt, the transcript), and answers "the last answer" from
 * the end of the branch without building them.
 */
export interface DeferredMessages {
	build(): AgentMessage[];
	/** The last message that passes `test`, as build() would list it. */
	findLast(test: (message: AgentMessage) => boolean): AgentMessage | undefined;
}

/** A line the loader skipped; the caller prints `message`. */
export interface SessionLoadWarning {
	file: string;
	/** 1-based. */
	line: number;
	message: string;
}
