// The agent loop with a scripted model: event order, tool execution, validation errors fed back,
// hooks (block, mutate, patch), parallel vs sequential, terminate, follow-ups.
import { describe, expect, test } from "bun:test";
import { Type } from "typebox";
import { runAgentLoop, type AgentEvent, type AgentLoopHooks } from "../../../src/core/agent/loop.ts";
import type { AgentMessage } from "../../../src/core/agent/messages.ts";
import { markContextFree, usesToolContext, type AgentTool } from "../../../src/core/tools/types.ts";
import { createBuiltinTools } from "../../../src/core/tools/index.ts";
import { scriptedStream, testModel, type ScriptedTurn } from "../../support/scripted-stream.ts";

function echoTool(log: string[], opts: Partial<AgentTool> = {}): AgentTool {
	return {
		name: "echo",
		label: "Echo",
		description: "Echo text",
		parameters: Type.Object({ text: Type.String(), times: Type.Optional(Type.Number()) }),
		async execute(_id, params: any, _signal, onUpdate) {
			log.push(`start ${params.text}`);
			onUpdate?.({ content: [{ type: "text", text: "partial" }], details: undefined });
			// "slow" ends only after "fast" has (when they may overlap): an order, not a race against the clock.
			if (params.text === "slow" && opts.executionMode !== "sequential") while (!log.includes("end fast")) await Bun.sleep(1);
			else await Bun.sleep(1);
			log.push(`end ${params.text}`);
			return { content: [{ type: "text", text: `echo: ${params.text}`.repeat(params.times ?? 1) }], details: { text: params.text } };
		},
		...opts,
	} as AgentTool;
}

async function run(turns: ScriptedTurn[], tools: AgentTool[], hooks: AgentLoopHooks = {}) {
	const stream = scriptedStream(turns);
	const events: AgentEvent[] = [];
	const messages: AgentMessage[] = [];
	const added = await runAgentLoop([{ role: "user", content: "hi", timestamp: 1 }], messages, {
		model: testModel,
		systemPrompt: "sys",
		tools,
		stream,
		toolContext: {},
		hooks,
		signal: new AbortController().signal,
		emit: async (e) => {
			events.push(e);
		},
	});
	return { stream, events, messages, added, types: events.map((e) => e.type) };
}

describe("agent loop", () => {
	test("a text answer: event order and messages", async () => {
		const r = await run([{ text: "hello" }], []);
		expect(r.types).toEqual(["agent_start", "turn_start", "message_start", "message_end", "message_start", "message_update", "message_end", "turn_end", "agent_end"]);
		expect(r.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		expect(r.stream.contexts[0]!.systemPrompt).toBe("sys");
	});

	test("tool round trip: results in source order, fed back to the model", async () => {
		const log: string[] = [];
		const r = await run(
			[{ toolCalls: [{ name: "echo", arguments: { text: "slow" } }, { name: "echo", arguments: { text: "fast" } }] }, { text: "done" }],
			[echoTool(log)],
		);
		// Parallel: both start before either ends; fast ends first.
		expect(log).toEqual(["start slow", "start fast", "end fast", "end slow"]);
		expect(r.messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult", "assistant"]);
		const results = r.messages.filter((m) => m.role === "toolResult") as any[];
		expect(results.map((m) => m.content[0].text)).toEqual(["echo: slow", "echo: fast"]);
		const second = r.stream.contexts[1]!.messages;
		expect(second.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "toolResult"]);
		expect(r.types.filter((t) => t.startsWith("tool_execution"))).toEqual([
			"tool_execution_start",
			"tool_execution_start",
			"tool_execution_update",
			"tool_execution_update",
			"tool_execution_end",
			"tool_execution_end",
		]);
	});

	test("sequential tools run one at a time", async () => {
		const log: string[] = [];
		await run([{ toolCalls: [{ name: "echo", arguments: { text: "slow" } }, { name: "echo", arguments: { text: "fast" } }] }, { text: "ok" }], [
			echoTool(log, { executionMode: "sequential" }),
		]);
		expect(log).toEqual(["start slow", "end slow", "start fast", "end fast"]);
	});

	test("invalid arguments become an error result written for the model; strings coerced", async () => {
		const log: string[] = [];
		const r = await run([{ toolCalls: [{ name: "echo", arguments: { times: 2 } }, { name: "echo", arguments: { text: "x", times: "2" } }] }, { text: "ok" }], [
			echoTool(log),
		]);
		const [bad, good] = r.messages.filter((m) => m.role === "toolResult") as any[];
		expect(bad.isError).toBe(true);
		expect(bad.content[0].text).toBe(
			'Invalid arguments for tool "echo":\n  - arguments: must have required properties text\nReceived: {"times":2}\nCall the tool again with arguments that match its schema.',
		);
		expect(good.isError).toBe(false);
		expect(good.content[0].text).toBe("echo: xecho: x");
	});

	test("unknown tool, block, in-place mutation, throw, and result patch", async () => {
		const log: string[] = [];
		const hooks: AgentLoopHooks = {
			async beforeToolCall(call) {
				if (call.input.text === "blockme") return { block: true, reason: "nope" };
				if (call.input.text === "throw") throw new Error("guard crashed");
				if (call.input.text === "mutate") call.input.text = "mutated";
				return undefined;
			},
			async afterToolCall(call, result) {
				if (call.input.text === "mutated") return { content: [{ type: "text", text: `${(result.content[0] as any).text}!` }] };
				return undefined;
			},
		};
		const r = await run(
			[
				{
					toolCalls: [
						{ name: "nope", arguments: {} },
						{ name: "echo", arguments: { text: "blockme" } },
						{ name: "echo", arguments: { text: "throw" } },
						{ name: "echo", arguments: { text: "mutate" } },
					],
				},
				{ text: "ok" },
			],
			[echoTool(log)],
			hooks,
		);
		const results = r.messages.filter((m) => m.role === "toolResult") as any[];
		expect(results.map((m) => [m.isError, m.content[0].text])).toEqual([
			[true, 'Tool "nope" not found. Available tools: echo.'],
			[true, "nope"],
			[true, "guard crashed"],
			[false, "echo: mutated!"],
		]);
		expect(log).toEqual(["start mutated", "end mutated"]);
	});

	test("terminate stops after the batch; follow-ups continue the run", async () => {
		const log: string[] = [];
		const term = echoTool(log, {
			name: "finish",
			async execute() {
				return { content: [{ type: "text", text: "final" }], details: undefined, terminate: true };
			},
		});
		const r = await run([{ toolCalls: [{ name: "finish", arguments: { text: "a" } }] }, { text: "never" }], [term]);
		expect(r.stream.contexts.length).toBe(1);

		const queue: AgentMessage[] = [{ role: "user", content: "and then?", timestamp: 2 }];
		const r2 = await run([{ text: "first" }, { text: "second" }], [], { takeFollowUpMessages: () => queue.splice(0) });
		expect(r2.messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
		expect(r2.types.filter((t) => t === "turn_start").length).toBe(2);
	});

	test("a provider error ends the run with the error message kept", async () => {
		const r = await run([{ error: "boom" }], []);
		const last = r.messages.at(-1) as any;
		expect(last.stopReason).toBe("error");
		expect(last.errorMessage).toBe("boom");
		expect(r.types.at(-1)).toBe("agent_end");
	});

	test("retry: a failed request that streamed nothing is retried with auto_retry events", async () => {
		const r = await run([{ error: "429 rate limited" }, { text: "ok" }], [], {
			retry: { maxAttempts: 3, delayFor: (_m, attempt) => (attempt <= 3 ? 1 : undefined) },
		});
		expect(r.types).toEqual(["agent_start", "turn_start", "message_start", "message_end", "auto_retry_start", "message_start", "message_update", "auto_retry_end", "message_end", "turn_end", "agent_end"]);
		expect(r.events.find((e) => e.type === "auto_retry_start")).toEqual({ type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 1, errorMessage: "429 rate limited" });
		expect(r.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
	});

	test("turn boundary continue makes one more request", async () => {
		let calls = 0;
		const r = await run([{ text: "a" }, { text: "b" }], [], {
			async onTurnEnd() {
				return calls++ === 0 ? { continue: true } : undefined;
			},
		});
		expect(r.stream.contexts.length).toBe(2);
		expect(r.messages.map((m) => m.role)).toEqual(["user", "assistant", "assistant"]);
	});

	test("a per-call context for every tool but those marked context-free (the built-ins), which get the run's", async () => {
		const seen: Record<string, unknown[]> = { plain: [], free: [] };
		const tool = (name: string): AgentTool =>
			({
				name,
				label: name,
				description: name,
				parameters: Type.Object({}),
				async execute(_id: string, _p: unknown, _s: unknown, _u: unknown, ctx: unknown) {
					seen[name]!.push(ctx);
					return { content: [{ type: "text", text: "ok" }], details: undefined };
				},
			}) as AgentTool;
		const free = markContextFree(tool("free"));
		// A copy with its own execute is not covered by the original's mark.
		const copied = { ...free, name: "plain", execute: tool("plain").execute };
		const runContext = { run: true };
		const asked: string[] = [];
		await runAgentLoop([{ role: "user", content: "hi", timestamp: 1 }], [], {
			model: testModel,
			systemPrompt: "sys",
			tools: [free, copied],
			stream: scriptedStream([{ toolCalls: [{ name: "free", arguments: {} }, { name: "plain", arguments: {} }] }, { toolCalls: [{ name: "plain", arguments: {} }] }, { text: "done" }]),
			toolContext: runContext,
			toolContextFor: (id) => {
				asked.push(id);
				return { call: id };
			},
			hooks: {},
			signal: new AbortController().signal,
			emit: async () => {},
		});
		expect(seen.free).toEqual([runContext]);
		expect(seen.plain!.length).toBe(2);
		expect(seen.plain).toEqual(asked.map((id) => ({ call: id })));
		expect(new Set(asked).size).toBe(2);
		// Every built-in is marked.
		expect(createBuiltinTools("/tmp").tools.filter((t) => usesToolContext(t)).map((t) => t.name)).toEqual([]);
	});
});
