// rpc mode framing and lifecycle through the binary: responses and errors for every kind of bad
// line, U+2028 inside strings, CRLF, no header line, end of stdin, signals, stdout kept clean.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { agentBinary } from "../support/agent.ts";
import { heldTurn } from "../support/held-turn.ts";
import { readMessages } from "../support/mock-llm.ts";
import { RpcAgent } from "../support/rpc.ts";
import { MODEL, mockWorld, type MockWorld } from "../support/world.ts";

const T = 30_000;

/** An extension that appends "shutdown <reason>" (and whatever `more` logs) to a file, one line each. */
function loggingExtension(world: MockWorld, more = ""): { ext: string; log: string } {
	const log = join(world.root, "events.log");
	const ext = world.write(
		"project/ext.ts",
		`import { appendFileSync } from "node:fs";
const log = (line) => appendFileSync(${JSON.stringify(log)}, line + "\\n");
export default function (pi) {
	pi.on("session_shutdown", (e) => log("shutdown " + e.reason));
	${more}
}
`,
	);
	return { ext, log };
}

test("bad lines are answered and the agent keeps going; no session header line", async () => {
	await using world = await mockWorld();
	await using rpc = new RpcAgent(world, ["--model", MODEL.openai, "--no-session"]);
	rpc.send("this is not json\n");
	rpc.send('{"type":"get_state","id":"cut\n');
	rpc.send('{"type":"get_state","id":"cut-2","extra":\n');
	rpc.send("[1,2]\n");
	rpc.send('{"id":"x1","no":"type"}\n');
	rpc.send('{"type":"launch_rockets","id":"x2"}\n');
	rpc.send('{"type":"set_steering_mode","id":"x3","mode":"sometimes"}\n');
	rpc.send('{"type":"prompt","id":"x4"}\n');
	rpc.send('{"type":"set_auto_retry","id":"x5","enabled":"yes"}\n');
	rpc.send('{"type":"get_last_assistant_text","id":7}\n');
	rpc.send("\n   \n");
	const state = await rpc.request({ type: "get_state" });
	expect(state.success).toBe(true);
	// Every line that names an id gets it back, so a client waiting on it is answered.
	expect(rpc.records.slice(0, 10)).toEqual([
		{ type: "response", command: "parse", success: false, error: 'Failed to parse command: JSON Parse error: Unexpected identifier "this"' },
		{ type: "response", command: "parse", success: false, error: "Failed to parse command: JSON Parse error: Unterminated string" },
		{ id: "cut-2", type: "response", command: "parse", success: false, error: "Failed to parse command: JSON Parse error: Unexpected EOF" },
		{ type: "response", command: "parse", success: false, error: 'Failed to parse command: expected a JSON object with a string "type", got [1,2]' },
		{ id: "x1", type: "response", command: "parse", success: false, error: 'Failed to parse command: expected a JSON object with a string "type", got {"id":"x1","no":"type"}' },
		{ id: "x2", type: "response", command: "launch_rockets", success: false, error: "Unknown command: launch_rockets" },
		{ id: "x3", type: "response", command: "set_steering_mode", success: false, error: 'Invalid set_steering_mode command: "mode" must be one of "all", "one-at-a-time"' },
		{ id: "x4", type: "response", command: "prompt", success: false, error: 'Invalid prompt command: missing "message"' },
		{ id: "x5", type: "response", command: "set_auto_retry", success: false, error: 'Invalid set_auto_retry command: "enabled" must be boolean' },
		{ id: 7, type: "response", command: "get_last_assistant_text", success: true, data: { text: null } },
	]);
	expect(rpc.records).toHaveLength(11);
	expect(await rpc.end()).toBe(0);
	expect(rpc.badLines).toEqual([]);
	expect(world.mock.requests).toHaveLength(0);
}, T);

test("U+2028 and U+2029 inside a message survive both ways; CRLF lines are read", async () => {
	await using world = await mockWorld();
	world.mock.script({ text: "back\u2028at\u2029you" });
	await using rpc = new RpcAgent(world, ["--model", MODEL.openai, "--no-session"]);
	rpc.send(`{"type":"prompt","id":"p1","message":"line\u2028sep\u2029para"}\r\n`);
	await rpc.event("agent_end");
	expect(readMessages(world.mock.lastRequest()).at(-1)).toEqual({ role: "user", text: "line\u2028sep\u2029para" });
	const text = await rpc.request({ type: "get_last_assistant_text" });
	expect(text.data).toEqual({ text: "back\u2028at\u2029you" });
	expect(rpc.records[0]).toEqual({ id: "p1", type: "response", command: "prompt", success: true, data: { disposition: "started" } });
	expect(await rpc.end()).toBe(0);
	expect(rpc.badLines).toEqual([]);
}, T);

test("protocol lines escape U+2028/2029, so even a client that splits on them reads each record whole", async () => {
	await using world = await mockWorld();
	await using rpc = new RpcAgent(world, ["--model", MODEL.openai, "--no-session"]);
	await rpc.request({ type: "set_session_name", name: "a\u2028b\u2029c" });
	const state = await rpc.request({ type: "get_state" });
	expect(state.data.sessionName).toBe("a\u2028b\u2029c");
	expect(rpc.stdout).toContain('"sessionName":"a\\u2028b\\u2029c"');
	expect(rpc.stdout).not.toMatch(/[\u2028\u2029]/);
	expect(await rpc.end()).toBe(0);
}, T);

test("end of stdin: the run in flight finishes, session_shutdown reaches extensions, exit 0", async () => {
	await using world = await mockWorld();
	const { ext, log } = loggingExtension(world, `pi.on("agent_end", () => { log("agent_end"); console.log("extension output goes to stderr"); });`);
	const held = heldTurn("finished after stdin closed");
	world.mock.script(held.turn);
	await using rpc = new RpcAgent(world, ["--model", MODEL.openai, "--no-session", "-e", ext]);
	await rpc.request({ type: "prompt", message: "hi" });
	await rpc.event("agent_start");
	const ended = rpc.end();
	// Let the agent see the end of its input while the run waits; the outcome is asserted either way.
	await Bun.sleep(100);
	held.release();
	expect(await ended).toBe(0);
	expect(rpc.all("message_end").at(-1)?.message.content).toEqual([{ type: "text", text: "finished after stdin closed" }]);
	expect(readFileSync(log, "utf8")).toBe("agent_end\nshutdown quit\n");
	expect(rpc.stderr).toContain("extension output goes to stderr\n");
	expect(rpc.badLines).toEqual([]);
}, T);

test("SIGTERM aborts the run and exits 143 after session_shutdown", async () => {
	await using world = await mockWorld();
	const { ext, log } = loggingExtension(world);
	world.mock.script({ hang: true });
	await using rpc = new RpcAgent(world, ["--model", MODEL.openai, "--no-session", "-e", ext]);
	await rpc.request({ type: "prompt", message: "hang" });
	await rpc.event("message_update");
	rpc.kill("SIGTERM");
	expect(await rpc.exited).toBe(143);
	expect(readFileSync(log, "utf8")).toBe("shutdown quit\n");
	expect(rpc.all("agent_end")).toHaveLength(1);
	expect(world.mock.openStreams).toBe(0);
}, T);

test("a client that stops reading stdout does not break the run: the session is saved and the exit is clean", async () => {
	await using world = await mockWorld();
	world.mock.script({ text: "nobody reads this" });
	// `head -n 1` takes the first line and leaves: every later write to stdout meets a closed pipe.
	const script = `"$0" --mode rpc --model ${MODEL.openai} | head -n 1 > first.txt; echo "\${PIPESTATUS[0]}" > code.txt`;
	const proc = Bun.spawn(["bash", "-c", script, agentBinary()], { cwd: world.cwd, env: world.environment(), stdin: "pipe", stdout: "ignore", stderr: "pipe" });
	try {
		proc.stdin.write('{"type":"get_state","id":"s"}\n');
		proc.stdin.flush();
		const first = join(world.cwd, "first.txt");
		for (let i = 0; i < 2000 && !(existsSync(first) && readFileSync(first, "utf8").endsWith("\n")); i++) await Bun.sleep(10);
		expect(JSON.parse(readFileSync(first, "utf8"))).toMatchObject({ id: "s", command: "get_state", success: true });
		proc.stdin.write('{"type":"prompt","id":"p","message":"anyone there?"}\n');
		await proc.stdin.end();
		expect(await proc.exited).toBe(0);
		expect(readFileSync(join(world.cwd, "code.txt"), "utf8")).toBe("0\n");
		const sessions = new Bun.Glob("**/*.jsonl").scanSync({ cwd: join(world.agentDir, "sessions"), absolute: true });
		const lines = [...sessions].flatMap((f) => readFileSync(f, "utf8").trim().split("\n").map((l) => JSON.parse(l)));
		expect(lines.filter((l) => l.type === "message").map((l) => l.message.role)).toEqual(["user", "assistant"]);
	} finally {
		if (proc.exitCode === null) proc.kill("SIGKILL");
	}
}, T);
