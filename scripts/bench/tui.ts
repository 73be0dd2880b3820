// The TUI once it runs, in a pseudo-terminal (Bun.spawn's `terminal`), with a session resumed
// from disk: (1) keystroke-to-frame latency, p50 and p99, with a 2,000-line transcript, against a
// compiled floor built in the same run with the same flags that answers each key with a frame of
// its own; (2) CPU time per streamed token while an answer streams in, with a 200-line and a
// 2,000-line transcript — differential rendering means it must not grow with the transcript.
// CPU is the agent process's own (all threads, /proc/<pid>/task/*/schedstat, in ns).
//   bun scripts/bench/tui.ts [--runs N] [--json] [--binary path]
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SessionManager } from "../../src/core/session/session-manager.ts";
import { type Bench, benchMain, BenchWorld, fmt, fmtRatio, goal, goalOf, loadAverage, mockProvider, perRound, result, summary, type Summary } from "./lib.ts";

/** A frame is out when a synchronized update closes (pi-tui wraps every frame in one). */
const FRAME_END = "\x1b[?2026l";
const GIVE_UP_MS = 20_000;
/** Keys per latency run: a letter, then backspace, and again (each is one frame). */
const KEYS_PER_RUN = 60;
/** Tokens of the streamed answer, and the pause between them (a fast model). */
const TOKENS = 600;
const TOKEN_GAP_MS = 2;
const END_MARK = "ENDOFANSWER";

/** Every frame the floor draws is wrapped the way pi-tui wraps one. */
const FLOOR = `import { writeSync } from "node:fs";
process.stdin.setRawMode(true);
writeSync(1, "\\x1b[?2026h───\\r\\n› \\x1b[?2026l");
process.stdin.on("data", (d) => {
	const s = String(d);
	if (s.includes("\\x04")) process.exit(0);
	writeSync(1, "\\x1b[?2026h\\r› " + (s === "\\x7f" ? " " : s) + "\\x1b[?2026l");
});
`;

/** A process in a pty: what it printed so far, keys in, its CPU time. */
class PtyRun {
	private readonly decoder = new TextDecoder();
	seen = "";
	private waiters: (() => void)[] = [];
	readonly proc: ReturnType<typeof Bun.spawn>;

	constructor(argv: string[], cwd: string, env: Record<string, string>) {
		this.proc = Bun.spawn(argv, {
			cwd,
			env,
			terminal: {
				cols: 120,
				rows: 40,
				data: (_t, data) => {
					this.seen += this.decoder.decode(data, { stream: true });
					for (const wake of this.waiters.splice(0)) wake();
				},
			},
		});
	}

	/** Resolve once `check(seen)` holds; fail with the screen after GIVE_UP_MS or if the process exits. */
	async until(what: string, check: (seen: string) => boolean): Promise<void> {
		const deadline = Date.now() + GIVE_UP_MS;
		while (!check(this.seen)) {
			if (this.proc.exitCode !== null) throw new Error(`exited (${this.proc.exitCode}) waiting for ${what}:\n${this.seen.slice(-3000)}`);
			if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${this.seen.slice(-3000)}`);
			await new Promise<void>((wake) => {
				this.waiters.push(wake);
				setTimeout(wake, 100);
			});
		}
	}

	/** Resolve once nothing has been printed for `ms`. */
	async quiet(ms: number): Promise<void> {
		for (let length = -1; length !== this.seen.length; ) {
			length = this.seen.length;
			await Bun.sleep(ms);
		}
	}

	write(data: string): void {
		this.proc.terminal!.write(data);
	}

	/** CPU time of every thread of the process, in ms. */
	cpuMs(): number {
		const dir = `/proc/${this.proc.pid}/task`;
		let ns = 0;
		for (const task of readdirSync(dir)) {
			try {
				ns += Number(readFileSync(join(dir, task, "schedstat"), "utf8").split(" ")[0]);
			} catch {
				// a thread that ended between the listing and the read
			}
		}
		return ns / 1e6;
	}

	/** ctrl+d (twice for the agent: the first may only clear), then the exit code must be 0. */
	async finish(name: string): Promise<void> {
		this.write("\x04");
		const timer = setTimeout(() => this.proc.kill("SIGKILL"), GIVE_UP_MS);
		const code = await this.proc.exited;
		clearTimeout(timer);
		this.proc.terminal?.close();
		if (code !== 0) throw new Error(`"${name}" exited ${code}; a benchmark must measure a good run:\n${this.seen.slice(-2000)}`);
	}

	kill(): void {
		if (this.proc.exitCode === null) this.proc.kill("SIGKILL");
		this.proc.terminal?.close();
	}
}

/** The first frame with the editor drawn. */
const firstFrame = (seen: string) => seen.includes("───") && seen.includes(FRAME_END);

/** A session file whose conversation draws about `lines` lines: exchanges of one question and a 100-line answer. */
function writeSession(world: BenchWorld, lines: number, tag: string): string {
	const sm = SessionManager.create(world.cwd, join(world.root, `sessions-${tag}`));
	const usage = { input: 10, output: 100, cacheRead: 0, cacheWrite: 0, totalTokens: 110, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
	for (let i = 0; i < Math.max(1, Math.round(lines / 104)); i++) {
		sm.appendMessage({ role: "user", content: `question ${i}: tell me about part ${i}`, timestamp: Date.now() });
		const text = Array.from({ length: 100 }, (_, k) => `- line ${k} of answer ${i}, with some **bold** text and \`code\``).join("\n");
		sm.appendMessage({ role: "assistant", content: [{ type: "text", text }], api: "openai-completions", provider: "mock", model: "mock-model", usage, stopReason: "stop", timestamp: Date.now() } as never);
	}
	// Give back the writer lock: the agents this bench starts on the file must not find it in use.
	sm.close();
	return sm.getSessionFile()!;
}

/** An OpenAI-compatible server streaming TOKENS one-word deltas, TOKEN_GAP_MS apart, for any request. */
function startStreamingServer(): { url: string; stop(): void } {
	const encoder = new TextEncoder();
	const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
		`data: ${JSON.stringify({ id: "bench", object: "chat.completion.chunk", created: 0, model: "mock-model", choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
	const server = Bun.serve({
		hostname: "127.0.0.1",
		port: 0,
		idleTimeout: 0,
		fetch: () =>
			new Response(
				new ReadableStream({
					async start(controller) {
						controller.enqueue(encoder.encode(chunk({ role: "assistant", content: "" })));
						for (let i = 0; i < TOKENS; i++) {
							const token = i === TOKENS - 1 ? END_MARK : `word${i}${i % 12 === 11 ? "\n" : " "}`;
							controller.enqueue(encoder.encode(chunk({ content: token })));
							await Bun.sleep(TOKEN_GAP_MS);
						}
						controller.enqueue(encoder.encode(chunk({}, "stop")));
						controller.enqueue(encoder.encode(`data: ${JSON.stringify({ id: "bench", object: "chat.completion.chunk", created: 0, model: "mock-model", choices: [], usage: { prompt_tokens: 10, completion_tokens: TOKENS, total_tokens: TOKENS + 10 } })}\n\ndata: [DONE]\n\n`));
						controller.close();
					},
				}),
				{ headers: { "content-type": "text/event-stream" } },
			),
	});
	return { url: `http://127.0.0.1:${server.port}/v1`, stop: () => server.stop(true) };
}

/**
 * Keys come this far apart: a fast typist's pace (25 keys a second). pi-tui draws at most one frame
 * per 16 ms, so keys sent back to back would measure that cap, not the work a key causes.
 */
const KEY_GAP_MS = 40;

/** Latencies (ms) of KEYS_PER_RUN keys, each from the write to the end of the frame it caused. */
async function keyLatencies(run: PtyRun): Promise<number[]> {
	const out: number[] = [];
	for (let i = 0; i < KEYS_PER_RUN; i++) {
		await Bun.sleep(KEY_GAP_MS);
		const from = run.seen.length;
		const started = Bun.nanoseconds();
		run.write(i % 2 === 0 ? "x" : "\x7f");
		await run.until("the frame after a key", (seen) => seen.indexOf(FRAME_END, from) >= 0);
		out.push((Bun.nanoseconds() - started) / 1e6);
	}
	return out;
}

function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export const bench: Bench = async (o) => {
	const startLoad = loadAverage();
	await using world = BenchWorld.create("tui");
	const floor = await world.compile("raw-frames", FLOOR, o);
	const server = startStreamingServer();
	try {
		world.write(join(world.agentDir, "models.json"), `${JSON.stringify({ providers: { mock: mockProvider(server.url) } }, null, 2)}\n`);
		const big = writeSession(world, 2000, "big");
		const small = writeSession(world, 200, "small");
		const env = world.env({ COLORTERM: "truecolor" });
		const agentArgs = (session: string) => [o.agent, "-ne", "--model", "mock/mock-model", "--session", session];

		// (1) Keystroke to frame: the floor and the agent at both transcript sizes, interleaved, every key's latency kept.
		const SUBJECTS = ["floor", "small", "big"] as const;
		type Who = (typeof SUBJECTS)[number];
		const latency: Record<Who, number[]> = { floor: [], small: [], big: [] };
		const latencyMedians: Record<Who, number[]> = { floor: [], small: [], big: [] };
		for (let round = 0; round < 2 + o.runs; round++) {
			for (let k = 0; k < SUBJECTS.length; k++) {
				const who = SUBJECTS[(round + k) % SUBJECTS.length]!;
				const run = new PtyRun(who === "floor" ? [floor] : agentArgs(who === "big" ? big : small), world.cwd, env);
				try {
					await run.until("the first frame", firstFrame);
					if (who !== "floor") await run.until("the resumed transcript", (seen) => seen.includes("line 99 of answer"));
					const values = await keyLatencies(run);
					if (who !== "floor") run.write("\x15"); // ctrl+u: an empty editor, so ctrl+d exits
					await run.finish(who);
					if (round >= 2) {
						latency[who].push(...values);
						latencyMedians[who].push(percentile(values, 50));
					}
				} finally {
					run.kill();
				}
			}
		}

		// (2) CPU per streamed token, the small and the big transcript interleaved.
		const cpu = { small: [] as number[], big: [] as number[] };
		for (let round = 0; round < 1 + o.runs; round++) {
			for (const size of round % 2 === 0 ? (["small", "big"] as const) : (["big", "small"] as const)) {
				const run = new PtyRun(agentArgs(size === "big" ? big : small), world.cwd, env);
				try {
					await run.until("the first frame", firstFrame);
					await run.until("the resumed transcript", (seen) => seen.includes("line 99 of answer"));
					await Bun.sleep(300); // start-up work (a late frame, a GC) is not the stream's
					const before = run.cpuMs();
					const from = run.seen.length;
					run.write("go\r");
					await run.until("the whole answer", (seen) => {
						const at = seen.indexOf(END_MARK, from);
						return at >= 0 && seen.indexOf(FRAME_END, at) >= 0;
					});
					await run.quiet(150); // the run's end: footer, session write, the last frames
					const used = run.cpuMs() - before;
					await run.finish(`agent, ${size} transcript`);
					if (round >= 1) cpu[size].push((used / TOKENS) * 1000);
				} finally {
					run.kill();
				}
			}
		}

		const p = (values: number[], q: number) => percentile(values, q).toFixed(2);
		const vsFloor = (who: Who): Summary => summary(perRound([latencyMedians[who], latencyMedians.floor], (a, f) => a / f));
		const growth: Summary = summary(perRound([cpu.big, cpu.small], (b, s) => b / s));
		const latencyTable = {
			title: `keystroke to frame (keys ${KEY_GAP_MS} ms apart)`,
			header: ["subject", "p50 ms", "p99 ms", "max ms", "keys", "run medians vs floor"],
			rows: [
				["compiled raw-mode frames (floor)", p(latency.floor, 50), p(latency.floor, 99), Math.max(...latency.floor).toFixed(2), String(latency.floor.length), "1.00×"],
				["agent --session, 200 lines", p(latency.small, 50), p(latency.small, 99), Math.max(...latency.small).toFixed(2), String(latency.small.length), fmtRatio(vsFloor("small"))],
				["agent --session, 2,000 lines", p(latency.big, 50), p(latency.big, 99), Math.max(...latency.big).toFixed(2), String(latency.big.length), fmtRatio(vsFloor("big"))],
			],
		};
		const cpuTable = {
			title: `CPU per streamed token (${TOKENS} tokens, ${TOKEN_GAP_MS} ms apart)`,
			header: ["transcript", "CPU µs per token, median (min–max)"],
			rows: [
				["200 lines", fmt(summary(cpu.small), "µs")],
				["2,000 lines", fmt(summary(cpu.big), "µs")],
				["2,000 / 200, per round", fmtRatio(growth)],
			],
		};
		return result("tui", "The running TUI in a pty with a resumed session: keystroke-to-frame latency against a compiled floor that draws a frame per key (same Bun, same flags), and CPU per streamed token at two transcript sizes.", o, startLoad, [latencyTable, cpuTable], [
			goal("keystroke to frame p99, 2,000 lines", percentile(latency.big, 99), 16, "ms", { detail: `p50 ${p(latency.big, 50)} ms; floor p99 ${p(latency.floor, 99)} ms` }),
			goalOf("CPU per token, 2,000 vs 200 lines", growth, 1.2, "×"),
		]);
	} finally {
		server.stop();
	}
};

if (import.meta.main) await benchMain(bench);
