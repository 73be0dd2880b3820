import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createBashTool, executeBash } from "../../../src/core/tools/bash.ts";
import type { BashOperations } from "../../../src/core/tools/shell.ts";
import type { AgentToolResult } from "../../../src/core/tools/types.ts";
import { errorOf, run, TempProject, textOf } from "./fixture.ts";

/** Alive and not a zombie waiting to be reaped. */
function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	try {
		return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
	} catch {
		return false;
	}
}

/** SIGKILL lands asynchronously; give the kernel a moment (bounded) before asserting. */
async function waitGone(pid: number): Promise<boolean> {
	for (let i = 0; i < 100 && isAlive(pid); i++) await Bun.sleep(20);
	return !isAlive(pid);
}

/** A background child that would sleep for a minute, its pid in child.pid, then wait for it. */
const SLEEPING_CHILD = "sleep 60 & echo $! > child.pid; echo started; wait";

describe("bash", () => {
	test("runs in cwd and returns the output with exit code 0", async () => {
		using p = new TempProject();
		const r = await run(createBashTool(p.cwd), { command: "pwd; echo hi" });
		expect(textOf(r)).toBe(`${p.cwd}\nhi`);
		expect(r.details).toEqual({ exitCode: 0 });
		expect(textOf(await run(createBashTool(p.cwd), { command: "true" }))).toBe("(no output)");
	});

	test("a background child holding the output pipe open does not hold up the result", async () => {
		using p = new TempProject();
		// The shell exits at once; its child keeps stdout open for a minute.
		const r = await run(createBashTool(p.cwd), { command: "sleep 60 & echo $! > child.pid; echo done" });
		expect(textOf(r)).toBe("done");
		const pid = Number(readFileSync(join(p.cwd, "child.pid"), "utf8"));
		process.kill(pid, "SIGKILL");
		expect(await waitGone(pid)).toBe(true);
	});

	test("a non-zero exit is an error carrying the output and the code", async () => {
		using p = new TempProject();
		expect(await errorOf(run(createBashTool(p.cwd), { command: "echo out; exit 3" }))).toBe("out\n\nCommand exited with code 3");
		expect(await errorOf(run(createBashTool(p.cwd), { command: "exit 1" }))).toBe("Command exited with code 1");
		expect(await errorOf(run(createBashTool(p.cwd), { command: "echo oops >&2; false" }))).toBe("oops\n\nCommand exited with code 1");
	});

	test("streams output as it arrives", async () => {
		using p = new TempProject();
		const updates: string[] = [];
		// The command only finishes once the test has seen its first line: proof it was streamed.
		const command = "echo first; while [ ! -f go ]; do sleep 0.02; done; echo second";
		const r = await run(createBashTool(p.cwd), { command }, {
			onUpdate: (partial: AgentToolResult<any>) => {
				updates.push(textOf(partial));
				if (textOf(partial).includes("first")) writeFileSync(join(p.cwd, "go"), "");
			},
		});
		expect(updates[0]).toBe("first");
		expect(textOf(r)).toBe("first\nsecond");
	});

	test("a timeout kills the whole process group", async () => {
		using p = new TempProject();
		const message = await errorOf(run(createBashTool(p.cwd), { command: SLEEPING_CHILD, timeout: 0.5 }));
		expect(message).toBe("started\n\nCommand timed out after 0.5 seconds");
		const pid = Number(p.read("child.pid"));
		expect(await waitGone(pid)).toBe(true);
	});

	test("abort kills the whole process group", async () => {
		using p = new TempProject();
		const controller = new AbortController();
		const pending = run(createBashTool(p.cwd), { command: SLEEPING_CHILD }, {
			signal: controller.signal,
			onUpdate: (partial) => {
				if (textOf(partial).includes("started")) controller.abort();
			},
		});
		expect(await errorOf(pending)).toBe("started\n\nCommand aborted");
		expect(await waitGone(Number(p.read("child.pid")))).toBe(true);
	});

	test("an already-aborted signal runs nothing", async () => {
		using p = new TempProject();
		const controller = new AbortController();
		controller.abort();
		expect(await errorOf(run(createBashTool(p.cwd), { command: "touch ran" }, { signal: controller.signal }))).toBe("Command aborted");
		expect(existsSync(join(p.cwd, "ran"))).toBe(false);
	});

	test("a working directory that is gone is named, not reported as a missing shell", async () => {
		using p = new TempProject();
		const gone = join(p.cwd, "removed");
		expect(await errorOf(run(createBashTool(gone), { command: "echo hi" }))).toBe(`Working directory does not exist: ${gone}`);
		expect(textOf(await run(createBashTool(p.cwd), { command: "echo hi" }))).toBe("hi");
	});

	test("long output keeps the tail and saves the whole to a temp file", async () => {
		using p = new TempProject();
		const r = await run(createBashTool(p.cwd), { command: "seq 1 3000" });
		const text = textOf(r);
		const path = r.details.fullOutputPath as string;
		expect(path.startsWith(`${p.tmp}/agent-bash-`)).toBe(true);
		expect(text.startsWith("1001\n1002\n")).toBe(true);
		expect(text.endsWith(`2999\n3000\n\n[Showing the last 2000 of 3000 lines. Full output: ${path}]`)).toBe(true);
		expect(readFileSync(path, "utf8")).toBe(`${Array.from({ length: 3000 }, (_, i) => i + 1).join("\n")}\n`);
		expect(r.details.truncation).toMatchObject({ truncated: true, truncatedBy: "lines", totalLines: 3000, outputLines: 2000 });
	});

	test("one huge line keeps its last 50KB", async () => {
		using p = new TempProject();
		const r = await run(createBashTool(p.cwd), { command: "head -c 70000 /dev/zero | tr '\\0' x" });
		const path = r.details.fullOutputPath as string;
		expect(textOf(r)).toBe(`${"x".repeat(51200)}\n\n[Showing the last 50.0KB of line 1. Full output: ${path}]`);
		expect(readFileSync(path, "utf8").length).toBe(70000);
	});

	test("multibyte output cut by bytes stays valid UTF-8", async () => {
		using p = new TempProject();
		// 3000 lines of 20 "é" (41 bytes with the newline): 123000 bytes, so the byte limit cuts first
		const line = "é".repeat(20);
		const r = await run(createBashTool(p.cwd), { command: `for i in $(seq 1 3000); do echo ${line}; done` });
		const text = textOf(r);
		const body = text.slice(0, text.indexOf("\n\n["));
		const kept = body.split("\n");
		expect(kept.length).toBe(1248); // floor(51200 / 41)
		expect(kept.every((l) => l === line)).toBe(true);
		expect(text.slice(body.length)).toBe(`\n\n[Showing the last 1248 lines (50.0KB of 120.1KB). Full output: ${r.details.fullOutputPath}]`);
	});

	test("spawnHook and commandPrefix shape what runs", async () => {
		using p = new TempProject();
		const tool = createBashTool(p.cwd, {
			commandPrefix: "GREETING=hello",
			spawnHook: ({ command, cwd, env }) => ({ command: `echo hooked; ${command}`, cwd, env: { ...env, WHO: "world" } }),
		});
		expect(textOf(await run(tool, { command: 'echo "$GREETING $WHO"' }))).toBe("hooked\nhello world");
	});

	test("operations can be swapped, with pi's timeout/abort protocol", async () => {
		const seen: unknown[] = [];
		const operations: BashOperations = {
			async exec(command, cwd, { onData, timeout }) {
				seen.push({ command, cwd, timeout });
				onData(Buffer.from("remote output\n"));
				if (timeout) throw new Error(`timeout:${timeout}`);
				return { exitCode: 0 };
			},
		};
		const tool = createBashTool("/remote", { operations });
		expect(textOf(await run(tool, { command: "ls" }))).toBe("remote output");
		expect(await errorOf(run(tool, { command: "slow", timeout: 5 }))).toBe("remote output\n\nCommand timed out after 5 seconds");
		expect(seen).toEqual([
			{ command: "ls", cwd: "/remote", timeout: undefined },
			{ command: "slow", cwd: "/remote", timeout: 5 },
		]);
	});

	test("executeBash reports a BashResult", async () => {
		using p = new TempProject();
		expect(await executeBash("echo a; exit 4", { cwd: p.cwd })).toMatchObject({
			output: "a\n",
			exitCode: 4,
			cancelled: false,
			truncated: false,
			timedOut: false,
		});
	});
});
