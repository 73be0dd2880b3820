// `!cmd`: the user_bash hook's operations or result, a throwing hook, and the message it makes.
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runUserBash } from "../../../src/core/user-bash.ts";
import type { BashOperations } from "../../../src/core/tools/shell.ts";

test("runs locally by default; !! marks the message out of context", async () => {
	const seen: string[] = [];
	const m = await runUserBash("echo hi", { cwd: process.cwd(), excludeFromContext: true, onOutput: (o) => seen.push(o) });
	expect(m).toMatchObject({ role: "bashExecution", command: "echo hi", output: "hi\n", exitCode: 0, cancelled: false, truncated: false, excludeFromContext: true });
	expect(m.timestamp).toBeNumber();
});

test("the hook sees the command and may supply operations or the whole result", async () => {
	const events: unknown[] = [];
	const operations: BashOperations = {
		exec: async (command, cwd, { onData }) => {
			onData(Buffer.from(`remote ${command} in ${cwd}\n`));
			return { exitCode: 7 };
		},
	};
	const viaOps = await runUserBash("ls", { cwd: "/srv", hook: async (e) => (events.push(e), { operations }) });
	expect(events).toEqual([{ command: "ls", excludeFromContext: false, cwd: "/srv" }]);
	expect(viaOps).toMatchObject({ output: "remote ls in /srv\n", exitCode: 7 });
	expect(viaOps).not.toHaveProperty("excludeFromContext");
	const replaced = await runUserBash("ls", { cwd: "/srv", hook: async () => ({ result: { output: "canned", exitCode: 0, cancelled: false, truncated: false } }) });
	expect(replaced).toMatchObject({ output: "canned", exitCode: 0 });
});

test("a throwing hook aborts the command before it runs", async () => {
	const dir = mkdtempSync(join(tmpdir(), "user-bash-"));
	try {
		const run = runUserBash("touch ran.txt", { cwd: dir, hook: async () => { throw new Error("blocked"); } });
		await expect(run).rejects.toThrow("blocked");
		expect(existsSync(join(dir, "ran.txt"))).toBe(false);
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
});
