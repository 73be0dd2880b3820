// The `anthropic-messages` wire protocol: Anthropic's messages API, streamed, through the official
// SDK (imported on first use). Thinking blocks keep their signatures so they can be sent back.
import { inPhase } from "../timing.ts";
import type { EventStream } from "./event-stream.ts";
import { adaptiveEffort, thinkingBudget } from "./thinking.ts";
import { transformMessages } from "./transform-messages.ts";
import type { Context, ImageContent, Model, StopReason, StreamOptions, TextContent, Usage } from "./types.ts";
import { applyOnPayload, BlockWriter, incompleteResponse, runWire, sdkClientOptions } from "./wire.ts";

/** Switches for Anthropic models and compatible servers, read from `model.compat`. */
export interface AnthropicCompat {
	/** Mark the system prompt and the newest user turn with `cache_control`. Default true. */
	cacheControl: boolean;
	/**
	 * "adaptive": `thinking: {type: "adaptive"}` with `output_config.effort` (current Claude models,
	 * which reject a budget); "budget": `thinking: {type: "enabled", budget_tokens}`. Default "budget".
	 */
	thinkingFormat: "adaptive" | "budget";
	/** The model always thinks; it cannot be switched off, only asked for less effort. Default false. */
	thinkingAlwaysOn: boolean;
}

/** Stream one response into `stream`; never rejects (failures end the stream with an error event). */
export function runAnthropicMessages(stream: EventStream, model: Model, context: Context, options: StreamOptions | undefined): Promise<void> {
	return runWire(stream, model, options, async (output, fetch) => {
		const { default: Anthropic } = await inPhase("sdk import", () => import("@anthropic-ai/sdk"));
		// The explicit apiKey keeps the SDK from reading ANTHROPIC_* variables or credential files.
		const client = new Anthropic(sdkClientOptions(model, options, fetch));
		const params = await applyOnPayload(options, buildParams(model, context, options));
		const events = await client.messages.create(params as never, { signal: options?.signal });
		const blocks = new BlockWriter(stream, output);
		let toolIndex = -1;
		let stopReason: string | undefined;
		let stopped = false;
		for await (const event of events as unknown as AsyncIterable<StreamEvent>) {
			if (options?.onProviderStreamEvent) await options.onProviderStreamEvent(event, model);
			switch (event.type) {
				case "message_start":
					applyUsage(output.usage, event.message?.usage);
					break;
				case "content_block_start": {
					const block = event.content_block ?? {};
					if (block.type === "text" && block.text) blocks.text(block.text);
					else if (block.type === "tool_use") toolIndex = blocks.toolCall(block.id ?? "", block.name ?? "");
					else if (block.type === "redacted_thinking") blocks.redactedThinking(block.data ?? "");
					break;
				}
				case "content_block_delta": {
					const delta = event.delta ?? {};
					if (delta.type === "text_delta" && delta.text) blocks.text(delta.text);
					else if (delta.type === "thinking_delta" && delta.thinking) blocks.thinking(delta.thinking);
					else if (delta.type === "signature_delta" && delta.signature) blocks.thinkingSignature(delta.signature);
					else if (delta.type === "input_json_delta" && toolIndex >= 0) blocks.toolArguments(toolIndex, delta.partial_json ?? "");
					break;
				}
				case "content_block_stop":
					// Closed by the next block's start, or after the last event: the last block's `*_end`
					// then follows message_delta's usage, so the last update carries the final usage
					// however quickly the events are read.
					break;
				case "message_delta":
					if (event.delta?.stop_reason) stopReason = event.delta.stop_reason;
					applyUsage(output.usage, event.usage);
					break;
				case "message_stop":
					stopped = true;
					break;
			}
		}
		blocks.close();
		if (!stopped) throw incompleteResponse(model);
		output.stopReason = stopReasonOf(stopReason);
		if (stopReason === "refusal") output.errorMessage = `${model.provider} declined to answer (refusal)`;
		if (stopReason === "model_context_window_exceeded") output.errorMessage = `The conversation is longer than ${model.id}'s context window`;
	});
}

/** The request body (before `onPayload`). */
export function buildParams(model: Model, context: Context, options?: StreamOptions): Record<string, unknown> {
	const compat = (model.compat ?? {}) as Partial<AnthropicCompat>;
	const cache = (compat.cacheControl ?? true) && options?.cacheRetention !== "none";
	const maxTokens = options?.maxTokens ?? model.maxTokens;
	const params: Record<string, unknown> = { model: model.id, max_tokens: maxTokens, stream: true, messages: toAnthropicMessages(model, context, cache) };
	if (context.systemPrompt) {
		params.system = [{ type: "text", text: context.systemPrompt, ...(cache ? { cache_control: { type: "ephemeral" } } : {}) }];
	}
	if (context.tools?.length) {
		params.tools = context.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
	}
	let thinking = false;
	if (compat.thinkingFormat === "adaptive") {
		const effort = adaptiveEffort(model, options?.reasoning);
		thinking = effort !== undefined || compat.thinkingAlwaysOn === true;
		if (effort) {
			params.thinking = { type: "adaptive" };
			params.output_config = { effort };
		} else if (model.reasoning && !compat.thinkingAlwaysOn) {
			// Adaptive models think by default; no level (or "off") means no thinking.
			params.thinking = { type: "disabled" };
		}
	} else {
		let budget = thinkingBudget(model, options?.reasoning);
		// The budget must leave room for the answer within max_tokens.
		if (budget !== undefined && budget >= maxTokens) budget = maxTokens > 2048 ? maxTokens - 1024 : undefined;
		if (budget !== undefined) params.thinking = { type: "enabled", budget_tokens: budget };
		thinking = budget !== undefined;
	}
	// Anthropic only accepts the default temperature while thinking.
	if (!thinking && options?.temperature !== undefined) params.temperature = options.temperature;
	return params;
}

type Block = Record<string, unknown>;

function toAnthropicMessages(model: Model, context: Context, cache: boolean): { role: "user" | "assistant"; content: Block[] }[] {
	const out: { role: "user" | "assistant"; content: Block[] }[] = [];
	const acceptsImages = model.input.includes("image");
	const parts = (content: string | (TextContent | ImageContent)[]): Block[] => {
		if (typeof content === "string") return content ? [{ type: "text", text: content }] : [];
		return content.flatMap((c): Block[] => {
			if (c.type === "text") return c.text ? [{ type: "text", text: c.text }] : [];
			if (!acceptsImages) return [{ type: "text", text: "(image omitted: this model does not accept images)" }];
			return [{ type: "image", source: { type: "base64", media_type: c.mimeType, data: c.data } }];
		});
	};

	for (const message of transformMessages(context.messages, model)) {
		if (message.role === "user") {
			const content = parts(message.content);
			if (content.length > 0) out.push({ role: "user", content });
		} else if (message.role === "assistant") {
			const content = message.content.flatMap((c): Block[] => {
				if (c.type === "text") return c.text ? [{ type: "text", text: c.text }] : [];
				if (c.type === "toolCall") return [{ type: "tool_use", id: toolUseId(c.id), name: c.name, input: c.arguments }];
				if (c.redacted) return c.thinkingSignature ? [{ type: "redacted_thinking", data: c.thinkingSignature }] : [];
				// A thinking block without its signature would be rejected.
				return c.thinkingSignature ? [{ type: "thinking", thinking: c.thinking, signature: c.thinkingSignature }] : [];
			});
			if (content.length > 0) out.push({ role: "assistant", content });
		} else {
			const result: Block = { type: "tool_result", tool_use_id: toolUseId(message.toolCallId), content: parts(message.content), is_error: message.isError };
			// Consecutive results answer one assistant turn: they travel in one user message.
			const last = out.at(-1);
			if (last?.role === "user" && last.content.every((b) => b.type === "tool_result")) last.content.push(result);
			else out.push({ role: "user", content: [result] });
		}
	}
	if (cache) {
		const lastUser = out.findLast((m) => m.role === "user");
		const lastBlock = lastUser?.content.at(-1);
		if (lastBlock) lastBlock.cache_control = { type: "ephemeral" };
	}
	return out;
}

/** Anthropic accepts tool ids of `[a-zA-Z0-9_-]{1,64}`; ids from other providers may not fit. */
function toolUseId(id: string): string {
	return id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64) || "tool_call";
}

interface StreamEvent {
	type: string;
	message?: { usage?: RawUsage };
	content_block?: { type?: string; text?: string; id?: string; name?: string; data?: string };
	delta?: { type?: string; text?: string; thinking?: string; signature?: string; partial_json?: string; stop_reason?: string | null };
	usage?: RawUsage;
}

interface RawUsage {
	input_tokens?: number | null;
	output_tokens?: number | null;
	cache_read_input_tokens?: number | null;
	cache_creation_input_tokens?: number | null;
}

// message_delta totals are cumulative, so each field present replaces the earlier value.
function applyUsage(usage: Usage, raw: RawUsage | undefined): void {
	if (!raw) return;
	if (typeof raw.input_tokens === "number") usage.input = raw.input_tokens;
	if (typeof raw.output_tokens === "number") usage.output = raw.output_tokens;
	if (typeof raw.cache_read_input_tokens === "number") usage.cacheRead = raw.cache_read_input_tokens;
	if (typeof raw.cache_creation_input_tokens === "number") usage.cacheWrite = raw.cache_creation_input_tokens;
}

function stopReasonOf(reason: string | undefined): StopReason {
	switch (reason) {
		case "max_tokens":
			return "length";
		case "tool_use":
			return "toolUse";
		case "refusal":
		case "model_context_window_exceeded":
			return "error";
		default:
			return "stop";
	}
}
