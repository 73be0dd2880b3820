#!/usr/bin/env bun
// Entry point: answer --version on the spot, otherwise hand the arguments to main and exit with its code.
import { ENV, VERSION } from "./config.ts";

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === "--version" || argv[0] === "-v") && process.env[ENV.timing] !== "1") {
	// The most common probe pays for nothing else: main and its imports stay unevaluated.
	console.log(VERSION);
	process.exit(0);
}
if (process.env[ENV.debugChunks] === "1") reportLoadedChunks();
const { main } = await import("./main.ts");
const code = await main(argv);
// process.exit itself belongs to extensions by now (core/exit-guard.ts).
(await import("./core/exit-guard.ts")).exitProcess(code);

/**
 * `AGENT_DEBUG_CHUNKS=1`: at exit, one stderr line naming every lazily loaded chunk (Bun lists a
 * compiled binary's loaded chunks in require.cache), so a test can check what a run imported, and
 * one saying whether node:fs was loaded.
 */
function reportLoadedChunks(): void {
	process.on("exit", () => {
		const chunks = Object.keys(require.cache).map((k) => k.slice(k.lastIndexOf("/") + 1));
		// Set by core/lazy-fs.ts, through which our modules load node:fs in the binary (scripts/lazy-fs-imports.ts).
		const fs = (globalThis as Record<symbol, unknown>)[Symbol.for("agent.node-fs-loaded")] === true;
		process.stderr.write(`Loaded chunks: ${chunks.join(" ")}\nLoaded node:fs: ${fs ? "yes" : "no"}\n`);
	});
}
