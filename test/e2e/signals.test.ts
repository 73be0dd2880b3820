// SIGTERM and SIGHUP end a run the way SIGINT does (issue 12, defect 5): the running bash command's
// whole process group is killed, extensions get session_shutdown, and the exit code is 143 / 129 /
// 130 — in print, json and rpc mode, through the compiled binary.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { agentBinary } from "../support/agent.ts";
import { killAll, processAlive, until } from "../support/processes.ts";
import { MODEL, type MockWorld, mockWorld } from "../support/world.ts";

/** An extension recording session_shutdown, and a bash call that starts a child and a grandchild. */
function setUp(world: MockWorld): { ext: string; log: string; pids: string } {
	const log = join(world.root, "shutdown.log");
	const ext = world.write(
		"project/record.ts",
		`import { appendFileSync } from "node:fs";
export default function (pi) { pi.on("session_shutdown", (e) => appendFileSync(${JSON.stringify(log)}, "shutdown " + e.reason + "\\n")); }
`,
	);
	const pids = join(world.cwd, "pids");
	// The shell, and a sleep in the background of a subshell (a grandchild that outlives a plain kill of the shell).
	const command = "(sleep 300 & echo $! >> pids; wait) & echo $$ >> pids; sleep 300";
	world.mock.script({ toolCalls: [{ id: "call_1", name: "bash", arguments: { command } }] });
	return { ext, log, pids };
}

function readPids(file: string): number[] {
	return existsSync(file) ? readFileSync(file, "utf8").trim().split("\n").filter(Boolean).map(Number) : [];
}

const CASES: { signal: NodeJS.Signals; code: number }[] = [
	{ signal: "SIGTERM", code: 143 },
	{ signal: "SIGHUP", code: 129 },
	{ signal: "SIGINT", code: 130 },
];

for (const mode of ["print", "json", "rpc"] as const) {
	describe(`${mode} mode`, () => {
		for (const { signal, code } of CASES) {
			test(`${signal} while bash runs: every process of the command is gone, session_shutdown ran, exit ${code}`, async () => {
				await using world = await mockWorld();
				const { ext, log, pids } = setUp(world);
				const argv = ["-ne", "-e", ext, "--model", MODEL.openai, ...(mode === "rpc" ? ["--mode", "rpc"] : mode === "json" ? ["--mode", "json", "-p", "go"] : ["-p", "go"])];
				const proc = Bun.spawn([agentBinary(), ...argv], { cwd: world.cwd, env: world.environment(), stdin: mode === "rpc" ? "pipe" : "ignore", stdout: "pipe", stderr: "pipe" });
				try {
					if (mode === "rpc") {
						(proc.stdin as import("bun").FileSink).write('{"type":"prompt","id":"p","message":"go"}\n');
						(proc.stdin as import("bun").FileSink).flush();
					}
					await until(() => readPids(pids).length === 2, "bash and its grandchild to start");
					const started = readPids(pids);
					for (const pid of started) expect(processAlive(pid)).toBe(true);
					proc.kill(signal);
					expect(await proc.exited).toBe(code);
					await until(() => started.every((pid) => !processAlive(pid)), `processes ${started.join(", ")} to be gone`);
					expect(readFileSync(log, "utf8")).toBe("shutdown quit\n");
				} finally {
					proc.kill("SIGKILL");
					killAll(readPids(pids));
				}
			});
		}
	});
}

test("rpc: SIGTERM during a person's bash command (the `bash` command, as `!cmd`) ends it too", async () => {
	await using world = await mockWorld();
	const pids = join(world.cwd, "pids");
	const proc = Bun.spawn([agentBinary(), "-ne", "--model", MODEL.openai, "--mode", "rpc"], { cwd: world.cwd, env: world.environment(), stdin: "pipe", stdout: "pipe", stderr: "pipe" });
	try {
		proc.stdin.write(`${JSON.stringify({ type: "bash", id: "b", command: "(sleep 300 & echo $! >> pids; wait) & echo $$ >> pids; sleep 300" })}\n`);
		proc.stdin.flush();
		await until(() => readPids(pids).length === 2, "the command and its grandchild to start");
		const started = readPids(pids);
		proc.kill("SIGTERM");
		expect(await proc.exited).toBe(143);
		await until(() => started.every((pid) => !processAlive(pid)), `processes ${started.join(", ")} to be gone`);
	} finally {
		proc.kill("SIGKILL");
		killAll(readPids(pids));
	}
});
