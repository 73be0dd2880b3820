// Compaction: when a conversation outgrows the model's window, older turns become one summary (a
// `compaction` entry) and recent turns stay verbatim. Pure functions — token estimates, where to
// cut, what to ask the summariser; AgentSession does the requests and the writing.
import { convertToLlm, textOf, type AgentMessage } from "../agent/messages.ts";
import type { AssistantMessage, Message } from "../providers/types.ts";
import { entryMessage } from "./session-context.ts";
import type { CompactionEntry, SessionEntry } from "./session-entries.ts";

export interface CompactionSettings {
	/** Compact automatically near the window's end and on overflow errors. Default true. */
	enabled: boolean;
	/** Room left for the next answer: compaction starts above `contextWindow - reserveTokens`. Default 16384. */
	reserveTokens: number;
	/** About how many tokens of recent conversation stay verbatim. Default 20000. */
	keepRecentTokens: number;
}

export const DEFAULT_COMPACTION_SETTINGS: CompactionSettings = { enabled: true, reserveTokens: 16384, keepRecentTokens: 20000 };

export type CompactionReason = "manual" | "threshold" | "overflow";

export interface CompactionResult<TDetails = unknown> {
	summary: string;
	/** The first entry kept verbatim after the summary. */
	firstKeptEntryId: string;
	tokensBefore: number;
	details?: TDetails;
}

/** What our own summaries store in `details`: the files the summarised turns touched. */
export interface CompactionDetails {
	readFiles: string[];
	modifiedFiles: string[];
}

/** What `session_before_compact` handlers see, and what the summariser works from. */
export interface CompactionPreparation {
	firstKeptEntryId: string;
	/** The messages the summary replaces (after the previous compaction's kept part). */
	messagesToSummarize: AgentMessage[];
	/** The messages that stay verbatim after the summary. */
	keptMessages: AgentMessage[];
	/** The cut falls inside a turn: the kept part starts at an assistant message. */
	isSplitTurn: boolean;
	tokensBefore: number;
	/** The summary this one replaces, to be folded in. */
	previousSummary?: string;
	fileOps: CompactionDetails;
	settings: CompactionSettings;
}

// ---- token estimates ----------------------------------------------------------------------------

/** Images count as this many characters (about 1200 tokens). */
const IMAGE_CHARS = 4800;

function contentChars(content: string | readonly { type: string; text?: string }[]): number {
	if (typeof content === "string") return content.length;
	let n = 0;
	for (const block of content) n += block.type === "text" ? (block.text ?? "").length : block.type === "image" ? IMAGE_CHARS : 0;
	return n;
}

/** Rough size of a message in tokens: characters / 4, which overestimates for most text. */
export function estimateTokens(message: AgentMessage): number {
	let chars = 0;
	switch (message.role) {
		case "user":
		case "custom":
		case "toolResult":
			chars = contentChars(message.content);
			break;
		case "assistant":
			for (const block of message.content) {
				if (block.type === "text") chars += block.text.length;
				else if (block.type === "thinking") chars += block.thinking.length;
				else if (block.type === "toolCall") chars += block.name.length + JSON.stringify(block.arguments ?? {}).length;
			}
			break;
		case "bashExecution":
			chars = message.excludeFromContext ? 0 : message.command.length + message.output.length;
			break;
		case "branchSummary":
		case "compactionSummary":
			chars = message.summary.length;
			break;
	}
	return Math.ceil(chars / 4);
}

/** Tokens a finished response says the whole request took (input, cache and the answer itself). */
function usageTokens(message: AssistantMessage): number {
	const u = message.usage;
	return u.totalTokens || u.input + u.output + u.cacheRead + u.cacheWrite;
}

/** How far an array was searched for its first compaction summary, and the messages that mark that prefix. */
interface SummaryScan {
	length: number;
	first: AgentMessage | undefined;
	last: AgentMessage | undefined;
	summary: AgentMessage | undefined;
}

/** Per conversation array (it grows in place between requests); weak, so a dropped array takes its entry along. */
const summaryScans = new WeakMap<readonly AgentMessage[], SummaryScan>();

/**
 * The first compactionSummary in `messages`. An array that only grew since the last search (same
 * first message, the last one searched still in its place) is searched from where that one ended;
 * a rebuilt or shortened array (compaction, an omitted message) is searched again from the start.
 */
function firstSummary(messages: readonly AgentMessage[]): AgentMessage | undefined {
	const scan = summaryScans.get(messages);
	let from = 0;
	if (scan && scan.length <= messages.length && messages[0] === scan.first && messages[scan.length - 1] === scan.last) {
		if (scan.summary || scan.length === messages.length) return scan.summary;
		from = scan.length;
	}
	let summary: AgentMessage | undefined;
	for (let i = from; i < messages.length; i++) {
		if (messages[i]!.role === "compactionSummary") {
			summary = messages[i];
			break;
		}
	}
	const length = messages.length;
	if (scan) {
		scan.length = length;
		scan.first = messages[0];
		scan.last = messages[length - 1];
		scan.summary = summary;
	} else summaryScans.set(messages, { length, first: messages[0], last: messages[length - 1], summary });
	return summary;
}

/**
 * The context's size: the last response's reported usage plus estimates for what came after it.
 * A response from before the latest compaction reports a context that no longer exists, so it
 * does not count; without a usable response everything is estimated (`fromUsage` false).
 */
export function estimateContextTokens(messages: readonly AgentMessage[]): { tokens: number; fromUsage: boolean } {
	const summary = firstSummary(messages);
	const compactedAt = summary?.timestamp ?? -Infinity;
	let last = -1;
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i]!;
		if (m.role === "assistant" && m.stopReason !== "error" && m.stopReason !== "aborted" && m.timestamp > compactedAt && usageTokens(m) > 0) {
			last = i;
			break;
		}
	}
	let tokens = last >= 0 ? usageTokens(messages[last] as AssistantMessage) : 0;
	for (let i = last + 1; i < messages.length; i++) tokens += keptEstimate(messages[i]!);
	return { tokens, fromUsage: last >= 0 };
}

/**
 * Each message's estimate, made once: a conversation's messages are final once appended (as the
 * request path assumes), and without reported usage every request estimates all of them again.
 */
const estimates = new WeakMap<AgentMessage, number>();

function keptEstimate(message: AgentMessage): number {
	let tokens = estimates.get(message);
	if (tokens === undefined) estimates.set(message, (tokens = estimateTokens(message)));
	return tokens;
}

/**
 * The limits for one model. Reserve and kept part shrink for small windows, so a model with an
 * 8k window compacts at half of it instead of before every request.
 */
export function compactionLimits(settings: CompactionSettings, contextWindow: number): { threshold: number; reserve: number; keep: number } {
	const reserve = Math.min(settings.reserveTokens, Math.floor(contextWindow / 2));
	const threshold = contextWindow - reserve;
	return { threshold, reserve, keep: Math.min(settings.keepRecentTokens, Math.floor(threshold / 2)) };
}

export function shouldCompact(contextTokens: number, contextWindow: number, settings: CompactionSettings): boolean {
	if (!settings.enabled || !(contextWindow > 0)) return false;
	return contextTokens > compactionLimits(settings, contextWindow).threshold;
}

// ---- where to cut -------------------------------------------------------------------------------

/** A kept part may start here: anything but a tool result, which must stay with its call. */
function isCutPoint(entry: SessionEntry): boolean {
	if (entry.type === "custom_message" || entry.type === "branch_summary") return true;
	return entry.type === "message" && entry.message.role !== "toolResult";
}

/** A turn starts at what the user (or an extension on their behalf) said. */
function isTurnStart(entry: SessionEntry): boolean {
	if (!isCutPoint(entry)) return false;
	return entry.type !== "message" || entry.message.role !== "assistant";
}

function fileOps(messages: AgentMessage[], previous: CompactionEntry | undefined): CompactionDetails {
	const read = new Set<string>();
	const modified = new Set<string>();
	const prev = previous && !previous.fromHook ? (previous.details as Partial<CompactionDetails> | undefined) : undefined;
	for (const f of Array.isArray(prev?.readFiles) ? prev.readFiles : []) read.add(f);
	for (const f of Array.isArray(prev?.modifiedFiles) ? prev.modifiedFiles : []) modified.add(f);
	for (const m of messages) {
		if (m.role !== "assistant") continue;
		for (const block of m.content) {
			if (block.type !== "toolCall") continue;
			const path = (block.arguments as { path?: unknown } | undefined)?.path;
			if (typeof path !== "string") continue;
			if (block.name === "read") read.add(path);
			else if (block.name === "write" || block.name === "edit") modified.add(path);
		}
	}
	return { readFiles: [...read].filter((f) => !modified.has(f)).sort(), modifiedFiles: [...modified].sort() };
}

/**
 * Decide what a compaction of `branch` (root → leaf) summarises and keeps. The kept part stays
 * within `keepRecentTokens` (less for small windows), starts at a turn where it can and never
 * between a tool call and its result. When everything would fit, the last turn alone is kept.
 * Undefined when there is nothing before the kept part to summarise.
 */
export function prepareCompaction(branch: readonly SessionEntry[], settings: CompactionSettings, contextWindow: number, tokensBefore: number): CompactionPreparation | undefined {
	let prevIndex = -1;
	for (let i = 0; i < branch.length; i++) if (branch[i]!.type === "compaction") prevIndex = i;
	const previous = prevIndex >= 0 ? (branch[prevIndex] as CompactionEntry) : undefined;
	// What the previous compaction kept is still verbatim context: it may be summarised now.
	let start = 0;
	if (previous) {
		const kept = branch.findIndex((e) => e.id === previous.firstKeptEntryId);
		start = kept >= 0 && kept < prevIndex ? kept : prevIndex + 1;
	}
	const cutPoints: number[] = [];
	for (let i = start; i < branch.length; i++) if (isCutPoint(branch[i]!)) cutPoints.push(i);
	if (cutPoints.length < 2) return undefined;
	const first = cutPoints[0]!;

	const { keep } = compactionLimits(settings, contextWindow);
	let cut = -1;
	let accumulated = 0;
	for (let i = branch.length - 1; i >= start; i--) {
		const message = entryMessage(branch[i]!);
		if (!message) continue;
		accumulated += estimateTokens(message);
		if (accumulated >= keep) {
			// The message that crossed the budget goes into the summary; keep from the next turn,
			// or inside its turn when no later turn starts (one long run of tool calls).
			const after = cutPoints.filter((c) => c > i);
			cut = after.find((c) => isTurnStart(branch[c]!)) ?? after[0] ?? -1;
			break;
		}
	}
	if (cut <= first) {
		// Everything fits (or one message is the whole budget): keep the last turn, or failing that the last step.
		const later = cutPoints.filter((c) => c > first);
		cut = later.filter((c) => isTurnStart(branch[c]!)).at(-1) ?? later.at(-1) ?? -1;
		if (cut < 0) return undefined;
	}

	const messagesIn = (from: number, to: number) => branch.slice(from, to).flatMap((e) => entryMessage(e) ?? []);
	const messagesToSummarize = messagesIn(start, cut);
	if (messagesToSummarize.length === 0) return undefined;
	return {
		firstKeptEntryId: branch[cut]!.id,
		messagesToSummarize,
		keptMessages: messagesIn(cut, branch.length),
		isSplitTurn: !isTurnStart(branch[cut]!),
		tokensBefore,
		...(previous ? { previousSummary: previous.summary } : {}),
		fileOps: fileOps(messagesToSummarize, previous),
		settings,
	};
}

// ---- what the summariser is asked ---------------------------------------------------------------

/** Tool output beyond this many characters is cut in the text sent to the summariser. */
const TOOL_RESULT_CHARS = 2000;

function clip(text: string, max: number): string {
	return text.length <= max ? text : `${text.slice(0, max)}\n[… ${text.length - max} more characters]`;
}

function describe(message: Message): string[] {
	switch (message.role) {
		case "user":
			return [`[User]: ${textOf(message.content)}`];
		case "assistant": {
			const out: string[] = [];
			for (const block of message.content) {
				if (block.type === "text" && block.text.trim()) out.push(`[Assistant]: ${block.text}`);
				else if (block.type === "thinking" && block.thinking.trim()) out.push(`[Assistant thinking]: ${block.thinking}`);
				else if (block.type === "toolCall") out.push(`[Assistant tool call]: ${block.name}(${JSON.stringify(block.arguments ?? {})})`);
			}
			if (message.stopReason === "error" && message.errorMessage) out.push(`[Request failed]: ${message.errorMessage}`);
			return out;
		}
		case "toolResult":
			return [`[Tool result${message.isError ? " (error)" : ""}: ${message.toolName}]: ${clip(textOf(message.content), TOOL_RESULT_CHARS)}`];
	}
}

/** A conversation as plain text, one `[Role]: …` paragraph per part (long tool output shortened). */
export function serializeConversation(messages: AgentMessage[]): string {
	return convertToLlm(messages).flatMap(describe).join("\n\n");
}

export const SUMMARY_SYSTEM_PROMPT =
	"You write handover notes for coding sessions. Another assistant will carry on the work from your notes alone, without the original conversation. Reply with the notes only, in Markdown.";

/** The one user message of a summary request. */
export function summaryPrompt(preparation: CompactionPreparation, customInstructions?: string): string {
	const parts = [`<conversation>\n${serializeConversation(preparation.messagesToSummarize)}\n</conversation>`];
	if (preparation.previousSummary) {
		parts.push(
			`The conversation above continues from earlier notes:\n<previous-notes>\n${preparation.previousSummary}\n</previous-notes>\nWrite one set of notes covering both; keep what still matters from the earlier notes.`,
		);
	}
	parts.push(
		[
			"Write handover notes for the conversation above with these sections:",
			"## Goal — what the user wants, in their terms, with any constraints they set.",
			"## Done — what has been done and decided, naming files, functions and commands.",
			"## State — what is in progress, failing or unresolved (exact error messages).",
			"## Next — the next concrete steps.",
			"Be specific and brief; keep exact paths, names and values. Leave out pleasantries and anything no longer relevant.",
		].join("\n"),
	);
	if (preparation.isSplitTurn) {
		parts.push("The last request above is still being worked on; its later steps follow these notes verbatim, so state clearly what that request asked for.");
	}
	if (customInstructions?.trim()) parts.push(`The user asks you to focus on this: ${customInstructions.trim()}`);
	return parts.join("\n\n");
}

/** Our summary with the file lists appended, so they survive the next compaction too. */
export function withFileLists(summary: string, files: CompactionDetails): string {
	const lists: string[] = [];
	if (files.readFiles.length > 0) lists.push(`<read-files>\n${files.readFiles.join("\n")}\n</read-files>`);
	if (files.modifiedFiles.length > 0) lists.push(`<modified-files>\n${files.modifiedFiles.join("\n")}\n</modified-files>`);
	return lists.length > 0 ? `${summary.trim()}\n\n${lists.join("\n\n")}` : summary.trim();
}
