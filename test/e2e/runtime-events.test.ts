// Every event of SPEC §6 at its point in a run, with the payloads of reference §2.2, through the
// compiled binary against the mock LLM: observe order, handler snapshots, and a throwing handler
// reported on stderr while the next one runs.
import { describe, expect, test } from "bun:test";
import { readMessages } from "../support/mock-llm.ts";
import { onlySession, runWith, transcript, writeExtension } from "../support/runtime.ts";
import { mockWorld } from "../support/world.ts";

/** Events a print/json run fires (ui_prompt_*, user_bash, bash_execution_update and compaction need a UI or issue 8). */
const RUN_EVENTS = [
	"resources_discover", "session_start", "session_shutdown", "context", "context_with_system", "before_provider_request",
	"before_provider_headers", "after_provider_response", "before_agent_start", "agent_start", "agent_end", "agent_before_settle",
	"agent_settled", "turn_start", "turn_end", "message_start", "message_update", "message_end", "tool_execution_start",
	"tool_execution_update", "tool_execution_end", "tool_call", "tool_result", "input",
];

describe("every event at its point", () => {
	test("one tool call: the order of reference §2.3 and each payload", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"all",
			`const NAMES = ${JSON.stringify(RUN_EVENTS)};
export default function (pi) {
	for (const name of NAMES) {
		pi.on(name, (e) => {
			if (name === "message_update") return; // logged once below, they are many
			log(e);
		});
	}
	let updates = 0;
	pi.on("message_update", (e) => { if (updates++ === 0) log({ type: e.type, role: e.message.role, kind: e.assistantMessageEvent.type }); });
}
`,
		);
		world.write("project/a.txt", "alpha\n");
		world.mock.script({ toolCalls: [{ name: "read", arguments: { path: "a.txt" }, id: "call_1" }] }, { text: "done" });
		const r = await runWith(world, [ext], ["read a.txt"]);
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		const types = r.log.map((e) => (e.type === "message_start" || e.type === "message_end" ? `${e.type}(${e.message.role})` : e.type));
		expect(types).toEqual([
			"session_start", "resources_discover", "input", "before_agent_start", "agent_start",
			"turn_start", "message_start(user)", "message_end(user)",
			"context", "context_with_system", "before_provider_request", "before_provider_headers", "after_provider_response",
			"message_start(assistant)", "message_update", "message_end(assistant)",
			"tool_execution_start", "tool_call", "tool_result", "tool_execution_end", "message_start(toolResult)", "message_end(toolResult)", "turn_end",
			"turn_start", "context", "context_with_system", "before_provider_request", "before_provider_headers", "after_provider_response",
			"message_start(assistant)", "message_end(assistant)", "turn_end",
			"agent_end", "agent_before_settle", "agent_settled", "session_shutdown",
		]);
		const of = (type: string, n = 0) => r.log.filter((e) => e.type === type)[n];
		expect(of("session_start")).toEqual({ type: "session_start", reason: "startup" });
		expect(of("resources_discover")).toEqual({ type: "resources_discover", cwd: world.cwd, reason: "startup" });
		expect(of("input")).toEqual({ type: "input", text: "read a.txt", source: "interactive" });
		const bas = of("before_agent_start");
		expect(Object.keys(bas).sort()).toEqual(["messageType", "prompt", "systemPrompt", "systemPromptOptions", "type"]);
		expect(bas.messageType).toBe("user");
		expect(bas.prompt).toBe("read a.txt");
		expect(bas.systemPrompt).toBe(readMessages(world.mock.requests[0]!)[0]!.text);
		expect(bas.systemPromptOptions.selectedTools).toEqual(["read", "bash", "edit", "write"]);
		expect(bas.systemPromptOptions.cwd).toBe(world.cwd);
		expect(of("agent_start")).toEqual({ type: "agent_start" });
		expect(of("turn_start")).toEqual({ type: "turn_start", turnIndex: 0, timestamp: expect.any(Number) });
		expect(of("turn_start", 1).turnIndex).toBe(1);
		expect(of("message_update")).toEqual({ type: "message_update", role: "assistant", kind: "toolcall_start" });
		expect(of("context").messages.map((m: any) => m.role)).toEqual(["user"]);
		expect(of("context", 1).messages.map((m: any) => m.role)).toEqual(["user", "assistant", "toolResult"]);
		const cws = of("context_with_system").context;
		expect(cws.systemPrompt).toBe(bas.systemPrompt);
		expect(cws.tools.map((t: any) => t.name)).toEqual(["read", "bash", "edit", "write"]);
		expect(of("before_provider_request").payload.model).toBe("mock-model");
		expect(of("before_provider_request").payload.messages.at(-1)).toEqual({ role: "user", content: "read a.txt" });
		expect(of("before_provider_headers").headers.authorization).toBe("Bearer test-key");
		expect(of("after_provider_response")).toEqual({ type: "after_provider_response", status: 200, headers: expect.objectContaining({ "x-request-id": "req_mock_1" }) });
		expect(of("tool_execution_start")).toEqual({ type: "tool_execution_start", toolCallId: "call_1", toolName: "read", args: { path: "a.txt" } });
		expect(of("tool_call")).toEqual({ type: "tool_call", toolCallId: "call_1", toolName: "read", input: { path: "a.txt" } });
		expect(of("tool_result")).toEqual({
			type: "tool_result",
			toolCallId: "call_1",
			toolName: "read",
			input: { path: "a.txt" },
			content: [{ type: "text", text: "1\talpha" }],
			details: {},
			isError: false,
		});
		// durationMs: how long execute() took (pi 1.6).
		expect(of("tool_execution_end")).toEqual({ type: "tool_execution_end", toolCallId: "call_1", toolName: "read", result: { content: [{ type: "text", text: "1\talpha" }], details: {} }, isError: false, durationMs: expect.any(Number) });
		const turnEnd = of("turn_end");
		expect(Object.keys(turnEnd).sort()).toEqual(["context", "continue", "entries", "message", "messageEntryId", "outcome", "toolResultEntryIds", "toolResults", "turnIndex", "type"]);
		// The session entries the turn's messages were saved as.
		const session = onlySession(world);
		const idOf = (role: string) => session.find((e) => e.type === "message" && e.message.role === role)?.id;
		expect([turnEnd.messageEntryId, turnEnd.toolResultEntryIds]).toEqual([idOf("assistant"), [idOf("toolResult")]]);
		expect(turnEnd).toMatchObject({ turnIndex: 0, outcome: "completed", entries: [], continue: false, context: { canContinue: true } });
		expect(turnEnd.toolResults.map((m: any) => m.toolCallId)).toEqual(["call_1"]);
		expect(turnEnd.context.messages.map((m: any) => m.role)).toEqual(["user", "assistant", "toolResult"]);
		expect(of("turn_end", 1)).toMatchObject({ turnIndex: 1, toolResults: [], context: { canContinue: false } });
		expect(of("agent_end").messages.map((m: any) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(of("agent_before_settle")).toMatchObject({ outcome: "completed", entries: [], continue: false, context: { canContinue: false } });
		expect(of("agent_settled")).toEqual({ type: "agent_settled", aborted: false, outcome: "completed" });
		expect(of("session_shutdown")).toEqual({ type: "session_shutdown", reason: "quit" });
	});

	test("tool_execution_update carries the partial result; model_select, thinking_level_select, session_info_changed", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"acts",
			`import { Type } from "typebox";
export default function (pi) {
	pi.registerTool({
		name: "slow", label: "Slow", description: "reports progress", parameters: Type.Object({}),
		async execute(_id, _p, _s, onUpdate) {
			onUpdate?.({ content: [{ type: "text", text: "half" }], details: { step: 1 } });
			return { content: [{ type: "text", text: "whole" }], details: { step: 2 } };
		},
	});
	const id = (m) => m && m.provider + "/" + m.id;
	for (const name of ["tool_execution_update", "thinking_level_select", "session_info_changed"]) pi.on(name, (e) => log(e));
	pi.on("model_select", (e) => log({ ...e, model: id(e.model), previousModel: id(e.previousModel) }));
	pi.registerCommand("acts", {
		handler: async (_args, ctx) => {
			pi.setSessionName("named");
			pi.setThinkingLevel("high");
			log("set", await pi.setModel(ctx.modelRegistry.find("mock", "mock-model")));
		},
	});
}
`,
		);
		world.mock.script({ toolCalls: [{ name: "slow", arguments: {}, id: "c1" }] }, { text: "ok" });
		const r = await runWith(world, [ext], ["/acts", "go"], { model: "mock-anthropic/mock-model" });
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([
			{ type: "session_info_changed", name: "named" },
			{ type: "thinking_level_select", level: "high", previousLevel: "off" },
			{ type: "model_select", model: "mock/mock-model", previousModel: "mock-anthropic/mock-model", source: "set" },
			// The openai mock model does not reason: the level follows it down.
			{ type: "thinking_level_select", level: "off", previousLevel: "high" },
			["set", true],
			{ type: "tool_execution_update", toolCallId: "c1", toolName: "slow", args: {}, partialResult: { content: [{ type: "text", text: "half" }], details: { step: 1 } } },
		]);
		expect(world.mock.requests[0]!.body.model).toBe("mock-model");
		expect(world.mock.requests[0]!.path).toBe("/v1/chat/completions");
	});
});

describe("dispatch", () => {
	test("a dispatch runs on the snapshot taken when it starts; pi.on returns an unsubscribe", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"snap",
			`export default function (pi) {
	let stop;
	pi.on("turn_start", (e) => {
		log(\`first \${e.turnIndex}\`);
		if (e.turnIndex === 0) pi.on("turn_start", (e2) => log(\`added \${e2.turnIndex}\`));
		if (e.turnIndex === 0) stop();
	});
	stop = pi.on("turn_start", (e) => log(\`removed-later \${e.turnIndex}\`));
}
`,
		);
		world.mock.script({ toolCalls: [{ name: "ls", arguments: {} }] }, { text: "ok" });
		const r = await runWith(world, [ext], ["go"], { args: ["--tools", "ls"] });
		expect(r.stderr).toBe("");
		expect(r.log).toEqual(["first 0", "removed-later 0", "first 1", "added 1"]);
	});

	test("a throwing handler is reported as `Extension error (<path>): <msg>` and the next runs", async () => {
		await using world = await mockWorld();
		const a = writeExtension(world, "a", `export default (pi) => { pi.on("agent_start", () => { throw new Error("a broke"); }); pi.on("agent_start", () => log("a2")); };\n`);
		const b = writeExtension(world, "b", `export default (pi) => pi.on("agent_start", () => log("b"));\n`);
		world.mock.script({ text: "fine" });
		for (const mode of ["print", "json"] as const) {
			world.mock.script({ text: "fine" });
			const r = await runWith(world, [a, b], ["hi"], { mode });
			expect(r.stderr).toBe("Extension error (./a.ts): a broke\n");
			expect(r.code).toBe(0);
			if (mode === "print") expect(r.stdout).toBe("fine\n");
		}
		expect(world.mock.requests.length).toBe(2);
	});
});

describe("chains", () => {
	test("context changes a copy: the request sees it, the session keeps the original; handlers chain", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"ctx",
			`export default function (pi) {
	pi.on("context", (e) => { e.messages[0].content = "rewritten in place"; });
	pi.on("context", (e) => { log(e.messages[0].content); return { messages: [...e.messages, { role: "user", content: "appended", timestamp: 1 }] }; });
	pi.on("context", (e) => log(e.messages.length));
}
`,
		);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [ext], ["original"]);
		expect(r.stderr).toBe("");
		expect(r.log).toEqual(["rewritten in place", 2]);
		expect(readMessages(world.mock.lastRequest()).slice(1).map((m) => m.text)).toEqual(["rewritten in place", "appended"]);
		expect(transcript(onlySession(world))).toEqual(["user: original", "assistant: ok"]);
	});

	test("context_with_system: system prompt and tools as sent, on a copy", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"cws",
			`export default function (pi) {
	pi.on("context_with_system", (e) => { e.context.systemPrompt = "SYSTEM ONE"; e.context.tools = e.context.tools.filter((t) => t.name === "read"); });
	pi.on("context_with_system", (e) => ({ context: { ...e.context, systemPrompt: e.context.systemPrompt + " TWO" } }));
	pi.on("before_agent_start", (_e, ctx) => log(ctx.getSystemPrompt().startsWith("SYSTEM")));
}
`,
		);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [ext], ["hi"]);
		expect(r.stderr).toBe("");
		const request = world.mock.lastRequest();
		expect(readMessages(request)[0]).toEqual({ role: "system", text: "SYSTEM ONE TWO" });
		expect(request.body.tools.map((t: any) => t.function.name)).toEqual(["read"]);
		expect(r.log).toEqual([false]);
	});

	test("before_provider_request replaces the payload; before_provider_headers reach the HTTP request; after_provider_response sees status and headers", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"wire",
			`export default function (pi) {
	pi.on("before_provider_request", (e) => ({ ...e.payload, temperature: 0.25 }));
	pi.on("before_provider_request", (e) => { log(e.payload.temperature); return { ...e.payload, metadata: { from: "ext" } }; });
	pi.on("before_provider_headers", (e) => ({ headers: { ...e.headers, "x-ext-one": "1" } }));
	pi.on("before_provider_headers", (e) => { log(e.headers["x-ext-one"]); return { headers: { ...e.headers, "x-ext-two": "2" } }; });
	pi.on("after_provider_response", (e) => log(e.status, e.headers["x-request-id"]));
}
`,
		);
		world.mock.script({ status: 400, message: "bad request from the mock" });
		const bad = await runWith(world, [ext], ["hi"], { mode: "print" });
		expect(bad.code).toBe(1);
		expect(bad.log).toEqual([0.25, "1", [400, "req_mock_1"]]);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [ext], ["hi"]);
		expect(r.stderr).toBe("");
		const request = world.mock.lastRequest();
		expect(request.body.temperature).toBe(0.25);
		expect(request.body.metadata).toEqual({ from: "ext" });
		expect(request.headers["x-ext-one"]).toBe("1");
		expect(request.headers["x-ext-two"]).toBe("2");
		expect(r.log.slice(3)).toEqual([0.25, "1", [200, "req_mock_2"]]);
	});

	test("message_end replaces a message keeping its role; a role change is reported and skipped", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"me",
			`export default function (pi) {
	pi.on("message_end", (e) => {
		if (e.message.role !== "assistant") return;
		return { message: { role: "user", content: "hijack", timestamp: 1 } };
	});
	pi.on("message_end", (e) => {
		if (e.message.role !== "assistant") return;
		return { message: { ...e.message, content: [{ type: "text", text: e.message.content[0].text.toUpperCase() }] } };
	});
	pi.on("message_end", (e) => { if (e.message.role === "assistant") log(e.message.content[0].text); });
}
`,
		);
		world.mock.script({ text: "quiet answer" });
		const r = await runWith(world, [ext], ["hi"], { mode: "print" });
		expect(r.stderr).toBe("Extension error (./me.ts): message_end handlers must return a message with the same role\n");
		expect(r.stdout).toBe("QUIET ANSWER\n");
		expect(r.log).toEqual(["QUIET ANSWER"]);
		expect(transcript(onlySession(world))).toEqual(["user: hi", "assistant: QUIET ANSWER"]);
	});

	test("tool_result: a field-wise patch, each handler seeing the previous result", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"tr",
			`export default function (pi) {
	pi.on("tool_result", (e) => ({ content: [{ type: "text", text: "patched: " + e.content[0].text }] }));
	pi.on("tool_result", (e) => { log(e.content[0].text, e.isError, e.details); return { isError: true }; });
	pi.on("tool_result", (e) => log(e.content[0].text, e.isError));
}
`,
		);
		world.write("project/a.txt", "alpha\n");
		world.mock.script({ toolCalls: [{ name: "read", arguments: { path: "a.txt" }, id: "c1" }] }, { text: "ok" });
		const r = await runWith(world, [ext], ["go"], { model: "mock-anthropic/mock-model" });
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([
			["patched: 1\talpha", false, {}],
			["patched: 1\talpha", true],
		]);
		expect(readMessages(world.mock.lastRequest()).at(-1)).toEqual({ role: "toolResult", text: "patched: 1\talpha", toolCallId: "c1", isError: true });
		const result = onlySession(world).find((e) => e.message?.role === "toolResult");
		expect(result.message).toMatchObject({ content: [{ type: "text", text: "patched: 1\talpha" }], details: {}, isError: true });
	});
});

describe("first decision wins: tool_call", () => {
	const GUARDS = `export default function (pi) {
	pi.on("tool_call", (e) => { log("A", e.input.path); e.input.path = "moved.txt"; });
	pi.on("tool_call", (e) => { log("B", e.input.path); if (e.input.content === "block me") return { block: true, reason: "B says no" }; });
	pi.on("tool_call", (e) => { log("C", e.input.path); });
}
`;

	test("an in-place input change reaches later handlers and the tool", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "guards", GUARDS);
		world.mock.script({ toolCalls: [{ name: "write", arguments: { path: "asked.txt", content: "hello" } }] }, { text: "ok" });
		const r = await runWith(world, [ext], ["go"]);
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([["A", "asked.txt"], ["B", "moved.txt"], ["C", "moved.txt"]]);
		expect(await Bun.file(`${world.cwd}/moved.txt`).text()).toBe("hello");
		expect(await Bun.file(`${world.cwd}/asked.txt`).exists()).toBe(false);
	});

	test("the first block wins: later handlers do not run, the reason is the isError result", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "guards", GUARDS);
		world.mock.script({ toolCalls: [{ name: "write", arguments: { path: "x.txt", content: "block me" }, id: "c1" }] }, { text: "ok" });
		const r = await runWith(world, [ext], ["go"], { model: "mock-anthropic/mock-model" });
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([["A", "x.txt"], ["B", "moved.txt"]]);
		expect(readMessages(world.mock.lastRequest()).at(-1)).toEqual({ role: "toolResult", text: "B says no", toolCallId: "c1", isError: true });
		expect(await Bun.file(`${world.cwd}/moved.txt`).exists()).toBe(false);
		const end = r.events.find((e) => e.type === "tool_execution_end");
		expect(end).toMatchObject({ isError: true, result: { content: [{ type: "text", text: "B says no" }] } });
	});

	test("terminate: the run ends after the batch, no more provider requests", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "term", `export default (pi) => pi.on("tool_call", () => ({ block: true, reason: "stop here", terminate: true }));\n`);
		world.mock.script({ toolCalls: [{ name: "ls", arguments: {} }] }, { text: "never" });
		const r = await runWith(world, [ext], ["go"], { args: ["--tools", "ls"] });
		expect(r.code).toBe(0);
		expect(world.mock.requests.length).toBe(1);
		expect(world.mock.pendingTurns).toBe(1);
		expect(transcript(onlySession(world))).toEqual(["user: go", "assistant: [call ls]", "toolResult: stop here"]);
	});

	test("a throwing handler blocks the tool with its message (fail-safe), reported too", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "boom", `export default (pi) => { pi.on("tool_call", () => { throw new Error("guard crashed"); }); pi.on("tool_call", () => log("never")); };\n`);
		world.mock.script({ toolCalls: [{ name: "write", arguments: { path: "x.txt", content: "hi" }, id: "c1" }] }, { text: "ok" });
		const r = await runWith(world, [ext], ["go"], { model: "mock-anthropic/mock-model" });
		expect(r.stderr).toBe("Extension error (./boom.ts): guard crashed\n");
		expect(r.log).toEqual([]);
		expect(readMessages(world.mock.lastRequest()).at(-1)).toEqual({ role: "toolResult", text: "guard crashed", toolCallId: "c1", isError: true });
		expect(await Bun.file(`${world.cwd}/x.txt`).exists()).toBe(false);
	});
});

describe("first decision wins: input", () => {
	test("continue, transforms that chain, handled stops everything", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"input",
			`export default function (pi) {
	pi.on("input", (e) => { log("1", e.text, e.source); if (e.text === "ping") return { action: "handled" }; return { action: "continue" }; });
	pi.on("input", (e) => e.text.startsWith("?quick ") ? { action: "transform", text: e.text.slice(7) + " (answer briefly)" } : undefined);
	pi.on("input", (e) => { log("3", e.text); if (e.text.includes("briefly")) return { action: "transform", text: e.text + "!" }; });
}
`,
		);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [ext], ["ping", "?quick what is 2+2"], { mode: "print" });
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([
			["1", "ping", "interactive"],
			["1", "?quick what is 2+2", "interactive"],
			["3", "what is 2+2 (answer briefly)"],
		]);
		expect(world.mock.requests.length).toBe(1);
		expect(readMessages(world.mock.lastRequest()).at(-1)!.text).toBe("what is 2+2 (answer briefly)!");
		expect(transcript(onlySession(world))).toEqual(["user: what is 2+2 (answer briefly)!", "assistant: ok"]);
	});
});

describe("aggregate: before_agent_start", () => {
	test("messages are collected after the prompt; systemPrompt chains and ctx.getSystemPrompt() follows it; the next run starts from the base", async () => {
		await using world = await mockWorld();
		const a = writeExtension(
			world,
			"a",
			`export default (pi) => pi.on("before_agent_start", (e) => e.prompt === "first" ? ({ systemPrompt: e.systemPrompt + "\\nA rules", message: { customType: "note-a", content: "from a", display: true } }) : undefined);\n`,
		);
		const b = writeExtension(
			world,
			"b",
			`export default (pi) => pi.on("before_agent_start", (e, ctx) => {
	log(e.systemPrompt.endsWith("A rules"), ctx.getSystemPrompt() === e.systemPrompt);
	if (e.prompt === "first") return { systemPrompt: e.systemPrompt + "\\nB rules", message: { customType: "note-b", content: "from b", display: false, details: { n: 1 } } };
});
`,
		);
		world.mock.script({ text: "one" }, { text: "two" });
		const r = await runWith(world, [a, b], ["first", "second"], { mode: "print" });
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([
			[true, true],
			[false, true],
		]);
		const [first, second] = world.mock.requests.map(readMessages);
		expect(first![0]!.text.endsWith("\nA rules\nB rules")).toBe(true);
		expect(first!.slice(1).map((m) => m.text)).toEqual(["first", "from a", "from b"]);
		expect(second![0]!.text.includes("rules")).toBe(false);
		const entries = onlySession(world);
		expect(transcript(entries)).toEqual(["user: first", "custom(note-a): from a", "custom(note-b): from b", "assistant: one", "user: second", "assistant: two"]);
		expect(entries.find((e) => e.customType === "note-b")).toMatchObject({ type: "custom_message", display: false, details: { n: 1 } });
	});
});
