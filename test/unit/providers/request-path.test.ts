// The per-request work that is kept from one request to the next: chat-completions entries of
// messages already sent, streaming tool-call arguments parsed only when read, and the idle watch
// on a response body (one timer, restarted by each read).
import { describe, expect, test } from "bun:test";
import { EventStream } from "../../../src/core/providers/event-stream.ts";
import { buildParams } from "../../../src/core/providers/openai-completions.ts";
import { parseStreamingJson } from "../../../src/core/providers/partial-json.ts";
import { RequestWatchdog } from "../../../src/core/providers/request-timeouts.ts";
import type { AssistantMessage, Context, Message, Model, ToolCall } from "../../../src/core/providers/types.ts";
import { BlockWriter, newAssistantMessage } from "../../../src/core/providers/wire.ts";

function model(overrides: Partial<Model> = {}): Model {
	return {
		id: "m",
		name: "M",
		api: "openai-completions",
		provider: "p",
		baseUrl: "http://127.0.0.1:1/v1",
		reasoning: false,
		input: ["text"],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 1000,
		maxTokens: 100,
		...overrides,
	};
}

function assistant(m: Model, id: string, command: string): AssistantMessage {
	return { ...newAssistantMessage(m), content: [{ type: "text", text: "Running." }, { type: "toolCall", id, name: "bash", arguments: { command } }], stopReason: "toolUse" };
}

function result(id: string, content: ToolResultContent): Message {
	return { role: "toolResult", toolCallId: id, toolName: "bash", content, isError: false, timestamp: 1 };
}
type ToolResultContent = Extract<Message, { role: "toolResult" }>["content"];

describe("chat-completions entries are kept per message", () => {
	test("a growing conversation converts the same as from scratch, request after request", () => {
		const m = model();
		const messages: Message[] = [{ role: "user", content: "go", timestamp: 1 }];
		for (let k = 1; k <= 3; k++) {
			const context: Context = { systemPrompt: "sys", messages };
			// onPayload turns the kept entries off: the reference conversion.
			const fresh = buildParams(m, context, { onPayload: () => undefined }).messages;
			expect(buildParams(m, context).messages).toEqual(fresh);
			expect(buildParams(m, context).messages).toEqual(fresh);
			messages.push(assistant(m, `c${k}`, `echo ${k}`), result(`c${k}`, [{ type: "text", text: String(k) }]));
		}
		expect(buildParams(m, { systemPrompt: "sys", messages }).messages).toEqual([
			{ role: "system", content: "sys" },
			{ role: "user", content: "go" },
			...[1, 2, 3].flatMap((k) => [
				{ role: "assistant", content: "Running.", tool_calls: [{ id: `c${k}`, type: "function", function: { name: "bash", arguments: JSON.stringify({ command: `echo ${k}` }) } }] },
				{ role: "tool", tool_call_id: `c${k}`, content: String(k) },
			]),
		]);
	});

	test("an onPayload hook that edits the messages in place edits its own copy: the next request is as before", () => {
		const m = model();
		const messages: Message[] = [{ role: "user", content: "go", timestamp: 1 }, assistant(m, "c1", "ls"), result("c1", [{ type: "text", text: "a.txt" }])];
		const before = structuredClone(buildParams(m, { systemPrompt: "", messages }).messages);
		const hooked = buildParams(m, { systemPrompt: "", messages }, { onPayload: () => undefined }).messages as Record<string, unknown>[];
		for (const entry of hooked) entry.content = "changed by a hook";
		expect(buildParams(m, { systemPrompt: "", messages }).messages).toEqual(before);
	});

	test("entries follow the model's switches (tool result names, images) for the same messages", () => {
		const messages: Message[] = [
			{ role: "user", content: "go", timestamp: 1 },
			assistant(model(), "c1", "shot"),
			result("c1", [{ type: "text", text: "a" }, { type: "image", data: "AAAA", mimeType: "image/png" }, { type: "text", text: "b" }]),
		];
		const plain = buildParams(model(), { systemPrompt: "", messages }).messages as Record<string, unknown>[];
		expect(plain.at(-1)).toEqual({ role: "tool", tool_call_id: "c1", content: "a\n\nb" });
		const named = buildParams(model({ compat: { toolResultName: true } as never }), { systemPrompt: "", messages }).messages as Record<string, unknown>[];
		expect(named.at(-1)).toEqual({ role: "tool", tool_call_id: "c1", content: "a\n\nb", name: "bash" });
		const seeing = buildParams(model({ input: ["text", "image"] }), { systemPrompt: "", messages }).messages as Record<string, unknown>[];
		expect(seeing.at(-1)).toEqual({ role: "user", content: [{ type: "text", text: "Images from the tool results above:" }, { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } }] });
		expect(buildParams(model(), { systemPrompt: "", messages }).messages).toEqual(plain);
	});
});

describe("streaming tool-call arguments", () => {
	test("read at any delta they are the best-effort parse of the text so far; the end makes them plain", () => {
		const output = newAssistantMessage(model());
		const blocks = new BlockWriter(new EventStream(), output);
		const index = blocks.toolCall("c1", "bash");
		const pieces = ['{"comm', 'and":"', "echo 1", '2"}'];
		let text = "";
		for (const piece of pieces) {
			blocks.toolArguments(index, piece);
			text += piece;
			const block = output.content[index] as ToolCall;
			expect(block.arguments).toEqual(parseStreamingJson(text));
			expect(JSON.parse(JSON.stringify(block))).toMatchObject({ arguments: parseStreamingJson(text) });
		}
		blocks.close();
		const block = output.content[index] as ToolCall;
		expect(Object.getOwnPropertyDescriptor(block, "arguments")).toMatchObject({ value: { command: "echo 12" }, writable: true, enumerable: true });
	});

	test("an assignment while streaming sticks until the next delta", () => {
		const output = newAssistantMessage(model());
		const blocks = new BlockWriter(new EventStream(), output);
		const index = blocks.toolCall("c1", "bash");
		blocks.toolArguments(index, '{"a":1');
		const block = output.content[index] as ToolCall;
		block.arguments = { replaced: true };
		expect(block.arguments).toEqual({ replaced: true });
		blocks.toolArguments(index, ',"b":2}');
		expect(block.arguments).toEqual({ a: 1, b: 2 });
	});
});

describe("the idle watch on a response body", () => {
	const respond = (body: ReadableStream<Uint8Array>) => (async () => new Response(body, { headers: { "content-type": "text/event-stream" } })) as unknown as typeof fetch;
	const bytes = (s: string) => new TextEncoder().encode(s);
	/** "a", "b", then the end. */
	const twoChunks = () =>
		new ReadableStream<Uint8Array>({
			start: (c) => {
				c.enqueue(bytes("a"));
				c.enqueue(bytes("b"));
				c.close();
			},
		});

	test("a read that waits past idleMs fails the body with the idle-timeout reason", async () => {
		const watchdog = new RequestWatchdog("mock", { idleMs: 30 });
		const body = new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(bytes("first")) });
		const reader = (await watchdog.fetch(respond(body))("http://x")).body!.getReader();
		expect(new TextDecoder().decode((await reader.read()).value)).toBe("first");
		await expect(reader.read()).rejects.toThrow(/mock stopped sending: no data for 30 ms \(idle timeout/);
		expect(watchdog.failure).toMatch(/idle timeout/);
		expect(watchdog.bodyEnded).toBe(false);
	});

	test("a consumer that stops reading for longer than idleMs is not a stall: the rest is still read", async () => {
		const watchdog = new RequestWatchdog("mock", { idleMs: 20 });
		const body = twoChunks();
		const reader = (await watchdog.fetch(respond(body))("http://x")).body!.getReader();
		const got: string[] = [];
		got.push(new TextDecoder().decode((await reader.read()).value));
		// Nobody reads for several idle periods.
		await Bun.sleep(100);
		for (let next = await reader.read(); !next.done; next = await reader.read()) got.push(new TextDecoder().decode(next.value));
		expect(got.join("")).toBe("ab");
		expect(watchdog.failure).toBeUndefined();
		expect(watchdog.bodyEnded).toBe(true);
	});

	// openai-completions reads its body itself (fetch with ownBody, then chunks): the same two rules.
	test("a body read through chunks(): a read that waits past idleMs fails with the reason and closes the connection", async () => {
		const watchdog = new RequestWatchdog("mock", { idleMs: 30 });
		let signal: AbortSignal | undefined;
		const base = (async (_: unknown, init?: RequestInit) => {
			signal = init?.signal ?? undefined;
			return new Response(new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(bytes("first")) }));
		}) as unknown as typeof fetch;
		const response = await watchdog.fetch(base, true)("http://x");
		const chunks = watchdog.chunks(response.body!)[Symbol.asyncIterator]();
		expect(new TextDecoder().decode((await chunks.next()).value)).toBe("first");
		await expect(chunks.next()).rejects.toThrow(/mock stopped sending: no data for 30 ms \(idle timeout/);
		expect(signal?.aborted).toBe(true);
		expect(watchdog.bodyEnded).toBe(false);
	});

	test("a body read through chunks(): a consumer that stops reading for longer than idleMs is not a stall", async () => {
		const watchdog = new RequestWatchdog("mock", { idleMs: 20 });
		const body = twoChunks();
		const response = await watchdog.fetch(respond(body), true)("http://x");
		expect(response.body).toBe(body);
		const got: string[] = [];
		for await (const chunk of watchdog.chunks(response.body!)) {
			got.push(new TextDecoder().decode(chunk));
			// Nobody reads for several idle periods after the first chunk.
			if (got.length === 1) await Bun.sleep(100);
		}
		expect(got.join("")).toBe("ab");
		expect(watchdog.failure).toBeUndefined();
		expect(watchdog.bodyEnded).toBe(true);
	});
});
