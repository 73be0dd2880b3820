// Renders scripted turns as OpenAI chat completions: SSE chunks ending in `data: [DONE]`, the
// non-streamed JSON object, and OpenAI's error JSON.
import type { Frame } from "./frames.ts";
import type { Renderer, RenderContext, Reply } from "./turns.ts";
import { splitPieces } from "./turns.ts";

const FINISH_REASONS = { stop: "stop", length: "length", toolUse: "tool_calls" } as const;

export const openaiRenderer: Renderer = {
	streamFrames(reply, context) {
		const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
			chunkOf(context, [{ index: 0, delta, logprobs: null, finish_reason: finishReason }]);
		const frames: Frame[] = [data(chunk({ role: "assistant", content: reply.text ? "" : null, refusal: null }))];
		// Chat completions has no reasoning field of its own; OpenAI-compatible servers (DeepSeek,
		// vLLM) stream it as `reasoning_content`, so that is what we send.
		for (const piece of splitPieces(reply.thinking)) frames.push(data(chunk({ reasoning_content: piece }), true));
		for (const piece of splitPieces(reply.text)) frames.push(data(chunk({ content: piece }), true));
		reply.toolCalls.forEach((call, index) => {
			const head = { index, id: call.id ?? `call_mock_${context.seq}_${index}`, type: "function", function: { name: call.name, arguments: "" } };
			frames.push(data(chunk({ tool_calls: [head] }), true));
			for (const piece of splitPieces(call.argumentsJson)) {
				frames.push(data(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }), true));
			}
		});
		frames.push(data(chunk({}, FINISH_REASONS[reply.stopReason])));
		if (context.includeUsage) frames.push(data({ ...chunkOf(context, []), usage: usageOf(reply) }));
		frames.push({ text: "data: [DONE]\n\n" });
		return frames;
	},

	json(reply, context) {
		const toolCalls = reply.toolCalls.map((call, index) => ({
			id: call.id ?? `call_mock_${context.seq}_${index}`,
			type: "function",
			function: { name: call.name, arguments: call.argumentsJson },
		}));
		const message = {
			role: "assistant",
			content: reply.text || null,
			refusal: null,
			...(reply.thinking ? { reasoning_content: reply.thinking } : {}),
			...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
		};
		return {
			id: `chatcmpl-mock-${context.seq}`,
			object: "chat.completion",
			created: CREATED,
			model: context.model,
			system_fingerprint: "fp_mock",
			choices: [{ index: 0, message, logprobs: null, finish_reason: FINISH_REASONS[reply.stopReason] }],
			usage: usageOf(reply),
		};
	},

	malformedFrame: { text: 'data: {"id":"chatcmpl-mock","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"tru\n\n' },

	errorBody(status, message) {
		const known = OPENAI_ERRORS[status] ?? { message: `mock-llm: HTTP ${status}`, type: status >= 500 ? "server_error" : "invalid_request_error", code: null };
		return { error: { message: message ?? known.message, type: known.type, param: null, code: known.code } };
	},

	requestIdHeader: "x-request-id",
};

// A fixed timestamp keeps answers deterministic.
const CREATED = 1_700_000_000;

function chunkOf(context: RenderContext, choices: unknown[]): Record<string, unknown> {
	return {
		id: `chatcmpl-mock-${context.seq}`,
		object: "chat.completion.chunk",
		created: CREATED,
		model: context.model,
		system_fingerprint: "fp_mock",
		choices,
		// With include_usage, OpenAI sends `usage: null` on every chunk but the last.
		...(context.includeUsage ? { usage: null } : {}),
	};
}

function data(payload: unknown, content = false): Frame {
	return { text: `data: ${JSON.stringify(payload)}\n\n`, content };
}

// OpenAI's prompt_tokens include cached tokens; ours (like Anthropic's input_tokens) do not.
function usageOf(reply: Reply) {
	const { input, output, cacheRead } = reply.usage;
	return {
		prompt_tokens: input + cacheRead,
		completion_tokens: output,
		total_tokens: input + cacheRead + output,
		prompt_tokens_details: { cached_tokens: cacheRead, audio_tokens: 0 },
		completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
	};
}

const OPENAI_ERRORS: Record<number, { message: string; type: string; code: string | null }> = {
	400: { message: "mock-llm: invalid request", type: "invalid_request_error", code: null },
	401: {
		message: "Incorrect API key provided: sk-mock. You can find your API key at https://platform.openai.com/account/api-keys.",
		type: "invalid_request_error",
		code: "invalid_api_key",
	},
	403: { message: "You are not allowed to sample from this model", type: "invalid_request_error", code: null },
	404: { message: "The model does not exist or you do not have access to it.", type: "invalid_request_error", code: "model_not_found" },
	429: { message: "Rate limit reached for requests. Please try again later.", type: "requests", code: "rate_limit_exceeded" },
	500: { message: "The server had an error while processing your request. Sorry about that!", type: "server_error", code: null },
	503: { message: "The engine is currently overloaded, please try again later.", type: "server_error", code: null },
};
