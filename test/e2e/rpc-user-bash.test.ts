// rpc `bash` fires user_bash as `!cmd` does in the REPL (issue 13): a handler may run the command
// elsewhere (operations, whose output still streams as bash_execution_update with the command's
// id) or answer it whole (result: kept, answered, nothing streamed); with no decision it runs here.
import { expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { readLog, writeExtension } from "../support/runtime.ts";
import { RpcAgent } from "../support/rpc.ts";
import { MODEL, mockWorld } from "../support/world.ts";

test("rpc bash: user_bash sees the command; operations stream, a result is answered as is, no decision runs locally", async () => {
	await using world = await mockWorld();
	const ext = writeExtension(
		world,
		"remote-bash",
		`export default function (pi) {
	pi.on("user_bash", (e) => {
		log({ command: e.command, excludeFromContext: e.excludeFromContext, cwd: e.cwd === process.cwd() });
		if (e.command.startsWith("remote ")) {
			return { operations: { exec: async (command, _cwd, { onData }) => { onData(Buffer.from("remote says: ")); onData(Buffer.from(command.slice(7) + "\\n")); return { exitCode: 0 }; } } };
		}
		if (e.command === "canned") return { result: { output: "from the handler\\n", exitCode: 7, cancelled: false, truncated: false } };
	});
}
`,
	);
	await using rpc = new RpcAgent(world, ["-ne", "-e", ext, "--model", MODEL.openai, "--no-session"], { EXT_LOG: `${world.root}/ext-log.jsonl` });
	const remote = await rpc.request({ type: "bash", command: "remote hello" });
	expect(remote).toEqual({ id: "req-1", type: "response", command: "bash", success: true, data: { output: "remote says: hello\n", exitCode: 0, cancelled: false, truncated: false } });
	const streamed = rpc.records.filter((r) => r.type === "bash_execution_update");
	expect(streamed.every((u) => u.id === "req-1")).toBe(true);
	expect(streamed.map((u) => u.delta).join("")).toBe("remote says: hello\n");
	const canned = await rpc.request({ type: "bash", command: "canned", excludeFromContext: true });
	expect(canned.data).toEqual({ output: "from the handler\n", exitCode: 7, cancelled: false, truncated: false });
	expect(rpc.records.filter((r) => r.type === "bash_execution_update").length).toBe(streamed.length);
	const local = await rpc.request({ type: "bash", command: "echo local" });
	expect(local.data).toMatchObject({ output: "local\n", exitCode: 0 });
	expect(readLog(world)).toEqual([
		{ command: "remote hello", excludeFromContext: false, cwd: true },
		{ command: "canned", excludeFromContext: true, cwd: true },
		{ command: "echo local", excludeFromContext: false, cwd: true },
	]);
	const messages = (await rpc.request({ type: "get_messages" })).data.messages;
	expect(messages.map((m: any) => [m.role, m.command, m.output, m.exitCode, m.excludeFromContext ?? false])).toEqual([
		["bashExecution", "remote hello", "remote says: hello\n", 0, false],
		["bashExecution", "canned", "from the handler\n", 7, true],
		["bashExecution", "echo local", "local\n", 0, false],
	]);
	expect(await rpc.end()).toBe(0);
});

test("rpc bash: a user_bash handler that throws fails the command with its message; nothing runs", async () => {
	await using world = await mockWorld();
	const ext = writeExtension(world, "deny-bash", `export default function (pi) { pi.on("user_bash", () => { throw new Error("no shell for you"); }); }\n`);
	await using rpc = new RpcAgent(world, ["-ne", "-e", ext, "--model", MODEL.openai, "--no-session"], { EXT_LOG: `${world.root}/ext-log.jsonl` });
	const r = await rpc.request({ type: "bash", command: "touch should-not-exist" });
	expect(r.success).toBe(false);
	expect(r.error).toContain("no shell for you");
	expect(existsSync(join(world.cwd, "should-not-exist"))).toBe(false);
	expect((await rpc.request({ type: "get_messages" })).data.messages).toEqual([]);
	expect(await rpc.end()).toBe(0);
});
