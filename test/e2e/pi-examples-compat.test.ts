// pi 1.6.0's example extensions (those that need no full-screen UI and no network) through our
// binary, compared with what pi 1.6.0 itself did in the same scenario against the same mock LLM
// (recorded by `scripts/pi-compat.ts --record` in test/fixtures/pi-examples/pi-1.6.0.json): exit
// code, stdout, whether it loaded, every request the model got, the session file, chosen files.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { differences, RECORD_PATH, type Recorded } from "../support/pi-examples/compare.ts";
import { runScenario } from "../support/pi-examples/run.ts";
import { SCENARIOS } from "../support/pi-examples/scenarios.ts";

const recordFile = resolve(import.meta.dir, "../..", RECORD_PATH);
const recorded: Recorded = JSON.parse(readFileSync(recordFile, "utf8"));

/**
 * Where we differ on purpose, by the first line of each difference. Both are print-mode runs that
 * end while an extension's work is still going: pi 1.6.0 exits under it, we finish it.
 */
const DELIBERATE: Record<string, { why: string; differences: string[] }> = {
	"send-user-message.ts": {
		why: "the command's sendUserMessage is not awaited; pi exits and aborts the run it started, we answer it",
		differences: ['stdout "more\\n", pi ""', "2 requests, pi 0", "session: ["],
	},
	"trigger-compact.ts": {
		why: "ctx.compact() is not awaited; pi exits before the summary request, we compact (the request and the compaction entry)",
		differences: ["4 requests, pi 3", "session: ["],
	},
};

describe("pi 1.6.0's example extensions behave as in pi 1.6.0", () => {
	test("every scenario has pi's recorded observation", () => {
		expect(existsSync(recordFile)).toBe(true);
		expect(SCENARIOS.map((s) => s.name).filter((n) => !recorded.scenarios[n])).toEqual([]);
	});
	for (const scenario of SCENARIOS) {
		test(scenario.name, async () => {
			const ours = await runScenario(scenario, "agent");
			const diff = differences(ours, recorded.scenarios[scenario.name]!);
			const expected = DELIBERATE[scenario.name]?.differences ?? [];
			// The full difference is in the message when this fails.
			expect({ scenario: scenario.name, differences: diff.map((d) => d.split("\n")[0]) }).toEqual({ scenario: scenario.name, differences: expected });
		}, 60_000);
	}
});
