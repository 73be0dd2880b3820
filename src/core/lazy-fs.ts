// node:fs and node:fs/promises, loaded on first use. The binary's build rewrites our modules' imports
// of them into calls through these (scripts/lazy-fs-imports.ts): each costs 1.5–2 ms of a compiled start,
// and a print run that only looks for and reads a few files never needs them (core/file-reader.ts).

let fs: typeof import("node:fs") | undefined;
let fsPromises: typeof import("node:fs/promises") | undefined;

/** Set once node:fs is loaded; AGENT_DEBUG_CHUNKS=1 names it with the loaded chunks (cli.ts). */
export const NODE_FS_LOADED = Symbol.for("agent.node-fs-loaded");

export function nodeFs(): typeof import("node:fs") {
	if (fs) return fs;
	(globalThis as Record<symbol, unknown>)[NODE_FS_LOADED] = true;
	fs = require("node:fs") as typeof import("node:fs");
	return fs;
}

/** Whether node:fs is loaded: from then on a read through it costs less than Bun's (file-reader.ts). */
export function nodeFsLoaded(): boolean {
	return fs !== undefined;
}

export function nodeFsPromises(): typeof import("node:fs/promises") {
	if (fsPromises) return fsPromises;
	(globalThis as Record<symbol, unknown>)[NODE_FS_LOADED] = true;
	fsPromises = require("node:fs/promises") as typeof import("node:fs/promises");
	return fsPromises;
}
