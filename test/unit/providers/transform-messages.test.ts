// transformMessages over a growing conversation: a request that repeats the last one's messages
// plus new ones gets what a pass over all of them gives, and anything else starts over.
import { describe, expect, test } from "bun:test";
import { transformMessages } from "../../../src/core/providers/transform-messages.ts";
import type { AssistantMessage, Message, Model, ToolResultMessage } from "../../../src/core/providers/types.ts";

const model = { provider: "p", id: "m", api: "openai-completions" } as Model;
const other = { provider: "q", id: "n", api: "anthropic-messages" } as Model;
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };

function call(id: string, from = model): AssistantMessage {
	return {
		role: "assistant",
		api: from.api,
		provider: from.provider,
		model: from.id,
		usage,
		stopReason: "toolUse",
		timestamp: 1,
		content: [
			{ type: "thinking", thinking: "hm", thinkingSignature: "sig" },
			{ type: "toolCall", id, name: "bash", arguments: { command: id } },
		],
	};
}
const result = (id: string): ToolResultMessage => ({ role: "toolResult", toolCallId: id, toolName: "bash", content: [{ type: "text", text: id }], isError: false, timestamp: 2 });
const user = (text: string): Message => ({ role: "user", content: text, timestamp: 0 });

/** Timestamps of synthetic results differ by call; everything else must be equal. */
const shape = (messages: Message[]) => messages.map((m) => (m.role === "toolResult" && m.isError ? { ...m, timestamp: 0 } : m));

/** A fresh pass: copies of the messages, so nothing of an earlier call can be reused. */
const fresh = (messages: Message[], m = model) => transformMessages(structuredClone(messages), m);

describe("transformMessages", () => {
	test("each request of a growing conversation gets what a pass over all of it gives", () => {
		const conversation: Message[] = [];
		const steps: Message[][] = [
			[user("go")],
			[call("a")],
			// Pending at the end: answered by the next message, so the filled result is in that request only.
			[result("a"), call("b", other)],
			[user("interrupt")],
			[call("c"), result("c"), result("c"), result("zzz")],
			[{ ...call("d"), stopReason: "error" }],
			[user("again")],
		];
		for (const step of steps) {
			conversation.push(...step);
			const incremental = transformMessages(conversation, model);
			expect(shape(incremental)).toEqual(shape(fresh(conversation)));
		}
		const last = transformMessages(conversation, model);
		expect(last.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant", "toolResult", "user", "assistant", "toolResult", "user"]);
		// The other model's call lost its thinking; the missing result names it.
		expect((last[3] as AssistantMessage).content.map((c) => c.type)).toEqual(["toolCall"]);
		expect(last[4]).toMatchObject({ toolCallId: "b", isError: true });
	});

	test("a pending call's filled result is not kept when a later request carries its answer", () => {
		const conversation: Message[] = [user("go"), call("a")];
		expect(transformMessages(conversation, model).at(-1)).toMatchObject({ toolCallId: "a", isError: true });
		conversation.push(result("a"));
		expect(transformMessages(conversation, model).slice(2)).toEqual([result("a")]);
	});

	test("another model, a changed message or a shorter conversation starts the pass over", () => {
		const conversation: Message[] = [user("go"), call("a", other), result("a")];
		transformMessages(conversation, model);
		// Same messages for the model that made the call: its thinking stays.
		expect((transformMessages(conversation, other)[1] as AssistantMessage).content.map((c) => c.type)).toEqual(["thinking", "toolCall"]);
		const replaced = [user("go"), { ...call("a", other), stopReason: "aborted" as const }, result("a")];
		expect(transformMessages(replaced, other)).toEqual([user("go")]);
		expect(transformMessages(conversation.slice(0, 2), other).map((m) => m.role)).toEqual(["user", "assistant", "toolResult"]);
	});

	test("the result is the caller's: changing it changes nothing for the next request", () => {
		const conversation: Message[] = [user("go"), call("a"), result("a")];
		const first = transformMessages(conversation, model);
		first.length = 0;
		conversation.push(user("more"));
		expect(transformMessages(conversation, model)).toHaveLength(4);
	});
});
