// Both wire protocols against the loopback mock LLM server: streamed text, thinking, tool calls,
// usage and cost, HTTP errors and retries, broken streams, abort, and the request hooks.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { ModelRegistry } from "../../../src/core/providers/registry.ts";
import { createRetryPolicy, type RetryEnd, type RetryStart, withRetry } from "../../../src/core/providers/retry.ts";
import { stream } from "../../../src/core/providers/stream.ts";
import type { AssistantMessageEvent, Context, Model, StreamOptions } from "../../../src/core/providers/types.ts";
import { type MockLlm, readMessages, startMockLlm } from "../../support/mock-llm.ts";
import { TempWorld } from "../../support/agent.ts";

const PROTOCOLS = [
	{ api: "openai-completions", base: (mock: MockLlm) => mock.openaiBaseUrl, path: "/v1/chat/completions" },
	{ api: "anthropic-messages", base: (mock: MockLlm) => mock.anthropicBaseUrl, path: "/v1/messages" },
] as const;

function mockModel(api: string, baseUrl: string, overrides: Partial<Model> = {}): Model {
	return {
		id: "mock-model",
		name: "Mock",
		api,
		provider: "mock",
		baseUrl,
		reasoning: true,
		input: ["text", "image"],
		cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
		contextWindow: 100_000,
		maxTokens: 32_000,
		...overrides,
	};
}

const hello: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "hi", timestamp: 1 }] };

async function collect(events: AsyncIterable<AssistantMessageEvent>): Promise<AssistantMessageEvent[]> {
	const out: AssistantMessageEvent[] = [];
	for await (const event of events) out.push(event);
	return out;
}

async function until(check: () => boolean, timeoutMs = 15_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline) throw new Error("condition not met in time");
		await Bun.sleep(5);
	}
}

for (const protocol of PROTOCOLS) {
	describe(protocol.api, () => {
		const setup = async (options: StreamOptions = {}, overrides: Partial<Model> = {}) => {
			const mock = await startMockLlm();
			const model = mockModel(protocol.api, protocol.base(mock), overrides);
			const run = (context: Context = hello, extra: StreamOptions = {}) => stream(model, context, { apiKey: "sk-test", ...options, ...extra });
			return { mock, model, run };
		};

		test("text streams as start, text_start, deltas, text_end, done, each carrying the partial message", async () => {
			const { mock, run } = await setup();
			await using _ = mock;
			mock.script({ text: "Hello from the mock server." });
			const s = run();
			const types: string[] = [];
			let soFar = "";
			let deltas = 0;
			// The partial is the live message being built (as in pi-ai): a consumer that lags sees it
			// already ahead of the event, never behind it.
			for await (const e of s) {
				types.push(e.type);
				if (e.type === "text_delta") {
					deltas++;
					soFar += e.delta;
					const block = e.partial.content[e.contentIndex];
					expect(block?.type).toBe("text");
					expect(block?.type === "text" && block.text.startsWith(soFar)).toBe(true);
				}
				if (e.type === "text_end") expect(e.content).toBe("Hello from the mock server.");
				if (e.type !== "done" && e.type !== "error") expect(e.partial.role).toBe("assistant");
			}
			expect(types[0]).toBe("start");
			expect(types[1]).toBe("text_start");
			expect(types.slice(-2)).toEqual(["text_end", "done"]);
			expect(deltas).toBeGreaterThan(1);
			const final = await s.result();
			expect(final).toMatchObject({ role: "assistant", api: protocol.api, provider: "mock", model: "mock-model", stopReason: "stop" });
			expect(final.content).toEqual([{ type: "text", text: "Hello from the mock server." }]);
			expect(final.errorMessage).toBeUndefined();
			expect(readMessages(mock.lastRequest())).toEqual([
				{ role: "system", text: "Be brief." },
				{ role: "user", text: "hi" },
			]);
		});

		test("thinking streams before the text, asked for with the level's effort or budget", async () => {
			const { mock, run } = await setup({ reasoning: "high" });
			await using _ = mock;
			mock.script({ thinking: "Let me think about it.", text: "Done.", signature: "sig-abc" });
			const s = run();
			const types = (await collect(s)).map((e) => e.type).filter((t) => !t.endsWith("_delta"));
			expect(types).toEqual(["start", "thinking_start", "thinking_end", "text_start", "text_end", "done"]);
			const final = await s.result();
			const thinking = protocol.api === "anthropic-messages" ? { type: "thinking", thinking: "Let me think about it.", thinkingSignature: "sig-abc" } : { type: "thinking", thinking: "Let me think about it." };
			expect(final.content).toEqual([thinking as never, { type: "text", text: "Done." }]);
			const body = mock.lastRequest().body;
			if (protocol.api === "anthropic-messages") {
				expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 16384 });
				expect(body.max_tokens).toBe(32000);
			} else {
				expect(body.reasoning_effort).toBe("high");
			}
		});

		test("several tool calls with arguments split across deltas end with parsed arguments", async () => {
			const { mock, run } = await setup();
			await using _ = mock;
			mock.script({
				text: "Reading both.",
				toolCalls: [
					{ name: "read", arguments: { path: "src/a.ts", offset: 10 }, id: "call_fixed" },
					{ name: "bash", arguments: { command: 'echo "hi there"' } },
				],
			});
			const s = run({ ...hello, tools: [{ name: "read", description: "Read a file", parameters: { type: "object", properties: { path: { type: "string" } } } as never }] });
			const events = await collect(s);
			const ends = events.filter((e) => e.type === "toolcall_end");
			expect(ends.map((e) => e.type === "toolcall_end" && e.toolCall)).toEqual([
				{ type: "toolCall", id: "call_fixed", name: "read", arguments: { path: "src/a.ts", offset: 10 } },
				{ type: "toolCall", id: expect.any(String), name: "bash", arguments: { command: 'echo "hi there"' } },
			]);
			const argDeltas = events.filter((e) => e.type === "toolcall_delta" && e.contentIndex === 1);
			expect(argDeltas.length).toBeGreaterThan(1);
			expect(events.filter((e) => e.type === "toolcall_start").map((e) => e.type === "toolcall_start" && e.contentIndex)).toEqual([1, 2]);
			const final = await s.result();
			expect(final.stopReason).toBe("toolUse");
			expect(final.content.map((c) => c.type)).toEqual(["text", "toolCall", "toolCall"]);
			const tools = mock.lastRequest().body.tools;
			expect(tools).toHaveLength(1);
		});

		test("usage and cost come from the response and the model's prices", async () => {
			const { mock, run } = await setup();
			await using _ = mock;
			mock.script({ text: "ok", usage: { input: 1000, output: 200, cacheRead: 300, cacheWrite: 100 } });
			const usage = (await run().result()).usage;
			const cacheWrite = protocol.api === "anthropic-messages" ? 100 : 0;
			expect(usage).toMatchObject({ input: 1000, output: 200, cacheRead: 300, cacheWrite, totalTokens: 1500 + cacheWrite });
			expect(usage.cost.input).toBeCloseTo(0.003, 10);
			expect(usage.cost.output).toBeCloseTo(0.003, 10);
			expect(usage.cost.cacheRead).toBeCloseTo(0.00009, 10);
			expect(usage.cost.cacheWrite).toBeCloseTo(cacheWrite * 3.75e-6, 10);
			expect(usage.cost.total).toBeCloseTo(0.00609 + cacheWrite * 3.75e-6, 10);
			if (protocol.api === "openai-completions") expect(mock.lastRequest().body.stream_options).toEqual({ include_usage: true });
		});

		test("429 with retry-after, then success: retried once, reported, the delay the server asked for", async () => {
			const { mock, model } = await setup();
			await using _ = mock;
			mock.script({ status: 429, retryAfter: 0.01 }, { text: "second time lucky" });
			const starts: RetryStart[] = [];
			const ends: RetryEnd[] = [];
			const retrying = withRetry(stream, { policy: createRetryPolicy({ baseDelayMs: 1 }), onRetry: (i) => starts.push(i), onRetryEnd: (i) => ends.push(i) });
			const s = retrying(model, hello, { apiKey: "sk-test" });
			const events = await collect(s);
			expect(events.filter((e) => e.type === "start")).toHaveLength(1);
			expect((await s.result()).content).toEqual([{ type: "text", text: "second time lucky" }]);
			expect(starts).toEqual([{ attempt: 1, maxAttempts: 3, delayMs: 10, errorMessage: expect.stringMatching(/^Rate limited by mock \(429\): /) }]);
			expect(ends).toEqual([{ success: true, attempt: 2 }]);
			expect(mock.requestsTo(protocol.path)).toHaveLength(2);
		});

		test("a 429 asking to wait past the limit is not retried; the message keeps status and delay", async () => {
			const { mock, model } = await setup();
			await using _ = mock;
			mock.script({ status: 429, retryAfter: 120 });
			const starts: RetryStart[] = [];
			const s = withRetry(stream, { policy: createRetryPolicy({ maxDelayMs: 60_000 }), onRetry: (i) => starts.push(i) })(model, hello, { apiKey: "k" });
			const final = await s.result();
			expect(final).toMatchObject({ stopReason: "error", errorStatus: 429, retryAfterMs: 120_000 });
			expect(starts).toEqual([]);
		});

		test("500 is an error with the server's words; retried until it succeeds", async () => {
			const { mock, model, run } = await setup();
			await using _ = mock;
			mock.script({ status: 500 });
			const failed = await run().result();
			expect(failed.stopReason).toBe("error");
			expect(failed.errorStatus).toBe(500);
			expect(failed.errorMessage).toMatch(/^mock server error \(500\): \S/);
			mock.script({ status: 500 }, { status: 503 }, { text: "up again" });
			const ends: RetryEnd[] = [];
			const s = withRetry(stream, { policy: createRetryPolicy({ baseDelayMs: 1 }), onRetryEnd: (i) => ends.push(i) })(model, hello, { apiKey: "k" });
			expect((await s.result()).content).toEqual([{ type: "text", text: "up again" }]);
			expect(ends).toEqual([{ success: true, attempt: 3 }]);
		});

		test("400 is not retried", async () => {
			const { mock, model } = await setup();
			await using _ = mock;
			mock.script({ status: 400, message: "bad field" });
			const starts: RetryStart[] = [];
			const final = await withRetry(stream, { policy: createRetryPolicy({ baseDelayMs: 1 }), onRetry: (i) => starts.push(i) })(model, hello, { apiKey: "k" }).result();
			expect(final.errorMessage).toBe("mock API error (400): bad field");
			expect(starts).toEqual([]);
		});

		test("a malformed stream ends in error with a clear message; what came before is kept", async () => {
			const { mock, run } = await setup();
			await using _ = mock;
			mock.script({ malformed: true, text: "partial answer here" });
			const s = run();
			const events = await collect(s);
			expect(events.at(-1)?.type).toBe("error");
			const final = await s.result();
			expect(final.stopReason).toBe("error");
			expect(final.errorMessage).toStartWith("Malformed stream from mock: an event was not valid JSON (");
			expect(final.content[0]?.type).toBe("text");
		});

		test("a dropped connection ends in error, keeping the text so far", async () => {
			const { mock, run } = await setup();
			await using _ = mock;
			mock.script({ drop: true, text: "the first half and the second half" });
			const final = await run().result();
			expect(final.stopReason).toBe("error");
			expect(final.errorMessage).toBe("The connection to mock was lost before the response finished (ECONNRESET)");
			const text = final.content[0]?.type === "text" ? final.content[0].text : "";
			expect(text.length).toBeGreaterThan(0);
			expect("the first half and the second half".startsWith(text)).toBe(true);
		});

		test("abort mid-stream ends with stopReason aborted and closes the connection", async () => {
			const { mock, run } = await setup();
			await using _ = mock;
			mock.script({ hang: true, text: "this never finishes" });
			const controller = new AbortController();
			const s = run(hello, { signal: controller.signal });
			for await (const event of s) if (event.type === "text_delta") controller.abort();
			const final = await s.result();
			expect(final.stopReason).toBe("aborted");
			expect(final.errorMessage).toBe("Request aborted");
			expect(final.content[0]?.type).toBe("text");
			await until(() => mock.openStreams === 0);
		});

		test("onPayload sees the body and its replacement is what reaches the server", async () => {
			const seen: Record<string, unknown>[] = [];
			const { mock, run } = await setup({
				onPayload: (payload) => {
					seen.push(payload as Record<string, unknown>);
					return { ...(payload as object), temperature: 0.25, metadata_from_hook: "yes" };
				},
			});
			await using _ = mock;
			mock.script({ text: "ok" });
			await run().result();
			expect(seen).toHaveLength(1);
			expect(seen[0]).toMatchObject({ model: "mock-model", stream: true });
			expect(mock.lastRequest().body).toEqual({ ...seen[0], temperature: 0.25, metadata_from_hook: "yes" });
		});

		test("onHeaders can replace the request headers; onResponse sees status and headers", async () => {
			const responses: { status: number; headers: Record<string, string> }[] = [];
			let sentAuthorization: string | undefined;
			const { mock, run } = await setup({
				headers: { "x-from-options": "1" },
				onHeaders: (headers) => {
					sentAuthorization = headers.authorization;
					return { ...headers, "x-from-hook": "2" };
				},
				onResponse: (response) => {
					responses.push(response);
				},
			});
			await using _ = mock;
			mock.script({ text: "ok" }, { status: 503 });
			await run().result();
			const recorded = mock.lastRequest().headers;
			expect(recorded["x-from-options"]).toBe("1");
			expect(recorded["x-from-hook"]).toBe("2");
			expect(sentAuthorization).toBe("Bearer sk-test");
			const idHeader = protocol.api === "anthropic-messages" ? "request-id" : "x-request-id";
			expect(responses).toEqual([{ status: 200, headers: expect.objectContaining({ [idHeader]: "req_mock_1", "content-type": "text/event-stream; charset=utf-8" }) }]);
			await run().result();
			expect(responses[1]).toEqual({ status: 503, headers: expect.objectContaining({ [idHeader]: "req_mock_2" }) });
		});

		test("a conversation with thinking, tool calls and results goes back in the provider's shape", async () => {
			const { mock, model, run } = await setup();
			await using _ = mock;
			mock.script({ text: "ok" });
			const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
			const assistant = { role: "assistant" as const, api: model.api, provider: model.provider, model: model.id, usage, timestamp: 2 };
			await run({
				systemPrompt: "sys",
				messages: [
					{ role: "user", content: "list files", timestamp: 1 },
					{
						...assistant,
						stopReason: "toolUse",
						content: [
							{ type: "thinking", thinking: "use ls", thinkingSignature: "sig-1" },
							{ type: "text", text: "Listing." },
							{ type: "toolCall", id: "call_1", name: "bash", arguments: { command: "ls" } },
							{ type: "toolCall", id: "call_2", name: "read", arguments: { path: "a" } },
						],
					},
					{ role: "toolResult", toolCallId: "call_1", toolName: "bash", content: [{ type: "text", text: "a.ts" }], isError: false, timestamp: 3 },
					// call_2 never got a result (interrupted): a synthetic error result is sent for it.
					{ ...assistant, stopReason: "error", errorMessage: "boom", content: [{ type: "text", text: "half" }] },
					{ role: "user", content: [{ type: "text", text: "and now?" }, { type: "image", data: "aGk=", mimeType: "image/png" }], timestamp: 4 },
				],
			}).result();
			const request = mock.lastRequest();
			expect(readMessages(request)).toEqual([
				{ role: "system", text: "sys" },
				{ role: "user", text: "list files" },
				{
					role: "assistant",
					text: "Listing.",
					toolCalls: [
						{ id: "call_1", name: "bash", arguments: { command: "ls" } },
						{ id: "call_2", name: "read", arguments: { path: "a" } },
					],
				},
				{ role: "toolResult", text: "a.ts", toolCallId: "call_1", ...(protocol.api === "anthropic-messages" ? { isError: false } : {}) },
				{
					role: "toolResult",
					text: "No result provided: the tool call was interrupted.",
					toolCallId: "call_2",
					...(protocol.api === "anthropic-messages" ? { isError: true } : {}),
				},
				{ role: "user", text: "and now?\n[image]" },
			]);
			if (protocol.api === "anthropic-messages") {
				const sent = request.body.messages[1].content[0];
				expect(sent).toEqual({ type: "thinking", thinking: "use ls", signature: "sig-1" });
			}
		});
	});
}

describe("thinking parameters", () => {
	const send = async (model: Model, reasoning: StreamOptions["reasoning"], mock: MockLlm) => {
		mock.script({ text: "ok" });
		await stream(model, hello, { apiKey: "k", reasoning }).result();
		const { thinking, output_config, reasoning_effort } = mock.lastRequest().body;
		return { thinking, output_config, reasoning_effort };
	};

	test("adaptive Claude models get an effort; no level switches thinking off unless it is always on", async () => {
		await using mock = await startMockLlm();
		const adaptive = mockModel("anthropic-messages", mock.anthropicBaseUrl, { compat: { thinkingFormat: "adaptive" }, thinkingLevelMap: { xhigh: "max" } });
		expect(await send(adaptive, "minimal", mock)).toEqual({ thinking: { type: "adaptive" }, output_config: { effort: "low" }, reasoning_effort: undefined });
		expect(await send(adaptive, "xhigh", mock)).toEqual({ thinking: { type: "adaptive" }, output_config: { effort: "max" }, reasoning_effort: undefined });
		expect(await send(adaptive, undefined, mock)).toEqual({ thinking: { type: "disabled" }, output_config: undefined, reasoning_effort: undefined });
		const alwaysOn = { ...adaptive, compat: { thinkingFormat: "adaptive", thinkingAlwaysOn: true } };
		expect(await send(alwaysOn, "off", mock)).toEqual({ thinking: undefined, output_config: undefined, reasoning_effort: undefined });
	});

	test("a budget never reaches max_tokens", async () => {
		await using mock = await startMockLlm();
		const small = mockModel("anthropic-messages", mock.anthropicBaseUrl, { maxTokens: 8000 });
		expect((await send(small, "xhigh", mock)).thinking).toEqual({ type: "enabled", budget_tokens: 6976 });
	});

	test("OpenAI-compatible effort: mapped per model, and an explicit off where the model has one", async () => {
		await using mock = await startMockLlm();
		const model = mockModel("openai-completions", mock.openaiBaseUrl, { thinkingLevelMap: { off: "none", minimal: "low" } });
		expect((await send(model, "minimal", mock)).reasoning_effort).toBe("low");
		expect((await send(model, undefined, mock)).reasoning_effort).toBe("none");
		expect((await send({ ...model, reasoning: false }, "high", mock)).reasoning_effort).toBeUndefined();
	});
});

describe("registry.stream against the mock", () => {
	test("401 names the provider and where its key comes from", async () => {
		await using mock = await startMockLlm();
		await using world = new TempWorld();
		const reg = ModelRegistry.create({ agentDir: world.agentDir, env: { ANTHROPIC_API_KEY: "sk-ant-bad", MOCK_KEY: "m" } });
		reg.registerProvider("anthropic", { baseUrl: mock.anthropicBaseUrl });
		reg.registerProvider("mockp", { baseUrl: mock.openaiBaseUrl, api: "openai-completions", apiKey: "MOCK_KEY", models: [{ id: "mock-model" }] });
		mock.script({ status: 401 }, { status: 403 });
		const anthropic = await reg.complete(reg.find("anthropic", "claude-sonnet-5-5")!, hello);
		expect(anthropic.stopReason).toBe("error");
		expect(anthropic.errorMessage).toBe(
			`Authentication failed for provider "anthropic" (401): set ANTHROPIC_API_KEY or add it to ${join(world.agentDir, "auth.json")} (server said: invalid x-api-key)`,
		);
		expect(mock.lastRequest().headers.authorization).toBe("Bearer sk-ant-bad");
		const custom = await reg.complete(reg.find("mockp", "mock-model")!, hello);
		expect(custom.errorMessage).toBe('Authentication failed for provider "mockp" (403): check MOCK_KEY (server said: You are not allowed to sample from this model)');
	});

	test("--api-key is what reaches the server, and a rejected one says so", async () => {
		await using mock = await startMockLlm();
		await using world = new TempWorld();
		const reg = ModelRegistry.create({ agentDir: world.agentDir, env: {} });
		reg.registerProvider("openai", { baseUrl: mock.openaiBaseUrl });
		const { model } = reg.selectModel({ model: "openai/gpt-6.1-sol", apiKey: "sk-flag" });
		mock.script({ text: "fine" }, { status: 401 });
		expect((await reg.complete(model, hello)).content).toEqual([{ type: "text", text: "fine" }]);
		expect(mock.lastRequest().headers.authorization).toBe("Bearer sk-flag");
		expect(mock.lastRequest().body.max_completion_tokens).toBe(128000);
		const rejected = await reg.complete(model, hello);
		expect(rejected.errorMessage).toStartWith('Authentication failed for provider "openai" (401): the key given with --api-key was rejected (server said: Incorrect API key');
	});

	test("a keyless local server gets no real key and still answers", async () => {
		await using mock = await startMockLlm();
		await using world = new TempWorld();
		world.write("home/.agent/models.json", JSON.stringify({ providers: { ollama: { baseUrl: mock.openaiBaseUrl, models: [{ id: "llama3.2" }] } } }));
		const reg = ModelRegistry.create({ agentDir: world.agentDir, env: {} });
		const { model } = reg.selectModel();
		expect(model.id).toBe("llama3.2");
		mock.script({ text: "local hello" });
		expect((await reg.complete(model, hello)).content).toEqual([{ type: "text", text: "local hello" }]);
		expect(mock.lastRequest().body.max_tokens).toBeUndefined();
	});

	test("a model whose api has no wire protocol fails with the known ones listed", async () => {
		const model = mockModel("martian-api", "http://127.0.0.1:9");
		const final = await stream(model, hello, { apiKey: "k" }).result();
		expect(final.stopReason).toBe("error");
		expect(final.errorMessage).toBe('No wire protocol for api "martian-api" (model mock/mock-model); known: "openai-completions", "anthropic-messages".');
	});

	test("a server that is not running: connection refused, not retried", async () => {
		const model = mockModel("openai-completions", "http://127.0.0.1:9/v1", { provider: "ollama" });
		const final = await stream(model, hello, { apiKey: "k" }).result();
		expect(final.stopReason).toBe("error");
		expect(final.errorMessage).toBe("Could not connect to ollama at http://127.0.0.1:9/v1: connection refused (is the server running?)");
		expect(createRetryPolicy().delayFor(final, 1)).toBeUndefined();
	});
});
