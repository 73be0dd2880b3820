// What the first use of each provider SDK costs inside the compiled binary: the lazy import, and a
// first streamed request to a loopback server (SDK warm). Median of several fresh processes.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const RUNS = Number(process.env.RUNS ?? 9);
const dir = mkdtempSync(join(tmpdir(), "sdk-import-"));
const outfile = join(dir, "probe");
try {
	const built = await Bun.build({
		entrypoints: [new URL("./sdk-import-probe.ts", import.meta.url).pathname],
		compile: { outfile },
		minify: true,
		bytecode: true,
		format: "esm",
		sourcemap: "none",
	});
	if (!built.success) throw new Error(built.logs.join("\n"));
	for (const sdk of ["openai", "anthropic"]) {
		const samples: { fetchMs: number; importMs: number; requestMs: number }[] = [];
		for (let i = 0; i < RUNS; i++) {
			const proc = Bun.spawnSync([outfile, sdk]);
			if (proc.exitCode !== 0) throw new Error(proc.stderr.toString());
			samples.push(JSON.parse(proc.stdout.toString()));
		}
		const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
		const importMs = median(samples.map((s) => s.importMs));
		const requestMs = median(samples.map((s) => s.requestMs));
		const fetchMs = median(samples.map((s) => s.fetchMs));
		const ms = (n: number) => `${n.toFixed(1).padStart(6)} ms`;
		console.log(`${sdk.padEnd(10)} import ${ms(importMs)}   first request through the SDK ${ms(requestMs)}   first plain fetch ${ms(fetchMs)}   (median of ${RUNS})`);
	}
} finally {
	rmSync(dir, { recursive: true, force: true });
}
