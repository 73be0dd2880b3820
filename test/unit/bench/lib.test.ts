// The benchmark helpers' arithmetic and formatting, and that measure() counts runs and refuses
// a failing command. No timings are asserted.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BenchCommandError, formatReport, measure, measureAll, median, parseBenchFlags, percentile, ratio, summarize, table, type Measurement } from "../../../scripts/bench/lib.ts";

const ms = (n: number) => n * 1e6;
const mb = (n: number) => n * 2 ** 20;

describe("median / percentile / ratio", () => {
	test("median of odd and even counts, unsorted input left untouched", () => {
		const input = [5, 1, 3];
		expect(median(input)).toBe(3);
		expect(input).toEqual([5, 1, 3]);
		expect(median([4, 1, 3, 2])).toBe(2.5);
		expect(median([7])).toBe(7);
		expect(() => median([])).toThrow("median of no values");
	});

	test("p90 is nearest-rank", () => {
		const ten = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1];
		expect(percentile(ten, 90)).toBe(9);
		expect(percentile(ten, 100)).toBe(10);
		expect(percentile(ten, 0)).toBe(1);
		expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15], 90)).toBe(14);
		expect(percentile([42], 90)).toBe(42);
	});

	test("ratio against a floor; no floor gives null", () => {
		expect(ratio(30, 15)).toBe(2);
		expect(ratio(30, 0)).toBeNull();
		expect(ratio(Number.NaN, 10)).toBeNull();
	});
});

describe("summarize / table", () => {
	const floor: Measurement = { name: "floor", argv: ["hello"], wallNs: [ms(10), ms(12), ms(11)], rssBytes: [mb(12), mb(12), mb(12)] };
	const agent: Measurement = { name: "agent --version", argv: ["agent", "--version"], wallNs: [ms(15), ms(17), ms(16), ms(40)], rssBytes: [mb(18), mb(18), mb(18), mb(18)] };
	const noRss: Measurement = { name: "no rss", argv: ["x"], wallNs: [ms(22)], rssBytes: [] };

	test("medians in ms and MB, ratios of medians to the floor's medians", () => {
		const rows = summarize([floor, agent, noRss], floor);
		expect(rows[0]).toEqual({ name: "floor", wallMs: { median: 11, p90: 12 }, rssMb: { median: 12, p90: 12 }, wallRatio: 1, rssRatio: 1 });
		expect(rows[1]).toEqual({ name: "agent --version", wallMs: { median: 16.5, p90: 40 }, rssMb: { median: 18, p90: 18 }, wallRatio: 1.5, rssRatio: 1.5 });
		expect(rows[2]).toEqual({ name: "no rss", wallMs: { median: 22, p90: 22 }, rssMb: null, wallRatio: 2, rssRatio: null });
	});

	test("without a floor there are no ratios", () => {
		expect(summarize([agent])[0]!.wallRatio).toBeNull();
	});

	test("markdown table, exact", () => {
		expect(table(summarize([floor, agent, noRss], floor))).toBe(
			[
				"| command | wall median | wall p90 | wall vs floor | peak RSS median | RSS p90 | RSS vs floor |",
				"| --- | --- | --- | --- | --- | --- | --- |",
				"| floor | 11.0 ms | 12.0 ms | 1.00× | 12.0 MB | 12.0 MB | 1.00× |",
				"| agent --version | 16.5 ms | 40.0 ms | 1.50× | 18.0 MB | 18.0 MB | 1.50× |",
				"| no rss | 22.0 ms | 22.0 ms | 2.00× | – | – | – |",
				"",
			].join("\n"),
		);
	});

	test("--json report carries the meta and the rows", () => {
		const rows = summarize([floor], floor);
		expect(JSON.parse(formatReport(rows, { json: true }, { bench: "startup" }))).toEqual({ bench: "startup", rows });
		expect(formatReport(rows, { json: false })).toBe(table(rows));
	});
});

describe("parseBenchFlags", () => {
	test("defaults, --runs, --json and a script's own options", () => {
		expect(parseBenchFlags([])).toEqual({ json: false, runs: 15, options: {} });
		expect(parseBenchFlags(["--json", "--runs", "4", "--binary", "/x"], { binary: { type: "string" } })).toEqual({ json: true, runs: 4, options: { binary: "/x" } });
	});

	test("bad --runs and unknown flags are refused", () => {
		expect(() => parseBenchFlags(["--runs", "0"])).toThrow('--runs must be a positive integer, got "0"');
		expect(() => parseBenchFlags(["--runs", "two"])).toThrow('--runs must be a positive integer, got "two"');
		expect(() => parseBenchFlags(["--nope"])).toThrow("--nope");
	});
});

describe("measure", () => {
	test("records one sample per timed run, none for warm-up, in rounds across commands", async () => {
		const dir = mkdtempSync(join(realpathSync(tmpdir()), "agent-bench-test-"));
		try {
			const cmd = (letter: string) => ["/bin/sh", "-c", `echo ${letter} >> log`];
			const [a, b] = await measureAll(
				[
					{ name: "a", argv: cmd("a") },
					{ name: "b", argv: cmd("b") },
				],
				{ cwd: dir, runs: 3, warmup: 2 },
			);
			expect(a!.wallNs).toHaveLength(3);
			expect(b!.wallNs).toHaveLength(3);
			expect(a!.wallNs.every((n) => n > 0)).toBe(true);
			// GNU time supplies RSS where it exists; otherwise there is none rather than a wrong figure.
			const rssRuns = existsSync("/usr/bin/time") ? 3 : 0;
			expect(a!.rssBytes).toHaveLength(rssRuns);
			// 2 warm-up rounds of a-then-b, then 3 timed rounds, where each command runs once more for RSS.
			const timedRound = rssRuns ? "a\na\nb\nb\n" : "a\nb\n";
			expect(readFileSync(join(dir, "log"), "utf8")).toBe("a\nb\n".repeat(2) + timedRound.repeat(3));
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	test("stdin reaches every run", async () => {
		const m = await measure("reads", ["/bin/sh", "-c", 'read line; [ "$line" = ping ]'], { runs: 2, warmup: 1, stdin: "ping\n" });
		expect(m.wallNs).toHaveLength(2);
		expect(m.rssBytes).toHaveLength(existsSync("/usr/bin/time") ? 2 : 0);
	});

	test("a failing command throws with its exit code and stderr", async () => {
		const err = await measure("fails", ["/bin/sh", "-c", "echo broken >&2; exit 3"], { runs: 1, warmup: 0 }).catch((e: unknown) => e);
		expect(err).toBeInstanceOf(BenchCommandError);
		expect((err as BenchCommandError).code).toBe(3);
		expect((err as BenchCommandError).message).toBe('"/bin/sh -c echo broken >&2; exit 3" exited with 3; a benchmark must measure a successful run.\nbroken');
	});
});
