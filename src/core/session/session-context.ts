// What the model sees at a point in the tree: the root → leaf path turned into messages, with the
// latest compaction on the path replacing everything before its first kept entry.
import type { AgentMessage } from "../agent/messages.ts";
import { THINKING_LEVELS, type ThinkingLevel } from "../providers/types.ts";
import type { CompactionEntry, SessionContext, SessionEntry } from "./session-entries.ts";

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

function pushMessage(out: AgentMessage[], entry: SessionEntry): void {
	const message = entryMessage(entry);
	if (message) out.push(message);
}

/** The message an entry puts in the model's context, if any (compactions are handled by the path walk). */
export function entryMessage(entry: SessionEntry): AgentMessage | undefined {
	switch (entry.type) {
		case "message":
			return entry.message;
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
