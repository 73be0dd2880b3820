// rpc prompting through the binary against the mock LLM: a streamed run with a tool call, steering
// and follow-ups mid-run, queue modes, abort (no process left behind), extension commands while
// streaming, user bash, and auto-retry with abort_retry.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { heldTurn } from "../support/held-turn.ts";
import { readMessages } from "../support/mock-llm.ts";
import { processAlive, until } from "../support/processes.ts";
import { isAlive, RpcAgent, type RpcRecord } from "../support/rpc.ts";
import { MODEL, mockWorld, type MockWorld } from "../support/world.ts";

const T = 30_000;


/** Event types in order, runs of message_update folded into one; tool output updates left out (their count depends on timing). */
function eventTypes(records: RpcRecord[]): string[] {
	const out: string[] = [];
	for (const r of records) {
		if (r.type === "tool_execution_update") continue;
		const label = r.type === "message_start" || r.type === "message_end" ? `${r.type}:${r.message.role}` : r.type === "response" ? `response:${r.command}` : r.type;
		if (out.at(-1) !== label || !label.endsWith("_update")) out.push(label);
	}
	return out;
}

/** The file's text once a whole line is in it (the shell creates the file before it writes). */
async function waitForFile(path: string): Promise<string> {
	for (let i = 0; i < 2000 && !(existsSync(path) && readFileSync(path, "utf8").endsWith("\n")); i++) await Bun.sleep(10);
	return readFileSync(path, "utf8").trim();
}

function start(world: MockWorld, ...extra: string[]): RpcAgent {
	return new RpcAgent(world, ["--model", MODEL.openai, "--no-session", ...extra]);
}

test("a streamed prompt with a tool call: response first, then every event of the run", async () => {
	await using world = await mockWorld();
	world.mock.script({ toolCalls: [{ name: "bash", arguments: { command: "echo hello" } }] }, { text: "It printed hello." });
	await using rpc = start(world);
	const response = await rpc.request({ type: "prompt", message: "run echo" });
	expect(response).toEqual({ id: "req-1", type: "response", command: "prompt", success: true, data: { disposition: "started" } });
	await rpc.event("agent_settled");
	expect(eventTypes(rpc.records)).toEqual([
		"response:prompt",
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
	const end = await rpc.event("tool_execution_end");
	expect(end).toMatchObject({ toolName: "bash", isError: false, result: { content: [{ type: "text", text: "hello" }] } });
	const deltas = rpc.all("message_update").map((r) => r.assistantMessageEvent.type);
	expect(deltas).toContain("text_delta");
	expect(deltas).toContain("toolcall_end");
	expect(readMessages(world.mock.lastRequest()).at(-1)).toMatchObject({ role: "toolResult", text: "hello" });
	expect((await rpc.request({ type: "get_last_assistant_text" })).data).toEqual({ text: "It printed hello." });
	expect(await rpc.end()).toBe(0);
}, T);

test("steer mid-run reaches the model before the next request; follow_up waits until the run would stop", async () => {
	await using world = await mockWorld();
	const first = heldTurn({ text: "first answer" });
	world.mock.script(first.turn, { text: "saw the steer" }, { text: "saw the follow-up" });
	await using rpc = start(world);
	await rpc.request({ type: "prompt", message: "start" });
	expect((await rpc.request({ type: "follow_up", message: "and then this" })).success).toBe(true);
	expect((await rpc.request({ type: "steer", message: "change course" })).success).toBe(true);
	expect(rpc.all("queue_update").at(-1)).toEqual({ type: "queue_update", steering: ["change course"], followUp: ["and then this"] });
	const state = await rpc.request({ type: "get_state" });
	expect(state.data).toMatchObject({ isStreaming: true, pendingMessageCount: 2 });
	first.release();
	await rpc.event("agent_end");
	expect(rpc.all("agent_start")).toHaveLength(1);
	const [, second, third] = world.mock.requests.map(readMessages);
	expect(second!.slice(-3)).toMatchObject([
		{ role: "user", text: "start" },
		{ role: "assistant", text: "first answer" },
		{ role: "user", text: "change course" },
	]);
	expect(third!.slice(-2)).toMatchObject([
		{ role: "assistant", text: "saw the steer" },
		{ role: "user", text: "and then this" },
	]);
	expect(rpc.all("queue_update").at(-1)).toEqual({ type: "queue_update", steering: [], followUp: [] });
	expect(await rpc.end()).toBe(0);
}, T);

test("set_steering_mode one-at-a-time delivers one steering message per request; all delivers them together", async () => {
	await using world = await mockWorld();
	const first = heldTurn({ text: "a" });
	world.mock.script(first.turn, { text: "b" }, { text: "c" });
	await using rpc = start(world);
	expect(await rpc.request({ type: "set_steering_mode", mode: "one-at-a-time" })).toEqual({ id: "req-1", type: "response", command: "set_steering_mode", success: true });
	expect((await rpc.request({ type: "get_state" })).data.steeringMode).toBe("one-at-a-time");
	await rpc.request({ type: "prompt", message: "go" });
	await rpc.request({ type: "steer", message: "s1" });
	await rpc.request({ type: "steer", message: "s2" });
	first.release();
	await rpc.event("agent_end");
	const seen = world.mock.requests.map((r) => readMessages(r).at(-1)!.text);
	expect(seen).toEqual(["go", "s1", "s2"]);

	const again = heldTurn({ text: "d" });
	world.mock.script(again.turn, { text: "e" });
	await rpc.request({ type: "set_steering_mode", mode: "all" });
	const from = rpc.records.length;
	await rpc.request({ type: "prompt", message: "go again" });
	await rpc.request({ type: "steer", message: "s3" });
	await rpc.request({ type: "steer", message: "s4" });
	again.release();
	await rpc.event("agent_end", from);
	expect(readMessages(world.mock.lastRequest()).slice(-2)).toEqual([
		{ role: "user", text: "s3" },
		{ role: "user", text: "s4" },
	]);
	expect(world.mock.requests).toHaveLength(5);
	expect(await rpc.end()).toBe(0);
}, T);

test("set_follow_up_mode one-at-a-time runs one follow-up per extra turn", async () => {
	await using world = await mockWorld();
	const first = heldTurn({ text: "a" });
	world.mock.script(first.turn, { text: "b" }, { text: "c" });
	await using rpc = start(world);
	await rpc.request({ type: "set_follow_up_mode", mode: "one-at-a-time" });
	expect((await rpc.request({ type: "get_state" })).data.followUpMode).toBe("one-at-a-time");
	await rpc.request({ type: "prompt", message: "go" });
	await rpc.request({ type: "follow_up", message: "f1" });
	await rpc.request({ type: "follow_up", message: "f2" });
	first.release();
	await rpc.event("agent_end");
	expect(world.mock.requests.map((r) => readMessages(r).at(-1)!.text)).toEqual(["go", "f1", "f2"]);
	expect(await rpc.end()).toBe(0);
}, T);

test("a prompt while streaming needs streamingBehavior; with it the prompt is queued", async () => {
	await using world = await mockWorld();
	const first = heldTurn({ text: "a" });
	world.mock.script(first.turn, { text: "b" });
	await using rpc = start(world);
	await rpc.request({ type: "prompt", message: "go" });
	expect(await rpc.request({ type: "prompt", message: "too soon" })).toEqual({
		id: "req-2",
		type: "response",
		command: "prompt",
		success: false,
		error: "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.",
	});
	expect(await rpc.request({ type: "prompt", message: "later", streamingBehavior: "followUp" })).toEqual({ id: "req-3", type: "response", command: "prompt", success: true, data: { disposition: "queued" } });
	first.release();
	await rpc.event("agent_end");
	expect(readMessages(world.mock.lastRequest()).at(-1)).toEqual({ role: "user", text: "later" });
	expect(rpc.all("agent_start")).toHaveLength(1);
	expect(await rpc.end()).toBe(0);
}, T);

test("extension commands run at once from prompt, even while streaming; steer and follow_up refuse them", async () => {
	await using world = await mockWorld();
	const ext = world.write(
		"project/cmd.ts",
		`export default function (pi) {
	pi.registerCommand("hello", { description: "Say hello", handler: async (args, ctx) => { ctx.ui.notify("hello " + args + (ctx.isIdle() ? " (idle)" : " (busy)")); } });
	pi.on("input", (e, ctx) => { ctx.ui.setStatus("input", e.source + ": " + e.text); });
}
`,
	);
	const first = heldTurn({ text: "a" });
	world.mock.script(first.turn);
	await using rpc = start(world, "-e", ext);
	await rpc.request({ type: "prompt", message: "go" });
	expect(await rpc.event("extension_ui_request")).toMatchObject({ method: "setStatus", statusKey: "input", statusText: "rpc: go" });
	const from = rpc.records.length;
	expect(await rpc.request({ type: "prompt", message: "/hello world" })).toMatchObject({ command: "prompt", success: true, data: { disposition: "handled" } });
	expect(await rpc.event("extension_ui_request", from)).toMatchObject({ method: "notify", message: "hello world (busy)" });
	for (const type of ["steer", "follow_up"]) {
		const r = await rpc.request({ type, message: "/hello again" });
		expect(r).toMatchObject({ command: type, success: false });
		expect(r.error).toBe(`Extension command "/hello" cannot be queued as a ${type === "steer" ? "steering" : "follow-up"} message; send it with the prompt command, which runs it at once.`);
	}
	first.release();
	await rpc.event("agent_end");
	expect(world.mock.requests).toHaveLength(1);
	expect(await rpc.end()).toBe(0);
}, T);

test("abort ends a hanging stream; a bash tool's process dies with the run", async () => {
	await using world = await mockWorld();
	const pidFile = join(world.cwd, "tool.pid");
	world.mock.script({ toolCalls: [{ name: "bash", arguments: { command: `echo $$ > ${pidFile}; exec sleep 30` } }] });
	await using rpc = start(world);
	await rpc.request({ type: "prompt", message: "sleep" });
	await rpc.event("tool_execution_start");
	const pid = Number(await waitForFile(pidFile));
	expect(isAlive(pid)).toBe(true);
	const aborted = await rpc.request({ type: "abort" });
	expect(aborted).toEqual({ id: "req-2", type: "response", command: "abort", success: true });
	expect(rpc.records.indexOf(await rpc.event("agent_end"))).toBeLessThan(rpc.records.indexOf(aborted));
	expect(isAlive(pid)).toBe(false);
	expect(await rpc.event("tool_execution_end")).toMatchObject({ isError: true });

	world.mock.script({ hang: true });
	const from = rpc.records.length;
	await rpc.request({ type: "prompt", message: "hang" });
	await rpc.event("message_update", from);
	await rpc.request({ type: "abort" });
	const end = await rpc.event("agent_end", from);
	expect(end.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "aborted" });
	expect((await rpc.request({ type: "get_state" })).data.isStreaming).toBe(false);
	// The connection is closed; the server notices a moment later (on a busy machine, after get_state).
	await until(() => world.mock.openStreams === 0, "the mock to see the aborted stream closed");
	expect(await rpc.end()).toBe(0);
}, T);

test("bash runs a command, streams its output as bash_execution_update with the command's id, and records it for the next prompt", async () => {
	await using world = await mockWorld();
	world.mock.script({ text: "noted" });
	await using rpc = start(world);
	const r = await rpc.request({ type: "bash", command: "echo one; echo two; exit 3" });
	expect(r).toEqual({ id: "req-1", type: "response", command: "bash", success: true, data: { output: "one\ntwo\n", exitCode: 3, cancelled: false, truncated: false } });
	// Every piece of output, in order, tagged with the command's id; then the response.
	const updates = rpc.records.slice(0, -1);
	expect(updates.every((u) => u.type === "bash_execution_update" && u.id === "req-1")).toBe(true);
	expect(updates.map((u) => u.delta).join("")).toBe("one\ntwo\n");
	expect(rpc.records.at(-1)).toBe(r);
	const messages = (await rpc.request({ type: "get_messages" })).data.messages;
	expect(messages).toMatchObject([{ role: "bashExecution", command: "echo one; echo two; exit 3", output: "one\ntwo\n", exitCode: 3 }]);
	await rpc.request({ type: "prompt", message: "what happened?" });
	await rpc.event("agent_end");
	expect(readMessages(world.mock.lastRequest()).slice(-2)).toEqual([
		{ role: "user", text: "Ran `echo one; echo two; exit 3` (exit code 3)\n```\none\ntwo\n\n```" },
		{ role: "user", text: "what happened?" },
	]);
	expect(await rpc.end()).toBe(0);
}, T);

test("abort_bash kills the running command and its process", async () => {
	await using world = await mockWorld();
	const pidFile = join(world.cwd, "bash.pid");
	await using rpc = start(world);
	rpc.send({ type: "bash", id: "b", command: `echo started; echo $$ > ${pidFile}; exec sleep 30` });
	const pid = Number(await waitForFile(pidFile));
	expect(isAlive(pid)).toBe(true);
	expect((await rpc.request({ type: "bash", command: "true" })).error).toBe("A bash command is already running; abort it first.");
	expect(await rpc.request({ type: "abort_bash" })).toEqual({ id: "req-2", type: "response", command: "abort_bash", success: true });
	const result = await rpc.waitFor((x) => x.type === "response" && x.id === "b", "bash response");
	expect(result.data).toEqual({ output: "started\n", exitCode: null, cancelled: true, truncated: false });
	// Killed with its group; a zombie waiting to be reaped counts as gone.
	await until(() => !processAlive(pid), "the aborted command's process to end");
	expect(await rpc.end()).toBe(0);
}, T);

test("auto-retry retries a 503; set_auto_retry false fails at once; abort_retry ends a long wait", async () => {
	await using world = await mockWorld();
	world.mock.script({ status: 503, retryAfter: 0.01 }, { text: "recovered" });
	await using rpc = start(world);
	await rpc.request({ type: "prompt", message: "one" });
	await rpc.event("agent_end");
	expect(await rpc.event("auto_retry_start")).toMatchObject({ attempt: 1, maxAttempts: 3, delayMs: 10 });
	// pi counts retries: the first retry succeeded.
	expect(await rpc.event("auto_retry_end")).toEqual({ type: "auto_retry_end", success: true, attempt: 1 });
	expect((await rpc.request({ type: "get_last_assistant_text" })).data).toEqual({ text: "recovered" });

	expect((await rpc.request({ type: "set_auto_retry", enabled: false })).success).toBe(true);
	world.mock.script({ status: 503 });
	let from = rpc.records.length;
	await rpc.request({ type: "prompt", message: "two" });
	const failed = await rpc.event("agent_end", from);
	expect(failed.messages.at(-1)).toMatchObject({ stopReason: "error" });
	expect(rpc.all("auto_retry_start", from)).toEqual([]);

	await rpc.request({ type: "set_auto_retry", enabled: true });
	world.mock.script({ status: 503, retryAfter: 30 });
	from = rpc.records.length;
	const requestsBefore = world.mock.requests.length;
	await rpc.request({ type: "prompt", message: "three" });
	expect(await rpc.event("auto_retry_start", from)).toMatchObject({ attempt: 1, delayMs: 30_000 });
	expect((await rpc.request({ type: "abort_retry" })).success).toBe(true);
	expect(await rpc.event("auto_retry_end", from)).toEqual({ type: "auto_retry_end", success: false, attempt: 1, finalError: "Retry cancelled" });
	const end = await rpc.event("agent_end", from);
	expect(end.messages.at(-1)).toMatchObject({ role: "assistant", stopReason: "error" });
	expect(world.mock.requests.length - requestsBefore).toBe(1);
	expect(await rpc.end()).toBe(0);
}, T);
