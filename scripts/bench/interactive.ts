// Benchmark: interactive start-up to the first frame with a ready editor, in a pseudo-terminal (Bun.spawn's `terminal`),
// with no extensions and with 20, against a floor built in the same run: a compiled program that
// puts the terminal in raw mode and draws a prompt. Goal: ≤ 100 ms with 20 extensions.
// Usage: bun scripts/bench/interactive.ts [--runs N] [--json] [--binary path]
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildBinary } from "../build.ts";
import { formatReport, parseBenchFlags, summarize, type Measurement, runMain, trivialExtension } from "./lib.ts";

const repo = resolve(import.meta.dir, "../..");
/** The floor's prompt glyph: once it is drawn, keys are being read. */
const PROMPT = "›";
/** The TUI's first frame is done: the editor's border drawn and the synchronized update closed. */
const isReady = (seen: string) => seen.includes(PROMPT) || (seen.includes("───") && seen.includes("\x1b[?2026l"));
const GIVE_UP_MS = 10_000;

const EXTENSION = (i: number) =>
	trivialExtension(i, `	pi.registerCommand("cmd${i}", { description: "Command ${i}", handler: async (_a, ctx) => ctx.ui.notify("${i}") });
	pi.on("session_start", () => undefined);`);

const FLOOR = `import { writeSync } from "node:fs";
process.stdin.setRawMode(true);
process.stdin.on("data", (d) => { if (String(d).includes("\\x04")) process.exit(0); });
writeSync(1, "ready\\r\\n${PROMPT} ");
`;

/** Spawn in a pty; resolve with the ms until PROMPT appears, then end it with ctrl+d. */
async function timeToPrompt(argv: string[], cwd: string, env: Record<string, string>): Promise<number> {
	const decoder = new TextDecoder();
	let seen = "";
	let ready!: (ms: number) => void;
	const readyAt = new Promise<number>((r) => (ready = r));
	const started = Bun.nanoseconds();
	const proc = Bun.spawn(argv, {
		cwd,
		env,
		terminal: {
			cols: 120,
			rows: 40,
			data(_t, data) {
				seen += decoder.decode(data, { stream: true });
				if (isReady(seen)) ready((Bun.nanoseconds() - started) / 1e6);
			},
		},
	});
	const timer = setTimeout(() => proc.kill("SIGKILL"), GIVE_UP_MS);
	try {
		const ms = await Promise.race([readyAt, proc.exited.then((code) => Promise.reject(new Error(`"${argv.join(" ")}" exited (${code}) before its prompt:\n${seen}`)))]);
		proc.terminal?.write("\x04");
		await proc.exited;
		return ms;
	} finally {
		clearTimeout(timer);
		proc.terminal?.close();
	}
}

async function main(argv: string[]): Promise<number> {
	const flags = parseBenchFlags(argv, { binary: { type: "string" } });
	const work = mkdtempSync(join(realpathSync(tmpdir()), "agent-bench-interactive-"));
	try {
		const floorSrc = join(work, "floor.ts");
		writeFileSync(floorSrc, FLOOR);
		const floorBin = join(work, "floor");
		await buildBinary({ entrypoint: floorSrc, outfile: floorBin });
		let agent = flags.options.binary as string | undefined;
		if (!agent) {
			agent = join(work, "agent");
			await buildBinary({ outfile: agent });
		}
		const home = join(work, "home");
		const cwd = join(work, "project");
		const extDir = join(work, "extensions");
		for (const d of [home, cwd, extDir]) mkdirSync(d);
		// The floor of the extensions bench resolves typebox natively; ours come from the binary.
		symlinkSync(join(repo, "node_modules"), join(extDir, "node_modules"));
		const files = Array.from({ length: 20 }, (_, i) => {
			const file = join(extDir, `ext-${i}.ts`);
			writeFileSync(file, EXTENSION(i));
			return file;
		});
		// A user's terminal: colour on, no model configured (the REPL still starts).
		const env = { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm-256color" };
		const commands = [
			{ name: "raw-mode prompt, compiled (floor)", argv: [floorBin] },
			{ name: "agent -ne (no extensions)", argv: [agent, "-ne"] },
			{ name: "agent -ne with 20 -e extensions", argv: [agent, "-ne", ...files.flatMap((f) => ["-e", f])] },
		];
		const rows: Measurement[] = commands.map((c) => ({ name: c.name, argv: c.argv, wallNs: [], rssBytes: [] }));
		const warmup = 3;
		for (let round = 0; round < warmup + flags.runs; round++) {
			for (const row of rows) {
				const ms = await timeToPrompt(row.argv, cwd, env);
				if (round >= warmup) row.wallNs.push(ms * 1e6);
			}
		}
		const meta = { bench: "interactive", measure: "spawn → prompt drawn, in a pty", runs: flags.runs, goalMs: 100 };
		process.stdout.write(formatReport(summarize(rows, rows[0]), flags, meta));
		return 0;
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

if (import.meta.main) await runMain(main);
