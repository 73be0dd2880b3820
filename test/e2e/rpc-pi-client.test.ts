// pi 1.6.0's own RpcClient (from the npm package, unchanged) drives the compiled binary through
// every client method, each asserting what it returns: prompting and queues, state and stats,
// models and thinking levels, compaction, bash, the session tree and replacements (with the
// session_start / resources_discover output of each new session), HTML export, extension dialogs.
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { heldTurn } from "../support/held-turn.ts";
import { readMessages } from "../support/mock-llm.ts";
import { nextEvent, type PiClientHandle, startPiClient } from "../support/pi-client.ts";
import { killAll, processAlive, until } from "../support/processes.ts";
import { MODEL, mockWorld, type MockWorld } from "../support/world.ts";

const T = 60_000;


/** Types of events, message events with their role, runs of the same *_update folded. */
function eventTypes(events: any[]): string[] {
	const out: string[] = [];
	for (const e of events) {
		const label = e.type === "message_start" || e.type === "message_end" ? `${e.type}:${e.message.role}` : e.type;
		if (!(label.endsWith("_update") && out.at(-1) === label)) out.push(label);
	}
	return out;
}

const clients: PiClientHandle[] = [];

async function start(world: MockWorld, args: string[] = [], model = MODEL.openai): Promise<PiClientHandle> {
	const handle = await startPiClient(world, model, args);
	clients.push(handle);
	return handle;
}

afterEach(async () => {
	// stop() is the client's own: SIGTERM, then the binary must be gone.
	for (const handle of clients.splice(0)) {
		const pid = handle.pid();
		await handle.client.stop();
		if (!pid) continue;
		try {
			await until(() => !processAlive(pid), `the agent (pid ${pid}) to exit after RpcClient.stop()`);
		} finally {
			killAll([pid]);
		}
	}
});

/** Commands with dialogs, session hooks that leave traces, output from module top level and factory. */
const EXTENSION = `
console.log("TOP-LEVEL-LOG from the module");
export default function (pi) {
	process.stdout.write("FACTORY-WRITE from the factory\\n");
	pi.on("session_start", (event, ctx) => {
		pi.appendEntry("session-started", { reason: event.reason });
		ctx.ui.notify("session_start " + event.reason);
	});
	pi.on("resources_discover", (event, ctx) => {
		ctx.ui.notify("resources_discover " + event.reason);
	});
	pi.registerCommand("survey", {
		description: "Ask four questions",
		handler: async (_args, ctx) => {
			const colour = await ctx.ui.select("Pick a colour", ["red", "green"]);
			const sure = await ctx.ui.confirm("Sure?", "It cannot be undone.", { timeout: 30000 });
			const name = await ctx.ui.input("Branch name?", "feature/...");
			const plan = await ctx.ui.editor("Edit the plan", "1. read\\n");
			ctx.ui.notify("survey " + JSON.stringify({ colour, sure, name, plan }));
		},
	});
}
`;

test("prompting: start, getState, promptAndWait, prompt + waitForIdle, steer, followUp, clearQueue, abort, messages and stats", async () => {
	await using world = await mockWorld();
	world.mock.script({ toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "echo from-bash" } }] }, { text: "It printed from-bash." });
	const { client, events } = await start(world, ["--no-session"]);

	const state = await client.getState();
	expect(state).toMatchObject({
		model: { provider: "mock", id: "mock-model", api: "openai-completions", contextWindow: 100000 },
		thinkingLevel: "off",
		isStreaming: false,
		isCompacting: false,
		messageCount: 0,
		pendingMessageCount: 0,
		autoCompactionEnabled: true,
		protocolVersion: 2,
	});
	expect(state.sessionFile).toBeUndefined();

	// promptAndWait: the disposition, then every event up to agent_settled.
	const run = await client.promptAndWait("run echo from-bash");
	expect(eventTypes(run)).toEqual([
		"agent_start",
		"turn_start",
		"message_start:system",
		"message_end:system",
		"message_start:user",
		"message_end:user",
		"message_start:assistant",
		"message_update",
		"message_end:assistant",
		"tool_execution_start",
		"tool_execution_update",
		"tool_execution_end",
		"message_start:toolResult",
		"message_end:toolResult",
		"turn_end",
		"turn_start",
		"message_start:assistant",
		"message_update",
		"message_end:assistant",
		"turn_end",
		"agent_end",
		"agent_settled",
	]);
	expect(run.at(-1)).toEqual({ type: "agent_settled", aborted: false });
	expect(run.find((e) => e.type === "tool_execution_end")).toMatchObject({ toolName: "bash", isError: false, result: { content: [{ type: "text", text: "from-bash" }] }, durationMs: expect.any(Number) });
	expect(await client.getLastAssistantText()).toBe("It printed from-bash.");

	// prompt resolves with the disposition; waitForIdle with agent_settled.
	world.mock.script({ text: "second answer" });
	const idle = client.waitForIdle();
	expect(await client.prompt("again")).toBe("started");
	await idle;
	expect(await client.getLastAssistantText()).toBe("second answer");

	// steer and followUp while a run is held at the mock; clearQueue hands back what waited.
	const held = heldTurn({ text: "held answer" });
	world.mock.script(held.turn, { text: "saw the steer" }, { text: "saw the follow-up" });
	let settled = client.waitForIdle();
	expect(await client.prompt("long task")).toBe("started");
	await expect(client.prompt("not now")).rejects.toThrow("Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.");
	expect(await client.steer("drop this")).toBe("queued");
	expect(await client.followUp("and drop this")).toBe("queued");
	expect(await client.clearQueue()).toEqual({ steering: ["drop this"], followUp: ["and drop this"] });
	expect(await client.steer("change course")).toBe("queued");
	expect(await client.prompt("then summarise", undefined, "followUp")).toBe("queued");
	expect(await client.getState()).toMatchObject({ isStreaming: true, pendingMessageCount: 2 });
	held.release();
	await settled;
	const [, , , heldRequest, steerRequest, followRequest] = world.mock.requests.map(readMessages);
	expect(heldRequest!.at(-1)).toEqual({ role: "user", text: "long task" });
	expect(steerRequest!.slice(-2)).toMatchObject([
		{ role: "assistant", text: "held answer" },
		{ role: "user", text: "change course" },
	]);
	expect(followRequest!.at(-1)).toEqual({ role: "user", text: "then summarise" });
	expect(events.filter((e) => e.type === "queue_update").at(-1)).toEqual({ type: "queue_update", steering: [], followUp: [] });

	// abort: a stream that hangs ends at once; agent_settled says it was aborted.
	world.mock.script({ text: "never finished", hang: true });
	const aborted = nextEvent(client, (e) => e.type === "agent_settled");
	const streaming = nextEvent(client, (e) => e.type === "message_update");
	expect(await client.prompt("hang")).toBe("started");
	await streaming;
	await client.abort();
	expect(await aborted).toEqual({ type: "agent_settled", aborted: true });
	expect((await client.getState()).isStreaming).toBe(false);

	// Queue modes and retry settings answer with no data.
	expect(await client.setSteeringMode("one-at-a-time")).toBeUndefined();
	expect(await client.setFollowUpMode("one-at-a-time")).toBeUndefined();
	expect(await client.setAutoRetry(false)).toBeUndefined();
	expect(await client.abortRetry()).toBeUndefined();
	expect(await client.getState()).toMatchObject({ steeringMode: "one-at-a-time", followUpMode: "one-at-a-time" });

	const messages = await client.getMessages();
	expect(messages.map((m: any) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant", "user", "assistant", "user", "assistant", "user", "assistant", "user", "assistant", "user", "assistant"]);
	expect(messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
	const stats = await client.getSessionStats();
	expect(stats).toMatchObject({ userMessages: 6, assistantMessages: 7, toolCalls: 1, toolResults: 1, totalMessages: 14, cost: 0 });
	expect(stats.tokens).toEqual({ input: 60, output: 30, cacheRead: 0, cacheWrite: 0, total: 90 });
	expect(stats.contextUsage).toMatchObject({ contextWindow: 100000 });
	expect(stats.sessionFile).toBeUndefined();
}, T);

test("models and thinking: getAvailableModels, setModel, cycleModel, getAvailableThinkingLevels, setThinkingLevel, cycleThinkingLevel", async () => {
	await using world = await mockWorld();
	const { client, events } = await start(world, ["--no-session"]);
	const models = await client.getAvailableModels();
	const mocks = models.filter((m: any) => m.provider.startsWith("mock"));
	expect(mocks.map((m: any) => `${m.provider}/${m.id}`)).toEqual(["mock/mock-model", "mock/mock-reasoner", "mock-anthropic/mock-model"]);
	expect(mocks[0]).toMatchObject({ api: "openai-completions", reasoning: false, contextWindow: 100000, maxTokens: 4096, input: ["text"] });

	expect(await client.getAvailableThinkingLevels()).toEqual(["off"]);
	expect(await client.cycleThinkingLevel()).toBeNull();

	const set = await client.setModel("mock", "mock-reasoner");
	expect(set).toMatchObject({ provider: "mock", id: "mock-reasoner", reasoning: true });
	await expect(client.setModel("mock", "gpt-0")).rejects.toThrow("Model not found: mock/gpt-0");
	expect(await client.getAvailableThinkingLevels()).toEqual(["off", "minimal", "low", "medium", "high"]);
	expect(await client.setThinkingLevel("high")).toBeUndefined();
	expect((await client.getState()).thinkingLevel).toBe("high");
	expect(await client.cycleThinkingLevel()).toEqual({ level: "off" });
	expect(await client.cycleThinkingLevel()).toEqual({ level: "minimal" });
	expect(events.filter((e) => e.type === "thinking_level_changed").map((e) => e.level)).toEqual(["high", "off", "minimal"]);

	const cycled = await client.cycleModel();
	expect(cycled).toMatchObject({ model: { provider: "mock-anthropic", id: "mock-model" }, thinkingLevel: "minimal", isScoped: false });
	expect((await client.getState()).model).toMatchObject({ provider: "mock-anthropic", id: "mock-model" });

	// The model set is the one asked.
	world.mock.script({ text: "from anthropic" });
	await client.promptAndWait("hello");
	expect(world.mock.lastRequest().path).toBe("/v1/messages");
	expect(await client.getLastAssistantText()).toBe("from anthropic");
}, T);

test("sessions: getEntries, getTree, getForkMessages, fork, clone, newSession, switchSession, setSessionName, compact, bash, abortBash, exportHtml — each new session runs session_start and resources_discover once", async () => {
	await using world = await mockWorld();
	const ext = world.write("project/ext/session-hooks.ts", EXTENSION);
	const handle = await start(world, ["-ne", "-e", ext]);
	const { client, events } = handle;

	// What the extension printed while loading went to stderr; the protocol stream stayed clean.
	await until(() => client.getStderr().includes("FACTORY-WRITE"), "the factory's output on stderr");
	expect(client.getStderr()).toContain("TOP-LEVEL-LOG from the module");
	expect(client.getStderr()).toContain("FACTORY-WRITE from the factory");
	// session_start ran before any command, and the client got what it emitted.
	const notes = () => events.filter((e) => e.type === "extension_ui_request" && e.method === "notify").map((e) => e.message);
	await until(() => notes().length >= 2, "the start-up notes");
	expect(notes()).toEqual(["session_start startup", "resources_discover startup"]);
	expect(events.find((e) => e.type === "entry_appended")).toMatchObject({ entry: { type: "custom", customType: "session-started", data: { reason: "startup" } } });

	world.mock.script({ text: "first answer" }, { text: "second answer" });
	await client.promptAndWait("first question");
	await client.promptAndWait("second question");
	const first = await client.getState();
	expect(first.sessionFile).toMatch(/\.jsonl$/);
	await client.setSessionName("  refactor auth  ");
	expect((await client.getState()).sessionName).toBe("refactor auth");
	expect(events.filter((e) => e.type === "session_info_changed")).toEqual([{ type: "session_info_changed", name: "refactor auth" }]);

	// Entries in append order with the leaf; `since` is a cursor; the tree holds the same entries.
	const { entries, leafId } = await client.getEntries();
	expect(entries.map((e: any) => e.type)).toEqual(["model_change", "thinking_level_change", "custom", "message", "message", "message", "message", "session_info"]);
	expect(leafId).toBe(entries.at(-1)!.id);
	const userEntry = entries.find((e: any) => e.type === "message" && e.message.content === "second question");
	const since = await client.getEntries(userEntry!.id);
	expect(since.entries.map((e: any) => e.type)).toEqual(["message", "session_info"]);
	await expect(client.getEntries("nope")).rejects.toThrow("Entry not found: nope");
	const tree = await client.getTree();
	expect(tree.leafId).toBe(leafId);
	const flat: string[] = [];
	const walk = (nodes: any[]) => nodes.forEach((n) => (flat.push(n.entry.id), walk(n.children)));
	walk(tree.tree);
	expect(flat).toEqual(entries.map((e: any) => e.id));

	// bash: the result, streamed output for this command's id, and the message the next prompt sends.
	const output = events.length;
	expect(await client.bash("echo one; echo two; exit 3")).toEqual({ output: "one\ntwo\n", exitCode: 3, cancelled: false, truncated: false });
	expect(events.slice(output).filter((e) => e.type === "bash_execution_update").map((e) => e.delta).join("")).toBe("one\ntwo\n");
	const pidFile = join(world.cwd, "bash.pid");
	const long = client.bash(`echo $$ > ${pidFile}; exec sleep 30`);
	await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").trim() !== "", "the bash command's pid");
	const sleeper = Number(readFileSync(pidFile, "utf8"));
	expect(await client.abortBash()).toBeUndefined();
	expect(await long).toMatchObject({ exitCode: null, cancelled: true });
	await until(() => !processAlive(sleeper), "the aborted command's process to end");
	expect((await client.getMessages()).filter((m: any) => m.role === "bashExecution").map((m: any) => m.exitCode)).toEqual([3, undefined]);

	// compact: the summary from the model; setAutoCompaction flips the flag.
	world.mock.script({ text: "## Goal\nRefactor auth." });
	const compacted = await client.compact("focus on auth");
	expect(compacted).toMatchObject({ summary: expect.stringContaining("Refactor auth."), firstKeptEntryId: expect.any(String), tokensBefore: expect.any(Number) });
	expect(events.filter((e) => e.type === "compaction_start" || e.type === "compaction_end").map((e) => `${e.type}:${e.reason}`)).toEqual(["compaction_start:manual", "compaction_end:manual"]);
	expect(await client.setAutoCompaction(false)).toBeUndefined();
	expect((await client.getState()).autoCompactionEnabled).toBe(false);

	// exportHtml: a page of the session, written where asked.
	const page = await client.exportHtml(join(world.root, "session.html"));
	expect(page).toEqual({ path: join(world.root, "session.html") });
	expect(readFileSync(page.path, "utf8")).toContain("<title>refactor auth</title>");

	/** What the extension's session_start and resources_discover sent for the session that replaced this one. */
	const traces = async (from: number) => {
		await until(() => events.slice(from).filter((e) => e.method === "notify").length >= 2, "the new session's notes");
		return {
			notes: events.slice(from).filter((e) => e.type === "extension_ui_request" && e.method === "notify").map((e) => e.message),
			appended: events.slice(from).filter((e) => e.type === "entry_appended").map((e) => e.entry.data.reason),
		};
	};

	// fork at the second question: a new file ending before it, its text back for the editor.
	const forkable = await client.getForkMessages();
	expect(forkable.map((m: any) => m.text)).toEqual(["first question", "second question"]);
	let from = events.length;
	expect(await client.fork(forkable[1].entryId)).toEqual({ text: "second question", cancelled: false });
	expect(await traces(from)).toEqual({ notes: ["session_start fork", "resources_discover startup"], appended: ["fork"] });
	const forked = await client.getState();
	expect(forked.sessionFile).not.toBe(first.sessionFile);
	expect((await client.getMessages()).map((m: any) => m.content)).toEqual(["first question", [{ type: "text", text: "first answer" }]]);

	// clone: the branch as it is, into another file.
	from = events.length;
	expect(await client.clone()).toEqual({ cancelled: false });
	expect(await traces(from)).toEqual({ notes: ["session_start fork", "resources_discover startup"], appended: ["fork"] });
	const cloned = await client.getState();
	expect(cloned.sessionFile).not.toBe(forked.sessionFile);
	expect(cloned.messageCount).toBe(2);

	// newSession: empty; switchSession: back to the first file, with its name and messages.
	from = events.length;
	expect(await client.newSession(first.sessionFile)).toEqual({ cancelled: false });
	expect(await traces(from)).toEqual({ notes: ["session_start new", "resources_discover startup"], appended: ["new"] });
	expect((await client.getState()).messageCount).toBe(0);
	// The parent it was given is in the new file's header.
	world.mock.script({ text: "fresh answer" });
	await client.promptAndWait("fresh start");
	const fresh = (await client.getState()).sessionFile!;
	expect(JSON.parse(readFileSync(fresh, "utf8").split("\n")[0]!)).toMatchObject({ type: "session", parentSession: first.sessionFile });
	from = events.length;
	expect(await client.switchSession(first.sessionFile!)).toEqual({ cancelled: false });
	expect(await traces(from)).toEqual({ notes: ["session_start resume", "resources_discover startup"], appended: ["resume"] });
	const back = await client.getState();
	expect(back).toMatchObject({ sessionFile: first.sessionFile, sessionId: first.sessionId, sessionName: "refactor auth" });
}, T);

test("extension commands and dialogs: getCommands, a prompt that runs a command is handled, select/confirm/input/editor answered", async () => {
	await using world = await mockWorld();
	const ext = world.write("project/ext/survey.ts", EXTENSION);
	const { client, answer } = await start(world, ["-ne", "--no-session", "-e", ext]);
	const commands = await client.getCommands();
	expect(commands).toEqual([{ name: "survey", description: "Ask four questions", source: "extension", sourceInfo: expect.objectContaining({ path: ext }) }]);

	// Each dialog is answered as it opens; the command reports what it got.
	const asked: any[] = [];
	const off = client.onEvent((e: any) => {
		if (e.type !== "extension_ui_request") return;
		asked.push(e);
		if (e.method === "select") answer({ id: e.id, value: "green" });
		if (e.method === "confirm") answer({ id: e.id, confirmed: true });
		if (e.method === "input") answer({ id: e.id, value: "feature/auth" });
		if (e.method === "editor") answer({ id: e.id, value: `${e.prefill}2. fix\n` });
	});
	const report = nextEvent(client, (e) => e.type === "extension_ui_request" && e.method === "notify" && e.message.startsWith("survey"));
	expect(await client.prompt("/survey")).toBe("handled");
	expect((await report).message).toBe(`survey ${JSON.stringify({ colour: "green", sure: true, name: "feature/auth", plan: "1. read\n2. fix\n" })}`);
	off();
	expect(asked.filter((e) => e.method !== "notify").map((e) => ({ method: e.method, title: e.title }))).toEqual([
		{ method: "select", title: "Pick a colour" },
		{ method: "confirm", title: "Sure?" },
		{ method: "input", title: "Branch name?" },
		{ method: "editor", title: "Edit the plan" },
	]);
	expect(asked.find((e) => e.method === "select").options).toEqual(["red", "green"]);
	expect(asked.find((e) => e.method === "confirm")).toMatchObject({ message: "It cannot be undone.", timeout: 30000 });
	expect(asked.find((e) => e.method === "input").placeholder).toBe("feature/...");
	// Extension commands cannot wait in a queue.
	await expect(client.steer("/survey")).rejects.toThrow('Extension command "/survey" cannot be queued');
	// No model request was needed for any of it.
	expect(world.mock.requests).toHaveLength(0);
}, T);
