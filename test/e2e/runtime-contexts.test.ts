// The contexts handlers receive (SPEC §7, reference §3) through the compiled binary: ctx members
// in print and json mode, UI dialogs resolving to their defaults, the command context with session
// replacement and withSession, the tool context's tools and executeTool.
import { describe, expect, test } from "bun:test";
import { readMessages } from "../support/mock-llm.ts";
import { readSession, runWith, sessionFiles, STALE, transcript, writeExtension } from "../support/runtime.ts";
import { mockWorld } from "../support/world.ts";

describe("ExtensionContext", () => {
	test("members at session_start and during a run, in json and print mode", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"ctx",
			`const view = (ctx) => ({
	hasUI: ctx.hasUI, mode: ctx.mode, cwd: ctx.cwd, model: ctx.model?.id, thinkingLevel: ctx.thinkingLevel, idle: ctx.isIdle(),
	signal: ctx.signal instanceof AbortSignal, pending: ctx.hasPendingMessages(), trusted: ctx.isProjectTrusted(),
	usage: ctx.getContextUsage(), prompt: ctx.getSystemPrompt().startsWith("You are"), found: ctx.modelRegistry.find("mock", "mock-model")?.id,
	session: [typeof ctx.sessionManager.getSessionId(), typeof ctx.sessionManager.appendMessage, ctx.sessionManager.getBranch().length > 0],
});
export default function (pi) {
	pi.on("session_start", (_e, ctx) => log(view(ctx)));
	pi.on("turn_end", (_e, ctx) => { log(view(ctx)); ctx.shutdown(); });
}
`,
		);
		for (const mode of ["json", "print"] as const) {
			world.mock.script({ text: "ok" });
			const r = await runWith(world, [ext], ["hi"], { mode });
			expect(r.stderr).toBe("");
			expect(r.code).toBe(0);
			const common = { hasUI: false, mode, cwd: world.cwd, model: "mock-model", thinkingLevel: "off", pending: false, trusted: false, prompt: true, found: "mock-model" };
			expect(r.log.slice(-2)).toEqual([
				// Before any response the size is an estimate (system prompt and messages).
				{ ...common, idle: true, signal: false, usage: { tokens: expect.any(Number), contextWindow: 100000, percent: expect.any(Number) }, session: ["string", "undefined", true] },
				{ ...common, idle: false, signal: true, usage: { tokens: 15, contextWindow: 100000, percent: 0.015 }, session: ["string", "undefined", true] },
			]);
		}
	});

	test("ctx.abort() ends the run as aborted; print mode exits 1", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "abort", `export default (pi) => { pi.on("tool_call", (_e, ctx) => { ctx.abort(); }); pi.on("agent_settled", (e) => log(e.outcome)); };\n`);
		world.mock.script({ toolCalls: [{ name: "ls", arguments: {} }] }, { text: "never" });
		const r = await runWith(world, [ext], ["go"], { mode: "print", args: ["--tools", "ls"] });
		expect(r.log).toEqual(["aborted"]);
		expect(world.mock.requests.length).toBe(1);
		expect(r.code).toBe(1);
		expect(r.stderr).toBe("Error: Request aborted\n");
	});

	test("print/json UI: dialogs resolve to their defaults at once, notify writes a prefixed line to stderr, the rest does nothing", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"ui",
			`export default function (pi) {
	pi.on("ui_prompt_start", () => log("never: no one is asked"));
	pi.registerCommand("ask", {
		handler: async (_a, ctx) => {
			const ui = ctx.ui;
			log(ctx.hasUI, await ui.select("Pick", ["a", "b"]), await ui.confirm("Sure?", "really", { timeout: 60000 }), await ui.input("Name"), await ui.editor("Text", "pre"));
			ui.notify("hello", "info"); ui.notify("careful", "warning"); ui.notify("broken", "error"); ui.setStatus("k", "v"); ui.setWidget("w", ["x"]); ui.setTitle("t"); ui.setEditorText("e");
			log(await ui.custom(() => null), ui.getEditorText(), ui.setTheme("dark"), ui.theme.fg("accent", "plain"), ui.getToolsExpanded());
		},
	});
}
`,
		);
		const r = await runWith(world, [ext], ["/ask"], { mode: "print" });
		expect(r).toMatchObject({ stdout: "", stderr: "Info: hello\nWarning: careful\nError: broken\n", code: 0 });
		expect(r.log).toEqual([
			[false, null, false, null, null],
			[null, "", { success: false, error: "UI not available" }, "plain", false],
		]);
	});
});

describe("command context", () => {
	test("newSession: shutdown and start events, withSession gets a live ctx bound to the new session, the old ctx and pi are stale", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"fresh",
			`export default function (pi) {
	// Module state is reset by the re-import; a global counts the factory runs.
	const me = (globalThis.__fresh = (globalThis.__fresh ?? 0) + 1);
	pi.on("session_start", (e) => log("start", me, e.reason, e.previousSessionFile ? "prev" : "-"));
	pi.on("session_shutdown", (e) => log("shutdown", me, e.reason));
	pi.on("session_before_switch", (e) => log("before_switch", me, e.reason));
	pi.registerCommand("fresh", {
		handler: async (_a, ctx) => {
			const before = ctx.sessionManager.getSessionFile();
			const result = await ctx.newSession({
				setup: async (sm) => { sm.appendCustomEntry("seeded", { by: me }); },
				withSession: async (next) => {
					log("with", next.sessionManager.getSessionFile() !== before, next.sessionManager.getEntries().some((x) => x.customType === "seeded"));
					await next.sendUserMessage("in the new session");
				},
			});
			log("result", result);
			for (const probe of [() => ctx.cwd, () => ctx.sessionManager, () => pi.getSessionName(), () => pi.on("agent_start", () => {})]) {
				try { probe(); log("alive?"); } catch (error) { log(error.message); }
			}
		},
	});
}
`,
		);
		world.mock.script({ text: "old answer" }, { text: "new answer" });
		const r = await runWith(world, [ext], ["first", "/fresh"], { mode: "print" });
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("new answer\n");
		expect(r.log).toEqual([
			["start", 1, "startup", "-"],
			["before_switch", 1, "new"],
			["shutdown", 1, "new"],
			["start", 2, "new", "prev"],
			["with", true, true],
			["result", { cancelled: false }],
			STALE,
			STALE,
			STALE,
			STALE,
			["shutdown", 2, "quit"],
		]);
		const files = sessionFiles(world);
		expect(files.length).toBe(2);
		const [a, b] = files.map(readSession);
		expect(transcript(a!)).toEqual(["user: first", "assistant: old answer"]);
		expect(transcript(b!)).toEqual(["user: in the new session", "assistant: new answer"]);
		expect(readMessages(world.mock.lastRequest()).slice(1).map((m) => m.text)).toEqual(["in the new session"]);
	});

	test("session_before_switch / session_before_fork can cancel; fork and navigateTree; switchSession back", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"tree",
			`export default function (pi) {
	pi.on("session_before_switch", (e) => { log("before_switch", e.reason); if (e.reason === "new") return { cancel: true }; });
	pi.on("session_before_fork", (e) => { log("before_fork", e.position); if (e.position === "before") return { cancel: true }; });
	pi.on("session_before_tree", (e) => log("before_tree", e.preparation.targetId === e.preparation.oldLeafId));
	pi.on("session_tree", (e) => log("tree", e.newLeafId !== e.oldLeafId));
	pi.registerCommand("branch", {
		handler: async (_a, ctx) => {
			log("options", ctx.getSystemPromptOptions().selectedTools);
			log(await ctx.newSession());
			const file = ctx.sessionManager.getSessionFile();
			const user = ctx.sessionManager.getBranch().find((x) => x.type === "message" && x.message.role === "user");
			log(await ctx.navigateTree(user.id));
			log(await ctx.fork(user.id));
			log(await ctx.fork(user.id, { position: "at", withSession: async (next) => {
				log("forked", next.sessionManager.getHeader().parentSession === file, next.sessionManager.getBranch().filter((x) => x.type === "message").length);
				log(await next.switchSession(file, { withSession: async (back) => log("back", back.sessionManager.getSessionFile() === file) }));
			} }));
		},
	});
}
`,
		);
		world.mock.script({ text: "answer" });
		const r = await runWith(world, [ext], ["hello", "/branch"], { mode: "print", args: ["--tools", "read"] });
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([
			["options", ["read"]],
			["before_switch", "new"],
			{ cancelled: true },
			["before_tree", false],
			["tree", true],
			{ cancelled: false },
			["before_fork", "before"],
			{ cancelled: true },
			["before_fork", "at"],
			["forked", true, 1],
			["before_switch", "resume"],
			["back", true],
			{ cancelled: false },
			{ cancelled: false },
		]);
	});
});

describe("tool context", () => {
	test("tools lists the active tools; executeTool validates and runs the hooks; errors throw", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"nested",
			`import { Type } from "typebox";
export default function (pi) {
	pi.on("tool_call", (e) => {
		log("tool_call", e.toolName, e.toolCallId, e.parentToolCallId ?? "top");
		if (e.toolName === "write") return { block: true, reason: "no writes from tools" };
	});
	pi.on("tool_result", (e) => { if (e.toolName === "read") return { content: [{ type: "text", text: "[checked] " + e.content[0].text }] }; });
	pi.registerTool({
		name: "peek", label: "Peek", description: "reads through the hooks", parameters: Type.Object({ file: Type.String() }),
		async execute(_id, params, _signal, _onUpdate, ctx) {
			log("tools", ctx.tools.map((t) => t.name));
			const read = await ctx.executeTool("read", { path: params.file });
			const failures = [];
			for (const [name, args] of [["read", {}], ["write", { path: "x", content: "y" }], ["nope", {}]]) {
				try { await ctx.executeTool(name, args); } catch (error) { failures.push(error.message.split("\\n")[0]); }
			}
			log("failures", failures);
			return { content: read.content, details: { nested: true } };
		},
	});
}
`,
		);
		world.write("project/a.txt", "alpha\n");
		world.mock.script({ toolCalls: [{ name: "peek", arguments: { file: "a.txt" }, id: "c1" }] }, { text: "ok" });
		const r = await runWith(world, [ext], ["peek"], { args: ["--tools", "read,peek"] });
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([
			["tool_call", "peek", "c1", "top"],
			["tools", ["read", "peek"]],
			// pi's ids for calls a tool makes: <parent id>/<n>, with parentToolCallId on the events.
			["tool_call", "read", "c1/1", "c1"],
			["tool_call", "read", "c1/2", "c1"],
			["tool_call", "write", "c1/3", "c1"],
			["failures", ['[checked] Invalid arguments for tool "read":', "no writes from tools", 'Tool "nope" not found. Available tools: read, bash, edit, write, grep, find, ls, peek.']],
		]);
		expect(readMessages(world.mock.lastRequest()).at(-1)).toEqual({ role: "toolResult", text: "[checked] 1\talpha", toolCallId: "c1" });
		const nestedStarts = r.events.filter((e) => e.type === "tool_execution_start").map((e) => [e.toolName, e.toolCallId, e.parentToolCallId]);
		expect(nestedStarts).toEqual([
			["peek", "c1", undefined],
			["read", "c1/1", "c1"],
			["read", "c1/2", "c1"],
			["write", "c1/3", "c1"],
			["nope", "c1/4", "c1"],
		]);
		const ends = r.events.filter((e) => e.type === "tool_execution_end");
		// durationMs: how long execute() took, only for calls that ran (the refused write and the unknown tool did not).
		expect(ends.map((e) => [e.toolCallId, typeof e.durationMs])).toEqual([
			["c1/1", "number"],
			["c1/2", "undefined"],
			["c1/3", "undefined"],
			["c1/4", "undefined"],
			["c1", "number"],
		]);
	});
});
