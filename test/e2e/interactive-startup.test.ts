// The TUI's start-up order: the first frame is drawn before the tools, the session and the extension
// host exist. Keys typed the moment the terminal goes raw (in a pty: the frame is still being drawn)
// wait for the session and run once each, in order; ctrl+d then still shuts the extensions down; a
// failure after the frame (--tools) exits with its message and the terminal restored; -c with no model
// configured draws the conversation, its tool calls and the footer's figures from the first frame.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { agentBinary, type TempWorld } from "../support/agent.ts";
import { readMessages } from "../support/mock-llm.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld } from "../support/world.ts";

const TIMEOUT = 30_000;
/** pi-tui turns bracketed paste on right after raw mode, before it draws anything: keys are read from here on. */
const RAW = "\x1b[?2004h";
const STTY = "stty -a | tr ' ;' '\\n\\n' | grep -E '^-?(icanon|echo)$' | tr '\\n' ' '; echo";

/** An extension that logs session_start, every input and session_shutdown to `log`. */
function loggingExtension(world: TempWorld, log: string): string {
	return world.write(
		"log.ts",
		`import { appendFileSync } from "node:fs";
const log = (line) => appendFileSync(${JSON.stringify(log)}, line + "\\n");
export default function (pi) {
	pi.on("session_start", () => log("session_start"));
	pi.on("input", (e) => { log("input " + e.text); });
	pi.on("session_shutdown", (e) => log("shutdown " + e.reason));
}
`,
	);
}

/** The binary in a pty; `onRaw` runs the moment the terminal goes raw (the first frame not out yet). */
function spawnInPty(world: TempWorld, argv: string[], onRaw: (write: (keys: string) => void) => void) {
	const decoder = new TextDecoder();
	let seen = "";
	let typed = false;
	const proc = Bun.spawn([agentBinary(), ...argv], {
		cwd: world.cwd,
		env: world.environment({ TERM: "xterm-256color" }),
		terminal: {
			cols: 100,
			rows: 30,
			data: (terminal, data) => {
				seen += decoder.decode(data, { stream: true });
				if (!typed && seen.includes(RAW)) {
					typed = true;
					onRaw((keys) => terminal.write(keys));
				}
			},
		},
	});
	const until = async (what: string, check: () => boolean) => {
		const deadline = Date.now() + 15_000;
		while (!check()) {
			if (Date.now() > deadline) throw new Error(`no ${what}; output:\n${JSON.stringify(seen.slice(-3000))}`);
			await Bun.sleep(20);
		}
	};
	return {
		proc,
		until,
		seen: () => seen,
		async [Symbol.asyncDispose]() {
			if (proc.exitCode === null) proc.kill("SIGKILL");
			await proc.exited;
			proc.terminal?.close();
		},
	};
}

describe("interactive start-up order", () => {
	test("prompts and a command typed as the terminal goes raw wait for the session, then run once each, in order", async () => {
		await using world = await mockWorld();
		const log = join(world.root, "events.log");
		const ext = loggingExtension(world, log);
		world.mock.script({ text: "Answer one." }, { text: "Answer two." });
		await using run = spawnInPty(world, ["-ne", "-e", ext, "--model", MODEL.openai], (write) => {
			write("first\r");
			write("/name early\r");
			write("second\r");
		});
		await run.until("the second answer", () => run.seen().includes("Answer two."));
		// Each prompt reached the model once, the second after the first (with the first's answer in it).
		expect(world.mock.requests.length).toBe(2);
		const users = (i: number) => readMessages(world.mock.requests[i]!).filter((m) => m.role === "user").map((m) => m.text);
		expect(users(0)).toEqual(["first"]);
		expect(users(1)).toEqual(["first", "second"]);
		run.proc.terminal!.write("\x04");
		expect(await run.proc.exited).toBe(0);
		// The extensions had their session_start before the first input; the command ran too (the name is saved).
		expect(readFileSync(log, "utf8")).toBe("session_start\ninput first\ninput second\nshutdown quit\n");
		expect(readFileSync(world.onlySessionFile(), "utf8")).toContain(`"type":"session_info"`);
		expect(readFileSync(world.onlySessionFile(), "utf8")).toContain(`"name":"early"`);
	}, TIMEOUT);

	test("ctrl+d as the terminal goes raw: exit 0, the extensions started and were shut down", async () => {
		await using world = await mockWorld();
		const log = join(world.root, "events.log");
		const ext = loggingExtension(world, log);
		await using run = spawnInPty(world, ["-ne", "-e", ext], (write) => write("\x04"));
		expect(await run.proc.exited).toBe(0);
		expect(readFileSync(log, "utf8")).toBe("session_start\nshutdown quit\n");
		// The terminal was handed back: bracketed paste off after the frame.
		expect(run.seen().lastIndexOf("\x1b[?2004l")).toBeGreaterThan(run.seen().indexOf("\x1b[?2026l"));
	}, TIMEOUT);
});

describe.skipIf(!hasTmux)("interactive start-up order in tmux", () => {
	test("an unknown --tools name, found after the first frame: its message, exit 1, the terminal restored", async () => {
		await using world = await mockWorld();
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai, "--tools", "read,nope"], { after: STTY });
		const after = await term.waitFor(/EXIT=\d+\n.*icanon/);
		expect(after).toContain("Error: Unknown tool in --tools: nope\nAvailable tools: read, bash, edit, write, grep, find, ls\nEXIT=1\nicanon echo");
		expect(term.paneFormat("#{cursor_flag}")).toBe("1");
	}, TIMEOUT);

	test("-c with no model configured: the conversation, its tool call and the footer's figures from the first frame", async () => {
		await using world = await mockWorld();
		world.write("project/notes.txt", "hello\n");
		world.mock.script({ toolCalls: [{ name: "read", arguments: { path: "notes.txt" } }] }, { text: "It says hello.", usage: { input: 1200, output: 34 } });
		const print = await world.run(["-ne", "--model", MODEL.openai, "-p", "read notes.txt"]);
		expect(print.code).toBe(0);
		// No model now: the resumed session is drawn all the same.
		world.write("home/.agent/models.json", "{}");
		await using term = new Terminal(world, ["-ne", "-c"]);
		await term.waitToPass("the conversation so far", (p) => {
			expect(p.above).toContain(" › read notes.txt\n\n read notes.txt\n");
			expect(p.above).toContain(" It says hello.");
			expect(p.below).toMatch(/↑1\.2k ↓\d+ \$0\.000/);
		});
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
