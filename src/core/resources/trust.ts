// Project trust decisions (SPEC §4), kept in `~/.agent/trust.json` keyed by canonical real path.
// The nearest decided ancestor of a folder decides for it. A malformed file is an error, never
// overwritten.
import { existsSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { getAgentDir } from "../../config.ts";
import { parseJsonFile, SettingsError } from "./settings.ts";

export type TrustState = "yes" | "no" | "undecided";

export interface TrustDecision {
	trusted: boolean;
	/** ISO time of the decision. */
	decidedAt: string;
}

export interface TrustFile {
	version: 1;
	folders: Record<string, TrustDecision>;
}

export interface TrustLookup {
	state: TrustState;
	/** The folder whose decision applies (the folder itself or its nearest decided ancestor). */
	decidedBy?: string;
}

export function trustFilePath(): string {
	return join(getAgentDir(), "trust.json");
}

/** Canonical form used as the key: the real path when the folder exists. */
export function canonicalFolder(path: string): string {
	const abs = resolve(path);
	try {
		return realpathSync(abs);
	} catch {
		return abs;
	}
}

export function readTrustFile(path = trustFilePath()): TrustFile {
	if (!existsSync(path)) return { version: 1, folders: {} };
	const text = readFileSync(path, "utf8");
	if (text.trim() === "") return { version: 1, folders: {} };
	const data = parseJsonFile(path, text, "No trust decision was read.") as Partial<TrustFile> | null;
	const folders = data && typeof data === "object" ? data.folders : undefined;
	if (!folders || typeof folders !== "object" || Array.isArray(folders)) {
		throw new SettingsError(path, `${path} must look like {"version": 1, "folders": {"/path": {"trusted": true}}}.`);
	}
	return { version: 1, folders: folders as Record<string, TrustDecision> };
}

/** The decision that applies to `folder`: its own, else the nearest decided ancestor's. */
export function lookupTrust(folder: string, file: TrustFile = readTrustFile()): TrustLookup {
	let dir = canonicalFolder(folder);
	for (;;) {
		const decision = file.folders[dir];
		if (decision && typeof decision.trusted === "boolean") return { state: decision.trusted ? "yes" : "no", decidedBy: dir };
		const parent = dirname(dir);
		if (parent === dir) return { state: "undecided" };
		dir = parent;
	}
}

/** Record a decision for `folder` (canonicalised) and return the key used. Writes atomically. */
export function saveTrust(folder: string, trusted: boolean, path = trustFilePath()): string {
	const file = readTrustFile(path);
	const key = canonicalFolder(folder);
	file.folders[key] = { trusted, decidedAt: new Date().toISOString() };
	mkdirSync(dirname(path), { recursive: true });
	const tmp = `${path}.${process.pid}.tmp`;
	writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
	renameSync(tmp, path);
	return key;
}
