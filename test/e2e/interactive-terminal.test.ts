// The terminal the TUI leaves behind, through the binary in tmux: SIGTERM from outside restores
// cooked mode and the cursor and exits 143; ctrl+z suspends (terminal restored) and SIGCONT
// redraws with the input kept; a crash hands the terminal back too; a resize draws the conversation again
// at the new width.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TempWorld } from "../support/agent.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld } from "../support/world.ts";

const TIMEOUT = 30_000;

/** An extension that writes the process id where the test can read it. */
function pidExtension(world: TempWorld): { ext: string; pid: () => number } {
	const file = join(world.root, "pid");
	const ext = world.write("pid.ts", `import { writeFileSync } from "node:fs";\nexport default function (pi) { pi.on("session_start", () => writeFileSync(${JSON.stringify(file)}, String(process.pid))); }\n`);
	return { ext, pid: () => Number(readFileSync(file, "utf8")) };
}

/** The state letter of a process in /proc (R, S, T for stopped, …). */
function processState(pid: number): string {
	return /^\d+ \(.*\) (\S)/.exec(readFileSync(`/proc/${pid}/stat`, "utf8"))?.[1] ?? "?";
}

async function until(what: string, check: () => boolean, timeoutMs = 15_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await Bun.sleep(40);
	}
}

describe.skipIf(!hasTmux)("interactive terminal", () => {
	test("SIGTERM from outside: exit 143, cooked mode and the cursor back, session_shutdown told", async () => {
		await using world = new TempWorld();
		const { ext, pid } = pidExtension(world);
		const log = join(world.root, "shutdown.log");
		const bye = world.write("bye.ts", `import { appendFileSync } from "node:fs";\nexport default function (pi) { pi.on("session_shutdown", (e) => appendFileSync(${JSON.stringify(log)}, e.reason + "\\n")); }\n`);
		await using term = new Terminal(world, ["-ne", "-e", ext, "-e", bye], { after: "stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo" });
		await term.ready();
		expect(term.paneFormat("#{cursor_flag}")).toBe("0");
		process.kill(pid(), "SIGTERM");
		const after = await term.waitFor(/EXIT=\d+\n.*icanon/);
		expect(after).toContain("EXIT=143\nicanon echo");
		expect(term.paneFormat("#{cursor_flag}")).toBe("1");
		expect(readFileSync(log, "utf8")).toBe("quit\n");
	}, TIMEOUT);

	test("a crash (an exception nothing caught) hands the terminal back, prints the stack, exits 1", async () => {
		await using world = new TempWorld();
		const ext = world.write("crash.ts", `export default function (pi) {\n\tpi.registerCommand("crash", { description: "Crash", handler: async () => { setTimeout(() => { throw new Error("boom from a timer"); }, 0); } });\n}\n`);
		await using term = new Terminal(world, ["-ne", "-e", ext], { after: "stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo" });
		await term.ready();
		term.submit("/crash");
		const after = await term.waitFor(/EXIT=\d+\n.*icanon/);
		expect(after).toContain("Error: boom from a timer\n");
		expect(after).toContain("EXIT=1\nicanon echo");
		expect(term.paneFormat("#{cursor_flag}")).toBe("1");
	}, TIMEOUT);

	test("ctrl+z suspends with the terminal handed back to the shell; fg redraws with the input kept", async () => {
		await using world = new TempWorld();
		const { ext, pid } = pidExtension(world);
		await using term = new Terminal(world, ["-ne", "-e", ext], { jobControl: true });
		await term.ready();
		term.type("half a thought");
		await term.waitForEditor("half a thought");
		term.keys("C-z");
		const id = pid();
		await until("the process to stop", () => processState(id) === "T");
		// Stopped: the shell has the terminal (and the cursor) back and says so.
		await term.waitFor(/Stopped/);
		expect(term.paneFormat("#{cursor_flag}")).toBe("1");
		term.submit("fg");
		await until("the process to run again", () => processState(id) !== "T");
		await term.waitForEditor("half a thought");
		term.type(" and more");
		await term.waitForEditor("half a thought and more");
		term.keys("C-c", "C-c", "C-c");
		// (bash drops the rest of a command line whose job was stopped, so there is no EXIT= line.)
		await until("the process to exit", () => {
			try {
				return processState(id) === "Z";
			} catch {
				return true;
			}
		});
		expect(term.paneFormat("#{cursor_flag}")).toBe("1");
	}, TIMEOUT);

	test("a resize draws the conversation again at the new width, words whole", async () => {
		await using world = await mockWorld();
		const paragraph = "Every line of this answer is long enough that a narrower window has to wrap it again at word boundaries.";
		world.mock.script({ text: paragraph });
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai], { width: 120 });
		await term.ready();
		term.submit("talk");
		await term.waitForAbove(` ${paragraph}`);
		term.resize(50, 40);
		const narrow = await term.waitUntil("the narrow layout", (p) => p.above.split("\n").every((l) => l.length <= 50) && p.above.includes(" Every line"));
		const lines = narrow.above.split("\n");
		const start = lines.findIndex((l) => l.startsWith(" Every line"));
		const wrapped = lines.slice(start).filter((l) => l.trim() !== "");
		expect(wrapped.length).toBeGreaterThan(2);
		expect(wrapped.map((l) => l.trim()).join(" ")).toBe(paragraph);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
