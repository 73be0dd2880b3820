// Sessions: what a session's length costs when it is opened. `agent -ne -e noop.ts --session <file>
// -p /bench-noop` opens a session of 1k, 10k or 40k entries (user, assistant with a bash call, tool
// result, assistant answer, …), restores its model, runs a command that reads the entry count and
// sends nothing. Per 1k entries = the slope from the smallest to the largest, paired per round;
// floor: a compiled program that reads the same file and JSON.parses every line (same Bun, same
// flags). Goals: ≤ 2.5 ms and ≤ 1.5 MB per 1k entries; model selection independent of length.
//   bun scripts/bench/sessions.ts [--runs N] [--json] [--binary path]
import { statSync } from "node:fs";
import { join } from "node:path";
import { type Bench, benchMain, BenchWorld, compare, fmt, fmtRatio, goalOf, loadAverage, measureRounds, perRound, result, rowsTable, summary, type Subject, type Table } from "./lib.ts";
import { parseTiming } from "./timing-rows.ts";

const SIZES = [1_000, 10_000, 40_000];

const NOOP = `export default function (pi) {
	pi.registerCommand("bench-noop", {
		description: "Report the session's length",
		handler: async (_args, ctx) => console.error(\`entries \${ctx.sessionManager.getEntries().length}\`),
	});
}
`;

const FLOOR = `import { readFileSync } from "node:fs";
let n = 0;
for (const line of readFileSync(process.argv[2], "utf8").split("\\n")) {
	if (line === "") continue;
	JSON.parse(line);
	n++;
}
console.log(\`lines \${n}\`);
`;

/** A v3 session file of `entries` entries after the header: a model change, then rounds of four messages. */
export function sessionText(cwd: string, entries: number): string {
	const t0 = Date.parse("2026-01-01T00:00:00.000Z");
	const iso = (i: number) => new Date(t0 + i * 1000).toISOString();
	const id = (i: number) => i.toString(16).padStart(8, "0");
	const usage = { input: 120, output: 40, cacheRead: 0, cacheWrite: 0, totalTokens: 160, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
	const lines = [JSON.stringify({ type: "session", version: 3, id: "0190a000-0000-7000-8000-000000000000", timestamp: iso(0), cwd })];
	lines.push(JSON.stringify({ type: "model_change", id: id(1), parentId: null, timestamp: iso(1), provider: "mock", modelId: "mock-model" }));
	const assistant = (i: number, content: unknown[], stopReason: string) => ({ role: "assistant", content, api: "openai-completions", provider: "mock", model: "mock-model", usage, stopReason, timestamp: t0 + i });
	for (let i = 2; i <= entries; i++) {
		const k = i % 4;
		const text = `Entry ${i}: ${"some words of a realistic length about the code being changed ".repeat(3)}`;
		const message =
			k === 2
				? { role: "user", content: text, timestamp: t0 + i }
				: k === 3
					? assistant(i, [{ type: "text", text: "Let me look." }, { type: "toolCall", id: `call_${i}`, name: "bash", arguments: { command: `grep -n thing src/file${i}.ts` } }], "toolUse")
					: k === 0
						? { role: "toolResult", toolCallId: `call_${i - 1}`, toolName: "bash", content: [{ type: "text", text }], isError: false, timestamp: t0 + i }
						: assistant(i, [{ type: "text", text }], "stop");
		lines.push(JSON.stringify({ type: "message", id: id(i), parentId: id(i - 1), timestamp: iso(i), message }));
	}
	return `${lines.join("\n")}\n`;
}

export const bench: Bench = async (o) => {
	const startLoad = loadAverage();
	await using world = BenchWorld.create("sessions");
	world.useModel("http://127.0.0.1:9/v1");
	const noop = world.write("noop.ts", NOOP);
	const floor = await world.compile("parse-lines", FLOOR, o);
	const files = SIZES.map((n) => world.write(join("sessions", `s-${n}.jsonl`), sessionText(world.cwd, n)));
	const env = world.env({ AGENT_TIMING: "1" });
	const agent = (n: number, file: string): Subject => {
		const size = statSync(file).size;
		return {
			name: `agent, ${n / 1000}k entries`,
			argv: [o.agent, "-ne", "-e", noop, "--session", file, "-p", "/bench-noop"],
			env,
			cwd: world.cwd,
			expect: {
				// stdout is not checked: print mode prints the session's last answer even when this run sent nothing.
				stderr: new RegExp(`^entries ${n}\\n`),
				// Opening must not rewrite or grow the file.
				check: () => (statSync(file).size !== size ? `the session file changed size (${size} → ${statSync(file).size})` : undefined),
			},
			sample: (out) => {
				const rows = parseTiming(out.stderr).rows;
				const ms = (label: string) => rows.find((r) => r.indent === 0 && r.label === label)?.ms ?? Number.NaN;
				return { openMs: ms("open session"), contextMs: ms("session context"), selectMs: ms("select model") };
			},
		};
	};
	const bare = (n: number, file: string): Subject => ({ name: `floor (read + JSON.parse), ${n / 1000}k`, argv: [floor, file], env, cwd: world.cwd, expect: { stdout: `lines ${n + 1}\n` } });
	const subjects = [...SIZES.map((n, i) => agent(n, files[i]!)), ...SIZES.map((n, i) => bare(n, files[i]!))];
	const m = await measureRounds(subjects, o);
	const small = m[0]!;
	const large = m[SIZES.length - 1]!;
	const fSmall = m[SIZES.length]!;
	const fLarge = m[2 * SIZES.length - 1]!;
	const k = (SIZES.at(-1)! - SIZES[0]!) / 1000;
	const slope = (lo: number[], hi: number[]) => perRound([lo, hi], (l, h) => (h - l) / k);
	const wallPer = slope(small.wallMs, large.wallMs);
	const floorPer = slope(fSmall.wallMs, fLarge.wallMs);
	const cpuPer = slope(small.cpuMs!, large.cpuMs!);
	const rssPer = summary(slope(small.rssKb, large.rssKb).map((kb) => kb / 1024));
	const selectGrowth = summary(perRound([small.samples!.selectMs!, large.samples!.selectMs!], (s, l) => l - s));
	const sizes = SIZES.map((n, i) => `${n / 1000}k: ${(statSync(files[i]!).size / 2 ** 20).toFixed(1)} MB`).join(", ");
	const per: Table = {
		title: `per 1k entries (slope from ${SIZES[0]! / 1000}k to ${SIZES.at(-1)! / 1000}k, per round)`,
		header: ["", "agent", "floor (read + JSON.parse)", "agent / floor"],
		rows: [
			["wall ms per 1k entries", fmt(summary(wallPer), "", 2), fmt(summary(floorPer), "", 2), fmtRatio(summary(perRound([wallPer, floorPer], (a, f) => a / f)))],
			["CPU ms per 1k entries", fmt(summary(cpuPer), "", 2), fmt(summary(slope(fSmall.cpuMs!, fLarge.cpuMs!)), "", 2), ""],
			["  open session (AGENT_TIMING) ms per 1k", fmt(summary(slope(small.samples!.openMs!, large.samples!.openMs!)), "", 2), "", ""],
			["  session context (AGENT_TIMING) ms per 1k", fmt(summary(slope(small.samples!.contextMs!, large.samples!.contextMs!)), "", 2), "", ""],
			["peak RSS MB per 1k entries", fmt(rssPer, "", 2), fmt(summary(slope(fSmall.rssKb, fLarge.rssKb).map((kb) => kb / 1024)), "", 2), ""],
			[`select model (AGENT_TIMING) ms, ${SIZES[0]! / 1000}k → ${SIZES.at(-1)! / 1000}k`, `${fmt(summary(small.samples!.selectMs!), "", 2)} → ${fmt(summary(large.samples!.selectMs!), "", 2)}`, "", ""],
		],
		notes: [`file sizes: ${sizes}`],
	};
	return result("sessions", "Spawn to exit of `agent --session <file> -p /bench-noop` (an extension command: nothing is sent); floor: a compiled read + JSON.parse of every line (same Bun, same flags).", o, startLoad, [rowsTable("whole runs", compare(m, -1)), per], [
		goalOf("session load per 1k entries", summary(wallPer), 2.5, "ms", { cpu: summary(cpuPer) }),
		goalOf("session memory per 1k entries", rssPer, 1.5, "MB"),
		goalOf(`select model: growth from ${SIZES[0]! / 1000}k to ${SIZES.at(-1)! / 1000}k entries`, selectGrowth, 0.5, "ms"),
	]);
};

if (import.meta.main) await benchMain(bench, { runs: 9 });
