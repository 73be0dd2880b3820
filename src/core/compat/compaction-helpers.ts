// pi 1.6's compaction helpers for extensions that summarise themselves (findCutPoint, compact,
// generateSummary), over our own cut rules and summary prompt.
import type { AgentMessage } from "../agent/messages.ts";
import { activeRegistry } from "../providers/active-registry.ts";
import { stream } from "../providers/stream.ts";
import type { AssistantMessage, Context, Model } from "../providers/types.ts";
import { DEFAULT_COMPACTION_SETTINGS, estimateTokens, SUMMARY_SYSTEM_PROMPT, summaryPrompt, withFileLists, type CompactionPreparation, type CompactionResult } from "../session/compaction.ts";
import { entryMessage } from "../session/session-context.ts";
import type { SessionEntry } from "../session/session-entries.ts";

export interface CutPointResult {
	/** The first entry kept verbatim. */
	firstKeptEntryIndex: number;
	/** Where the turn the cut falls into starts, or -1 when the cut is at a turn start. */
	turnStartIndex: number;
	isSplitTurn: boolean;
}

const isToolResult = (e: SessionEntry) => e.type === "message" && (e.message as AgentMessage).role === "toolResult";
const isUser = (e: SessionEntry) => (e.type === "message" && (e.message as AgentMessage).role === "user") || e.type === "custom_message";

/** Where a summary of entries[startIndex, endIndex) should stop: about `keepRecentTokens` stay verbatim. */
export function findCutPoint(entries: SessionEntry[], startIndex: number, endIndex: number, keepRecentTokens: number): CutPointResult {
	let cut = startIndex;
	let accumulated = 0;
	for (let i = endIndex - 1; i >= startIndex; i--) {
		const m = entryMessage(entries[i]!);
		if (!m) continue;
		accumulated += estimateTokens(m);
		if (accumulated >= keepRecentTokens) {
			cut = i;
			break;
		}
	}
	// A tool result stays with its call.
	while (cut < endIndex && isToolResult(entries[cut]!)) cut++;
	if (isUser(entries[cut] ?? ({} as SessionEntry))) return { firstKeptEntryIndex: cut, turnStartIndex: -1, isSplitTurn: false };
	let turnStart = -1;
	for (let i = cut - 1; i >= startIndex; i--) {
		if (isUser(entries[i]!)) {
			turnStart = i;
			break;
		}
	}
	return { firstKeptEntryIndex: cut, turnStartIndex: turnStart, isSplitTurn: turnStart >= 0 };
}

async function ask(model: Model, apiKey: string | undefined, headers: Record<string, string> | undefined, prompt: string, signal?: AbortSignal): Promise<AssistantMessage> {
	const context: Context = { systemPrompt: SUMMARY_SYSTEM_PROMPT, messages: [{ role: "user", content: prompt, timestamp: Date.now() }], tools: [] };
	const options = { signal, maxTokens: Math.min(model.maxTokens || 8192, 8192), ...(apiKey ? { apiKey } : {}), ...(headers ? { headers } : {}) };
	const registry = activeRegistry();
	return (registry && !apiKey ? registry.stream(model, context, options) : stream(model, context, options)).result();
}

function textOf(answer: AssistantMessage): string {
	if (answer.stopReason === "error" || answer.stopReason === "aborted") throw new Error(answer.errorMessage ?? `Summary request ${answer.stopReason}`);
	const text = answer.content
		.filter((c) => c.type === "text")
		.map((c) => (c as { text: string }).text)
		.join("\n")
		.trim();
	if (!text) throw new Error("the model returned an empty summary");
	return text;
}

/** A summary of `messages` by `model` (our summary prompt), folding in `previousSummary`. */
export async function generateSummary(
	messages: AgentMessage[],
	model: Model,
	_reserveTokens: number | undefined,
	apiKey: string | undefined,
	headers?: Record<string, string>,
	signal?: AbortSignal,
	customInstructions?: string,
	previousSummary?: string,
): Promise<string> {
	const preparation = {
		firstKeptEntryId: "",
		messagesToSummarize: messages,
		keptMessages: [],
		isSplitTurn: false,
		tokensBefore: 0,
		...(previousSummary ? { previousSummary } : {}),
		fileOps: { readFiles: [], modifiedFiles: [] },
		settings: DEFAULT_COMPACTION_SETTINGS,
	} satisfies CompactionPreparation;
	return textOf(await ask(model, apiKey, headers, summaryPrompt(preparation, customInstructions), signal));
}

export async function generateSummaryWithUsage(...args: Parameters<typeof generateSummary>): Promise<{ summary: string }> {
	return { summary: await generateSummary(...args) };
}

/** A compaction of `preparation` (from session_before_compact) summarised by `model`. */
export async function compact(
	preparation: CompactionPreparation,
	model: Model,
	apiKey: string | undefined,
	headers?: Record<string, string>,
	customInstructions?: string,
	signal?: AbortSignal,
): Promise<CompactionResult> {
	const summary = textOf(await ask(model, apiKey, headers, summaryPrompt(preparation, customInstructions), signal));
	const files = preparation.fileOps ?? { readFiles: [], modifiedFiles: [] };
	return { summary: withFileLists(summary, files), firstKeptEntryId: preparation.firstKeptEntryId, tokensBefore: preparation.tokensBefore, details: files };
}
