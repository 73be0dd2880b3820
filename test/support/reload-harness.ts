// Compiled into a binary by test/e2e/extensions-reload.test.ts: the loader's reload path (a new
// generation, served by jiti) exercised inside a compiled binary, since no mode offers /reload yet.
// argv: <entry> <helper> <helper source v2> <helper source broken>
import { writeFileSync } from "node:fs";
import type { ExtensionEntry } from "../../src/core/extensions/discovery.ts";
import { loadExtensions } from "../../src/core/extensions/loader.ts";
import { bumpExtensionGeneration } from "../../src/core/extensions/module-import.ts";

const [entryPath, helper, v2, broken] = process.argv.slice(2) as [string, string, string, string];
const entry: ExtensionEntry = { path: entryPath, resolvedPath: entryPath, sourceInfo: { path: entryPath, source: "cli", scope: "temporary", origin: "top-level" }, group: "path", resolveMs: 0 };
const load = async (label: string) => {
	const r = await loadExtensions([entry], { cwd: process.cwd() });
	console.log(`${label}: ${r.extensions.length} loaded${r.errors.map((e) => `; ${e.reason}`).join("")}`);
};
await load("first");
await load("same generation");
writeFileSync(helper, v2);
bumpExtensionGeneration();
await load("after reload");
writeFileSync(helper, broken);
bumpExtensionGeneration();
await load("broken helper");
