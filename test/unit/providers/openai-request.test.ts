// The chat-completions request body over a growing conversation: each request, continued from the
// last one, carries what a request built from scratch carries, tool result images included.
import { describe, expect, test } from "bun:test";
import { buildParams } from "../../../src/core/providers/openai-completions.ts";
import type { AssistantMessage, Context, Message, Model, ToolResultMessage } from "../../../src/core/providers/types.ts";

const model = { provider: "p", id: "m", api: "openai-completions", baseUrl: "http://127.0.0.1:1/v1", input: ["text", "image"], reasoning: false } as unknown as Model;
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const call = (id: string): AssistantMessage => ({ role: "assistant", api: model.api, provider: model.provider, model: model.id, usage, stopReason: "toolUse", timestamp: 1, content: [{ type: "toolCall", id, name: "shot", arguments: { id } }] });
const result = (id: string, image = false): ToolResultMessage => ({
	role: "toolResult",
	toolCallId: id,
	toolName: "shot",
	content: image ? [{ type: "text", text: id }, { type: "image", data: "aGk=", mimeType: "image/png" }] : [{ type: "text", text: id }],
	isError: false,
	timestamp: 2,
});

describe("buildParams messages", () => {
	test("each request of a growing conversation equals one built from scratch", () => {
		const messages: Message[] = [];
		const steps: Message[][] = [[{ role: "user", content: "go", timestamp: 0 }], [call("a")], [result("a", true)], [call("b")], [result("b")], [{ role: "user", content: "next", timestamp: 3 }]];
		const bodies: unknown[] = [];
		for (const step of steps) {
			messages.push(...step);
			const context: Context = { systemPrompt: "sys", messages };
			const body = buildParams(model, context);
			expect(body).toEqual(buildParams(model, structuredClone(context), { onPayload: () => undefined }));
			bodies.push(body);
		}
		const last = bodies.at(-1) as { messages: { role: string; content: unknown }[] };
		expect(last.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "tool", "user", "assistant", "tool", "user"]);
		// The image of the first result follows the run of results it belongs to, once.
		expect(last.messages[4]!.content).toEqual([{ type: "text", text: "Images from the tool results above:" }, { type: "image_url", image_url: { url: "data:image/png;base64,aGk=" } }]);
		// Changing one request's body changes nothing in the next.
		last.messages.length = 0;
		expect((buildParams(model, { systemPrompt: "sys", messages }) as { messages: unknown[] }).messages).toHaveLength(8);
	});
});
