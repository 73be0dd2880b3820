// Renders scripted turns as Anthropic messages: named SSE events (message_start … message_stop),
// the non-streamed message JSON, and Anthropic's error JSON.
import type { Frame } from "./frames.ts";
import type { Renderer, RenderContext, Reply } from "./turns.ts";
import { splitPieces } from "./turns.ts";

const STOP_REASONS = { stop: "end_turn", length: "max_tokens", toolUse: "tool_use" } as const;
// The SDK's types mark `citations` (text) and `caller` (tool_use) as always present.
const DIRECT = { type: "direct" };

export const anthropicRenderer: Renderer = {
	streamFrames(reply, context) {
		const { input, output, cacheRead, cacheWrite } = reply.usage;
		const startUsage = { input_tokens: input, cache_creation_input_tokens: cacheWrite, cache_read_input_tokens: cacheRead, output_tokens: 1 };
		const frames: Frame[] = [
			event("message_start", { message: { ...messageHead(context), content: [], stop_reason: null, stop_sequence: null, usage: startUsage } }),
			event("ping", {}),
		];
		let index = 0;
		const block = (start: unknown, deltas: unknown[]) => {
			frames.push(event("content_block_start", { index, content_block: start }));
			for (const delta of deltas) frames.push(event("content_block_delta", { index, delta }, true));
			frames.push(event("content_block_stop", { index }));
			index++;
		};
		if (reply.thinking) {
			const deltas = splitPieces(reply.thinking).map((thinking) => ({ type: "thinking_delta", thinking }));
			block({ type: "thinking", thinking: "" }, [...deltas, { type: "signature_delta", signature: reply.signature }]);
		}
		if (reply.text) {
			block({ type: "text", text: "", citations: null }, splitPieces(reply.text).map((text) => ({ type: "text_delta", text })));
		}
		reply.toolCalls.forEach((call, i) => {
			// The API opens every tool_use block with an empty input_json_delta; so do we.
			const deltas = ["", ...splitPieces(call.argumentsJson)].map((partial_json) => ({ type: "input_json_delta", partial_json }));
			block({ type: "tool_use", id: call.id ?? toolId(context, i), name: call.name, input: {}, caller: DIRECT }, deltas);
		});
		// message_delta usage totals are cumulative for the whole message.
		const endUsage = { input_tokens: input, cache_creation_input_tokens: cacheWrite, cache_read_input_tokens: cacheRead, output_tokens: output };
		frames.push(event("message_delta", { delta: { stop_reason: STOP_REASONS[reply.stopReason], stop_sequence: null }, usage: endUsage }));
		frames.push(event("message_stop", {}));
		return frames;
	},

	json(reply, context) {
		const content: unknown[] = [];
		if (reply.thinking) content.push({ type: "thinking", thinking: reply.thinking, signature: reply.signature });
		if (reply.text) content.push({ type: "text", text: reply.text, citations: null });
		reply.toolCalls.forEach((call, i) => {
			let input: unknown = {};
			try {
				input = JSON.parse(call.argumentsJson);
			} catch {
				// Cut-off arguments cannot be said in a whole JSON message; the call keeps an empty input.
			}
			content.push({ type: "tool_use", id: call.id ?? toolId(context, i), name: call.name, input, caller: DIRECT });
		});
		const { input, output, cacheRead, cacheWrite } = reply.usage;
		return {
			...messageHead(context),
			content,
			stop_reason: STOP_REASONS[reply.stopReason],
			stop_sequence: null,
			usage: { input_tokens: input, cache_creation_input_tokens: cacheWrite, cache_read_input_tokens: cacheRead, output_tokens: output },
		};
	},

	// The SDK skips SSE events without an `event:` line, so the broken data line needs one.
	malformedFrame: { text: 'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"tru\n\n' },

	errorBody(status, message) {
		const known = ANTHROPIC_ERRORS[status] ?? { type: status >= 500 ? "api_error" : "invalid_request_error", message: `mock-llm: HTTP ${status}` };
		return { type: "error", error: { type: known.type, message: message ?? known.message }, request_id: "req_mock" };
	},

	requestIdHeader: "request-id",
};

function messageHead(context: RenderContext) {
	return { id: `msg_mock_${context.seq}`, type: "message", role: "assistant", model: context.model };
}

function toolId(context: RenderContext, index: number): string {
	return `toolu_mock_${context.seq}_${index}`;
}

function event(type: string, payload: Record<string, unknown>, content = false): Frame {
	return { text: `event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`, content };
}

const ANTHROPIC_ERRORS: Record<number, { type: string; message: string }> = {
	400: { type: "invalid_request_error", message: "mock-llm: invalid request" },
	401: { type: "authentication_error", message: "invalid x-api-key" },
	403: { type: "permission_error", message: "Your API key does not have permission to use the specified resource." },
	404: { type: "not_found_error", message: "Not found" },
	413: { type: "request_too_large", message: "Request exceeds the maximum allowed number of bytes." },
	429: { type: "rate_limit_error", message: "Number of request tokens has exceeded your per-minute rate limit." },
	500: { type: "api_error", message: "Internal server error" },
	529: { type: "overloaded_error", message: "Overloaded" },
};
