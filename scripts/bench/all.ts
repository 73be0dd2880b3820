// `npm run bench`: every benchmark, one agent binary built once, each result as it finishes, then
// one table of the goals and which are met. Rounds per bench are chosen to finish well inside 10
// minutes on 2 cores; `--runs N` sets them all. PI_COMPARE=1 adds pi 1.6.0 where it applies.
//   bun scripts/bench/all.ts [--runs N] [--json] [--binary path] [--no-minify] [--no-bytecode]
import { bench as dispatch } from "./dispatch.ts";
import { bench as extensions } from "./extensions.ts";
import { bench as interactive } from "./interactive.ts";
import { bench as mcp } from "./mcp.ts";
import { type BenchEntry, runBenches } from "./lib.ts";
import { bench as packages } from "./packages.ts";
import { bench as roundtrip } from "./roundtrip.ts";
import { bench as sessions } from "./sessions.ts";
import { bench as startup } from "./startup.ts";
import { bench as tools } from "./tools.ts";
import { bench as tui } from "./tui.ts";

/** Every benchmark `npm run bench` runs, in order. Add yours here. */
export const BENCHES: BenchEntry[] = [
	{ bench: startup, runs: 31 },
	{ bench: roundtrip, runs: 31 },
	{ bench: extensions, runs: 21 },
	{ bench: tools, runs: 15 },
	{ bench: sessions, runs: 15 },
	// 61, not 21: a first frame is ~9 ms for the floor and a round's ratio swings 1.2-3.0x, so 21 rounds
	// moved the no-extension median 1.86-2.20x between consecutive idle runs of one commit; 61 gave
	// 1.85-1.92x for the same binaries (8 Dec, load ~1). About 15 s more.
	{ bench: interactive, runs: 61 },
	{ bench: tui, runs: 5 },
	{ bench: mcp, runs: 15 },
	{ bench: packages, runs: 11 },
	{ bench: dispatch, runs: 7, agent: false },
];

if (import.meta.main) {
	const started = performance.now();
	const code = await runBenches(BENCHES, process.argv.slice(2));
	process.stderr.write(`npm run bench: ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
	process.exit(code);
}
