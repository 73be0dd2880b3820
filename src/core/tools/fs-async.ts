// node:fs/promises, loaded on first use: importing it costs ~0.7 ms of start-up in the binary
// (measured), and a run whose model calls no file tool needs none of it.
import type * as FsPromises from "node:fs/promises";

let loaded: typeof FsPromises | undefined;

export function fsp(): typeof FsPromises {
	loaded ??= require("node:fs/promises") as typeof FsPromises;
	return loaded;
}
