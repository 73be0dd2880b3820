// What both wire protocols share: the message being built and its content-block events, cost from
// usage, the fetch that lets StreamOptions hooks see the real HTTP exchange, and failures as data.
import type { EventStream } from "./event-stream.ts";
import { parseStreamingJson } from "./partial-json.ts";
import { formatDuration, RequestWatchdog, type WatchedBody } from "./request-timeouts.ts";
import type { AssistantMessage, Model, StreamOptions, TextContent, ThinkingContent, ToolCall, Usage } from "./types.ts";
import { emptyUsage } from "./types.ts";
import { enterPhase, timingEnabled } from "../timing.ts";

export function newAssistantMessage(model: Model): AssistantMessage {
	return {
		role: "assistant",
		content: [],
		api: model.api,
		provider: model.provider,
		model: model.id,
		usage: emptyUsage(),
		stopReason: "stop",
		timestamp: Date.now(),
	};
}

/** Fill `usage.cost` (model prices are $ per million tokens) and `totalTokens`. */
export function calculateCost(model: Model, usage: Usage): void {
	const price = model.cost;
	usage.cost.input = (price.input * usage.input) / 1e6;
	usage.cost.output = (price.output * usage.output) / 1e6;
	usage.cost.cacheRead = (price.cacheRead * usage.cacheRead) / 1e6;
	usage.cost.cacheWrite = (price.cacheWrite * usage.cacheWrite) / 1e6;
	usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
	usage.totalTokens = usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/**
 * Builds the message's content blocks and pushes the matching events. One block is open at a
 * time; opening another closes it, as both protocols stream blocks one after another.
 */
export class BlockWriter {
	private open: number | undefined;
	private readonly argumentText = new Map<number, string>();

	constructor(
		private readonly stream: EventStream,
		private readonly output: AssistantMessage,
	) {}

	text(delta: string): void {
		const index = this.ensure("text");
		const block = this.output.content[index] as TextContent;
		block.text += delta;
		this.stream.push({ type: "text_delta", contentIndex: index, delta, partial: this.output });
	}

	thinking(delta: string): void {
		const index = this.ensure("thinking");
		const block = this.output.content[index] as ThinkingContent;
		block.thinking += delta;
		this.stream.push({ type: "thinking_delta", contentIndex: index, delta, partial: this.output });
	}

	/** Attach a signature to the open thinking block (Anthropic sends it just before the block ends). */
	thinkingSignature(signature: string): void {
		const index = this.ensure("thinking");
		const block = this.output.content[index] as ThinkingContent;
		block.thinkingSignature = (block.thinkingSignature ?? "") + signature;
	}

	/** A whole redacted thinking block: its opaque data travels as the signature. */
	redactedThinking(data: string): void {
		this.close();
		const index = this.output.content.push({ type: "thinking", thinking: "[Reasoning redacted]", thinkingSignature: data, redacted: true }) - 1;
		this.stream.push({ type: "thinking_start", contentIndex: index, partial: this.output });
		this.open = index;
		this.close();
	}

	/** Open a tool call block; returns its content index for later argument deltas. */
	toolCall(id: string, name: string): number {
		this.close();
		const index = this.output.content.push({ type: "toolCall", id, name, arguments: {} }) - 1;
		this.argumentText.set(index, "");
		this.open = index;
		this.stream.push({ type: "toolcall_start", contentIndex: index, partial: this.output });
		return index;
	}

	toolArguments(index: number, delta: string): void {
		if (!delta) return;
		const text = (this.argumentText.get(index) ?? "") + delta;
		this.argumentText.set(index, text);
		const block = this.output.content[index] as ToolCall;
		let lazy = this.lazyArguments.get(index);
		if (!lazy || !lazy.installed()) this.lazyArguments.set(index, (lazy = new LazyArguments(block)));
		lazy.text = text;
		this.stream.push({ type: "toolcall_delta", contentIndex: index, delta, partial: this.output });
	}

	/** Each streaming call's arguments, parsed when read (see LazyArguments). */
	private readonly lazyArguments = new Map<number, LazyArguments>();

	get hasToolCalls(): boolean {
		return this.argumentText.size > 0;
	}

	/** Close the open block, pushing its `*_end` event. */
	close(): void {
		const index = this.open;
		if (index === undefined) return;
		this.open = undefined;
		const block = this.output.content[index]!;
		if (block.type === "text") {
			this.stream.push({ type: "text_end", contentIndex: index, content: block.text, partial: this.output });
		} else if (block.type === "thinking") {
			this.stream.push({ type: "thinking_end", contentIndex: index, content: block.thinking, partial: this.output });
		} else {
			const parsed = parseArguments(this.argumentText.get(index) ?? "");
			block.arguments = parsed.arguments;
			if (parsed.argumentsError !== undefined) block.argumentsError = parsed.argumentsError;
			this.stream.push({ type: "toolcall_end", contentIndex: index, toolCall: block, partial: this.output });
		}
	}

	private ensure(type: "text" | "thinking"): number {
		if (this.open !== undefined && this.output.content[this.open]!.type === type) return this.open;
		this.close();
		const block: TextContent | ThinkingContent = type === "text" ? { type: "text", text: "" } : { type: "thinking", thinking: "" };
		const index = this.output.content.push(block) - 1;
		this.open = index;
		this.stream.push({ type: type === "text" ? "text_start" : "thinking_start", contentIndex: index, partial: this.output });
		return index;
	}
}

/**
 * A streaming call's `arguments`: the text so far, parsed when first read after a delta. Most
 * deltas are never looked at (print mode), and the best-effort parse of every prefix cost ~0.2 ms
 * a call. The getter is installed once per call, not per delta. An assignment (the final
 * arguments) makes it a plain property again; the next delta installs a getter anew.
 */
class LazyArguments {
	text = "";
	private parsedFrom: string | undefined;
	private parsed: Record<string, unknown> = {};
	private active = true;

	constructor(block: ToolCall) {
		Object.defineProperty(block, "arguments", {
			get: () => {
				if (this.parsedFrom !== this.text) {
					this.parsed = parseStreamingJson(this.text);
					this.parsedFrom = this.text;
				}
				return this.parsed;
			},
			set: (value: Record<string, unknown>) => {
				this.active = false;
				Object.defineProperty(block, "arguments", { value, writable: true, enumerable: true, configurable: true });
			},
			enumerable: true,
			configurable: true,
		});
	}

	/** False once an assignment replaced the getter. */
	installed(): boolean {
		return this.active;
	}
}

/**
 * The complete arguments text of a finished tool call. Text that is not a JSON object is never
 * "repaired" (a cut-off `rm -rf build/cache` must not run as `rm -rf build`): the call gets `{}`
 * and an `argumentsError` the loop turns into an error result.
 */
export function parseArguments(text: string): Pick<ToolCall, "arguments" | "argumentsError"> {
	if (!text.trim()) return { arguments: {} };
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		const reason = error instanceof Error ? error.message : String(error);
		return { arguments: {}, argumentsError: `its arguments are not complete JSON (${reason})\nReceived: ${clip(text)}` };
	}
	if (value !== null && typeof value === "object" && !Array.isArray(value)) return { arguments: value as Record<string, unknown> };
	return { arguments: {}, argumentsError: `its arguments are not a JSON object\nReceived: ${clip(text)}` };
}

function clip(text: string): string {
	return text.length > 400 ? `${text.slice(0, 400)}…` : text;
}

/** How a protocol that reads the response body itself (not through an SDK) reads it: with the idle timeout. */
export type BodyReader = (body: ReadableStream<Uint8Array>) => WatchedBody;

/**
 * The frame of every wire protocol: push `start`, let `body` fill the message, then push `done`,
 * or `error` with whatever `body` threw described. Never rejects. `body` gets the fetch to give
 * its SDK: the request hooks and the header and idle timeouts live in it. With `ownBody`, the
 * responses of that fetch come unwrapped and `body` reads them with the BodyReader it gets.
 */
export async function runWire(
	stream: EventStream,
	model: Model,
	options: StreamOptions | undefined,
	body: (output: AssistantMessage, fetch: typeof globalThis.fetch, read: BodyReader) => Promise<void>,
	ownBody = false,
): Promise<void> {
	const output = newAssistantMessage(model);
	stream.push({ type: "start", partial: output });
	const watchdog = new RequestWatchdog(model.provider, options?.timeouts);
	try {
		await body(output, watchdog.fetch(phasedFetch(hookedFetch(options)) ?? globalThis.fetch, ownBody), (b) => watchdog.chunks(b));
		calculateCost(model, output.usage);
		finish(stream, output);
	} catch (error) {
		calculateCost(model, output.usage);
		// Whatever the SDK made of the closed connection, say which timeout closed it.
		const cause = watchdog.failure && !options?.signal?.aborted ? new ProtocolError(watchdog.failure) : error instanceof IncompleteResponseError ? explainIncomplete(model, watchdog, output, error) : error;
		fail(stream, output, model, cause, options?.signal);
	}
}

/** The stream ended without the protocol's final event: the connection closed early (runWire may know better). */
export function incompleteResponse(model: Model): ProtocolError {
	return new IncompleteResponseError(`The connection to ${model.provider} closed before the response finished`);
}

/**
 * A response without the protocol's final event, said for what it was: a web page (a wrong base
 * URL), a stream that ended cleanly with nothing in it, or — only then — a connection that closed.
 * The first two are not retried: the same request gets the same answer.
 */
function explainIncomplete(model: Model, watchdog: RequestWatchdog, output: AssistantMessage, error: IncompleteResponseError): ProtocolError {
	const type = watchdog.contentType ?? "";
	if (/text\/html/i.test(type)) {
		return new ProtocolError(`${model.provider} answered with a web page (${type}), not a model response: check its baseUrl (${model.baseUrl}); OpenAI-compatible servers usually end in /v1`);
	}
	if (watchdog.bodyEnded && output.content.length === 0) {
		return new ProtocolError(`${model.provider} sent an empty response: the stream ended without any content or a finish reason`);
	}
	return new ProtocolError(error.message);
}

/** Push the final event: `done` for a finished message, `error` for a failed or aborted one. */
export function finish(stream: EventStream, output: AssistantMessage): void {
	if (output.stopReason === "error" || output.stopReason === "aborted") {
		stream.push({ type: "error", reason: output.stopReason, error: output });
	} else {
		stream.push({ type: "done", reason: output.stopReason, message: output });
	}
	stream.end();
}

/** Record a failure on the message and push the final `error` event. */
export function fail(stream: EventStream, output: AssistantMessage, model: Model, error: unknown, signal?: AbortSignal): void {
	const failure = describeFailure(model, error, signal);
	output.stopReason = failure.aborted ? "aborted" : "error";
	output.errorMessage = failure.message;
	if (failure.status !== undefined) output.errorStatus = failure.status;
	if (failure.retryAfterMs !== undefined) output.retryAfterMs = failure.retryAfterMs;
	finish(stream, output);
}

/** Thrown by a wire protocol when the response ended in a way the protocol does not allow. */
export class ProtocolError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "ProtocolError";
	}
}

/** A stream that ended without its final event; runWire says what it really was (explainIncomplete). */
class IncompleteResponseError extends ProtocolError {}

interface Failure {
	message: string;
	aborted: boolean;
	status?: number;
	retryAfterMs?: number;
}

/** Turn whatever an SDK threw into one clear line, keeping the HTTP status and retry delay. */
export function describeFailure(model: Model, error: unknown, signal?: AbortSignal): Failure {
	const provider = model.provider;
	if (signal?.aborted) return { message: "Request aborted", aborted: true };
	const err = error as { name?: string; message?: string; status?: unknown; headers?: unknown; error?: unknown; cause?: unknown };
	if (error instanceof ProtocolError) return { message: error.message, aborted: false };
	if (error instanceof SyntaxError) return { message: `Malformed stream from ${provider}: an event was not valid JSON (${error.message})`, aborted: false };
	const code = (error as { code?: unknown })?.code;
	if (code === "ECONNRESET" || /ECONNRESET|socket connection was closed/i.test(err?.message ?? "")) {
		return { message: `The connection to ${provider} was lost before the response finished (ECONNRESET)`, aborted: false };
	}
	const status = typeof err?.status === "number" ? err.status : undefined;
	const detail = serverMessage(err?.error) ?? stripStatus(err?.message ?? String(error));
	if (status !== undefined) {
		const retryAfterMs = retryAfter(err.headers);
		const message =
			status === 401 || status === 403
				? `Authentication failed for provider "${provider}" (${status}): ${detail}`
				: status === 429
					? `Rate limited by ${provider} (429): ${detail}${longWait(retryAfterMs)}`
					: status >= 500
						? `${provider} server error (${status}): ${detail}`
						: `${provider} API error (${status}): ${detail}`;
		return { message, aborted: false, status, ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) };
	}
	// An error event inside an SSE stream carries a body but no status.
	if (err?.error && serverMessage(err.error)) return { message: `${provider} stream error: ${detail}`, aborted: false };
	if (err?.name === "APIConnectionTimeoutError") return { message: `Request to ${provider} timed out`, aborted: false };
	if (err?.name === "APIConnectionError" || err?.cause) {
		const cause = err.cause as { code?: string; message?: string } | undefined;
		if (cause?.code === "ConnectionRefused" || cause?.code === "ECONNREFUSED") {
			return { message: `Could not connect to ${provider} at ${model.baseUrl}: connection refused (is the server running?)`, aborted: false };
		}
		return { message: `Connection to ${provider} failed: ${cause?.message ?? detail}`, aborted: false };
	}
	return { message: detail, aborted: false };
}

// Past this a wait is worth saying: the agent does not retry into an hour-long limit unasked.
const LONG_RETRY_AFTER_MS = 60_000;

function longWait(retryAfterMs: number | undefined): string {
	return retryAfterMs !== undefined && retryAfterMs > LONG_RETRY_AFTER_MS ? `; the server asks to wait ${formatDuration(retryAfterMs)} before trying again` : "";
}

/** The human part of a provider error body (OpenAI `{error:{message}}`, Anthropic `{type:"error",error:{message}}`). */
function serverMessage(body: unknown): string | undefined {
	if (!body || typeof body !== "object") return typeof body === "string" && body ? body : undefined;
	const b = body as { message?: unknown; error?: unknown };
	if (b.error && typeof b.error === "object") return serverMessage(b.error);
	if (typeof b.message === "string" && b.message) return b.message;
	if (typeof b.error === "string" && b.error) return b.error;
	return undefined;
}

/** The SDKs prefix messages with the status ("429 Rate limit…"); we say the status our own way. */
function stripStatus(message: string): string {
	return message.replace(/^\d{3}\s+/, "");
}

/** `retry-after-ms` (ms) or `retry-after` (seconds, or an HTTP date), in ms. */
export function retryAfter(headers: unknown): number | undefined {
	const get = (name: string): string | null | undefined => {
		if (!headers) return undefined;
		if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name);
		return (headers as Record<string, string>)[name];
	};
	const ms = Number.parseFloat(get("retry-after-ms") ?? "");
	if (Number.isFinite(ms) && ms >= 0) return Math.round(ms);
	const raw = get("retry-after");
	if (!raw) return undefined;
	const seconds = Number.parseFloat(raw);
	if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * 1000);
	const date = Date.parse(raw);
	return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

export function headersToRecord(headers: ConstructorParameters<typeof Headers>[0]): Record<string, string> {
	const out: Record<string, string> = {};
	new Headers(headers).forEach((value, name) => {
		out[name] = value;
	});
	return out;
}

/** A fetch for the SDKs that runs `onHeaders` on the real request and `onResponse` on the real answer. */
export function hookedFetch(options: StreamOptions | undefined): typeof fetch | undefined {
	if (!options?.onHeaders && !options?.onResponse) return undefined;
	const hooked = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
		let request = init;
		if (options.onHeaders) {
			const replaced = await options.onHeaders(headersToRecord(init?.headers));
			if (replaced !== undefined) request = { ...init, headers: replaced };
		}
		const response = await fetch(input, request);
		if (options.onResponse) await options.onResponse({ status: response.status, headers: headersToRecord(response.headers) });
		return response;
	};
	return hooked as typeof fetch;
}

/** With AGENT_TIMING, `fetch` charged to the turn's "response head" phase until the head arrives, then "stream". */
function phasedFetch(hooked: typeof fetch | undefined): typeof fetch | undefined {
	if (!timingEnabled()) return hooked;
	const f = hooked ?? fetch;
	const timed = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
		enterPhase("response head");
		try {
			return await f(input, init);
		} finally {
			enterPhase("stream");
		}
	};
	return timed as typeof fetch;
}

// Keyless servers (Ollama, llama.cpp) ignore the key, but the SDK refuses to run without one.
export const PLACEHOLDER_KEY = "no-api-key";

/**
 * What both SDK clients are built with: our key, no SDK retries (we retry), no SDK logging, and
 * runWire's fetch (hooks and timeouts; the SDK's own whole-request timeout is off).
 */
export function sdkClientOptions(model: Model, options: StreamOptions | undefined, fetch: typeof globalThis.fetch) {
	return {
		apiKey: options?.apiKey || PLACEHOLDER_KEY,
		baseURL: model.baseUrl,
		maxRetries: 0,
		timeout: 2_147_483_647,
		defaultHeaders: { ...model.headers, ...options?.headers },
		fetch,
		logLevel: "off" as const,
	};
}

/** Apply `onPayload`: a non-undefined return replaces the request body. */
export async function applyOnPayload<T>(options: StreamOptions | undefined, payload: T): Promise<T> {
	if (!options?.onPayload) return payload;
	const replaced = await options.onPayload(payload);
	return replaced === undefined ? payload : (replaced as T);
}
