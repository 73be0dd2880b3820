// isTerminal asks Bun's isatty binding (no node:tty, no node:fs): its answer must be tty.isatty's for a
// terminal, a pipe, a file, /dev/null and an fd that is not open.
import { describe, expect, test } from "bun:test";
import { closeSync, mkdtempSync, openSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isatty } from "node:tty";
import { isTerminal } from "../../../src/cli/terminal.ts";

describe("isTerminal", () => {
	test("answers as tty.isatty", () => {
		const root = mkdtempSync(join(tmpdir(), "terminal-"));
		const fds = [openSync("/dev/null", "r"), openSync(join(root, "file"), "w")];
		try {
			for (const fd of [0, 1, 2, ...fds, 987]) expect([fd, isTerminal(fd)]).toEqual([fd, isatty(fd)]);
		} finally {
			for (const fd of fds) closeSync(fd);
			rmSync(root, { recursive: true, force: true });
		}
	});

	test("a pseudo-terminal is one, the pipe of a child is not", async () => {
		// The child reports for its own fds: a terminal on 0 and 1 in a pty, a pipe on 1 otherwise.
		const script = `import { isTerminal } from ${JSON.stringify(join(import.meta.dir, "../../../src/cli/terminal.ts"))}; console.log(JSON.stringify([isTerminal(0), isTerminal(1)]));`;
		const piped = Bun.spawnSync([process.execPath, "-e", script], { stdin: "pipe", stdout: "pipe" });
		expect(JSON.parse(piped.stdout.toString())).toEqual([false, false]);
		let seen = "";
		const proc = Bun.spawn([process.execPath, "-e", script], { terminal: { cols: 80, rows: 10, data: (_t, d) => void (seen += new TextDecoder().decode(d)) } });
		await proc.exited;
		for (let i = 0; i < 250 && !seen.includes("]"); i++) await Bun.sleep(20);
		proc.terminal?.close();
		expect(seen).toContain("[true,true]");
	});
});
