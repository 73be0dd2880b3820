// The request body written with the JSON of sent entries kept: byte for byte what JSON.stringify
// writes, request after request of a growing conversation, and for whatever a body may hold.
import { describe, expect, test } from "bun:test";
import { buildParams } from "../../../src/core/providers/openai-completions.ts";
import { stringifyRequest } from "../../../src/core/providers/request-json.ts";
import type { AssistantMessage, Context, Message, Model, Tool } from "../../../src/core/providers/types.ts";

const model = { provider: "p", id: "m", api: "openai-completions", baseUrl: "http://127.0.0.1:1/v1", input: ["text", "image"], reasoning: false, maxTokens: 100 } as unknown as Model;
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const call = (id: string, command: string): AssistantMessage => ({ role: "assistant", api: model.api, provider: model.provider, model: model.id, usage, stopReason: "toolUse", timestamp: 1, content: [{ type: "text", text: `run "${command}" ✓` }, { type: "toolCall", id, name: "bash", arguments: { command } }] });
const tools: Tool[] = [{ name: "bash", description: "Run\na command", parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } as never }];

describe("stringifyRequest", () => {
	test("each request of a growing conversation is JSON.stringify's body, byte for byte", () => {
		const messages: Message[] = [{ role: "user", content: "go \u2028 \"quoted\" \\ end", timestamp: 0 }];
		for (let k = 1; k <= 6; k++) {
			const context: Context = { systemPrompt: "sys", messages, tools };
			const params = buildParams(model, context, { temperature: 0.5 });
			// Twice: the second time every entry's JSON is a kept one.
			expect(stringifyRequest(params, ["messages", "tools"])).toBe(JSON.stringify(params));
			expect(stringifyRequest(params, ["messages", "tools"])).toBe(JSON.stringify(params));
			messages.push(call(`c${k}`, `echo ${k}`), {
				role: "toolResult",
				toolCallId: `c${k}`,
				toolName: "bash",
				content: k % 2 ? [{ type: "text", text: `${k}\n` }] : [{ type: "text", text: "shot" }, { type: "image", data: "aGk=", mimeType: "image/png" }],
				isError: k === 3,
				timestamp: 2,
			});
		}
	});

	test("whatever JSON.stringify leaves out or writes as null is left out or null here too", () => {
		const fn = () => 1;
		const body: Record<string, unknown> = {
			a: undefined,
			model: "m",
			f: fn,
			messages: [{ role: "user", content: "x", skip: undefined }, null, undefined, fn, 3, "s", [1, [2]]],
			tools: [],
			n: null,
			nested: { deep: [undefined, { x: 1 }] },
			date: new Date(0),
		};
		expect(stringifyRequest(body, ["messages", "tools"])).toBe(JSON.stringify(body));
		expect(stringifyRequest({}, ["messages"])).toBe("{}");
		expect(stringifyRequest({ a: undefined }, ["messages"])).toBe("{}");
		// A list name whose value is not an array is written as it is.
		expect(stringifyRequest({ messages: { not: "a list" } }, ["messages"])).toBe(JSON.stringify({ messages: { not: "a list" } }));
	});
});
