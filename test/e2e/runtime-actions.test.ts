// The action methods once the session binds the runtime (reference §1.2 with SPEC's changes),
// through the compiled binary: messages in every delivery, user messages and queued commands,
// session entries, tools, commands, model and thinking level, providers after bind, exec.
import { describe, expect, test } from "bun:test";
import { readMessages, readToolNames } from "../support/mock-llm.ts";
import { onlySession, runWith, stable, transcript, writeExtension } from "../support/runtime.ts";
import { mockWorld } from "../support/world.ts";

describe("sendMessage", () => {
	test("idle, no triggerTurn: saved and shown with no model call; triggerTurn: a run starts with it", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"send",
			`export default function (pi) {
	pi.registerCommand("note", { handler: async (args) => pi.sendMessage({ customType: "note", content: args, display: true, details: { a: 1 } }) });
	pi.registerCommand("ask", { handler: async (args) => pi.sendMessage({ customType: "ask", content: args, display: true }, { triggerTurn: true }) });
}
`,
		);
		world.mock.script({ text: "answered" });
		const r = await runWith(world, [ext], ["/note just saying", "/ask what now?"]);
		expect(r.stderr).toBe("");
		expect(r.code).toBe(0);
		expect(world.mock.requests.length).toBe(1);
		expect(readMessages(world.mock.lastRequest()).slice(1)).toEqual([
			{ role: "user", text: "just saying" },
			{ role: "user", text: "what now?" },
		]);
		const starts = r.events.filter((e) => e.type === "message_start").map((e) => `${e.message.role}:${e.message.customType ?? ""}`);
		// The run's system message (json mode announces the prompt and tools) opens the run triggerTurn started.
		expect(starts).toEqual(["custom:note", "system:", "custom:ask", "assistant:"]);
		const entries = stable(onlySession(world));
		expect(entries.filter((e) => e.type === "custom_message")).toEqual([
			{ type: "custom_message", customType: "note", content: "just saying", display: true, details: { a: 1 } },
			{ type: "custom_message", customType: "ask", content: "what now?", display: true },
		]);
	});

	test("while streaming: steer arrives before the next request, followUp after the agent would stop; nextTurn rides with the next prompt", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"deliver",
			`export default function (pi) {
	pi.on("tool_execution_start", () => pi.sendMessage({ customType: "s", content: "steered", display: true }, { deliverAs: "steer" }));
	let once = false;
	pi.on("turn_start", () => { if (!once) pi.sendMessage({ customType: "f", content: "followed up", display: true }, { deliverAs: "followUp" }); once = true; });
	pi.registerCommand("later", { handler: async () => pi.sendMessage({ customType: "n", content: "next turn", display: true }, { deliverAs: "nextTurn" }) });
}
`,
		);
		world.mock.script({ toolCalls: [{ name: "ls", arguments: {} }] }, { text: "after tools" }, { text: "after follow-up" }, { text: "third" });
		const r = await runWith(world, [ext], ["go", "/later", "again"], { args: ["--tools", "ls"] });
		expect(r.stderr).toBe("");
		const texts = world.mock.requests.map((q) => readMessages(q).slice(1).map((m) => `${m.role}:${m.text}`));
		expect(texts[1]!.slice(-2)).toEqual([expect.stringMatching(/^toolResult:/), "user:steered"]);
		expect(texts[2]!.slice(-2)).toEqual(["assistant:after tools", "user:followed up"]);
		expect(texts[3]!.slice(-3)).toEqual(["assistant:after follow-up", "user:again", "user:next turn"]);
		expect(transcript(onlySession(world))).toEqual([
			"user: go",
			"assistant: [call ls]",
			expect.stringMatching(/^toolResult: /),
			"custom(s): steered",
			"assistant: after tools",
			"custom(f): followed up",
			"assistant: after follow-up",
			"user: again",
			"custom(n): next turn",
			"assistant: third",
		]);
	});
});

describe("sendUserMessage", () => {
	test("from a command: a run the mode waits for; while streaming it needs deliverAs", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"user",
			`export default function (pi) {
	pi.registerCommand("say", { handler: async (args) => pi.sendUserMessage(args) });
	pi.on("turn_start", (e) => {
		if (e.turnIndex !== 0) return;
		pi.sendUserMessage("too eager");
		pi.sendUserMessage([{ type: "text", text: "queued " }, { type: "text", text: "politely" }], { deliverAs: "followUp" });
	});
	pi.on("input", (e) => log(e.text, e.source));
}
`,
		);
		world.mock.script({ text: "one" }, { text: "two" });
		const r = await runWith(world, [ext], ["/say hello there"], { mode: "print" });
		expect(r.stderr).toBe(
			"Extension error (<runtime>): Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.\n",
		);
		expect(r.stdout).toBe("two\n");
		expect(r.log).toEqual([
			["hello there", "extension"],
			["too eager", "extension"],
			["queued politely", "extension"],
		]);
		expect(transcript(onlySession(world))).toEqual(["user: hello there", "assistant: one", "user: queued politely", "assistant: two"]);
	});

	test('text queued while running reaches the model verbatim, "/cmd" too (SPEC §12, pi 1.6); a steer from the first turn_start joins the first request', async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"queue",
			`export default function (pi) {
	pi.registerCommand("wrapup", { handler: async (args) => log("wrapup", args) });
	let once = false;
	pi.on("turn_start", () => {
		if (once) return;
		once = true;
		pi.sendUserMessage("/wrapup queued", { deliverAs: "followUp" });
		pi.sendUserMessage("/wrapup steered", { deliverAs: "steer" });
		// expandPromptTemplates: a command runs at once, even mid-run (pi).
		pi.sendUserMessage("/wrapup at-once", { deliverAs: "followUp", expandPromptTemplates: true });
	});
	pi.on("agent_settled", () => log("settled"));
}
`,
		);
		world.mock.script({ text: "one" }, { text: "two" });
		const r = await runWith(world, [ext], ["go"], { mode: "print" });
		expect(r).toMatchObject({ stdout: "two\n", stderr: "", code: 0 });
		expect(r.log).toEqual([["wrapup", "at-once"], "settled"]);
		expect(world.mock.requests.map((q) => readMessages(q).slice(1).map((m) => `${m.role}: ${m.text}`))).toEqual([
			["user: go", "user: /wrapup steered"],
			["user: go", "user: /wrapup steered", "assistant: one", "user: /wrapup queued"],
		]);
	});

	test('an idle sendUserMessage("/cmd") runs the command, as a prompt does (SPEC §12)', async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"idle",
			`export default function (pi) {
	pi.registerCommand("wrapup", { handler: async (args) => log("wrapup", args) });
	pi.registerCommand("kick", { handler: async () => { await pi.sendUserMessage("/wrapup idle"); } });
}
`,
		);
		const r = await runWith(world, [ext], ["/kick"], { mode: "print" });
		expect(r).toMatchObject({ stdout: "", stderr: "", code: 0 });
		expect(r.log).toEqual([["wrapup", "idle"]]);
		expect(world.mock.requests.length).toBe(0);
	});
});

describe("session, tools, commands, model", () => {
	test("appendEntry, setSessionName/getSessionName, setLabel write the session file", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"entries",
			`export default function (pi) {
	pi.on("agent_end", (_e, ctx) => {
		const leaf = ctx.sessionManager.getLeafId();
		pi.appendEntry("my-state", { count: 42 });
		log(pi.getSessionName() ?? null);
		pi.setSessionName("named session");
		log(pi.getSessionName());
		pi.setLabel(leaf, "my-label");
	});
}
`,
		);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [ext], ["hi"]);
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([null, "named session"]);
		const entries = onlySession(world);
		const tail = stable(entries.slice(-3));
		expect(entries.at(-4).message.role).toBe("assistant");
		expect(tail).toEqual([
			{ type: "custom", customType: "my-state", data: { count: 42 } },
			{ type: "session_info", name: "named session" },
			{ type: "label", targetId: entries.at(-4).id, label: "my-label" },
		]);
	});

	test("getActiveTools / setActiveTools / getAllTools / getCommands", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"tools",
			`import { Type } from "typebox";
export default function (pi) {
	pi.registerTool({ name: "mine", label: "Mine", description: "an extension tool", parameters: Type.Object({}), execute: async () => ({ content: [], details: {} }) });
	pi.registerCommand("one", { description: "first", handler: async () => {} });
	pi.registerCommand("tools", {
		handler: async () => {
			log(pi.getActiveTools());
			log(pi.getAllTools().map((t) => [t.name, t.sourceInfo.source, t.description.length > 0]));
			log(pi.getCommands().map((c) => [c.name, c.description, c.source, c.sourceInfo.path]));
			pi.setActiveTools(["read", "mine", "no-such-tool"]);
			log(pi.getActiveTools());
		},
	});
}
`,
		);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [ext], ["/tools", "hi"]);
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([
			["read", "bash", "edit", "write", "mine"],
			[
				["read", "builtin", true],
				["bash", "builtin", true],
				["edit", "builtin", true],
				["write", "builtin", true],
				["grep", "builtin", true],
				["find", "builtin", true],
				["ls", "builtin", true],
				["mine", "cli", true],
			],
			[
				["one", "first", "extension", `${world.cwd}/tools.ts`],
				["tools", null, "extension", `${world.cwd}/tools.ts`],
			],
			["read", "mine"],
		]);
		expect(readToolNames(world.mock.lastRequest())).toEqual(["read", "mine"]);
	});

	test("setModel switches the model (false without auth); get/setThinkingLevel clamp to the model", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"model",
			`export default function (pi) {
	pi.registerCommand("switch", {
		handler: async (_a, ctx) => {
			log(pi.getThinkingLevel());
			pi.setThinkingLevel("high");
			log(pi.getThinkingLevel());
			const keyless = { ...ctx.model, provider: "anthropic", id: "claude-without-a-key" };
			log(await pi.setModel(keyless));
			log(await pi.setModel(ctx.modelRegistry.find("mock", "mock-model")));
			log(ctx.model.provider, pi.getThinkingLevel());
			pi.setThinkingLevel("high");
			log(pi.getThinkingLevel());
		},
	});
}
`,
		);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [ext], ["/switch", "hi"], { model: "mock-anthropic/mock-model" });
		expect(r.stderr).toBe("");
		// The openai mock model does not reason: switching to it clamps the level to off.
		expect(r.log).toEqual(["off", "high", false, true, ["mock", "off"], "off"]);
		expect(world.mock.lastRequest().path).toBe("/v1/chat/completions");
		const entries = stable(onlySession(world));
		expect(entries.filter((e) => e.type === "model_change").map((e) => `${e.provider}/${e.modelId}`)).toEqual(["mock-anthropic/mock-model", "mock/mock-model"]);
	});

	test("registerProvider / unregisterProvider after bind take effect at once", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"late",
			`export default function (pi) {
	pi.registerCommand("late", {
		handler: async (_a, ctx) => {
			pi.registerProvider("late", {
				baseUrl: process.env.MOCK_URL, api: "openai-completions", apiKey: "late-key",
				models: [{ id: "late-model", name: "Late", reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 }],
			});
			const model = ctx.modelRegistry.find("late", "late-model");
			log(await pi.setModel(model));
		},
	});
	pi.registerCommand("gone", { handler: async (_a, ctx) => { pi.unregisterProvider("late"); log(ctx.modelRegistry.find("late", "late-model") === undefined); } });
}
`,
		);
		world.mock.script({ text: "from late" });
		const r = await runWith(world, [ext], ["/late", "hi", "/gone"], { env: { MOCK_URL: world.mock.openaiBaseUrl } });
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([true, true]);
		expect(world.mock.lastRequest().body.model).toBe("late-model");
		expect(world.mock.lastRequest().headers.authorization).toBe("Bearer late-key");
	});

	test("exec runs a program in the project (or options.cwd), with timeout", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"exec",
			`export default function (pi) {
	pi.registerCommand("exec", {
		handler: async () => {
			log(await pi.exec("sh", ["-c", "pwd; echo err >&2; exit 3"]));
			log(await pi.exec("pwd", [], { cwd: "/" }));
			const slow = await pi.exec("sleep", ["5"], { timeout: 100 });
			log(slow.killed, slow.code !== 0);
			log(await pi.exec("no-such-program-here", []));
		},
	});
}
`,
		);
		const r = await runWith(world, [ext], ["/exec"], { mode: "print" });
		expect(r).toMatchObject({ stdout: "", stderr: "", code: 0 });
		expect(r.log).toEqual([
			{ stdout: `${world.cwd}\n`, stderr: "err\n", code: 3, killed: false },
			{ stdout: "/\n", stderr: "", code: 0, killed: false },
			[true, true],
			{ stdout: "", stderr: "no-such-program-here: command not found\n", code: 127, killed: false },
		]);
	});
});
