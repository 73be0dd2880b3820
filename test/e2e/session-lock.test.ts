// Two agents on one session file (issue 12, defect 13): the one writing it holds `<file>.lock`; a
// second one continuing it (-c, --session, rpc) is refused with a message saying what to do, never
// a silent fork; a lock whose process was killed (kill -9) is taken over at once; --fork works.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { agentBinary } from "../support/agent.ts";
import { until } from "../support/processes.ts";
import { RpcAgent } from "../support/rpc.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, type MockWorld, mockWorld, readSessionLines } from "../support/world.ts";

const model = ["-ne", "--model", MODEL.openai];

/** Save one exchange, then start a second run of it that hangs mid-answer, holding the session. */
async function holdSession(world: MockWorld): Promise<{ file: string; holder: import("bun").Subprocess }> {
	world.mock.script({ text: "first" }, { hang: true });
	expect((await world.run([...model, "-p", "one"])).code).toBe(0);
	const file = world.onlySessionFile();
	const holder = Bun.spawn([agentBinary(), ...model, "-c", "-p", "two"], { cwd: world.cwd, env: world.environment(), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
	await until(() => world.mock.requests.length === 2, "the second run to ask the model");
	return { file, holder };
}

function inUseError(file: string, pid: number): RegExp {
	const escaped = file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
	return new RegExp(
		`^Error: Session ${escaped} is in use by another agent process \\(pid ${pid}, since \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ\\); writing to it from here as well would fork its history\\.\n` +
			`Wait for that run to end, or continue in a copy of it: agent --fork ${escaped}\n$`,
	);
}

describe("a session another agent is writing", () => {
	test("-c and --session are refused with what to do (exit 1); the file is untouched; --fork continues in a copy", async () => {
		await using world = await mockWorld();
		const { file, holder } = await holdSession(world);
		try {
			expect(existsSync(`${file}.lock`)).toBe(true);
			const before = readFileSync(file);
			for (const argv of [["-c"], ["--session", file], ["--mode", "json", "-c"]]) {
				const r = await world.run([...model, ...argv, "-p", "three"]);
				expect(r.code).toBe(1);
				expect(r.stdout).toBe("");
				expect(r.stderr).toMatch(inUseError(file, holder.pid));
			}
			expect(world.mock.requests).toHaveLength(2);
			expect(readFileSync(file).equals(before)).toBe(true);

			world.mock.script({ text: "forked" });
			const forked = await world.run([...model, "--fork", file, "-p", "three"]);
			expect(forked).toEqual({ stdout: "forked\n", stderr: "", code: 0 });
			expect(world.sessionFiles()).toHaveLength(2);
			expect(readFileSync(file).equals(before)).toBe(true);
		} finally {
			holder.kill("SIGKILL");
			await holder.exited;
		}
	});

	test("rpc mode on a held session fails at start with the same message", async () => {
		await using world = await mockWorld();
		const { file, holder } = await holdSession(world);
		try {
			const r = await world.run([...model, "--mode", "rpc", "--session", file], { stdin: "" });
			expect(r.code).toBe(1);
			expect(r.stdout).toBe("");
			expect(r.stderr).toMatch(inUseError(file, holder.pid));
		} finally {
			holder.kill("SIGKILL");
			await holder.exited;
		}
	});

	test("rpc switch_session to a held session is an error response; once free it is taken, and left again on new_session", async () => {
		await using world = await mockWorld();
		const { file, holder } = await holdSession(world);
		await using rpc = new RpcAgent(world, model);
		const refused = await rpc.request({ type: "switch_session", sessionPath: file });
		expect(refused.success).toBe(false);
		expect(refused.error).toStartWith(`Session ${file} is in use by another agent process (pid ${holder.pid}, since `);
		holder.kill("SIGKILL");
		await holder.exited;
		expect((await rpc.request({ type: "switch_session", sessionPath: file })).data).toEqual({ cancelled: false });
		expect(JSON.parse(readFileSync(`${file}.lock`, "utf8"))).toMatchObject({ pid: rpc.pid });
		expect((await rpc.request({ type: "new_session" })).data).toEqual({ cancelled: false });
		expect(existsSync(`${file}.lock`)).toBe(false);
	});

	test("a lock left by a run killed with kill -9 does not block: the next -c takes it over and resumes", async () => {
		await using world = await mockWorld();
		const { file, holder } = await holdSession(world);
		holder.kill("SIGKILL");
		await holder.exited;
		expect(existsSync(`${file}.lock`)).toBe(true);
		world.mock.script({ text: "third" });
		const r = await world.run([...model, "-c", "-p", "three"]);
		expect(r).toEqual({ stdout: "third\n", stderr: "", code: 0 });
		expect(world.sessionFiles()).toEqual([file]);
		expect(existsSync(`${file}.lock`)).toBe(false);
		const texts = readSessionLines(file).filter((e) => e.type === "message").map((e) => e.message.role);
		expect(texts).toEqual(["user", "assistant", "user", "user", "assistant"]);
	});

	test("two runs started together on a stale lock: exactly one continues the session, the other is told", async () => {
		await using world = await mockWorld();
		const { file, holder } = await holdSession(world);
		holder.kill("SIGKILL");
		await holder.exited;
		world.mock.script({ hang: true }, { hang: true });
		const spawn = () => Bun.spawn([agentBinary(), ...model, "-c", "-p", "three"], { cwd: world.cwd, env: world.environment(), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
		const runs = [spawn(), spawn()];
		try {
			const loser = await Promise.race(runs.map((p) => p.exited.then(() => p)));
			const winner = runs.find((p) => p !== loser)!;
			expect(loser.exitCode).toBe(1);
			// Caught in the instant the winner takes the stale lock over, the loser cannot name it yet.
			const told = await new Response(loser.stderr).text();
			if (!told.includes("being opened by another agent process right now")) expect(told).toMatch(inUseError(file, winner.pid));
			await until(() => world.mock.requests.length === 3, "the winner to ask the model");
			expect(winner.exitCode).toBeNull();
		} finally {
			for (const p of runs) p.kill("SIGKILL");
			await Promise.all(runs.map((p) => p.exited));
		}
	});

	test("a lock naming a pid that now belongs to another program (pid reuse) is stale too", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "first" }, { text: "second" });
		expect((await world.run([...model, "-p", "one"])).code).toBe(0);
		const file = world.onlySessionFile();
		// This test's own process is alive, but it did not start when the lock says.
		writeFileSync(`${file}.lock`, JSON.stringify({ pid: process.pid, host: hostname(), started: "1", since: new Date().toISOString() }));
		const r = await world.run([...model, "-c", "-p", "two"]);
		expect(r).toEqual({ stdout: "second\n", stderr: "", code: 0 });
		expect(existsSync(`${file}.lock`)).toBe(false);
	});

	test("a run that ends removes its lock; a held lock from another host names the file to delete", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "first" });
		expect((await world.run([...model, "-p", "one"])).code).toBe(0);
		const file = world.onlySessionFile();
		expect(existsSync(`${file}.lock`)).toBe(false);
		writeFileSync(`${file}.lock`, JSON.stringify({ pid: 1, host: "build-box-7", since: "2026-01-02T03:04:05.678Z" }));
		const r = await world.run([...model, "-c", "-p", "two"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toBe(
			`Error: Session ${file} is in use by another agent process (pid 1 on build-box-7, since 2026-01-02T03:04:05Z); writing to it from here as well would fork its history.\n` +
				`Wait for that run to end, or continue in a copy of it: agent --fork ${file}\n` +
				`If no agent runs on build-box-7 any more, delete ${file}.lock.\n`,
		);
	});
});

describe.skipIf(!hasTmux)("interactive: a session another agent is writing", () => {
	test("agent -c asks; Continue in a copy starts a new session with the history, the original untouched", async () => {
		await using world = await mockWorld();
		const { file, holder } = await holdSession(world);
		try {
			const before = readFileSync(file);
			await using term = new Terminal(world, [...model, "-c"]);
			const screen = await term.waitFor("Quit");
			expect(screen).toContain("Session in use by another agent process");
			expect(screen).toContain("Writing to it from two places would fork its history.");
			expect(screen).toContain("● Continue in a copy");
			term.keys("Enter");
			await term.ready();
			world.mock.script({ text: "in the copy" });
			term.type("three");
			term.keys("Enter");
			await term.waitUntil("the answer", (p) => p.above.includes("in the copy"));
			term.keys("C-d");
			expect(await term.waitFor("EXIT=")).toEndWith("EXIT=0");
			expect(readFileSync(file).equals(before)).toBe(true);
			const copy = world.sessionFiles().find((f) => f !== file)!;
			expect(readSessionLines(copy)[0]).toMatchObject({ type: "session", parentSession: file });
			const users = readSessionLines(copy).filter((e) => e.type === "message" && e.message.role === "user");
			expect(users.map((e) => e.message.content[0]?.text ?? e.message.content)).toEqual(["one", "two", "three"]);
		} finally {
			holder.kill("SIGKILL");
			await holder.exited;
		}
	}, 30_000);

	test("Quit exits 1 with the message; nothing is written", async () => {
		await using world = await mockWorld();
		const { file, holder } = await holdSession(world);
		try {
			await using term = new Terminal(world, [...model, "-c"]);
			await term.waitFor("Quit");
			term.keys("Down", "Enter");
			const screen = await term.waitFor("EXIT=");
			expect(screen).toContain(`is in use by another agent process (pid ${holder.pid}`);
			expect(screen).toEndWith("EXIT=1");
			expect(world.sessionFiles()).toEqual([file]);
		} finally {
			holder.kill("SIGKILL");
			await holder.exited;
		}
	}, 30_000);
});
