// Project trust decisions (SPEC §4), kept in `~/.agent/trust.json` keyed by canonical real path.
// The nearest decided ancestor of a folder decides for it. A malformed file is an error, never
// overwritten.
import { mkdirSync, realpathSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { getAgentDir, tildify } from "../../config.ts";
import { UserError } from "../errors.ts";
import { readJsonFile } from "../file-reader.ts";
import { SettingsError } from "./settings.ts";

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
	const read = readJsonFile(path);
	if (read?.value === undefined) return { version: 1, folders: {} };
	const data = read.value as Partial<TrustFile> | null;
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
	const tmp = `${path}.${process.pid}.tmp`;
	try {
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(tmp, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
		renameSync(tmp, path);
	} catch (error) {
		try {
			rmSync(tmp, { force: true });
		} catch {
			// the folder is not writable: no temp file was made either
		}
		const code = (error as NodeJS.ErrnoException).code;
		const why = code === "EACCES" || code === "EPERM" ? `permission denied (${code})` : error instanceof Error ? error.message : String(error);
		throw new UserError(`Cannot save the trust decision in ${tildify(path)}: ${why}. Nothing was changed.`, [
			`Make ${tildify(dirname(path))} writable, or trust for one run with --approve.`,
		]);
	}
	return key;
}
