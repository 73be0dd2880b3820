// Proves the mock LLM server speaks the real wire protocols: the official OpenAI and Anthropic SDKs
// stream from it, reassemble text and tool calls, and see its errors and broken streams as real ones.
import { describe, expect, test } from "bun:test";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { type MockLlm, NO_TURN_LEFT, readMessages, readToolNames, startMockLlm } from "../../support/mock-llm.ts";

// logLevel "off" keeps the SDKs from printing the bad lines we send on purpose.
function openaiFor(mock: MockLlm, maxRetries = 0): OpenAI {
	return new OpenAI({ apiKey: "sk-test", baseURL: mock.openaiBaseUrl, maxRetries, logLevel: "off" });
}

function anthropicFor(mock: MockLlm, maxRetries = 0): Anthropic {
	return new Anthropic({ apiKey: "sk-ant-test", baseURL: mock.anthropicBaseUrl, maxRetries, logLevel: "off" });
}

const userHi = [{ role: "user" as const, content: "hi" }];

function openaiStream(client: OpenAI, extra: Partial<OpenAI.Chat.ChatCompletionCreateParamsStreaming> = {}, signal?: AbortSignal) {
	return client.chat.completions.create({ model: "gpt-mock", messages: userHi, stream: true, ...extra }, { signal });
}

async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
	const items: T[] = [];
	for await (const item of stream) items.push(item);
	return items;
}

/** Rejection of a promise, for asserting on the error object itself. */
async function errorOf(promise: Promise<unknown>): Promise<any> {
	try {
		await promise;
	} catch (error) {
		return error;
	}
	throw new Error("expected a rejection");
}

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline) throw new Error("condition not met in time");
		await Bun.sleep(5);
	}
}

describe("OpenAI chat completions", () => {
	test("a text turn streams in several chunks that reassemble to the exact text", async () => {
		await using mock = await startMockLlm({ turns: [{ text: "Hello from the mock server." }] });
		const chunks = await collect(await openaiStream(openaiFor(mock)));
		const pieces = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").filter(Boolean);
		expect(pieces.length).toBeGreaterThan(2);
		expect(pieces.join("")).toBe("Hello from the mock server.");
		expect(chunks[0].choices[0].delta.role).toBe("assistant");
		expect(chunks.at(-1)?.choices[0].finish_reason).toBe("stop");
	});

	test("tool call arguments split across deltas reassemble into valid JSON (SDK accumulator)", async () => {
		await using mock = await startMockLlm();
		mock.script({
			text: "Reading both.",
			toolCalls: [
				{ name: "read", arguments: { path: "src/a.ts", offset: 10 }, id: "call_fixed" },
				{ name: "bash", arguments: { command: 'echo "hi there"' } },
			],
		});
		const runner = openaiFor(mock).chat.completions.stream({ model: "gpt-mock", messages: userHi, stream: true });
		const argumentDeltas: Record<number, number> = {};
		for await (const chunk of runner) {
			for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
				if (call.function?.arguments) argumentDeltas[call.index] = (argumentDeltas[call.index] ?? 0) + 1;
			}
		}
		expect(argumentDeltas[0]).toBeGreaterThan(1);
		expect(argumentDeltas[1]).toBeGreaterThan(1);
		const completion = await runner.finalChatCompletion();
		const choice = completion.choices[0];
		expect(choice.finish_reason).toBe("tool_calls");
		expect(choice.message.content).toBe("Reading both.");
		const calls = (choice.message.tool_calls ?? []).map((call) => (call.type === "function" ? call : undefined));
		expect(calls.map((call) => call?.id)).toEqual(["call_fixed", expect.stringMatching(/^call_mock_/)]);
		expect(calls.map((call) => call?.function.name)).toEqual(["read", "bash"]);
		expect(JSON.parse(calls[0]?.function.arguments ?? "")).toEqual({ path: "src/a.ts", offset: 10 });
		expect(JSON.parse(calls[1]?.function.arguments ?? "")).toEqual({ command: 'echo "hi there"' });
	});

	test("usage comes as a final chunk only when stream_options.include_usage is set", async () => {
		await using mock = await startMockLlm();
		mock.script({ text: "ok", usage: { input: 120, output: 7, cacheRead: 30 } }, { text: "ok" });
		const client = openaiFor(mock);
		const chunks = await collect(await openaiStream(client, { stream_options: { include_usage: true } }));
		const last = chunks.at(-1);
		expect(last?.choices).toEqual([]);
		expect(last?.usage?.prompt_tokens).toBe(150);
		expect(last?.usage?.completion_tokens).toBe(7);
		expect(last?.usage?.total_tokens).toBe(157);
		expect(last?.usage?.prompt_tokens_details?.cached_tokens).toBe(30);
		const without = await collect(await openaiStream(client));
		expect(without.some((chunk) => chunk.usage)).toBe(false);
	});

	test("stopReason length and thinking map to finish_reason length and reasoning_content deltas", async () => {
		await using mock = await startMockLlm({ turns: [{ thinking: "Let me think.", text: "Cut o", stopReason: "length" }] });
		const chunks = await collect(await openaiStream(openaiFor(mock)));
		const reasoning = chunks.map((chunk) => (chunk.choices[0]?.delta as { reasoning_content?: string } | undefined)?.reasoning_content ?? "");
		expect(reasoning.join("")).toBe("Let me think.");
		expect(chunks.at(-1)?.choices[0].finish_reason).toBe("length");
	});

	test("a non-streamed request gets one chat.completion JSON", async () => {
		await using mock = await startMockLlm({ turns: [{ text: "Whole answer.", toolCalls: [{ name: "ls", arguments: {} }] }] });
		const completion = await openaiFor(mock).chat.completions.create({ model: "gpt-mock", messages: userHi });
		expect(completion.object).toBe("chat.completion");
		expect(completion.model).toBe("gpt-mock");
		expect(completion.choices[0].message.content).toBe("Whole answer.");
		expect(completion.choices[0].finish_reason).toBe("tool_calls");
		expect(completion.usage?.completion_tokens).toBe(5);
		expect(mock.lastRequest().stream).toBe(false);
	});

	test("429 with retry-after reaches the SDK; with retries the next turn answers", async () => {
		await using mock = await startMockLlm();
		mock.script({ status: 429, retryAfter: 7 });
		const error = await errorOf(openaiStream(openaiFor(mock)));
		expect(error).toBeInstanceOf(OpenAI.RateLimitError);
		expect(error.status).toBe(429);
		expect(error.headers.get("retry-after")).toBe("7");
		expect(error.code).toBe("rate_limit_exceeded");

		mock.script({ status: 429, retryAfter: 0.02 }, { text: "after the wait" });
		const chunks = await collect(await openaiStream(openaiFor(mock, 2)));
		expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe("after the wait");
		expect(mock.requestsTo("/v1/chat/completions")).toHaveLength(3);
		expect(mock.pendingTurns).toBe(0);
	});

	test("401 is an AuthenticationError and 500 an InternalServerError", async () => {
		await using mock = await startMockLlm({ turns: [{ status: 401 }, { status: 500 }] });
		const client = openaiFor(mock);
		const auth = await errorOf(openaiStream(client));
		expect(auth).toBeInstanceOf(OpenAI.AuthenticationError);
		expect(auth.message).toStartWith("401 Incorrect API key provided");
		const server = await errorOf(openaiStream(client));
		expect(server).toBeInstanceOf(OpenAI.InternalServerError);
		expect(server.status).toBe(500);
	});

	test("a malformed data line makes the stream throw", async () => {
		await using mock = await startMockLlm({ turns: [{ text: "this will break", malformed: true }] });
		const error = await errorOf(collect(await openaiStream(openaiFor(mock))));
		expect(error).toBeInstanceOf(SyntaxError);
		expect(error.message).toBe("Error reading response: malformed server-sent event JSON.");
	});

	test("a dropped connection makes the stream throw after some chunks", async () => {
		await using mock = await startMockLlm({ turns: [{ text: "this connection will drop", drop: true }] });
		const seen: string[] = [];
		const stream = await openaiStream(openaiFor(mock));
		const error = await errorOf((async () => {
			for await (const chunk of stream) seen.push(chunk.choices[0]?.delta.content ?? "");
		})());
		expect(String(error.message)).toContain("ECONNRESET");
		expect(seen.join("").length).toBeGreaterThan(0);
		expect(seen.join("").length).toBeLessThan("this connection will drop".length);
	});

	test("a hang streams one chunk and holds the connection until the client aborts", async () => {
		await using mock = await startMockLlm({ turns: [{ text: "never finished", hang: true }] });
		const abort = new AbortController();
		const seen: string[] = [];
		for await (const chunk of await openaiStream(openaiFor(mock), {}, abort.signal)) {
			const content = chunk.choices[0]?.delta.content;
			if (!content) continue;
			seen.push(content);
			expect(mock.openStreams).toBe(1);
			abort.abort();
		}
		expect(seen).toEqual(["neve"]);
		await until(() => mock.openStreams === 0);
	});

	test("delayMs holds back the response head", async () => {
		await using mock = await startMockLlm({ turns: [{ text: "late", delayMs: 150 }] });
		const started = performance.now();
		await collect(await openaiStream(openaiFor(mock)));
		expect(performance.now() - started).toBeGreaterThanOrEqual(140);
	});

	test("GET /v1/models lists the configured models", async () => {
		await using mock = await startMockLlm({ models: ["mock-a", "mock-b"] });
		const models = await collect(openaiFor(mock).models.list());
		expect(models.map((model) => model.id)).toEqual(["mock-a", "mock-b"]);
	});
});

describe("Anthropic messages", () => {
	const params = { model: "claude-mock", max_tokens: 100, messages: userHi };

	test("a text turn streams text_delta events that reassemble to the exact text", async () => {
		await using mock = await startMockLlm({ turns: [{ text: "Hello from the mock server." }] });
		const stream = anthropicFor(mock).messages.stream(params);
		const deltas: string[] = [];
		stream.on("text", (delta) => deltas.push(delta));
		expect(await stream.finalText()).toBe("Hello from the mock server.");
		expect(deltas.length).toBeGreaterThan(2);
		const message = await stream.finalMessage();
		expect(message.stop_reason).toBe("end_turn");
		expect(message.model).toBe("claude-mock");
	});

	test("a thinking turn gives a signed thinking block before the text", async () => {
		await using mock = await startMockLlm({ turns: [{ thinking: "The user said hi.", signature: "sig-1", text: "Hi!" }] });
		const stream = anthropicFor(mock).messages.stream(params);
		const thinkingDeltas: string[] = [];
		stream.on("thinking", (delta) => thinkingDeltas.push(delta));
		const message = await stream.finalMessage();
		expect(thinkingDeltas.length).toBeGreaterThan(1);
		// The SDK types finalMessage() blocks with a parsed_output field the wire never has.
		expect(message.content as unknown).toEqual([
			{ type: "thinking", thinking: "The user said hi.", signature: "sig-1" },
			{ type: "text", text: "Hi!", citations: null },
		]);
	});

	test("tool input split across input_json_delta events reassembles into valid JSON", async () => {
		await using mock = await startMockLlm();
		mock.script({ toolCalls: [{ name: "edit", arguments: { path: "a.ts", old: "x", new: "y\n" } }, { name: "ls", arguments: {}, id: "toolu_fixed" }] });
		const stream = await anthropicFor(mock).messages.create({ ...params, stream: true });
		const partials: Record<number, string[]> = {};
		for await (const event of stream) {
			if (event.type === "content_block_delta" && event.delta.type === "input_json_delta") {
				(partials[event.index] ??= []).push(event.delta.partial_json);
			}
		}
		expect(partials[0].filter(Boolean).length).toBeGreaterThan(1);
		expect(JSON.parse(partials[0].join(""))).toEqual({ path: "a.ts", old: "x", new: "y\n" });
		expect(JSON.parse(partials[1].join(""))).toEqual({});

		mock.script({ toolCalls: [{ name: "edit", arguments: { path: "a.ts" } }] });
		const message = await anthropicFor(mock).messages.stream(params).finalMessage();
		expect(message.stop_reason).toBe("tool_use");
		expect(message.content as unknown).toEqual([
			{ type: "tool_use", id: expect.stringMatching(/^toolu_mock_/), name: "edit", input: { path: "a.ts" }, caller: { type: "direct" } },
		]);
	});

	test("usage and max_tokens reach the final message", async () => {
		await using mock = await startMockLlm({ turns: [{ text: "Cut o", stopReason: "length", usage: { input: 120, output: 7, cacheRead: 30, cacheWrite: 4 } }] });
		const message = await anthropicFor(mock).messages.stream(params).finalMessage();
		expect(message.stop_reason).toBe("max_tokens");
		expect(message.usage).toMatchObject({ input_tokens: 120, output_tokens: 7, cache_read_input_tokens: 30, cache_creation_input_tokens: 4 });
	});

	test("a non-streamed request gets one message JSON", async () => {
		await using mock = await startMockLlm({ turns: [{ text: "Whole answer." }] });
		const message = await anthropicFor(mock).messages.create(params);
		expect(message.content).toEqual([{ type: "text", text: "Whole answer.", citations: null }]);
		expect(message.usage.output_tokens).toBe(5);
	});

	test("429 with retry-after reaches the SDK; with retries the next turn answers", async () => {
		await using mock = await startMockLlm({ turns: [{ status: 429, retryAfter: 3 }] });
		const error = await errorOf(anthropicFor(mock).messages.stream(params).finalMessage());
		expect(error).toBeInstanceOf(Anthropic.RateLimitError);
		expect(error.status).toBe(429);
		expect(error.headers.get("retry-after")).toBe("3");
		expect(error.error.error.type).toBe("rate_limit_error");

		mock.script({ status: 429, retryAfter: 0.02 }, { text: "after the wait" });
		expect(await anthropicFor(mock, 2).messages.stream(params).finalText()).toBe("after the wait");
		expect(mock.requestsTo("/v1/messages")).toHaveLength(3);
	});

	test("401 is an AuthenticationError", async () => {
		await using mock = await startMockLlm({ turns: [{ status: 401 }] });
		const error = await errorOf(anthropicFor(mock).messages.create({ ...params, stream: true }));
		expect(error).toBeInstanceOf(Anthropic.AuthenticationError);
		expect(error.error).toEqual({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" }, request_id: "req_mock" });
	});

	test("a malformed data line makes the stream throw", async () => {
		await using mock = await startMockLlm({ turns: [{ text: "this will break", malformed: true }] });
		const error = await errorOf(collect(await anthropicFor(mock).messages.create({ ...params, stream: true })));
		expect(error).toBeInstanceOf(SyntaxError);
		expect(error.message).toContain("JSON Parse error");
	});

	test("a dropped connection makes the stream throw after some text", async () => {
		await using mock = await startMockLlm({ turns: [{ text: "this connection will drop", drop: true }] });
		const stream = anthropicFor(mock).messages.stream(params);
		const deltas: string[] = [];
		stream.on("text", (delta) => deltas.push(delta));
		const error = await errorOf(stream.finalMessage());
		expect(error).toBeInstanceOf(Anthropic.AnthropicError);
		expect(error.message).toContain("ECONNRESET");
		expect(deltas.join("")).toBe("this connectio");
	});

	test("a hang holds the connection until the client aborts", async () => {
		await using mock = await startMockLlm({ turns: [{ text: "never finished", hang: true }] });
		const stream = anthropicFor(mock).messages.stream(params);
		const deltas: string[] = [];
		stream.on("text", (delta) => {
			deltas.push(delta);
			stream.abort();
		});
		const error = await errorOf(stream.finalMessage());
		expect(error).toBeInstanceOf(Anthropic.APIUserAbortError);
		expect(deltas).toEqual(["neve"]);
		await until(() => mock.openStreams === 0);
	});
});

describe("scripting and recording", () => {
	test("turns are used in order whatever the protocol, and requests are recorded", async () => {
		await using mock = await startMockLlm({ turns: [{ text: "first" }, { text: "second" }] });
		const chunks = await collect(await openaiStream(openaiFor(mock), { stream_options: { include_usage: true } }));
		expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe("first");
		expect(await anthropicFor(mock).messages.stream({ model: "claude-mock", max_tokens: 9, messages: userHi }).finalText()).toBe("second");

		const [openaiRequest, anthropicRequest] = mock.requests;
		expect(openaiRequest).toMatchObject({ method: "POST", path: "/v1/chat/completions", protocol: "openai", stream: true });
		expect(openaiRequest.headers.authorization).toBe("Bearer sk-test");
		expect(openaiRequest.headers["content-type"]).toBe("application/json");
		expect(openaiRequest.body).toEqual({ model: "gpt-mock", messages: userHi, stream: true, stream_options: { include_usage: true } });
		expect(anthropicRequest).toMatchObject({ path: "/v1/messages", protocol: "anthropic", stream: true });
		// This SDK version sends apiKey as a bearer token, not as x-api-key.
		expect(anthropicRequest.headers.authorization).toBe("Bearer sk-ant-test");
		expect(anthropicRequest.headers["anthropic-version"]).toBeString();
		expect(anthropicRequest.body.max_tokens).toBe(9);
		expect(mock.lastRequest()).toBe(anthropicRequest);
	});

	test("an empty script answers 500 with a loud message, and the SDK does not retry it", async () => {
		await using mock = await startMockLlm();
		const openaiError = await errorOf(openaiStream(openaiFor(mock, 2)));
		expect(openaiError.status).toBe(500);
		expect(openaiError.message).toBe(`500 ${NO_TURN_LEFT}`);
		const anthropicError = await errorOf(anthropicFor(mock, 2).messages.create({ model: "m", max_tokens: 5, messages: userHi }));
		expect(anthropicError.status).toBe(500);
		expect(anthropicError.error.error.message).toBe(NO_TURN_LEFT);
		expect(mock.requests).toHaveLength(2);
	});

	test("a function turn answers from the request", async () => {
		await using mock = await startMockLlm();
		mock.enqueue((request) => ({ text: `you said: ${readMessages(request).at(-1)?.text}` }));
		const client = openaiFor(mock);
		const completion = await client.chat.completions.create({ model: "m", messages: [{ role: "user", content: "ping" }] });
		expect(completion.choices[0].message.content).toBe("you said: ping");
	});

	test("readMessages and readToolNames give one view of both protocols", async () => {
		await using mock = await startMockLlm({ turns: [{ text: "a" }, { text: "b" }] });
		await openaiFor(mock).chat.completions.create({
			model: "m",
			tools: [{ type: "function", function: { name: "read", parameters: { type: "object" } } }],
			messages: [
				{ role: "system", content: "Be brief." },
				{ role: "user", content: "read a.ts" },
				{ role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "read", arguments: '{"path":"a.ts"}' } }] },
				{ role: "tool", tool_call_id: "c1", content: "x = 1" },
			],
		});
		await anthropicFor(mock).messages.create({
			model: "m",
			max_tokens: 5,
			system: "Be brief.",
			tools: [{ name: "read", input_schema: { type: "object" } }],
			messages: [
				{ role: "user", content: "read a.ts" },
				{ role: "assistant", content: [{ type: "tool_use", id: "c1", name: "read", input: { path: "a.ts" } }] },
				{ role: "user", content: [{ type: "tool_result", tool_use_id: "c1", content: "x = 1" }] },
			],
		});
		const [fromOpenai, fromAnthropic] = mock.requests.map(readMessages);
		expect(fromOpenai).toEqual([
			{ role: "system", text: "Be brief." },
			{ role: "user", text: "read a.ts" },
			{ role: "assistant", text: "", toolCalls: [{ id: "c1", name: "read", arguments: { path: "a.ts" } }] },
			{ role: "toolResult", text: "x = 1", toolCallId: "c1" },
		]);
		expect(fromAnthropic).toEqual([...fromOpenai.slice(0, 3), { role: "toolResult", text: "x = 1", toolCallId: "c1", isError: false }]);
		expect(mock.requests.map(readToolNames)).toEqual([["read"], ["read"]]);
	});

	test("close frees the port and reset forgets turns and requests", async () => {
		const mock = await startMockLlm({ turns: [{ text: "unused" }] });
		await fetch(`${mock.url}/v1/models`);
		mock.reset();
		expect(mock.requests).toHaveLength(0);
		expect(mock.pendingTurns).toBe(0);
		await mock.close();
		await mock.close();
		expect(await errorOf(fetch(`${mock.url}/v1/models`))).toBeInstanceOf(Error);
	});
});
