// Compiled by extensions.ts into its own binary: loads the given extension files through the real
// loader, then again after a reload (generation bump, which goes through jiti), and prints the
// timings as one JSON line. Proves the reload path works inside a compiled binary.
import type { ExtensionEntry } from "../../src/core/extensions/discovery.ts";
import { loadExtensions } from "../../src/core/extensions/loader.ts";
import { bumpExtensionGeneration } from "../../src/core/extensions/module-import.ts";

const files = process.argv.slice(2);
const entries: ExtensionEntry[] = files.map((path) => ({
	path,
	resolvedPath: path,
	sourceInfo: { path, source: "cli", scope: "temporary", origin: "top-level" },
	group: "path",
	resolveMs: 0,
}));
const t0 = performance.now();
const first = await loadExtensions(entries, { cwd: process.cwd() });
const t1 = performance.now();
bumpExtensionGeneration();
const second = await loadExtensions(entries, { cwd: process.cwd() });
const t2 = performance.now();
const errors = [...first.errors, ...second.errors].map((e) => e.message);
console.log(JSON.stringify({ firstMs: t1 - t0, reloadMs: t2 - t1, loaded: [first.extensions.length, second.extensions.length], errors }));
