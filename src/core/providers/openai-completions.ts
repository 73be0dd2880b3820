// The `openai-completions` wire protocol: OpenAI chat completions, streamed, through the official
// SDK (imported on first use). Also serves every compatible server; `model.compat` covers their quirks.
import type { EventStream } from "./event-stream.ts";
import { reasoningEffort } from "./thinking.ts";
import { startsWith, transformMessages } from "./transform-messages.ts";
import type { Context, ImageContent, Message, Model, StopReason, StreamOptions, TextContent, Tool, Usage } from "./types.ts";
import { ConnectionFailedError, HttpStatusError, ServerSentEventParser, StreamErrorEvent } from "./sse.ts";
import { stringifyRequest } from "./request-json.ts";
import { applyOnPayload, BlockWriter, incompleteResponse, PLACEHOLDER_KEY, runWire } from "./wire.ts";

/** Switches for servers that differ from OpenAI, read from `model.compat`. */
export interface OpenAICompat {
	/** Which field carries the output limit. Default: `max_completion_tokens` at api.openai.com, else `max_tokens`. */
	maxTokensField: "max_tokens" | "max_completion_tokens";
	/** Ask for the model's full `maxTokens` when the caller sets no limit (safe on cloud servers; vLLM rejects a limit past its context). Default false. */
	sendMaxTokens: boolean;
	/** Send `stream_options.include_usage`. Default true. */
	supportsUsageInStreaming: boolean;
	/** Send the system prompt as a `developer` message to reasoning models. Default false. */
	supportsDeveloperRole: boolean;
	/** How to ask for reasoning: `reasoning_effort` ("openai"), `reasoning: {effort}` ("openrouter"), or not at all. Default by host. */
	thinkingFormat: "openai" | "openrouter" | "none";
	/** Send earlier thinking back as `reasoning_content` (servers that need it between tool calls). Default false. */
	sendReasoningContent: boolean;
	/** Put `name` on tool result messages (some servers require it). Default false. */
	toolResultName: boolean;
}

export function resolveOpenAICompat(model: Model): OpenAICompat {
	const c = (model.compat ?? {}) as Partial<OpenAICompat>;
	const host = model.baseUrl;
	return {
		maxTokensField: c.maxTokensField ?? (host.includes("api.openai.com") ? "max_completion_tokens" : "max_tokens"),
		sendMaxTokens: c.sendMaxTokens ?? false,
		supportsUsageInStreaming: c.supportsUsageInStreaming ?? true,
		supportsDeveloperRole: c.supportsDeveloperRole ?? false,
		thinkingFormat: c.thinkingFormat ?? (host.includes("openrouter.ai") ? "openrouter" : "openai"),
		sendReasoningContent: c.sendReasoningContent ?? false,
		toolResultName: c.toolResultName ?? false,
	};
}

/**
 * Stream one response into `stream`; never rejects (failures end the stream with an error event).
 * Spoken over fetch, not the OpenAI SDK: its import, client and request path cost ~14 ms of a
 * ~40 ms round trip (measured, scripts/bench/roundtrip.ts) for what is one POST and an event stream.
 */
export function runOpenAICompletions(stream: EventStream, model: Model, context: Context, options: StreamOptions | undefined): Promise<void> {
	// `true`: the body is read here, through readBody (the idle timeout), not through a stream in front of it.
	return runWire(stream, model, options, async (output, fetch, readBody) => {
		const built = buildParams(model, context, options);
		// With no onPayload hook nothing is awaited before the request goes out: the stream's "start"
		// event reaches its consumers while the server works, not before the request is sent.
		const params = options?.onPayload ? await applyOnPayload(options, built) : built;
		let response: Response;
		try {
			response = await fetch(`${trimTrailingSlashes(model.baseUrl)}/chat/completions`, {
				method: "POST",
				headers: requestHeaders(model, options),
				// Without an onPayload hook the body is ours: the JSON of what was sent before is kept.
				body: options?.onPayload ? JSON.stringify(params) : stringifyRequest(params, ["messages", "tools"]),
				signal: options?.signal,
			});
		} catch (error) {
			throw options?.signal?.aborted ? error : new ConnectionFailedError(error);
		}
		if (!response.ok) throw await HttpStatusError.from(response);
		if (!response.body) throw incompleteResponse(model);
		const blocks = new BlockWriter(stream, output);
		const toolBlocks = new Map<number, number>();
		let finishReason: string | undefined;
		// The events parsed here, not through an async generator: a response is a few dozen events,
		// each of which would cost a promise and two turns of the event loop more.
		const decoder = new TextDecoder();
		const parser = new ServerSentEventParser();
		const body = readBody(response.body);
		sse: for await (const bytes of body) {
			const events = parser.feed(decoder.decode(bytes, { stream: true }));
			for (let e = 0; e < events.length; e++) {
				const event = events[e]!;
				if (event.data === "[DONE]") {
					body.end();
					break sse;
				}
				const chunk = JSON.parse(event.data) as ChatChunk & { error?: unknown };
				if (chunk.error) throw new StreamErrorEvent(chunk.error);
				if (options?.onProviderStreamEvent) await options.onProviderStreamEvent(chunk, model);
				if (chunk.usage) applyUsage(output.usage, chunk.usage);
				const choice = chunk.choices?.[0];
				if (!choice) continue;
				const delta = choice.delta ?? {};
				const reasoning = delta.reasoning_content ?? delta.reasoning ?? delta.reasoning_text;
				if (typeof reasoning === "string" && reasoning) blocks.thinking(reasoning);
				if (typeof delta.content === "string" && delta.content) blocks.text(delta.content);
				for (const call of delta.tool_calls ?? []) {
					const slot = call.index ?? 0;
					let index = toolBlocks.get(slot);
					if (index === undefined) {
						index = blocks.toolCall(call.id ?? `call_${slot}`, call.function?.name ?? "");
						toolBlocks.set(slot, index);
					}
					if (call.function?.arguments) blocks.toolArguments(index, call.function.arguments);
				}
				if (choice.finish_reason) finishReason = choice.finish_reason;
			}
		}
		blocks.close();
		if (!finishReason) throw incompleteResponse(model);
		output.stopReason = stopReasonOf(finishReason, blocks.hasToolCalls);
		if (finishReason === "content_filter") output.errorMessage = `${model.provider} stopped the response (content filter)`;
	}, true);
}

/** `url` without trailing slashes. Most base URLs have none, and then no regex runs (a first replace with one costs ~0.1 ms of a start). */
function trimTrailingSlashes(url: string): string {
	return url.endsWith("/") ? url.replace(/\/+$/, "") : url;
}

/**
 * What the SDK sent: JSON both ways and the key as a bearer token; the model's and the caller's
 * headers win. A plain record, names lower-cased as Headers would (so "Authorization" replaces ours).
 */
function requestHeaders(model: Model, options: StreamOptions | undefined): Record<string, string> {
	const headers: Record<string, string> = { accept: "application/json", "content-type": "application/json", authorization: `Bearer ${options?.apiKey || PLACEHOLDER_KEY}` };
	addHeaders(headers, model.headers);
	addHeaders(headers, options?.headers);
	return headers;
}

function addHeaders(headers: Record<string, string>, extra: Record<string, string> | undefined): void {
	if (extra) for (const name in extra) headers[name.toLowerCase()] = extra[name]!;
}

/** The request body (before `onPayload`). */
export function buildParams(model: Model, context: Context, options?: StreamOptions): Record<string, unknown> {
	const compat = resolveOpenAICompat(model);
	// An onPayload hook may change the messages in place: it gets entries of its own, not the cached ones.
	const params: Record<string, unknown> = { model: model.id, messages: toOpenAIMessages(model, context, compat, !options?.onPayload), stream: true };
	if (compat.supportsUsageInStreaming) params.stream_options = { include_usage: true };
	const maxTokens = options?.maxTokens ?? (compat.sendMaxTokens ? model.maxTokens : undefined);
	if (maxTokens !== undefined) params[compat.maxTokensField] = maxTokens;
	if (options?.temperature !== undefined) params.temperature = options.temperature;
	if (context.tools?.length) params.tools = wireTools(context.tools, !options?.onPayload);
	const effort = reasoningEffort(model, options?.reasoning);
	if (effort && compat.thinkingFormat === "openai") params.reasoning_effort = effort;
	if (effort && compat.thinkingFormat === "openrouter") params.reasoning = { effort };
	return params;
}

/** The request's `tools`, kept per tool list (the loop sends the same list until the tools change). */
const wireToolsOf = new WeakMap<Tool[], Record<string, unknown>[]>();

function wireTools(tools: Tool[], cache: boolean): Record<string, unknown>[] {
	const kept = cache ? wireToolsOf.get(tools) : undefined;
	if (kept) return kept;
	const wire = tools.map((tool) => ({ type: "function", function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
	if (cache) wireToolsOf.set(tools, wire);
	return wire;
}

type OpenAIPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

/**
 * The wire entries of each message already sent, by message object, so a request converts only what
 * is new since the last one (a conversation's messages are final once the loop appended them).
 * `key` holds what else an entry depends on; a message converted under other switches is converted again.
 */
const wireEntries = new WeakMap<object, { key: string; entries: Record<string, unknown>[] }>();

/**
 * The last request's entries (without the system prompt) and the tool result images not yet sent,
 * for the messages they came from: the next request, the same messages and a few more, continues
 * from there instead of going over every message again.
 */
let last: { key: string; messages: Message[]; entries: Record<string, unknown>[]; toolImages: ImageContent[] } | undefined;

function toOpenAIMessages(model: Model, context: Context, compat: OpenAICompat, cache = false): Record<string, unknown>[] {
	const acceptsImages = model.input.includes("image");
	const key = `${acceptsImages}|${compat.sendReasoningContent}|${compat.toolResultName}`;
	const messages = transformMessages(context.messages, model);
	const resume = cache && last?.key === key && startsWith(messages, last.messages) ? last : undefined;
	const entries = resume?.entries ?? [];
	// Tool messages cannot carry images; they follow the run of tool results as one user message.
	let toolImages = resume?.toolImages ?? [];
	for (let i = resume ? resume.messages.length : 0; i < messages.length; i++) {
		const message = messages[i]!;
		if (message.role !== "toolResult") {
			if (toolImages.length > 0) entries.push(toolImagesEntry(toolImages));
			toolImages = [];
		} else if (acceptsImages) for (const c of message.content) if (c.type === "image") toolImages.push(c);
		const cached = cache ? wireEntries.get(message) : undefined;
		const own = cached?.key === key ? cached.entries : wireEntriesOf(message, acceptsImages, compat);
		if (cache && own !== cached?.entries) wireEntries.set(message, { key, entries: own });
		for (const entry of own) entries.push(entry);
	}
	if (cache) last = { key, messages, entries, toolImages };
	const system: Record<string, unknown>[] = context.systemPrompt ? [{ role: compat.supportsDeveloperRole && model.reasoning ? "developer" : "system", content: context.systemPrompt }] : [];
	// A copy, as the request is the caller's to change (onPayload): concat copies natively, with no loop here.
	const out = system.concat(entries);
	if (toolImages.length > 0) out.push(toolImagesEntry(toolImages));
	return out;
}

function toolImagesEntry(images: ImageContent[]): Record<string, unknown> {
	return { role: "user", content: [{ type: "text", text: "Images from the tool results above:" }, ...images.map(imagePart)] };
}

/** One message as chat-completions entries (none for an empty assistant turn); tool result images are the caller's. */
function wireEntriesOf(message: Message, acceptsImages: boolean, compat: OpenAICompat): Record<string, unknown>[] {
	if (message.role === "user") {
		if (typeof message.content === "string") return [{ role: "user", content: message.content }];
		// Plain strings where possible: some servers accept nothing else.
		if (message.content.every((c) => c.type === "text")) return [{ role: "user", content: message.content.map((c) => (c as TextContent).text).join("\n") }];
		const parts = message.content.map((c): OpenAIPart => (c.type === "text" ? { type: "text", text: c.text } : acceptsImages ? imagePart(c) : { type: "text", text: "(image omitted: this model does not accept images)" }));
		return [{ role: "user", content: parts.every((p) => p.type === "text") ? parts.map((p) => (p as { text: string }).text).join("\n") : parts }];
	}
	if (message.role === "assistant") {
		let text = "";
		let thinking = "";
		const calls: Record<string, unknown>[] = [];
		for (const c of message.content) {
			if (c.type === "text") text += c.text;
			else if (c.type === "toolCall") calls.push({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.arguments) } });
			else if (c.type === "thinking" && !c.redacted) thinking += c.thinking;
		}
		if (!text && calls.length === 0) return [];
		const entry: Record<string, unknown> = { role: "assistant", content: text || null };
		if (calls.length > 0) entry.tool_calls = calls;
		if (compat.sendReasoningContent && thinking) entry.reasoning_content = thinking;
		return [entry];
	}
	// Every block is a line, an image an empty one.
	let text = "";
	let images = false;
	for (let i = 0; i < message.content.length; i++) {
		const c = message.content[i]!;
		if (i > 0) text += "\n";
		if (c.type === "text") text += c.text;
		else images = true;
	}
	const entry: Record<string, unknown> = { role: "tool", tool_call_id: message.toolCallId, content: text || (images ? "(image attached)" : "") };
	if (compat.toolResultName) entry.name = message.toolName;
	return [entry];
}

function imagePart(image: ImageContent): OpenAIPart {
	return { type: "image_url", image_url: { url: `data:${image.mimeType};base64,${image.data}` } };
}

/** The parts of a streamed chunk we read; compatible servers add reasoning fields OpenAI lacks. */
interface ChatChunk {
	choices?: {
		delta?: {
			content?: string | null;
			reasoning_content?: string | null;
			reasoning?: string | null;
			reasoning_text?: string | null;
			tool_calls?: { index?: number; id?: string; function?: { name?: string; arguments?: string } }[];
		};
		finish_reason?: string | null;
	}[];
	usage?: ChunkUsage | null;
}

interface ChunkUsage {
	prompt_tokens?: number;
	completion_tokens?: number;
	prompt_tokens_details?: { cached_tokens?: number } | null;
	/** DeepSeek's name for cached prompt tokens. */
	prompt_cache_hit_tokens?: number;
}

// prompt_tokens include cached tokens; our `input` does not.
function applyUsage(usage: Usage, u: ChunkUsage): void {
	const cached = u.prompt_tokens_details?.cached_tokens ?? u.prompt_cache_hit_tokens ?? 0;
	usage.input = Math.max(0, (u.prompt_tokens ?? 0) - cached);
	usage.output = u.completion_tokens ?? 0;
	usage.cacheRead = cached;
}

function stopReasonOf(reason: string, hasToolCalls: boolean): StopReason {
	switch (reason) {
		case "length":
			return "length";
		case "tool_calls":
		case "function_call":
			return "toolUse";
		case "content_filter":
			return "error";
		default:
			// Some servers say "stop" after tool calls.
			return hasToolCalls ? "toolUse" : "stop";
	}
}
