// The model-facing vocabulary shared by providers, the agent loop and sessions: content blocks,
// messages, models, usage and the streaming event protocol. Shapes follow pi-ai so extensions
// written for pi see the same objects.
import type { TSchema } from "typebox";

export type KnownApi = "openai-completions" | "anthropic-messages" | "openai-responses" | "google-generative-ai";
export type Api = KnownApi | (string & {});

/** pi 1.6's levels; "xhigh" and "max" exist only on models whose `thinkingLevelMap` maps them. */
export type ThinkingLevel = "off" | "minimal" | "low" | "medium" | "high" | "xhigh" | "max";
export const THINKING_LEVELS: readonly ThinkingLevel[] = ["off", "minimal", "low", "medium", "high", "xhigh", "max"];

export interface TextContent {
	type: "text";
	text: string;
	textSignature?: string;
}
export interface ThinkingContent {
	type: "thinking";
	thinking: string;
	thinkingSignature?: string;
	redacted?: boolean;
}
export interface ImageContent {
	type: "image";
	/** base64 */
	data: string;
	mimeType: string;
}
export interface ToolCall {
	type: "toolCall";
	id: string;
	name: string;
	arguments: Record<string, unknown>;
	thoughtSignature?: string;
	/**
	 * Set when the complete arguments text was not a JSON object (cut off, or malformed); `arguments`
	 * is then `{}` and the call is never executed (pi 1.6's field).
	 */
	argumentsError?: string;
}

export interface Usage {
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
	totalTokens: number;
	cost: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
}

export type StopReason = "stop" | "length" | "toolUse" | "error" | "aborted";

export interface UserMessage {
	role: "user";
	content: string | (TextContent | ImageContent)[];
	timestamp: number;
}
export interface AssistantMessage {
	role: "assistant";
	content: (TextContent | ThinkingContent | ToolCall)[];
	api: Api;
	provider: string;
	model: string;
	usage: Usage;
	stopReason: StopReason;
	errorMessage?: string;
	/** HTTP status of a failed request, when the failure was an HTTP error. */
	errorStatus?: number;
	/** How long the server asked us to wait before retrying (retry-after / retry-after-ms), in ms. */
	retryAfterMs?: number;
	timestamp: number;
}
export interface ToolResultMessage<TDetails = unknown> {
	role: "toolResult";
	toolCallId: string;
	toolName: string;
	content: (TextContent | ImageContent)[];
	details?: TDetails;
	isError: boolean;
	/** How long the tool ran, in ms; absent when it did not run (blocked, invalid arguments). */
	durationMs?: number;
	timestamp: number;
}
/** What a provider understands. */
export type Message = UserMessage | AssistantMessage | ToolResultMessage;

/** A tool as the model sees it. */
export interface Tool {
	name: string;
	description: string;
	parameters: TSchema;
}

export interface Context {
	systemPrompt?: string;
	messages: Message[];
	tools?: Tool[];
}

export interface ModelCost {
	/** $ per million tokens */
	input: number;
	output: number;
	cacheRead: number;
	cacheWrite: number;
}

export interface Model<TApi extends Api = Api> {
	id: string;
	name: string;
	api: TApi;
	provider: string;
	baseUrl: string;
	reasoning: boolean;
	input: ("text" | "image")[];
	cost: ModelCost;
	contextWindow: number;
	maxTokens: number;
	headers?: Record<string, string>;
	/** Provider-specific compatibility switches (openai-completions servers differ). */
	compat?: Record<string, unknown>;
	thinkingLevelMap?: Partial<Record<ThinkingLevel, string | number>>;
}

/** Streaming protocol: every event carries the partial message so far. */
export type AssistantMessageEvent =
	| { type: "start"; partial: AssistantMessage }
	| { type: "text_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "text_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "text_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "thinking_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "thinking_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "thinking_end"; contentIndex: number; content: string; partial: AssistantMessage }
	| { type: "toolcall_start"; contentIndex: number; partial: AssistantMessage }
	| { type: "toolcall_delta"; contentIndex: number; delta: string; partial: AssistantMessage }
	| { type: "toolcall_end"; contentIndex: number; toolCall: ToolCall; partial: AssistantMessage }
	| { type: "done"; reason: "stop" | "length" | "toolUse"; message: AssistantMessage }
	| { type: "error"; reason: "error" | "aborted"; error: AssistantMessage };

/**
 * An async iterable of events whose `result()` resolves to the final message. Once a stream has
 * started, failures are data (a final message with stopReason "error"), never exceptions.
 */
export interface AssistantMessageEventStream extends AsyncIterable<AssistantMessageEvent> {
	result(): Promise<AssistantMessage>;
}

export interface StreamOptions {
	apiKey?: string;
	signal?: AbortSignal;
	headers?: Record<string, string>;
	maxTokens?: number;
	temperature?: number;
	reasoning?: ThinkingLevel;
	/** pi-ai's per-API name for `reasoning` (openai-completions and -responses); `reasoning` wins when both are set. */
	reasoningEffort?: Exclude<ThinkingLevel, "off">;
	sessionId?: string;
	/** Prompt caching (pi-ai's option): "none" sends no cache markers; "short" and "long" (the default) mark as usual. */
	cacheRetention?: "none" | "short" | "long";
	/** Called with the request body before it is sent; a non-undefined return replaces it. */
	onPayload?: (payload: unknown) => unknown | Promise<unknown>;
	/** Called with the request headers before sending; a non-undefined return replaces them. */
	onHeaders?: (headers: Record<string, string>) => Record<string, string> | undefined | Promise<Record<string, string> | undefined>;
	/** Called once the HTTP response head has arrived. */
	onResponse?: (response: { status: number; headers: Record<string, string> }) => void | Promise<void>;
	/**
	 * Why the agent loop makes this request, for virtual models' routers: after a user's message,
	 * a continuation (tool results, extension messages) or a retry; absent outside the loop ("direct").
	 */
	requestReason?: "user" | "continuation" | "retry";
	/** Called with each parsed provider stream event (an SSE chunk's JSON) before it is turned into ours. */
	onProviderStreamEvent?: (data: unknown, model: Model) => void | Promise<void>;
	/** Stall detection: no response head within `headerMs`, no body bytes for `idleMs` (0 = off). Defaults 120 s / 300 s. */
	timeouts?: { headerMs?: number; idleMs?: number };
}

/** The function every wire protocol implements. */
export type StreamFunction = (model: Model, context: Context, options?: StreamOptions) => AssistantMessageEventStream;

export function emptyUsage(): Usage {
	return { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
}
