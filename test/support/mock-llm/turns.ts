// The scripted-turn DSL of the mock LLM server, its protocol-neutral normal form (Reply), and the
// Renderer interface that openai.ts and anthropic.ts implement to put a reply on the wire.
import type { Frame } from "./frames.ts";
import type { RecordedRequest } from "./request.ts";

export interface MockToolCall {
	name: string;
	/** Sent as JSON; ignored when `argumentsText` is given. */
	arguments?: Record<string, unknown>;
	/** The arguments exactly as streamed, e.g. JSON cut off mid-string. */
	argumentsText?: string;
	/** Default: `call_mock_<n>` (OpenAI) or `toolu_mock_<n>` (Anthropic). */
	id?: string;
}

/** Token counts. `input` excludes cache reads, as in the Anthropic API and our `Usage` type. */
export interface MockUsage {
	input: number;
	output: number;
	/** Default 0. */
	cacheRead?: number;
	/** Default 0. Anthropic only; OpenAI has no field for it. */
	cacheWrite?: number;
}

/**
 * A successful answer, optionally broken on purpose (malformed, drop, hang). A broken turn with no
 * content of its own streams the text "mock-llm partial reply", so there is something to cut.
 */
export interface ReplyTurn {
	text?: string;
	/** Anthropic thinking block; OpenAI-compatible `reasoning_content` deltas. */
	thinking?: string;
	/** Signature of the thinking block. Default `mock-signature-<n>`. */
	signature?: string;
	toolCalls?: MockToolCall[];
	/** Default `{ input: 10, output: 5 }`. */
	usage?: MockUsage;
	/** Default "toolUse" when there are tool calls, else "stop". */
	stopReason?: "stop" | "length" | "toolUse";
	/** Wait this long before the response head. Default 0. */
	delayMs?: number;
	/** Put a data line with truncated JSON in the middle of the stream. */
	malformed?: boolean;
	/** Send part of the stream, then reset the connection. */
	drop?: boolean;
	/** Send the first content chunk, then send nothing until the client goes away. */
	hang?: boolean;
}

/** An HTTP error answer, with a body shaped like the provider's own error JSON. */
export interface ErrorTurn {
	status: number;
	/** Seconds, sent as the `retry-after` header (fractions allowed, the SDKs parseFloat it). */
	retryAfter?: number;
	/** Replaces the provider-shaped body: an object is sent as JSON, a string as is. */
	body?: unknown;
	/** Replaces the default message inside the provider-shaped body. */
	message?: string;
	/** Default application/json; with a 200 status and a string body this answers with any page at all. */
	contentType?: string;
	/** Wait this long before the response head. Default 0. */
	delayMs?: number;
}

export type Turn = ReplyTurn | ErrorTurn;

/** What `script` and `enqueue` take: a turn, or a function of the request that returns one. */
export type TurnSource = Turn | ((request: RecordedRequest) => Turn | Promise<Turn>);

export type Fault = "malformed" | "drop" | "hang" | undefined;

/** A reply turn with defaults filled in; renderers read only this. */
export interface Reply {
	text: string;
	thinking: string;
	signature: string;
	toolCalls: { id?: string; name: string; argumentsJson: string }[];
	usage: Required<MockUsage>;
	stopReason: "stop" | "length" | "toolUse";
	fault: Fault;
}

/** Text used when a broken turn has no content of its own, so there is something to cut. */
const FILLER_TEXT = "mock-llm partial reply";

export function isErrorTurn(turn: Turn): turn is ErrorTurn {
	return typeof (turn as ErrorTurn).status === "number";
}

export function resolveReply(turn: ReplyTurn, seq: number): Reply {
	const fault: Fault = turn.hang ? "hang" : turn.drop ? "drop" : turn.malformed ? "malformed" : undefined;
	const toolCalls = (turn.toolCalls ?? []).map((call) => ({ id: call.id, name: call.name, argumentsJson: call.argumentsText ?? JSON.stringify(call.arguments ?? {}) }));
	const empty = !turn.text && !turn.thinking && toolCalls.length === 0;
	return {
		text: turn.text ?? (fault && empty ? FILLER_TEXT : ""),
		thinking: turn.thinking ?? "",
		signature: turn.signature ?? `mock-signature-${seq}`,
		toolCalls,
		usage: { cacheRead: 0, cacheWrite: 0, ...(turn.usage ?? { input: 10, output: 5 }) },
		stopReason: turn.stopReason ?? (toolCalls.length > 0 ? "toolUse" : "stop"),
		fault,
	};
}

/**
 * Cuts a string into `parts` pieces of near-equal length (by code point, so no surrogate pair is
 * split). Cuts fall mid-word and mid-JSON-token on purpose: real providers do that too.
 */
export function splitPieces(value: string, parts = 4): string[] {
	const chars = Array.from(value);
	if (chars.length === 0) return [];
	const size = Math.ceil(chars.length / Math.min(parts, chars.length));
	const pieces: string[] = [];
	for (let i = 0; i < chars.length; i += size) pieces.push(chars.slice(i, i + size).join(""));
	return pieces;
}

/** Facts about the request that shape the answer. */
export interface RenderContext {
	/** Counts answers from this server; makes ids unique and deterministic. */
	seq: number;
	/** The model the request named, echoed back. */
	model: string;
	/** OpenAI `stream_options.include_usage`. */
	includeUsage: boolean;
}

/** One wire protocol's way of saying a reply or an error. */
export interface Renderer {
	streamFrames(reply: Reply, context: RenderContext): Frame[];
	json(reply: Reply, context: RenderContext): unknown;
	/** An SSE data line whose JSON is cut off, as a broken proxy might send. */
	malformedFrame: Frame;
	/** The provider's error JSON for a status; `message` replaces the default text. */
	errorBody(status: number, message?: string): unknown;
	/** Header carrying the request id in this provider's answers. */
	requestIdHeader: string;
}
