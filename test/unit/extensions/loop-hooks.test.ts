// SPEC §6: with no handlers for an event, dispatch builds nothing — the hooks hand their input back
// without reading it, and no context is created. Proxies record every property read.
import { expect, test } from "bun:test";
import { createLoopHooks, runBoundary, type BoundarySink } from "../../../src/core/extensions/loop-hooks.ts";
import { ExtensionRunner } from "../../../src/core/extensions/runner.ts";
import { testModel } from "../../support/scripted-stream.ts";

test("no handlers: no payload is built, no context created, inputs come back untouched", async () => {
	const touched: string[] = [];
	const spy = <T extends object>(name: string, target: T): T =>
		new Proxy(target, {
			get(t, prop, receiver) {
				// Returning a value from an async function checks it for `then`: that is not building a payload.
				if (prop !== "then") touched.push(`${name}.${String(prop)}`);
				return Reflect.get(t, prop, receiver);
			},
		});
	let contexts = 0;
	// An extension that listens to something else entirely.
	const runner = new ExtensionRunner([{ path: "/a.ts", handlers: new Map([["agent_start", [() => {}]]]) }], () => ++contexts, () => {});
	const sink = spy<BoundarySink>("sink", { messages: () => [], preview: () => [], problem: () => undefined, applyDrafts: async () => false, hasQueuedMessages: () => false });
	const hooks = createLoopHooks(runner, sink);

	const messages = spy("messages", [] as never[]);
	expect(await hooks.transformContext!(messages)).toBe(messages);
	const context = spy("context", { systemPrompt: "s", messages: [], tools: [] });
	expect(await hooks.transformLlmContext!(context)).toBe(context);
	const call = spy("call", { toolCallId: "c", toolName: "read", input: {} });
	expect(await hooks.beforeToolCall!(call)).toBeUndefined();
	expect(await hooks.afterToolCall!(call, spy("result", { content: [], details: {} }), false)).toBeUndefined();
	const message = spy("message", { role: "user" as const, content: "hi", timestamp: 1 });
	expect(await hooks.onMessageEnd!(message)).toBe(message);
	expect(await hooks.onTurnEnd!(spy("turn", { turnIndex: 0, message, toolResults: [], outcome: "completed" as const }))).toBeUndefined();
	expect(await hooks.streamOptions!(testModel)).toEqual({});
	expect(await runBoundary(runner, "agent_before_settle", spy("base", {}), sink, () => true)).toEqual({ continue: false });

	expect(touched).toEqual([]);
	expect(contexts).toBe(0);
});
