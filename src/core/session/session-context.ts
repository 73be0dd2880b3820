// What the model sees at a point in the tree: the root → leaf path turned into messages, with the
// latest compaction on the path replacing everything before its first kept entry; and what can be
// told of it reading only its last messages (model, thinking level, the last answer).
import type { AgentMessage } from "../agent/messages.ts";
import { THINKING_LEVELS, type ThinkingLevel } from "../providers/types.ts";
import type { CompactionEntry, SessionContext, SessionEntry } from "./session-entries.ts";
import { isSkippedLine } from "./session-file.ts";

/** What a session resumes with, besides its messages. */
export interface ContextSettings {
	model: SessionContext["model"];
	thinkingLevel: ThinkingLevel;
	/** The context has at least one message. */
	hasMessages: boolean;
}

/**
 * Which entry types a path may hold, when the caller knows more than the path: a type that is in
 * no entry of the session need not be looked for along a long path.
 */
export interface PathKinds {
	thinkingLevelChanges: boolean;
	compactions: boolean;
}

const ANY_KINDS: PathKinds = { thinkingLevelChanges: true, compactions: true };

/** `path` runs root → leaf (SessionManager.getBranch()). */
export function buildContextFromPath(path: readonly SessionEntry[]): SessionContext {
	let thinkingLevel: ThinkingLevel = "off";
	let model: SessionContext["model"] = null;
	let compactionIndex = -1;
	for (let i = 0; i < path.length; i++) {
		const entry = path[i]!;
		if (entry.type === "thinking_level_change") {
			// An unknown level (a newer writer, a hand edit) keeps the previous one.
			if ((THINKING_LEVELS as readonly string[]).includes(entry.thinkingLevel)) thinkingLevel = entry.thinkingLevel as ThinkingLevel;
		} else if (entry.type === "model_change") {
			model = { provider: entry.provider, modelId: entry.modelId };
		} else if (entry.type === "message" && entry.message.role === "assistant") {
			model = { provider: entry.message.provider, modelId: entry.message.model };
		} else if (entry.type === "compaction") {
			compactionIndex = i;
		}
	}

	const messages: AgentMessage[] = [];
	if (compactionIndex < 0) {
		for (const entry of path) pushMessage(messages, entry);
		return { messages, thinkingLevel, model };
	}
	const compaction = path[compactionIndex] as CompactionEntry;
	messages.push({
		role: "compactionSummary",
		summary: compaction.summary,
		tokensBefore: compaction.tokensBefore,
		timestamp: epochMs(compaction.timestamp),
	});
	// Entries before the compaction count only from the first kept one on. A kept id that is not on
	// the path (damaged file) keeps nothing from before, which is what the summary stands for anyway.
	let keeping = false;
	for (let i = 0; i < compactionIndex; i++) {
		const entry = path[i]!;
		if (entry.id === compaction.firstKeptEntryId) keeping = true;
		if (keeping) pushMessage(messages, entry);
	}
	for (let i = compactionIndex + 1; i < path.length; i++) pushMessage(messages, path[i]!);
	return { messages, thinkingLevel, model };
}

/** The latest compaction on `path` (-1: none) and the index of its first kept entry (-1: none kept). */
function compactionOf(path: readonly SessionEntry[], kinds: PathKinds): { at: number; keptFrom: number } {
	let at = -1;
	for (let i = kinds.compactions ? path.length - 1 : -1; i >= 0; i--) {
		if (path[i]!.type === "compaction") {
			at = i;
			break;
		}
	}
	if (at < 0) return { at, keptFrom: -1 };
	const firstKept = (path[at] as CompactionEntry).firstKeptEntryId;
	let keptFrom = -1;
	for (let i = 0; i < at; i++) {
		if (path[i]!.id === firstKept) {
			keptFrom = i;
			break;
		}
	}
	return { at, keptFrom };
}

/** The context's entries that give messages, last first (the compaction's summary is not among them). */
function* lastFirst(path: readonly SessionEntry[], kinds: PathKinds): Generator<SessionEntry> {
	const { at, keptFrom } = compactionOf(path, kinds);
	for (let i = path.length - 1; i > at; i--) yield path[i]!;
	if (keptFrom >= 0) for (let i = at - 1; i >= keptFrom; i--) yield path[i]!;
}

/** buildContextFromPath(path)'s model, thinking level and whether it has messages, reading messages from the end only. */
export function contextSettingsOf(path: readonly SessionEntry[], kinds: PathKinds = ANY_KINDS): ContextSettings {
	// A new session: nothing to walk (and lastFirst, the -p run's only generator, is not started for nothing).
	if (path.length === 0) return { model: null, thinkingLevel: "off", hasMessages: false };
	let model: SessionContext["model"] | undefined;
	// With no level change in the session there is none to find: the walk stops at the model.
	let thinkingLevel: ThinkingLevel | undefined = kinds.thinkingLevelChanges ? undefined : "off";
	// The latest model and level on the path win; an unknown level (a newer writer, a hand edit) is passed over.
	for (let i = path.length - 1; i >= 0 && (model === undefined || thinkingLevel === undefined); i--) {
		const entry = path[i]!;
		if (entry.type === "thinking_level_change") {
			if (thinkingLevel === undefined && (THINKING_LEVELS as readonly string[]).includes(entry.thinkingLevel)) thinkingLevel = entry.thinkingLevel as ThinkingLevel;
		} else if (model === undefined) {
			if (entry.type === "model_change") model = { provider: entry.provider, modelId: entry.modelId };
			else if (entry.type === "message" && entry.message.role === "assistant" && !isSkippedLine(entry.message)) model = { provider: entry.message.provider, modelId: entry.message.model };
		}
	}
	let hasMessages = compactionOf(path, kinds).at >= 0;
	if (!hasMessages) for (const entry of lastFirst(path, kinds)) if (entryMessage(entry)) {
		hasMessages = true;
		break;
	}
	return { model: model ?? null, thinkingLevel: thinkingLevel ?? "off", hasMessages };
}

/** The last message of buildContextFromPath(path).messages that passes `test`, reading messages from the end only. */
export function lastContextMessage(path: readonly SessionEntry[], test: (message: AgentMessage) => boolean, kinds: PathKinds = ANY_KINDS): AgentMessage | undefined {
	for (const entry of lastFirst(path, kinds)) {
		const message = entryMessage(entry);
		if (message && test(message)) return message;
	}
	const { at } = compactionOf(path, kinds);
	if (at < 0) return undefined;
	const summary = buildContextFromPath(path.slice(at)).messages[0]!;
	return test(summary) ? summary : undefined;
}

function pushMessage(out: AgentMessage[], entry: SessionEntry): void {
	const message = entryMessage(entry);
	if (message) out.push(message);
}

/** The message an entry puts in the model's context, if any (compactions are handled by the path walk). */
export function entryMessage(entry: SessionEntry): AgentMessage | undefined {
	switch (entry.type) {
		case "message":
			// A line found damaged when its message was read: reported, and out of the tree.
			return isSkippedLine(entry.message) ? undefined : entry.message;
		case "custom_message":
			return {
				role: "custom",
				customType: entry.customType,
				content: entry.content,
				display: entry.display,
				details: entry.details,
				timestamp: epochMs(entry.timestamp),
			};
		case "branch_summary":
			return entry.summary ? { role: "branchSummary", summary: entry.summary, fromId: entry.fromId, timestamp: epochMs(entry.timestamp) } : undefined;
		default:
			return undefined;
	}
}

function epochMs(iso: string): number {
	const ms = Date.parse(iso);
	return Number.isNaN(ms) ? 0 : ms;
}
