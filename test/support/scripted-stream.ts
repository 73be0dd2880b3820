// A StreamFunction for unit tests: each call answers with the next scripted assistant turn.
import type { AssistantMessage, AssistantMessageEvent, AssistantMessageEventStream, Context, Model, StreamFunction, StreamOptions, ToolCall } from "../../src/core/providers/types.ts";
import { newAssistantMessage } from "../../src/core/providers/wire.ts";

export type ScriptedTurn = { text?: string; toolCalls?: { name: string; arguments: Record<string, unknown>; id?: string }[]; error?: string };

export const testModel: Model = {
	id: "test-model",
	name: "Test model",
	api: "openai-completions",
	provider: "test",
	baseUrl: "http://127.0.0.1:1",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 100_000,
	maxTokens: 4096,
};

export function scriptedStream(turns: ScriptedTurn[]): StreamFunction & { contexts: Context[]; options: (StreamOptions | undefined)[] } {
	const contexts: Context[] = [];
	const options: (StreamOptions | undefined)[] = [];
	let n = 0;
	const fn = ((model: Model, context: Context, opts?: StreamOptions): AssistantMessageEventStream => {
		contexts.push(structuredClone(context));
		options.push(opts);
		const turn = turns[n++] ?? { error: "no scripted turn left" };
		const message: AssistantMessage = newAssistantMessage(model);
		const events: AssistantMessageEvent[] = [{ type: "start", partial: message }];
		if (turn.error) {
			message.stopReason = "error";
			message.errorMessage = turn.error;
			events.push({ type: "error", reason: "error", error: message });
		} else {
			if (turn.text) {
				message.content.push({ type: "text", text: turn.text });
				events.push({ type: "text_delta", contentIndex: 0, delta: turn.text, partial: message });
			}
			turn.toolCalls?.forEach((c, i) => {
				const call: ToolCall = { type: "toolCall", id: c.id ?? `call_${n}_${i}`, name: c.name, arguments: c.arguments };
				message.content.push(call);
				events.push({ type: "toolcall_end", contentIndex: message.content.length - 1, toolCall: call, partial: message });
			});
			message.stopReason = turn.toolCalls?.length ? "toolUse" : "stop";
			events.push({ type: "done", reason: message.stopReason as "stop" | "toolUse", message });
		}
		return {
			async *[Symbol.asyncIterator]() {
				for (const e of events) yield e;
			},
			result: async () => message,
		};
	}) as StreamFunction & { contexts: Context[]; options: (StreamOptions | undefined)[] };
	fn.contexts = contexts;
	fn.options = options;
	return fn;
}
