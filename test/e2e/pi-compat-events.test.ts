// pi 1.6's events and payload fields through the binary against the mock LLM: unknown event names
// as warnings, provider_stream_event, before_agent_start's messageType and mutable prompt
// options, input.streamingBehavior, tool_result's structuredContent and usage, context_with_system's
// messages, session_compact_failed's fields, ui_prompt_*'s kind and reason (rpc), ctx.abort() in
// tool_call, and the work extensions queue from agent_end (with agent_settled only once nothing is).
import { describe, expect, test } from "bun:test";
import { readMessages, readToolNames } from "../support/mock-llm.ts";
import { RpcAgent } from "../support/rpc.ts";
import { onlySession, readLog, runWith, transcript, writeExtension } from "../support/runtime.ts";
import { MODEL, mockWorld } from "../support/world.ts";

describe("event names", () => {
	test("an unknown pi.on() name loads with a warning and a did-you-mean in agent list, --json, --verbose and the run goes on", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "newer", `export default (pi) => { pi.on("agent_ended", () => {}); pi.on("turn_start", () => log("turn")); pi.on("cache_warming_decision", () => log("never")); };`);
		const warning = 'Unknown event "agent_ended" in pi.on() (did you mean "agent_end"?): its handler never runs. This agent knows the events of pi 1.6.';
		const list = await world.run(["list", "-ne", "-e", ext]);
		expect(list.code).toBe(0);
		expect(list.stdout).toBe(`path\n  ./newer.ts  loaded\n    events: turn_start, cache_warming_decision\n    warning: ${warning}\n`);
		const json = JSON.parse((await world.run(["list", "--json", "-ne", "-e", ext])).stdout);
		expect(json.extensions[0]).toMatchObject({ status: "loaded", events: ["turn_start", "cache_warming_decision"], warnings: [warning] });
		world.mock.script({ text: "fine" });
		const r = await runWith(world, [ext], ["hi"], { mode: "print", args: ["--verbose"] });
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("fine\n");
		expect(r.stderr).toContain(`[Extension issues]\n  path (temp) ./newer.ts\n    ${warning}\n`);
		// cache_warming_decision is accepted and never fires: the agent does no cache warming.
		expect(r.log).toEqual(["turn"]);
	});
});

describe("payloads", () => {
	test("provider_stream_event carries each parsed stream event of the provider", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "raw", `export default (pi) => { pi.on("provider_stream_event", (e) => log({ provider: e.provider, api: e.api, model: e.model, object: e.data.object, delta: e.data.choices?.[0]?.delta })); };`);
		world.mock.script({ text: "hey" });
		const r = await runWith(world, [ext], ["hi"], { mode: "print" });
		expect(r.code).toBe(0);
		expect(r.log.length).toBeGreaterThan(1);
		expect(r.log.every((e) => e.provider === "mock" && e.api === "openai-completions" && e.model === "mock-model" && e.object === "chat.completion.chunk")).toBe(true);
		expect(r.log.map((e) => e.delta?.content ?? "").join("")).toBe("hey");
	});

	test("before_agent_start: messageType, the starting custom message, and mutable prompt options re-rendered for the next handler and the request", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"prompt",
			`import { Type } from "typebox";
export default (pi) => {
	pi.registerTool({ name: "inner", label: "Inner", description: "only through another tool", promptSnippet: "never listed", parameters: Type.Object({}), execute: async () => ({ content: [], details: {} }) });
	pi.on("before_agent_start", (e) => {
		log({ type: e.messageType, prompt: e.prompt, message: e.message?.customType });
		if (e.messageType === "custom") return;
		e.systemPromptOptions.sections.tool_guidance = "Prefer read over bash.";
		e.systemPromptOptions.toolGuidelines.read = ["Read whole files."];
		e.systemPromptOptions.hiddenTools.push("inner");
		e.systemPromptOptions.selectedTools = e.systemPromptOptions.selectedTools.filter((t) => t !== "write");
	});
	pi.on("before_agent_start", (e, ctx) => {
		if (e.messageType === "custom") return { systemPrompt: "FORCED " + e.message.content };
		log({ sees: e.systemPrompt.includes("<tool_guidance>\\nPrefer read over bash.\\n</tool_guidance>"), ctx: ctx.getSystemPrompt() === e.systemPrompt, listsInner: e.systemPrompt.includes("never listed") });
	});
	pi.registerCommand("nudge", { handler: async () => pi.sendMessage({ customType: "nudge", content: "look again", display: true }, { triggerTurn: true }) });
};
`,
		);
		world.mock.script({ text: "one" }, { text: "two" });
		const r = await runWith(world, [ext], ["hi", "/nudge"], { mode: "print" });
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([{ type: "user", prompt: "hi" }, { sees: true, ctx: true, listsInner: false }, { type: "custom", prompt: "", message: "nudge" }]);
		const [first, second] = world.mock.requests;
		const system = readMessages(first!)[0]!.text;
		expect(system).toEndWith("<tool_guidance>\nPrefer read over bash.\n</tool_guidance>");
		expect(system).toContain("- Read whole files.");
		// hidden: neither in the prompt nor declared; edited selection: write is gone.
		expect(system).not.toContain("never listed");
		expect(readToolNames(first!)).toEqual(["read", "bash", "edit"]);
		expect(readMessages(second!)[0]!.text).toBe("FORCED look again");
	});

	test("input.streamingBehavior while the agent runs; tool_result's structuredContent and usage", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"fields",
			`import { Type } from "typebox";
export default (pi) => {
	pi.on("input", (e) => log({ input: e.text, streamingBehavior: e.streamingBehavior ?? null }));
	pi.on("tool_result", (e) => {
		log({ structured: e.structuredContent, usage: e.usage?.totalTokens });
		return { content: [{ type: "text", text: "redacted" }] };
	});
	pi.on("tool_execution_end", (e) => log({ end: e.result.structuredContent ?? null }));
	pi.registerTool({
		name: "lookup", label: "Lookup", description: "d", parameters: Type.Object({}),
		async execute() {
			pi.sendUserMessage("and also this", { deliverAs: "steer" });
			return { content: [{ type: "text", text: "{\\"n\\":1}" }], structuredContent: { n: 1 }, usage: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0, totalTokens: 3, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, details: {} };
		},
	});
};
`,
		);
		world.mock.script({ toolCalls: [{ name: "lookup", arguments: {}, id: "c1" }] }, { text: "done" });
		const r = await runWith(world, [ext], ["go"], { mode: "print" });
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([
			{ input: "go", streamingBehavior: null },
			{ input: "and also this", streamingBehavior: "steer" },
			{ structured: { n: 1 }, usage: 3 },
			// Replacing the content alone drops the structured result it described (pi).
			{ end: null },
		]);
		expect(readMessages(world.mock.lastRequest()).slice(-2).map((m) => `${m.role}: ${m.text}`)).toEqual(["toolResult: redacted", "user: and also this"]);
	});

	test("context_with_system: messages is the transcript with the system message first; what a handler returns is sent", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"cws",
			`import { getCurrentSystemPrompt, getCurrentTools } from "@earendil-works/pi-ai";
export default (pi) => {
	pi.on("context_with_system", (e) => {
		log({ roles: e.messages.map((m) => m.role), tools: getCurrentTools(e.messages).map((t) => t.name), prompt: getCurrentSystemPrompt(e.messages).startsWith("You are") });
		const [system, ...rest] = e.messages;
		return { messages: [{ ...system, content: "Short prompt.", toolsAdded: system.toolsAdded.filter((t) => t.name === "read") }, ...rest] };
	});
};
`,
		);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [ext], ["hi"], { mode: "print" });
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([{ roles: ["system", "user"], tools: ["read", "bash", "edit", "write"], prompt: true }]);
		const request = world.mock.lastRequest();
		expect(readMessages(request).map((m) => `${m.role}: ${m.text}`)).toEqual(["system: Short prompt.", "user: hi"]);
		expect(readToolNames(request)).toEqual(["read"]);
	});

	test("session_compact_failed says aborted, errorMessage, fromExtension and willRetry", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"compact",
			`let attempt = 0;
export default (pi) => {
	pi.on("session_before_compact", (e) => {
		log({ before: e.reason, willRetry: e.willRetry });
		return ++attempt === 1 ? { cancel: true } : { compaction: { summary: "s", firstKeptEntryId: "missing", tokensBefore: 1 } };
	});
	pi.on("session_compact_failed", ({ type, ...e }) => log(e));
	pi.registerCommand("squeeze", { handler: async (_a, ctx) => { await new Promise((done) => ctx.compact({ onComplete: done, onError: done })); } });
};
`,
		);
		world.mock.script({ text: "one" }, { text: "two" });
		const r = await runWith(world, [ext], ["first", "second", "/squeeze", "/squeeze"], { mode: "print" });
		expect(r.code).toBe(0);
		expect(r.log).toEqual([
			{ before: "manual", willRetry: false },
			{ reason: "manual", error: "Compaction cancelled", aborted: true, willRetry: false, fromExtension: false },
			{ before: "manual", willRetry: false },
			{
				reason: "manual",
				error: 'session_before_compact returned an invalid compaction: firstKeptEntryId "missing" is not an entry on the current branch',
				errorMessage: 'session_before_compact returned an invalid compaction: firstKeptEntryId "missing" is not an entry on the current branch',
				aborted: false,
				willRetry: false,
				fromExtension: true,
			},
		]);
	});

	test("ui_prompt_start / ui_prompt_end carry reason and kind (rpc, where a person answers)", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"asks",
			`export default (pi) => {
	pi.on("ui_prompt_start", ({ type, ...e }) => log(["start", e]));
	pi.on("ui_prompt_end", ({ type, ...e }) => log(["end", e]));
	pi.registerCommand("ask", { handler: async (_a, ctx) => log(await ctx.ui.select("Pick", ["a", "b"])) });
};
`,
		);
		await using rpc = new RpcAgent(world, ["--model", MODEL.openai, "--no-session", "-e", ext], { EXT_LOG: `${world.root}/ext-log.jsonl` });
		rpc.send({ type: "prompt", id: "p1", message: "/ask" });
		const request = await rpc.waitFor((r) => r.type === "extension_ui_request", "the select request");
		rpc.send({ type: "extension_ui_response", id: request.id, value: "b" });
		await rpc.waitFor((r) => r.id === "p1", "the prompt response");
		expect(readLog(world)).toEqual([
			["start", { reason: "ui_prompt", kind: "select", method: "select", title: "Pick" }],
			["end", { reason: "ui_prompt", kind: "select", method: "select", title: "Pick", cancelled: false }],
			"b",
		]);
	});
});

describe("ctx.abort() inside tool_call", () => {
	test("stops the batch: later calls get no tool_call, unstarted calls get 'Operation aborted', the run ends aborted (pi 1.6)", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"stop",
			`export default (pi) => {
	pi.on("tool_call", (e, ctx) => { log("tool_call " + e.toolCallId); if (e.toolCallId === "c2") ctx.abort(); });
	pi.on("tool_result", (e) => log("tool_result " + e.toolCallId));
	pi.on("agent_settled", (e) => log("settled aborted=" + e.aborted));
};
`,
		);
		world.mock.script({ toolCalls: ["c1", "c2", "c3"].map((id) => ({ name: "bash", arguments: { command: `echo ${id} > ${id}.txt` }, id })) }, { text: "never asked" });
		const r = await runWith(world, [ext], ["go"], { mode: "print" });
		expect(r.code).toBe(1);
		expect(r.stdout).toBe("");
		expect(r.stderr).toBe("Error: Request aborted\n");
		expect(r.log).toEqual(["tool_call c1", "tool_call c2", "settled aborted=true"]);
		expect(world.mock.requests).toHaveLength(1);
		expect(transcript(onlySession(world))).toEqual([
			"user: go",
			"assistant: [call bash][call bash][call bash]",
			"toolResult: Operation aborted",
			"toolResult: Operation aborted",
			"toolResult: Operation aborted",
			"assistant: ",
		]);
		expect(onlySession(world).at(-1).message.stopReason).toBe("aborted");
		for (const id of ["c1", "c2", "c3"]) expect(await Bun.file(`${world.cwd}/${id}.txt`).exists()).toBe(false);
	});
});

describe("work queued from agent_end", () => {
	test("a follow-up and a triggerTurn message start the next turns; a message without triggerTurn is saved at once; agent_settled fires once, when nothing is queued", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"queue",
			`let runs = 0;
export default (pi) => {
	pi.on("agent_end", () => {
		runs++;
		if (runs === 1) pi.sendUserMessage("follow-up from agent_end", { deliverAs: "followUp" });
		if (runs === 2) pi.sendMessage({ customType: "note", content: "a note, no turn", display: true });
		if (runs === 2) pi.sendMessage({ customType: "again", content: "one more turn", display: true }, { triggerTurn: true });
	});
	pi.on("agent_settled", (e) => log("settled after " + runs + " runs, aborted=" + e.aborted));
};
`,
		);
		world.mock.script({ text: "first" }, { text: "second" }, { text: "third" }, { text: "fourth" });
		const r = await runWith(world, [ext], ["start", "next prompt"], { mode: "print" });
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("fourth\n");
		expect(r.log).toEqual(["settled after 3 runs, aborted=false", "settled after 4 runs, aborted=false"]);
		expect(world.mock.requests.map((q) => readMessages(q).at(-1)!.text)).toEqual(["start", "follow-up from agent_end", "one more turn", "next prompt"]);
		expect(transcript(onlySession(world))).toEqual([
			"user: start",
			"assistant: first",
			"user: follow-up from agent_end",
			"assistant: second",
			"custom(note): a note, no turn",
			"custom(again): one more turn",
			"assistant: third",
			"user: next prompt",
			"assistant: fourth",
		]);
	});
});
