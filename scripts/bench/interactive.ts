// Interactive start-up: spawn to the first frame with a ready editor, in a pseudo-terminal (Bun.spawn's
// `terminal`), with no extensions and with 20, against a floor built in the same run with the same
// flags: a compiled program that puts the terminal in raw mode and draws a prompt. Each run must
// then exit 0 on ctrl+d, and the 20-extension run must list its extensions. Goal: ≤ 100 ms with 20.
//   bun scripts/bench/interactive.ts [--runs N] [--json] [--binary path]
import { join } from "node:path";
import { type Bench, benchMain, BenchWorld, compare, goalOf, interleave, loadAverage, result, rowsTable, trivialExtension } from "./lib.ts";

/** The floor's prompt glyph: once it is drawn, keys are being read. */
const PROMPT = "›";
/** The TUI's first frame is out: the editor's border drawn and the synchronized update closed. */
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

interface PtySubject {
	name: string;
	argv: string[];
	/** Text the screen must show by the time the run has exited. */
	shows?: string;
}

/** Spawn in a pty; the ms until the prompt (or the TUI's first frame) appears. Then ctrl+d, and the run must exit 0 having shown `shows`. */
async function timeToPrompt(subject: PtySubject, cwd: string, env: Record<string, string>): Promise<number> {
	const decoder = new TextDecoder();
	let seen = "";
	let ready!: (ms: number) => void;
	const readyAt = new Promise<number>((r) => (ready = r));
	const started = Bun.nanoseconds();
	const proc = Bun.spawn(subject.argv, {
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
		const ms = await Promise.race([readyAt, proc.exited.then((code) => Promise.reject(new Error(`"${subject.name}" exited (${code}) before its prompt:\n${seen}`)))]);
		proc.terminal?.write("\x04");
		const code = await proc.exited;
		if (code !== 0) throw new Error(`"${subject.name}" exited ${code} after ctrl+d; a benchmark must measure a good run:\n${seen}`);
		if (subject.shows && !seen.includes(subject.shows)) throw new Error(`"${subject.name}" never showed "${subject.shows}":\n${seen}`);
		return ms;
	} finally {
		clearTimeout(timer);
		proc.terminal?.close();
	}
}

export const bench: Bench = async (o) => {
	const startLoad = loadAverage();
	await using world = BenchWorld.create("interactive");
	const floor = await world.compile("raw-prompt", FLOOR, o);
	const files = Array.from({ length: 20 }, (_, i) => world.write(join("extensions", `ext-${i}.ts`), EXTENSION(i)));
	// No model configured: the TUI still starts, as for a first-time user.
	const env = world.env();
	const subjects: PtySubject[] = [
		{ name: "raw-mode prompt, compiled (floor)", argv: [floor] },
		{ name: "agent -ne (no extensions)", argv: [o.agent, "-ne"] },
		{ name: "agent -ne with 20 -e extensions", argv: [o.agent, "-ne", ...files.flatMap((f) => ["-e", f])], shows: "[Extensions]" },
	];
	const samples = await interleave(subjects, o, (s) => timeToPrompt(s, world.cwd, env));
	const rows = compare(subjects.map((s, i) => ({ name: s.name, wallMs: samples[i]!, rssKb: [] })));
	return result("interactive", "Spawn to the first frame with the editor drawn, in a pty, no model configured; floor: a compiled raw-mode prompt (same Bun, same flags).", o, startLoad, [rowsTable("first frame", rows)], [
		goalOf("interactive start vs floor, no extensions", rows[1]!.ratio!, 2, "×"),
		goalOf("interactive start vs floor, 20 extensions", rows[2]!.ratio!, 2.5, "×"),
		goalOf("interactive start with 20 extensions", rows[2]!.wallMs, 100, "ms"),
	]);
};

if (import.meta.main) await benchMain(bench);
