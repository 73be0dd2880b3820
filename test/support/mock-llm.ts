// A loopback mock LLM server for tests. It speaks OpenAI chat completions and Anthropic messages
// (streamed or not), answers each request with the next scripted turn, and records every request.
import type { Server } from "bun";
import { setTimeout as sleep } from "node:timers/promises";
import { anthropicRenderer } from "./mock-llm/anthropic.ts";
import { type Frame, framesResponse } from "./mock-llm/frames.ts";
import { openaiRenderer } from "./mock-llm/openai.ts";
import { type RecordedRequest, recordRequest } from "./mock-llm/request.ts";
import { type ErrorTurn, isErrorTurn, type Renderer, type RenderContext, resolveReply, type Turn, type TurnSource } from "./mock-llm/turns.ts";

export { readMessages, readToolNames, type SeenMessage, type SeenToolCall } from "./mock-llm/messages.ts";
export type { RecordedRequest, WireProtocol } from "./mock-llm/request.ts";
export type { ErrorTurn, MockToolCall, MockUsage, ReplyTurn, Turn, TurnSource } from "./mock-llm/turns.ts";

export interface MockLlmOptions {
	/** Turns scripted from the start. Default none. */
	turns?: TurnSource[];
	/** Model ids that GET /v1/models lists. Default ["mock-model"]. */
	models?: string[];
	/** Pause between streamed frames, in ms. Default 0. */
	chunkDelayMs?: number;
}

export interface MockLlm extends AsyncDisposable {
	/** e.g. "http://127.0.0.1:40123" */
	readonly url: string;
	/** `${url}/v1`, the OpenAI SDK's baseURL. */
	readonly openaiBaseUrl: string;
	/** `url`; the Anthropic SDK adds /v1/messages itself. */
	readonly anthropicBaseUrl: string;
	/** Every request received, oldest first. */
	readonly requests: readonly RecordedRequest[];
	/** Scripted turns not yet used. */
	readonly pendingTurns: number;
	/** Responses still being written (a hang stays open until the client leaves). */
	readonly openStreams: number;
	/** Replaces the turns not yet used. */
	script(...turns: TurnSource[]): void;
	/** Adds turns after those already scripted. */
	enqueue(...turns: TurnSource[]): void;
	/** The newest request; throws when there is none. */
	lastRequest(): RecordedRequest;
	requestsTo(path: string): RecordedRequest[];
	/** Forgets scripted turns and recorded requests. */
	reset(): void;
	/** Stops listening and cuts open connections. Safe to call twice. */
	close(): Promise<void>;
}

/** The message a request gets when the script has run out; tests should fail on it, loudly. */
export const NO_TURN_LEFT = "mock-llm: no scripted turn left";

export async function startMockLlm(options: MockLlmOptions = {}): Promise<MockLlm> {
	return new MockLlmServer(options);
}

class MockLlmServer implements MockLlm {
	readonly url: string;
	readonly openaiBaseUrl: string;
	readonly anthropicBaseUrl: string;
	readonly requests: RecordedRequest[] = [];
	#turns: TurnSource[];
	#models: string[];
	#chunkDelayMs: number;
	#seq = 0;
	#openStreams = 0;
	#closing = new AbortController();
	#closed: Promise<void> | undefined;
	#server: Server<undefined>;

	constructor(options: MockLlmOptions) {
		this.#turns = [...(options.turns ?? [])];
		this.#models = options.models ?? ["mock-model"];
		this.#chunkDelayMs = options.chunkDelayMs ?? 0;
		this.#server = Bun.serve({
			hostname: "127.0.0.1",
			port: 0,
			// No idle cut-off: a hang turn must last until the client leaves.
			idleTimeout: 0,
			fetch: (request) => this.#handle(request),
		});
		this.url = `http://127.0.0.1:${this.#server.port}`;
		this.openaiBaseUrl = `${this.url}/v1`;
		this.anthropicBaseUrl = this.url;
	}

	get pendingTurns(): number {
		return this.#turns.length;
	}

	get openStreams(): number {
		return this.#openStreams;
	}

	script(...turns: TurnSource[]): void {
		this.#turns = [...turns];
	}

	enqueue(...turns: TurnSource[]): void {
		this.#turns.push(...turns);
	}

	lastRequest(): RecordedRequest {
		const last = this.requests.at(-1);
		if (!last) throw new Error("mock-llm: no request recorded yet");
		return last;
	}

	requestsTo(path: string): RecordedRequest[] {
		return this.requests.filter((request) => request.path === path);
	}

	reset(): void {
		this.#turns = [];
		this.requests.length = 0;
	}

	close(): Promise<void> {
		this.#closing.abort();
		this.#closed ??= this.#server.stop(true);
		return this.#closed;
	}

	[Symbol.asyncDispose](): Promise<void> {
		return this.close();
	}

	async #handle(request: Request): Promise<Response> {
		try {
			return await this.#answer(request);
		} catch (error) {
			return jsonResponse(500, { error: { type: "api_error", message: `mock-llm: internal error: ${String(error)}` } });
		}
	}

	async #answer(request: Request): Promise<Response> {
		const recorded = await recordRequest(request);
		this.requests.push(recorded);
		if (recorded.method === "GET" && recorded.path === "/v1/models") {
			const data = this.#models.map((id) => ({ id, object: "model", created: 1_700_000_000, owned_by: "mock-llm" }));
			return jsonResponse(200, { object: "list", data });
		}
		const renderer = recorded.protocol === "openai" ? openaiRenderer : recorded.protocol === "anthropic" ? anthropicRenderer : undefined;
		if (!renderer) {
			return jsonResponse(404, { error: { type: "not_found_error", message: `mock-llm: no route for ${recorded.method} ${recorded.path}` } });
		}
		const seq = ++this.#seq;
		const headers = { [renderer.requestIdHeader]: `req_mock_${seq}` };
		// x-should-retry: false makes both SDKs give up at once instead of retrying into the same error.
		const source = this.#turns.shift();
		if (!source) return jsonResponse(500, renderer.errorBody(500, NO_TURN_LEFT), { ...headers, "x-should-retry": "false" });
		let turn: Turn;
		try {
			turn = typeof source === "function" ? await source(recorded) : source;
		} catch (error) {
			const message = `mock-llm: turn function threw: ${String(error)}`;
			return jsonResponse(500, renderer.errorBody(500, message), { ...headers, "x-should-retry": "false" });
		}
		// The wait before the head ends early when the client gives up (a header timeout) or the server closes.
		if (turn.delayMs) await sleep(turn.delayMs, undefined, { signal: AbortSignal.any([request.signal, this.#closing.signal]) }).catch(() => {});
		if (isErrorTurn(turn)) return errorResponse(turn, renderer, headers);

		const reply = resolveReply(turn, seq);
		const context: RenderContext = {
			seq,
			model: typeof recorded.body.model === "string" ? recorded.body.model : "mock-model",
			includeUsage: recorded.body.stream_options?.include_usage === true,
		};
		const write = {
			status: 200,
			fault: reply.fault,
			chunkDelayMs: this.#chunkDelayMs,
			signal: AbortSignal.any([request.signal, this.#closing.signal]),
			onOpen: () => void this.#openStreams++,
			onClose: () => void this.#openStreams--,
		};
		if (recorded.stream) {
			const sseHeaders = { ...headers, "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" };
			return framesResponse(renderer.streamFrames(reply, context), { ...write, headers: sseHeaders, malformed: renderer.malformedFrame });
		}
		// A JSON answer goes out in two halves, so a drop or hang can cut it in the middle.
		const body = JSON.stringify(renderer.json(reply, context));
		const half = Math.ceil(body.length / 2);
		const frames: Frame[] = [{ text: body.slice(0, half), content: true }, { text: body.slice(half) }];
		const malformed = { text: '"mock-llm: malformed' };
		return framesResponse(frames, { ...write, headers: { ...headers, "content-type": "application/json" }, malformed });
	}
}

function errorResponse(turn: ErrorTurn, renderer: Renderer, headers: Record<string, string>): Response {
	const body = turn.body === undefined ? renderer.errorBody(turn.status, turn.message) : turn.body;
	const retryHeaders: Record<string, string> = turn.retryAfter === undefined ? {} : { "retry-after": String(turn.retryAfter) };
	const response = jsonResponse(turn.status, body, { ...headers, ...retryHeaders });
	if (turn.contentType) response.headers.set("content-type", turn.contentType);
	return response;
}

function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
	const text = typeof body === "string" ? body : JSON.stringify(body);
	return new Response(text, { status, headers: { ...headers, "content-type": "application/json" } });
}
