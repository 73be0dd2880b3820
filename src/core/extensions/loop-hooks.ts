// The agent loop's hooks as extension events: each hook dispatches its event with the kind the
// runner defines, and builds no payload when no extension listens (SPEC §6).
import type { AgentLoopHooks, ToolCallDecision, ToolResultPatch } from "../agent/loop.ts";
import type { AgentMessage } from "../agent/messages.ts";
import type { ExtensionRunner } from "./runner.ts";
import { normalizeContext, toLegacyContext } from "../providers/transcript.ts";
import type { Context } from "../providers/types.ts";
import type { BoundaryResult, SessionBoundaryDraft } from "./event-types.ts";

/** What the boundary needs from the session: previews, applying drafts, judging whether a turn can follow. */
export interface BoundarySink {
	messages(): AgentMessage[];
	/** The next request's messages as they would be with `drafts` applied (the event's `context`). */
	preview(drafts: SessionBoundaryDraft[]): AgentMessage[];
	/** Why a well-formed draft cannot apply to this session (an unknown entry id), or undefined. */
	problem(draft: SessionBoundaryDraft): string | undefined;
	/** Persist drafts in order; resolves true when one added a message to the model's context. */
	applyDrafts(drafts: SessionBoundaryDraft[]): Promise<boolean>;
	hasQueuedMessages(): boolean;
	/** The session entry a message was saved as ("" when it was not saved). */
	entryIdOf?(message: AgentMessage): string;
}

const DRAFT_KINDS = new Set(["custom", "custom_message", "context_edit", "compaction"]);

/** Why a draft is invalid, or undefined when it is fine. */
export function draftProblem(draft: unknown): string | undefined {
	if (!draft || typeof draft !== "object") return "a draft must be an object";
	const d = draft as Record<string, unknown>;
	if (!DRAFT_KINDS.has(d.kind as string)) return `unknown draft kind ${JSON.stringify(d.kind)} (expected custom, custom_message, context_edit or compaction)`;
	const str = (k: string) => typeof d[k] === "string" && (d[k] as string).length > 0;
	switch (d.kind) {
		case "custom":
			return str("customType") ? undefined : "a custom draft needs a customType";
		case "custom_message":
			if (!str("customType")) return "a custom_message draft needs a customType";
			if (typeof d.content !== "string" && !Array.isArray(d.content)) return "a custom_message draft needs content";
			return typeof d.display === "boolean" ? undefined : "a custom_message draft needs display: boolean";
		case "context_edit":
			if (!str("entryId")) return "a context_edit draft needs an entryId";
			if (d.action !== "replace" && d.action !== "omit") return 'a context_edit draft needs action "replace" or "omit"';
			return d.action === "replace" && d.content === undefined ? "a context_edit replace needs content" : undefined;
		case "compaction":
			if (!str("summary") || !str("firstKeptEntryId")) return "a compaction draft needs summary and firstKeptEntryId";
			return typeof d.tokensBefore === "number" ? undefined : "a compaction draft needs tokensBefore";
	}
	return undefined;
}

export interface BoundaryOutcome {
	continue: boolean;
}

/**
 * turn_end / agent_before_settle: each handler sees the drafts and `continue` so far and may
 * return `{ entries, continue }` — `entries` replaces the draft list (`[...event.entries, draft]`
 * adds one). An invalid draft is reported and voids all of this boundary's drafts and continue.
 */
export async function runBoundary(
	runner: ExtensionRunner,
	event: "turn_end" | "agent_before_settle",
	base: Record<string, unknown>,
	sink: BoundarySink,
	canContinue: (draftsAddMessages: boolean) => boolean,
): Promise<BoundaryOutcome> {
	const entries = runner.entries(event);
	if (entries.length === 0) return { continue: false };
	let drafts: SessionBoundaryDraft[] = [];
	let wantContinue = false;
	let invalid = false;
	const ctx = runner.context();
	for (const { path, handler } of entries) {
		const preview = { messages: sink.preview(drafts), canContinue: canContinue(drafts.some((d) => d.kind === "custom_message")) };
		const payload = { type: event, ...base, entries: [...drafts], continue: wantContinue, context: preview };
		let result: BoundaryResult | undefined;
		try {
			result = (await handler(payload, ctx)) as BoundaryResult | undefined;
		} catch (error) {
			runner.report(path, event, error);
			continue;
		}
		if (!result || typeof result !== "object") continue;
		if (result.entries !== undefined) {
			const list: unknown[] = Array.isArray(result.entries) ? result.entries : [result.entries];
			const problem = Array.isArray(result.entries)
				? list.map((d) => draftProblem(d) ?? sink.problem(d as SessionBoundaryDraft)).find((p) => p !== undefined)
				: "entries must be an array of drafts";
			if (problem !== undefined) {
				if (!invalid) runner.report(path, event, new Error(`Invalid boundary draft: ${problem}. All drafts of this ${event} were discarded and it does not continue.`));
				invalid = true;
			}
			drafts = list as SessionBoundaryDraft[];
		}
		if (result.continue !== undefined) wantContinue = result.continue === true;
	}
	if (invalid) return { continue: false };
	const added = drafts.length > 0 ? await sink.applyDrafts(drafts) : false;
	return { continue: wantContinue && canContinue(added) };
}

/** Loop hooks that dispatch to extensions; hooks with no listener cost a map lookup. */
export function createLoopHooks(runner: ExtensionRunner, sink: BoundarySink): AgentLoopHooks {
	return {
		async transformContext(messages) {
			if (!runner.has("context")) return messages;
			const out = await runner.chain("context", { messages }, (p, r) => (Array.isArray(r.messages) ? { ...p, messages: r.messages } : p));
			return out.messages as AgentMessage[];
		},
		async transformLlmContext(context) {
			if (!runner.has("context_with_system")) return context;
			// pi 1.6's shape: `messages` is the transcript with the system prompt and tools as its
			// leading system message; a handler returns the messages to send. Our older `context`
			// (systemPrompt, messages, tools) is offered and taken too.
			const payload: Record<string, unknown> = { messages: normalizeContext(structuredClone(context)).messages, context: structuredClone(context) };
			let replaced: Context | undefined;
			await runner.chain("context_with_system", payload, (p, r) => {
				if (Array.isArray(r.messages)) replaced = toLegacyContext({ messages: r.messages });
				else if (r.context) replaced = r.context as Context;
				else return p;
				return { ...p, messages: normalizeContext(replaced).messages, context: replaced };
			});
			return replaced ? { ...replaced, tools: replaced.tools ?? [] } : context;
		},
		async beforeToolCall(call) {
			if (!runner.has("tool_call")) return undefined;
			let terminate = false;
			const result = await runner.first<ToolCallDecision>(
				"tool_call",
				{ toolCallId: call.toolCallId, toolName: call.toolName, input: call.input, ...(call.parentToolCallId ? { parentToolCallId: call.parentToolCallId } : {}) },
				(r) => {
					if (r.terminate) terminate = true;
					return r.block ? "stop" : "ignore";
				},
				{ rethrow: true },
			);
			return result ? { ...result, terminate: terminate || result.terminate } : terminate ? { terminate } : undefined;
		},
		async afterToolCall(call, result, isError) {
			if (!runner.has("tool_result")) return undefined;
			const out = await runner.chain(
				"tool_result",
				{
					toolCallId: call.toolCallId,
					...(call.parentToolCallId ? { parentToolCallId: call.parentToolCallId } : {}),
					toolName: call.toolName,
					input: call.input,
					content: result.content,
					details: result.details,
					...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
					...(result.usage ? { usage: result.usage } : {}),
					isError,
				},
				(p, r: ToolResultPatch & { structuredContent?: unknown }) => {
					const next: Record<string, unknown> = { ...p };
					if (r.content !== undefined) {
						next.content = r.content;
						// pi: replacing content alone drops the structured result it described.
						if (r.structuredContent === undefined) delete next.structuredContent;
					}
					if (r.structuredContent !== undefined) next.structuredContent = r.structuredContent;
					if (r.details !== undefined) next.details = r.details;
					if (r.isError !== undefined) next.isError = r.isError;
					return next as typeof p;
				},
			);
			return { content: out.content, details: out.details, isError: out.isError, structuredContent: out.structuredContent };
		},
		async onMessageEnd(message) {
			if (!runner.has("message_end")) return message;
			const out = await runner.chain("message_end", { message }, (p, r, path) => {
				if (!r.message) return p;
				if (r.message.role !== (p.message as AgentMessage).role) {
					runner.report(path, "message_end", new Error("message_end handlers must return a message with the same role"));
					return p;
				}
				return { ...p, message: r.message };
			});
			return out.message as AgentMessage;
		},
		async onTurnEnd(info) {
			if (!runner.has("turn_end")) return undefined;
			return runBoundary(
				runner,
				"turn_end",
				{
					turnIndex: info.turnIndex,
					message: info.message,
					toolResults: info.toolResults,
					messageEntryId: sink.entryIdOf?.(info.message) ?? "",
					toolResultEntryIds: info.toolResults.map((r) => sink.entryIdOf?.(r) ?? ""),
					outcome: info.outcome,
				},
				sink,
				(added) => {
					const last = sink.messages().at(-1);
					return info.outcome === "completed" && (added || (last !== undefined && last.role !== "assistant") || sink.hasQueuedMessages());
				},
			);
		},
		async streamOptions() {
			const options: Awaited<ReturnType<NonNullable<AgentLoopHooks["streamOptions"]>>> = {};
			if (runner.has("before_provider_request")) {
				options.onPayload = async (payload) => {
					const out = await runner.chain("before_provider_request", { payload }, (p, r) => ({ ...p, payload: r }));
					return out.payload;
				};
			}
			if (runner.has("before_provider_headers")) {
				options.onHeaders = async (headers) => {
					const out = await runner.chain("before_provider_headers", { headers: { ...headers } }, (p, r) => (r.headers ? { ...p, headers: r.headers } : p));
					return out.headers as Record<string, string>;
				};
			}
			if (runner.has("after_provider_response")) {
				options.onResponse = (response) => runner.emit("after_provider_response", { status: response.status, headers: response.headers });
			}
			if (runner.has("provider_stream_event")) {
				options.onProviderStreamEvent = (data, model) => runner.emit("provider_stream_event", { provider: model.provider, api: model.api, model: model.id, data });
			}
			return options;
		},
	};
}
