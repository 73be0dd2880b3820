// rpc state, model, thinking, compaction flags and session commands through the binary: exact
// response shapes, errors that say what to do, and session files that follow new/switch/fork/clone.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { RpcAgent } from "../support/rpc.ts";
import { MODEL, mockWorld, type MockWorld } from "../support/world.ts";

const T = 30_000;

function start(world: MockWorld, ...extra: string[]): RpcAgent {
	return new RpcAgent(world, ["--model", MODEL.openai, ...extra]);
}

async function run(rpc: RpcAgent, message: string): Promise<void> {
	const from = rpc.records.length;
	await rpc.request({ type: "prompt", message });
	await rpc.event("agent_end", from);
}

test("get_state, get_messages, get_session_stats and get_last_assistant_text describe the session", async () => {
	await using world = await mockWorld();
	world.mock.script({ text: "hi there", usage: { input: 12, output: 7 } });
	await using rpc = start(world);
	const before = await rpc.request({ type: "get_state" });
	expect(before.data).toEqual({
		model: expect.objectContaining({ provider: "mock", id: "mock-model", api: "openai-completions" }),
		thinkingLevel: "off",
		isStreaming: false,
		isCompacting: false,
		steeringMode: "all",
		followUpMode: "all",
		sessionFile: expect.stringMatching(/\.jsonl$/),
		sessionId: expect.any(String),
		autoCompactionEnabled: true,
		messageCount: 0,
		pendingMessageCount: 0,
		// What the client talks to: pi 1.6's protocol (2), spoken by this agent.
		protocolVersion: 2,
		agentVersion: expect.stringMatching(/^\d+\.\d+\.\d+/),
	});
	expect((await rpc.request({ type: "get_last_assistant_text" })).data).toEqual({ text: null });
	await run(rpc, "hello");
	const messages = (await rpc.request({ type: "get_messages" })).data.messages;
	expect(messages).toMatchObject([
		{ role: "user", content: "hello" },
		{ role: "assistant", content: [{ type: "text", text: "hi there" }], stopReason: "stop" },
	]);
	expect((await rpc.request({ type: "get_state" })).data).toMatchObject({ messageCount: 2, sessionFile: before.data.sessionFile, sessionId: before.data.sessionId });
	expect(existsSync(before.data.sessionFile)).toBe(true);
	const stats = await rpc.request({ type: "get_session_stats" });
	expect(stats.data).toEqual({
		sessionFile: before.data.sessionFile,
		sessionId: before.data.sessionId,
		userMessages: 1,
		assistantMessages: 1,
		toolCalls: 0,
		toolResults: 0,
		totalMessages: 2,
		tokens: { input: 12, output: 7, cacheRead: 0, cacheWrite: 0, total: 19 },
		cost: 0,
		contextUsage: { tokens: 19, contextWindow: 100000, percent: 0.019 },
	});
	expect((await rpc.request({ type: "get_last_assistant_text" })).data).toEqual({ text: "hi there" });
	expect(await rpc.end()).toBe(0);
}, T);

test("models: list, set, cycle in list order, unknown model; the next prompt uses the model set", async () => {
	await using world = await mockWorld();
	world.mock.script({ text: "from anthropic" });
	await using rpc = start(world, "--no-session");
	const models: { provider: string; id: string }[] = (await rpc.request({ type: "get_available_models" })).data.models;
	const names = models.map((m) => `${m.provider}/${m.id}`);
	expect(names).toContain(MODEL.openai);
	expect(names).toContain(MODEL.anthropic);

	const set = await rpc.request({ type: "set_model", provider: "mock-anthropic", modelId: "mock-model" });
	expect(set).toMatchObject({ type: "response", command: "set_model", success: true, data: { provider: "mock-anthropic", id: "mock-model", reasoning: true } });
	await run(rpc, "which model?");
	expect(world.mock.lastRequest().protocol).toBe("anthropic");

	const missing = await rpc.request({ type: "set_model", provider: "mock", modelId: "nope" });
	expect(missing.error).toBe("Model not found: mock/nope (get_available_models lists the models you can use).");

	const current = names.indexOf(MODEL.anthropic);
	const cycled = await rpc.request({ type: "cycle_model" });
	const expected = models[(current + 1) % models.length]!;
	expect(cycled.data).toEqual({ model: expect.objectContaining({ provider: expected.provider, id: expected.id }), thinkingLevel: expect.any(String), isScoped: false });
	const state = (await rpc.request({ type: "get_state" })).data;
	expect(`${state.model.provider}/${state.model.id}`).toBe(`${expected.provider}/${expected.id}`);
	expect(await rpc.end()).toBe(0);
}, T);

test("--models scopes cycle_model to the listed models (globs too); a pattern matching nothing is an error", async () => {
	await using world = await mockWorld();
	await using rpc = new RpcAgent(world, ["--model", MODEL.openai, "--models", `${MODEL.openai},mock-anthropic/*`, "--no-session"]);
	const first = await rpc.request({ type: "cycle_model" });
	expect(first.data).toEqual({ model: expect.objectContaining({ provider: "mock-anthropic", id: "mock-model" }), thinkingLevel: expect.any(String), isScoped: true });
	const second = await rpc.request({ type: "cycle_model" });
	expect(second.data.model).toEqual(expect.objectContaining({ provider: "mock", id: "mock-model" }));
	expect(await rpc.end()).toBe(0);
	const bad = await world.run(["--model", MODEL.openai, "--models", "nothing-*", "-p", "hi"]);
	expect(bad.code).toBe(1);
	expect(bad.stderr).toBe('Error: --models: no available model matches "nothing-*".\n"agent --list-models" shows the models you can use.\n');
}, T);

test("thinking levels: set and cycle on a reasoning model, clamped to off and null on one without", async () => {
	await using world = await mockWorld();
	await using rpc = new RpcAgent(world, ["--model", MODEL.anthropic, "--no-session"]);
	expect(await rpc.request({ type: "set_thinking_level", level: "high" })).toEqual({ id: "req-1", type: "response", command: "set_thinking_level", success: true });
	expect((await rpc.request({ type: "get_state" })).data.thinkingLevel).toBe("high");
	// The mock model maps no xhigh, so after high comes off.
	expect((await rpc.request({ type: "cycle_thinking_level" })).data).toEqual({ level: "off" });
	expect((await rpc.request({ type: "cycle_thinking_level" })).data).toEqual({ level: "minimal" });
	expect((await rpc.request({ type: "set_thinking_level", level: "loud" })).error).toBe(
		'Invalid set_thinking_level command: "level" must be one of "off", "minimal", "low", "medium", "high", "xhigh", "max"',
	);
	await rpc.request({ type: "set_model", provider: "mock", modelId: "mock-model" });
	expect((await rpc.request({ type: "get_state" })).data.thinkingLevel).toBe("off");
	const none = await rpc.request({ type: "cycle_thinking_level" });
	expect(none).toEqual({ id: "req-8", type: "response", command: "cycle_thinking_level", success: true, data: null });
	await rpc.request({ type: "set_thinking_level", level: "high" });
	expect((await rpc.request({ type: "get_state" })).data.thinkingLevel).toBe("off");
	expect(await rpc.end()).toBe(0);
}, T);

test("compaction: nothing to compact at first; then compact answers the result; set_auto_compaction flips the flag", async () => {
	await using world = await mockWorld();
	await using rpc = start(world, "--no-session");
	expect(await rpc.request({ type: "compact", customInstructions: "keep the tests" })).toEqual({
		id: "req-1",
		type: "response",
		command: "compact",
		success: false,
		error: "Nothing to compact (session too small)",
	});
	world.mock.script({ text: "one" }, { text: "two" }, { text: "The summary." });
	await run(rpc, "first question");
	await run(rpc, "second question");
	const compacted = await rpc.request({ type: "compact", customInstructions: "keep the tests" });
	expect(compacted.data).toEqual({ summary: "The summary.", firstKeptEntryId: expect.any(String), tokensBefore: expect.any(Number), details: { readFiles: [], modifiedFiles: [] } });
	expect(world.mock.lastRequest().rawBody).toContain("The user asks you to focus on this: keep the tests");
	expect((await rpc.request({ type: "get_state" })).data).toMatchObject({ isCompacting: false, messageCount: 3 });
	expect((await rpc.request({ type: "set_auto_compaction", enabled: false })).success).toBe(true);
	expect((await rpc.request({ type: "get_state" })).data.autoCompactionEnabled).toBe(false);
	expect(await rpc.end()).toBe(0);
}, T);

test("new_session, fork, clone, switch_session and get_fork_messages move between session files", async () => {
	await using world = await mockWorld();
	world.mock.script({ text: "one" }, { text: "two" });
	await using rpc = start(world);
	await run(rpc, "first question");
	await run(rpc, "second question");
	const original = (await rpc.request({ type: "get_state" })).data.sessionFile;
	const forks = (await rpc.request({ type: "get_fork_messages" })).data.messages;
	expect(forks).toEqual([
		{ entryId: expect.any(String), text: "first question" },
		{ entryId: expect.any(String), text: "second question" },
	]);

	// clone: a copy of the whole current branch in another file.
	expect((await rpc.request({ type: "clone" })).data).toEqual({ cancelled: false });
	const cloned = (await rpc.request({ type: "get_state" })).data;
	expect(cloned.sessionFile).not.toBe(original);
	expect(cloned.messageCount).toBe(4);

	expect((await rpc.request({ type: "switch_session", sessionPath: original })).data).toEqual({ cancelled: false });
	expect((await rpc.request({ type: "get_state" })).data).toMatchObject({ sessionFile: original, messageCount: 4 });

	// fork before the second question: its text comes back to edit, the conversation stops short of it.
	const forked = await rpc.request({ type: "fork", entryId: forks[1].entryId });
	expect(forked.data).toEqual({ text: "second question", cancelled: false });
	const afterFork = (await rpc.request({ type: "get_state" })).data;
	expect(afterFork.sessionFile).not.toBe(original);
	expect(afterFork.sessionFile).not.toBe(cloned.sessionFile);
	expect(afterFork.messageCount).toBe(2);
	expect((await rpc.request({ type: "get_last_assistant_text" })).data).toEqual({ text: "one" });

	const missing = join(world.cwd, "nope.jsonl");
	expect((await rpc.request({ type: "switch_session", sessionPath: "nope.jsonl" })).error).toBe(`Session file not found: ${missing}`);
	expect((await rpc.request({ type: "fork", entryId: "no-such-entry" })).error).toBe("No entry with id no-such-entry in this session.");

	expect((await rpc.request({ type: "new_session" })).data).toEqual({ cancelled: false });
	const fresh = (await rpc.request({ type: "get_state" })).data;
	expect(fresh.messageCount).toBe(0);
	expect(fresh.sessionId).not.toBe(cloned.sessionId);
	expect((await rpc.request({ type: "clone" })).error).toBe("Cannot clone session: no current entry selected (the session has no entries yet).");
	expect(await rpc.end()).toBe(0);
}, T);

test("an extension can cancel new_session; set_session_name names the session; get_commands lists extension commands", async () => {
	await using world = await mockWorld();
	const ext = world.write(
		"project/guard.ts",
		`export default function (pi) {
	pi.on("session_before_switch", () => ({ cancel: true }));
	pi.registerCommand("deploy", { description: "Ship it", handler: async () => {} });
}
`,
	);
	await using rpc = start(world, "--no-session", "-e", ext);
	expect((await rpc.request({ type: "new_session" })).data).toEqual({ cancelled: true });
	expect(await rpc.request({ type: "set_session_name", name: "  refactor auth  " })).toEqual({ id: "req-2", type: "response", command: "set_session_name", success: true });
	expect((await rpc.request({ type: "get_state" })).data.sessionName).toBe("refactor auth");
	expect((await rpc.request({ type: "set_session_name", name: "   " })).error).toBe("Session name cannot be empty.");
	const commands = await rpc.request({ type: "get_commands" });
	expect(commands.data).toEqual({
		commands: [{ name: "deploy", description: "Ship it", source: "extension", sourceInfo: expect.objectContaining({ path: ext, source: "cli", scope: "temporary" }) }],
	});
	expect(await rpc.end()).toBe(0);
}, T);

test("the session cannot be replaced mid-run", async () => {
	await using world = await mockWorld();
	world.mock.script({ hang: true });
	await using rpc = start(world, "--no-session");
	await rpc.request({ type: "prompt", message: "hang" });
	await rpc.event("message_update");
	expect((await rpc.request({ type: "new_session" })).error).toBe("Cannot replace the session while the agent is running; abort first.");
	await rpc.request({ type: "abort" });
	expect(await rpc.end()).toBe(0);
}, T);
