// Runs compactions for one AgentSession: manual (`/compact`, ctx.compact()), before a request whose
// context has outgrown the window ("threshold"), and after a provider's overflow error ("overflow").
// Extensions take part through `hooks` (session_before_compact / session_compact / …_failed).
import type { AgentMessage } from "../agent/messages.ts";
import { isContextOverflow } from "../providers/overflow.ts";
import type { AssistantMessage, Context, Model, StreamOptions } from "../providers/types.ts";
import {
	compactionLimits,
	estimateContextTokens,
	prepareCompaction,
	serializeConversation,
	shouldCompact,
	SUMMARY_SYSTEM_PROMPT,
	summaryPrompt,
	withFileLists,
	type CompactionPreparation,
	type CompactionReason,
	type CompactionResult,
	type CompactionSettings,
} from "./compaction.ts";
import type { CompactionEntry, SessionEntry } from "./session-entries.ts";
import type { SessionManager } from "./session-manager.ts";

export type CompactionEvent =
	| { type: "compaction_start"; reason: CompactionReason }
	| { type: "compaction_end"; reason: CompactionReason; result: CompactionResult | undefined; aborted: boolean; willRetry: boolean; errorMessage?: string };

/** What a `session_before_compact` handler decided. */
export interface BeforeCompactDecision {
	cancel?: boolean;
	/** Use this instead of asking the model (`fromHook: true` in the entry). */
	compaction?: CompactionResult;
}

/** Extension events around a compaction; the extension host sets these. */
export interface CompactionHooks {
	before?(event: {
		preparation: CompactionPreparation;
		branchEntries: SessionEntry[];
		customInstructions?: string;
		reason: CompactionReason;
		willRetry: boolean;
		signal: AbortSignal;
	}): Promise<BeforeCompactDecision | undefined>;
	compacted?(entry: CompactionEntry, fromExtension: boolean, info: { reason: CompactionReason; willRetry: boolean }): Promise<void>;
	/** Failed or cancelled: `error` is the reason when it was not a cancel; `fromExtension`: the handler's compaction was the problem. */
	failed?(info: { reason: CompactionReason; error?: string; aborted: boolean; willRetry: boolean; fromExtension: boolean }): Promise<void>;
}

/** What the compactor needs from its session. */
export interface CompactionSource {
	readonly model: Model | undefined;
	readonly session: SessionManager;
	readonly messages: AgentMessage[];
	getSystemPrompt(): string;
	/** One request's final message, with the session's keys. */
	complete(model: Model, context: Context, options: StreamOptions): Promise<AssistantMessage>;
	publish(event: CompactionEvent): Promise<void>;
	rebuildFromSession(): void;
	/** The signal of the run in progress, if any (aborting it aborts a compaction inside it). */
	readonly signal: AbortSignal | undefined;
}

/** A compaction that did not happen; `message` is what the user sees. */
export class CompactionError extends Error {
	constructor(
		message: string,
		readonly cancelled = false,
	) {
		super(message);
		this.name = "CompactionError";
	}
}

export class SessionCompactor {
	settings: CompactionSettings;
	hooks: CompactionHooks = {};
	private readonly source: CompactionSource;
	private running: Promise<unknown> | undefined;
	private controller: AbortController | undefined;

	constructor(source: CompactionSource, settings: CompactionSettings) {
		this.source = source;
		this.settings = settings;
	}

	get isCompacting(): boolean {
		return this.running !== undefined;
	}

	/** The context's size in tokens: the last response's usage plus estimates; all estimated after a compaction. */
	contextTokens(estimate = estimateContextTokens(this.source.messages)): number {
		const { tokens, fromUsage } = estimate;
		return fromUsage ? tokens : tokens + Math.ceil(this.source.getSystemPrompt().length / 4);
	}

	abort(): void {
		this.controller?.abort();
	}

	/** Wait for a compaction in progress (a run must not start on a half-rebuilt conversation). */
	async settled(): Promise<void> {
		while (this.running) await this.running.catch(() => {});
	}

	/** Before each provider request: compact first when the context is past `contextWindow - reserve`. */
	async beforeRequest(): Promise<void> {
		const model = this.source.model;
		if (!model) return;
		// Until a response reports usage after a compaction, the size is only a guess: compacting
		// again on a guess could repeat before every request. An overflow error still recovers.
		if (!this.settings.enabled) return;
		const estimate = estimateContextTokens(this.source.messages);
		if (!estimate.fromUsage && this.source.messages[0]?.role === "compactionSummary") return;
		if (!shouldCompact(this.contextTokens(estimate), model.contextWindow, this.settings)) return;
		// A failed threshold compaction is reported through the events; the request still goes out.
		await this.compact("threshold").catch(() => {});
	}

	/** After a failed request: an overflow is compacted away, and the caller sends the request once more. */
	async recover(message: AssistantMessage): Promise<boolean> {
		if (!this.settings.enabled || !this.source.model || !isContextOverflow(message)) return false;
		return this.compact("overflow", undefined, true).then(
			() => true,
			() => false,
		);
	}

	/** Summarise older turns into a `compaction` entry and rebuild the conversation from it. */
	async compact(reason: CompactionReason, customInstructions?: string, willRetry = false): Promise<CompactionResult> {
		// One at a time: a second request waits for the first (set synchronously, so no race).
		const previous = this.running;
		const done = (async () => {
			await previous?.catch(() => {});
			return this.run(reason, customInstructions, willRetry);
		})();
		this.running = done;
		try {
			return await done;
		} finally {
			if (this.running === done) this.running = undefined;
		}
	}

	private async run(reason: CompactionReason, customInstructions: string | undefined, willRetry: boolean): Promise<CompactionResult> {
		const controller = new AbortController();
		this.controller = controller;
		const runSignal = this.source.signal;
		const onRunAbort = () => controller.abort();
		runSignal?.addEventListener("abort", onRunAbort, { once: true });
		await this.source.publish({ type: "compaction_start", reason });
		let fromHook = false;
		try {
			const model = this.source.model;
			if (!model) throw new CompactionError("No model selected to write the summary.");
			const sm = this.source.session;
			const branch = sm.getBranch();
			const preparation = prepareCompaction(branch, this.settings, model.contextWindow, this.contextTokens());
			if (!preparation) throw new CompactionError(branch.at(-1)?.type === "compaction" ? "Already compacted" : "Nothing to compact (session too small)");
			const decision = await this.hooks.before?.({ preparation, branchEntries: branch, customInstructions, reason, willRetry, signal: controller.signal });
			if (decision?.cancel) throw new CompactionError("Compaction cancelled", true);
			fromHook = decision?.compaction !== undefined;
			const result = fromHook ? checkHookCompaction(decision!.compaction, branch, preparation) : await this.summarise(model, preparation, customInstructions, controller.signal);
			if (controller.signal.aborted) throw new CompactionError("Compaction cancelled", true);
			sm.appendCompaction(result.summary, result.firstKeptEntryId, result.tokensBefore, result.details, fromHook || undefined);
			const entry = sm.getLeafEntry() as CompactionEntry;
			this.source.rebuildFromSession();
			await this.hooks.compacted?.(entry, fromHook, { reason, willRetry });
			await this.source.publish({ type: "compaction_end", reason, result, aborted: false, willRetry });
			return result;
		} catch (error) {
			const cancelled = (error instanceof CompactionError && error.cancelled) || controller.signal.aborted;
			const message = cancelled ? "Compaction cancelled" : error instanceof Error ? error.message : String(error);
			await this.hooks.failed?.({ reason, ...(cancelled ? {} : { error: message }), aborted: cancelled, willRetry, fromExtension: fromHook && !cancelled });
			await this.source.publish({ type: "compaction_end", reason, result: undefined, aborted: cancelled, willRetry: false, ...(cancelled ? {} : { errorMessage: `Compaction failed: ${message}` }) });
			throw error instanceof CompactionError ? error : new CompactionError(message);
		} finally {
			runSignal?.removeEventListener("abort", onRunAbort);
			if (this.controller === controller) this.controller = undefined;
		}
	}

	/**
	 * Notes on a branch the user is leaving (/tree): what was tried there and what came of it,
	 * written by the current model (no tools). `replaceInstructions` uses `customInstructions` as
	 * the whole request instead of adding them to ours.
	 */
	async summarizeBranch(entries: readonly SessionEntry[], options: { customInstructions?: string; replaceInstructions?: boolean; signal?: AbortSignal } = {}): Promise<string> {
		const model = this.source.model;
		if (!model) throw new CompactionError("No model selected to write the branch summary.");
		const messages = entries.flatMap((e) => (e.type === "message" ? [e.message as AgentMessage] : []));
		const custom = options.customInstructions?.trim();
		const ask = options.replaceInstructions && custom
			? custom
			: [
					"The user left the conversation above to try another way from an earlier point. Write a short summary of this abandoned branch for the assistant that carries on: what was tried, what was found or changed (exact files, names, errors), and why it may have been left.",
					...(custom ? [`The user asks you to focus on this: ${custom}`] : []),
				].join("\n\n");
		const request = `<conversation>\n${serializeConversation(messages)}\n</conversation>\n\n${ask}`;
		return this.requestSummary(model, request, Math.min(model.maxTokens || 4096, 4096), options.signal, "branch summary");
	}

	/** One summary request to `model` (no tools): the answer's text, or a CompactionError (cancelled on abort). */
	private async requestSummary(model: Model, request: string, maxTokens: number, signal: AbortSignal | undefined, what: string): Promise<string> {
		const context: Context = { systemPrompt: SUMMARY_SYSTEM_PROMPT, messages: [{ role: "user", content: request, timestamp: Date.now() }], tools: [] };
		const answer = await this.source.complete(model, context, { maxTokens, signal });
		if (answer.stopReason === "aborted" || signal?.aborted) throw new CompactionError(what === "summary" ? "Compaction cancelled" : `${what[0]!.toUpperCase()}${what.slice(1)} cancelled`, true);
		if (answer.stopReason === "error") throw new CompactionError(answer.errorMessage ?? `the ${what} request failed`);
		const text = answer.content
			.filter((c) => c.type === "text")
			.map((c) => (c as { text: string }).text)
			.join("\n")
			.trim();
		if (!text) throw new CompactionError(`the model returned an empty ${what}`);
		return text;
	}

	/** Ask the current model for the summary (no tools, no thinking). */
	private async summarise(model: Model, preparation: CompactionPreparation, customInstructions: string | undefined, signal: AbortSignal): Promise<CompactionResult> {
		const { reserve } = compactionLimits(this.settings, model.contextWindow);
		const maxTokens = Math.max(256, Math.min(model.maxTokens || 8192, Math.floor(reserve * 0.8)));
		const text = await this.requestSummary(model, summaryPrompt(preparation, customInstructions), maxTokens, signal, "summary");
		return {
			summary: withFileLists(text, preparation.fileOps),
			firstKeptEntryId: preparation.firstKeptEntryId,
			tokensBefore: preparation.tokensBefore,
			details: preparation.fileOps,
		};
	}
}

/** An extension's compaction must name a kept entry on this branch and carry a summary. */
function checkHookCompaction(value: unknown, branch: readonly SessionEntry[], preparation: CompactionPreparation): CompactionResult {
	const c = value as Partial<CompactionResult> | null;
	const bad = (why: string) => new CompactionError(`session_before_compact returned an invalid compaction: ${why}`);
	if (!c || typeof c !== "object") throw bad("expected { summary, firstKeptEntryId, tokensBefore }");
	if (typeof c.summary !== "string" || !c.summary.trim()) throw bad("summary must be a non-empty string");
	const firstKeptEntryId = c.firstKeptEntryId ?? preparation.firstKeptEntryId;
	if (typeof firstKeptEntryId !== "string" || !branch.some((e) => e.id === firstKeptEntryId)) throw bad(`firstKeptEntryId ${JSON.stringify(firstKeptEntryId)} is not an entry on the current branch`);
	const tokensBefore = typeof c.tokensBefore === "number" ? c.tokensBefore : preparation.tokensBefore;
	return { summary: c.summary, firstKeptEntryId, tokensBefore, ...(c.details !== undefined ? { details: c.details } : {}) };
}
