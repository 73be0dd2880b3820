// Runs pi 1.6.0's example extensions (test/support/pi-examples/scenarios.ts) through our binary and
// through pi itself against the loopback mock LLM, and prints which load and which behave alike.
//   bun scripts/pi-compat.ts [names…]            compare (builds nothing: run `npm run build` first)
//   bun scripts/pi-compat.ts --record [names…]   also write what pi did to the fixture the test reads
//   bun scripts/pi-compat.ts --show <name>       print both observations of one scenario
// pi runs as `bun node_modules/@earendil-works/pi-coding-agent/dist/bun/cli.js` in a temp HOME.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Observation } from "../test/support/pi-examples/observe.ts";
import { runScenario } from "../test/support/pi-examples/run.ts";
import { EXCLUDED, SCENARIOS, type Scenario } from "../test/support/pi-examples/scenarios.ts";
import { differences, loaded, RECORD_PATH, type Recorded } from "../test/support/pi-examples/compare.ts";

const args = process.argv.slice(2);
const record = args.includes("--record");
const show = args.includes("--show");
const names = args.filter((a) => !a.startsWith("--"));
const chosen = names.length > 0 ? SCENARIOS.filter((s) => names.includes(s.name)) : SCENARIOS;
if (chosen.length === 0) {
	console.error(`No scenario named ${names.join(", ")}. Known: ${SCENARIOS.map((s) => s.name).join(", ")}`);
	process.exit(1);
}

const recordFile = resolve(import.meta.dir, "..", RECORD_PATH);
const recorded: Recorded = existsSync(recordFile) ? JSON.parse(readFileSync(recordFile, "utf8")) : { source: "", scenarios: {} };
const rows: string[][] = [];
let loads = 0;
let behaves = 0;
for (const scenario of chosen) {
	let pi: Observation;
	let ours: Observation;
	try {
		pi = await runScenario(scenario, "pi");
		ours = await runScenario(scenario, "agent");
	} catch (error) {
		rows.push([scenario.name, "?", "?", `harness error: ${String(error).split("\n")[0]}`]);
		console.error(`${scenario.name}: ${String(error)}`);
		continue;
	}
	const diff = differences(ours, pi);
	const ok = diff.length === 0;
	if (loaded(ours)) loads++;
	if (ok) behaves++;
	rows.push([scenario.name, loaded(pi) ? "loads" : "FAILS", loaded(ours) ? "loads" : "FAILS", ok ? "same" : `differs: ${diff.map((d) => d.split("\n")[0]).join("; ")}`]);
	if (show) console.log(JSON.stringify({ scenario: scenario.name, pi, ours }, null, 2));
	if (record) recorded.scenarios[scenario.name] = pi;
	console.error(`${scenario.name}: ${ok ? "same" : diff.join("\n  ")}`);
}
if (record) {
	recorded.source = "pi 1.6.0 (@earendil-works/pi-coding-agent), recorded by scripts/pi-compat.ts --record against test/support/mock-llm.ts";
	recorded.scenarios = Object.fromEntries(Object.entries(recorded.scenarios).sort(([a], [b]) => a.localeCompare(b)));
	writeFileSync(recordFile, `${JSON.stringify(recorded, null, "\t")}\n`);
	console.error(`recorded ${chosen.length} scenarios in ${RECORD_PATH}`);
}

console.log(`| example | pi 1.6.0 | agent | behaviour |\n| --- | --- | --- | --- |`);
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
console.log(`\n${loads}/${chosen.length} load, ${behaves}/${chosen.length} behave as in pi 1.6.0. Left out: ${Object.keys(EXCLUDED).length} (${Object.entries(EXCLUDED).map(([n, why]) => `${n}: ${why}`).join("; ")}).`);
void join;
