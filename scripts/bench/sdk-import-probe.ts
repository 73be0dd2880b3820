// Compiled by sdk-import.ts: measures, inside a compiled binary, what the first use of a wire
// protocol costs: importing its SDK, and one streamed request to a loopback server.
import { stream } from "../../src/core/providers/stream.ts";
import type { Model } from "../../src/core/providers/types.ts";

const which = process.argv[2] === "anthropic" ? "anthropic" : "openai";
const sse =
	which === "openai"
		? 'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"hi"},"finish_reason":null}]}\n\ndata: {"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\ndata: [DONE]\n\n'
		: 'event: message_start\ndata: {"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"m","content":[],"usage":{"input_tokens":1,"output_tokens":1}}}\n\nevent: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\nevent: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"hi"}}\n\nevent: content_block_stop\ndata: {"type":"content_block_stop","index":0}\n\nevent: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n';
const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(sse, { headers: { "content-type": "text/event-stream" } }) });
const base = `http://127.0.0.1:${server.port}`;

// A plain fetch of the same answer first, so the request time below is the SDK's own cost.
const tf = performance.now();
await (await fetch(`${base}/floor`, { method: "POST", body: "{}" })).text();
const fetchMs = performance.now() - tf;

const t0 = performance.now();
if (which === "openai") await import("openai");
else await import("@anthropic-ai/sdk");
const importMs = performance.now() - t0;

const model: Model = {
	id: "m",
	name: "m",
	api: which === "openai" ? "openai-completions" : "anthropic-messages",
	provider: "probe",
	baseUrl: which === "openai" ? `${base}/v1` : base,
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
};
const t1 = performance.now();
const result = await stream(model, { messages: [{ role: "user", content: "hi", timestamp: 0 }] }, { apiKey: "k" }).result();
const requestMs = performance.now() - t1;
server.stop(true);
if (result.stopReason !== "stop") throw new Error(`probe request failed: ${result.errorMessage}`);
console.log(JSON.stringify({ fetchMs, importMs, requestMs }));
