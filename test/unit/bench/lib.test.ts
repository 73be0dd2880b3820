// The benchmark kit: its arithmetic (medians, per-round ratios and slopes, goals), its tables, and
// that it refuses a bad run, interleaves subjects and never passes the caller's environment on.
// No timing is asserted.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
	BenchCheckError,
	BenchWorld,
	compare,
	fmt,
	formatTable,
	freshCopy,
	goal,
	goalOf,
	goalsTable,
	interleave,
	measureRounds,
	median,
	pairedRatios,
	parseCommandLine,
	perRound,
	problemWith,
	rowsTable,
	runChecked,
	SAFE_PATH,
	summary,
	type BenchResult,
	type Subject,
} from "../../../scripts/bench/lib.ts";
import { fold, inNoRow, parseTiming, unattributedIn } from "../../../scripts/bench/timing-rows.ts";

describe("arithmetic", () => {
	test("median of odd and even counts leaves its input alone; summary has the extremes", () => {
		const input = [5, 1, 3];
		expect(median(input)).toBe(3);
		expect(input).toEqual([5, 1, 3]);
		expect(median([4, 1, 3, 2])).toBe(2.5);
		expect(() => median([])).toThrow("median of no values");
		expect(summary([4, 1, 3, 2])).toEqual({ median: 2.5, min: 1, max: 4 });
	});

	test("ratios and slopes are paired round by round", () => {
		// Round 2 was slow for both: its ratio is still 2.
		expect(pairedRatios([20, 60, 22], [10, 30, 11])).toEqual([2, 2, 2]);
		expect(perRound([[10, 12], [90, 100]], (lo, hi) => (hi - lo) / 80)).toEqual([1, 1.1]);
		// Series of different lengths pair as far as the shorter goes.
		expect(perRound([[1, 2, 3], [1, 2]], (a, b) => a + b)).toEqual([2, 4]);
	});

	test("compare: summaries, per-round ratios to the floor, none for the floor itself", () => {
		const rows = compare([
			{ name: "floor", wallMs: [10, 20, 10], cpuMs: [5, 5, 5], rssKb: [1024, 1024] },
			{ name: "agent", wallMs: [25, 40, 30], cpuMs: [10, 15, 10], rssKb: [2048, 3072] },
			{ name: "no rss", wallMs: [10, 10, 10], rssKb: [] },
		]);
		expect(rows[0]).toEqual({ name: "floor", wallMs: { median: 10, min: 10, max: 20 }, cpuMs: { median: 5, min: 5, max: 5 }, rssMb: { median: 1, min: 1, max: 1 }, ratio: null, cpuRatio: null, rssRatio: null });
		expect(rows[1]!.ratio).toEqual({ median: 2.5, min: 2, max: 3 });
		expect(rows[1]!.cpuRatio).toEqual({ median: 2, min: 2, max: 3 });
		expect(rows[2]!.cpuMs).toBeNull();
		expect(rows[1]!.rssRatio).toEqual({ median: 2.5, min: 2, max: 3 });
		expect(rows[2]!.rssMb).toBeNull();
		expect(compare([{ name: "a", wallMs: [1], rssKb: [] }], -1)[0]!.ratio).toBeNull();
	});

	test("a goal is met at or under its target; an unmeasured one never", () => {
		expect(goal("g", 2.5, 2.5, "×").met).toBe(true);
		expect(goal("g", 2.51, 2.5, "×").met).toBe(false);
		expect(goal("g", Number.NaN, 2.5, "×").met).toBe(false);
		expect(goalOf("g", { median: 2, min: 1.5, max: 3 }, 2.5, "×", { aim: 2, cpu: { median: 1.8, min: 1, max: 2 } })).toEqual({ name: "g", value: 2, target: 2.5, unit: "×", met: true, aim: 2, detail: "min–max 1.50–3.00×", cpu: 1.8 });
	});
});

describe("tables", () => {
	test("rows table and goal table, exact", () => {
		const rows = compare([
			{ name: "floor", wallMs: [10, 12, 11], rssKb: [] },
			{ name: "agent", wallMs: [20, 30, 22], rssKb: [] },
		]);
		expect(formatTable(rowsTable("start-up", rows))).toBe(
			[
				"### start-up",
				"",
				"| subject | wall ms, median (min–max) | vs floor, per round | CPU ms | CPU vs floor | peak RSS MB | RSS vs floor |",
				"| --- | --- | --- | --- | --- | --- | --- |",
				"| floor | 11.0 (10.0–12.0) | 1.00× | – | – | – | – |",
				"| agent | 22.0 (20.0–30.0) | 2.00× (2.00–2.50) | – | – | – | – |",
				"",
			].join("\n"),
		);
		const result: BenchResult = { bench: "startup", description: "", runs: 3, load: { start: 1, end: 2 }, cores: 2, tables: [], goals: [goal("a", 1.2, 1.5, "×", { cpu: 1.1 }), goal("b", 300, 250, "KB", { aim: 200 })] };
		expect(formatTable(goalsTable([result]))).toBe(
			[
				"### Goals",
				"",
				"| bench | goal | measured (wall) | target | spread | same on CPU time | status |",
				"| --- | --- | --- | --- | --- | --- | --- |",
				"| startup | a | 1.20× | ≤ 1.50× |  | 1.10× | met |",
				"| startup | b | 300.0 KB | ≤ 250.0 KB (aim 200.0 KB) |  |  | **not met** |",
				"",
				"1 of 2 goals met (on wall time).",
				"",
			].join("\n"),
		);
		expect(fmt(null)).toBe("–");
	});
});

describe("runs", () => {
	const worlds: BenchWorld[] = [];
	afterEach(async () => {
		for (const w of worlds.splice(0)) await w[Symbol.asyncDispose]();
	});
	const world = () => {
		const w = BenchWorld.create("unit");
		worlds.push(w);
		return w;
	};
	const sh = (w: BenchWorld, name: string, script: string, expect: Subject["expect"]): Subject => ({ name, argv: ["/bin/sh", "-c", script], env: w.env(), cwd: w.cwd, expect });

	test("the environment is built from nothing: an exported API key never reaches a run", async () => {
		const w = world();
		process.env.OPENAI_API_KEY = "sk-must-not-leak";
		try {
			const out = await runChecked(sh(w, "env", "env", {}));
			expect(out.stdout).not.toContain("sk-must-not-leak");
			const keys = out.stdout.split("\n").filter(Boolean).map((l) => l.split("=")[0]).filter((k) => k !== "PWD" && k !== "SHLVL" && k !== "_");
			expect(keys.sort()).toEqual(["HOME", "LANG", "PATH", "TERM", "TMPDIR"]);
			expect(out.stdout).toContain(`HOME=${w.home}\n`);
			expect(out.stdout).toContain(`PATH=${SAFE_PATH}\n`);
		} finally {
			delete process.env.OPENAI_API_KEY;
		}
	});

	test("a run that exits wrongly or prints the wrong thing is refused, with what it printed", async () => {
		const w = world();
		const failed = await runChecked(sh(w, "fails", "echo broken >&2; exit 3", {})).catch((e: unknown) => e);
		expect(failed).toBeInstanceOf(BenchCheckError);
		expect((failed as Error).message).toStartWith('"fails" (/bin/sh -c echo broken >&2; exit 3): exited with 3, expected 0; a benchmark must measure a good run.');
		expect((failed as Error).message).toContain("--- stderr\nbroken\n");
		const wrong = await runChecked(sh(w, "wrong", "echo nope", { stdout: "yes\n" })).catch((e: unknown) => e);
		expect((wrong as Error).message).toContain("stdout does not match yes\n");
		expect(problemWith({ stdout: /^ok/, stderr: "" }, { code: 0, stdout: "ok\n", stderr: "", wallMs: 1, cpuMs: 1 })).toBeUndefined();
		expect(problemWith({ code: 1 }, { code: 0, stdout: "", stderr: "", wallMs: 1, cpuMs: 1 })).toBe("exited with 0, expected 1");
		expect(problemWith({ check: (o) => (o.stdout ? undefined : "empty") }, { code: 0, stdout: "", stderr: "", wallMs: 1, cpuMs: 1 })).toBe("empty");
	});

	test("rounds interleave subjects in a rotating order; warm-up rounds are run but not kept", async () => {
		const order: string[] = [];
		const samples = await interleave(["a", "b", "c"], { runs: 2, warmup: 1 }, async (s) => {
			order.push(s);
			return order.length;
		});
		expect(order).toEqual(["a", "b", "c", "b", "c", "a", "c", "a", "b"]);
		expect(samples).toEqual([[6, 8], [4, 9], [5, 7]]);
	});

	test("measureRounds checks every run, keeps samples, and measures RSS in the first rounds only", async () => {
		const w = world();
		const log = join(w.root, "log");
		const subjects = [sh(w, "a", `echo a >> ${log}; echo 7`, { stdout: "7\n" }), sh(w, "b", `echo b >> ${log}`, { stdout: "" })];
		subjects[0]!.sample = (out) => ({ seven: Number(out.stdout) });
		const m = await measureRounds(subjects, { runs: 3, warmup: 1, rssRuns: 2 });
		expect(m.map((x) => x.wallMs.length)).toEqual([3, 3]);
		expect(m[0]!.samples).toEqual({ seven: [7, 7, 7] });
		const withRss = m[0]!.rssKb.length;
		expect([0, 2]).toContain(withRss);
		// 4 rounds, plus one untimed run per subject in each of the 2 RSS rounds.
		expect(readFileSync(log, "utf8").split("\n").filter(Boolean).length).toBe(2 * 4 + (withRss ? 4 : 0));
		const bad = await measureRounds([sh(w, "late", `echo x >> ${log}.2; [ $(wc -l < ${log}.2) -lt 3 ]`, {})], { runs: 5, warmup: 0, rssRuns: 0 }).catch((e: unknown) => e);
		expect(bad).toBeInstanceOf(BenchCheckError);
	});
});

describe("--binary", () => {
	test("is measured as a fresh copy in the run's own folder, byte for byte and executable", async () => {
		await using w = BenchWorld.create("unit");
		const source = join(w.root, "given");
		writeFileSync(source, "#!/bin/sh\necho hi\n", { mode: 0o644 });
		const copy = freshCopy(source, w.bin);
		expect(copy).toBe(join(w.bin, "agent"));
		expect(readFileSync(copy, "utf8")).toBe(readFileSync(source, "utf8"));
		expect(statSync(copy).mode & 0o777).toBe(0o755);
	});
});

describe("command line", () => {
	test("defaults, flags, and refusals", () => {
		expect(parseCommandLine([])).toEqual({ json: false, runs: undefined, binary: undefined, flags: { minify: true, bytecode: true } });
		expect(parseCommandLine(["--json", "--runs", "4", "--binary", "/x/agent", "--no-bytecode"])).toEqual({ json: true, runs: 4, binary: "/x/agent", flags: { minify: true, bytecode: false } });
		expect(() => parseCommandLine(["--runs", "0"])).toThrow('--runs must be a positive integer, got "0"');
		expect(() => parseCommandLine(["--nope"])).toThrow("--nope");
	});
});

describe("AGENT_TIMING tables", () => {
	const stderr = [
		"some warning",
		"Timing (ms):",
		"  parse args                                  0.30",
		"    trust, settings, discovery                0.50",
		"    /x/a.ts  resolve 0.10 · import 1.00 · factory 0.20 · commit 0.05    1.35",
		"    /x/b.ts  resolve 0.10 · import 0.50 · factory 0.20 · commit 0.05    0.85",
		"  extensions                                  3.00",
		"    turn 1  request build 1.00 · response head 2.00 · stream 1.00    4.00",
		"    turn 2  request build 0.50 · tools 3.00 · hooks 0.50    4.00",
		"  run                                         8.50",
		"  total (since process start of main)        12.00",
		"  process uptime                             15.00",
	].join("\n");

	test("rows with their parts, parents, totals", () => {
		const t = parseTiming(stderr);
		expect(t.totalMs).toBe(12);
		expect(t.uptimeMs).toBe(15);
		expect(t.rows[2]).toEqual({ indent: 1, label: "/x/a.ts", parts: { resolve: 0.1, import: 1, factory: 0.2, commit: 0.05 }, ms: 1.35, parent: "extensions" });
		expect(t.rows[0]).toEqual({ indent: 0, label: "parse args", parts: {}, ms: 0.3 });
		expect(unattributedIn(t, "extensions")).toBeCloseTo(0.3);
		expect(() => parseTiming("nothing")).toThrow('no "Timing (ms):" table');
	});

	test("folding sums files and turns by part and says what no row holds", () => {
		const f = fold(parseTiming(stderr));
		expect(f.get("extension files")).toEqual({ indent: 1, ms: 2.2, count: 2, parts: { resolve: 0.2, import: 1.5, factory: 0.4, commit: 0.1 } });
		expect(f.get("turns")).toEqual({ indent: 1, ms: 8, count: 2, parts: { "request build": 1.5, "response head": 2, stream: 1, tools: 3, hooks: 0.5 } });
		expect(f.get("before main (runtime start, entry module)")!.ms).toBe(3);
		expect(f.get("in no row (total − rows)")!.ms).toBeCloseTo(0.2);
	});

	test("a run's time in no row: outside the top-level rows, and in `run` outside its turns", () => {
		// total 12 − rows 11.8 = 0.2; run 8.5 − turns 8 = 0.5
		expect(inNoRow(parseTiming(stderr))).toBeCloseTo(0.7);
	});
});
