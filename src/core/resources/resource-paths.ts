// What skills and prompt templates share: where a path came from, the problems found while
// loading (name collisions, unreadable files), and first-wins de-duplication by name.
import { realpathSync, statSync } from "node:fs";
import { isAbsolute, resolve } from "node:path";
import { expandHome } from "../../config.ts";
import { FileReadError, pathExists, readTextFile } from "../file-reader.ts";

/** `path` = `--skill` / `--prompt-template` / settings; `extension` = a `resources_discover` answer. */
export type ResourceScope = "project" | "user" | "path" | "extension";

export interface ResourcePath {
	/** Absolute. */
	path: string;
	scope: ResourceScope;
	/** Where the path was named (`--skill`, a settings file, `extension:<name>`), for messages. */
	origin: string;
	/** A default folder (`~/.agent/skills`): being absent is normal, not a problem to report. */
	optional?: boolean;
}

export type ResourceDiagnostic =
	/** Two resources with one name: the first (in precedence order) wins, the other is skipped. */
	| { type: "collision"; name: string; winnerPath: string; loserPath: string }
	| { type: "warning"; path: string; message: string };

/** `~` expanded, relative paths against `baseDir`. */
export function resolveResourcePath(path: string, baseDir: string): string {
	const expanded = expandHome(path.trim());
	return isAbsolute(expanded) ? expanded : resolve(baseDir, expanded);
}

export function kindOf(path: string): "file" | "dir" | undefined {
	// Most of the folders a start looks for are absent: Bun says so without node:fs (file-reader.ts).
	if (!pathExists(path)) return undefined;
	try {
		const stat = statSync(path, { throwIfNoEntry: false });
		if (stat === undefined) return undefined;
		return stat.isDirectory() ? "dir" : stat.isFile() ? "file" : undefined;
	} catch {
		return undefined;
	}
}

export function realPath(path: string): string {
	try {
		// The native variant: Bun's JS realpathSync costs milliseconds on some calls.
		return realpathSync.native(path);
	} catch {
		return path;
	}
}

/**
 * Keep the first resource of each name (callers pass them in precedence order) and the first of
 * each real file; a second name is a collision, a second sighting of one file is not.
 */
export function dedupeByName<T extends { name: string; filePath: string }>(items: T[], diagnostics: ResourceDiagnostic[]): T[] {
	const byName = new Map<string, T>();
	const files = new Set<string>();
	const kept: T[] = [];
	for (const item of items) {
		const real = realPath(item.filePath);
		if (files.has(real)) continue;
		files.add(real);
		const winner = byName.get(item.name);
		if (winner) {
			diagnostics.push({ type: "collision", name: item.name, winnerPath: winner.filePath, loserPath: item.filePath });
			continue;
		}
		byName.set(item.name, item);
		kept.push(item);
	}
	return kept;
}

/** A missing path that was asked for by name is worth a line; a missing default folder is not. */
export function missingPathWarning(source: ResourcePath): ResourceDiagnostic | undefined {
	return source.optional ? undefined : { type: "warning", path: source.path, message: `path does not exist (named by ${source.origin})` };
}

/** A skill's or template's text through the one reader (no FIFO hangs, bounded size, BOM dropped). */
export function readResourceText(path: string): string {
	const text = readTextFile(path);
	if (text === undefined) throw new Error("the file does not exist");
	return text;
}

/** The problem a diagnostic states (it names the file already). */
export function resourceProblem(error: unknown): string {
	if (error instanceof FileReadError) return error.problem;
	return error instanceof Error ? error.message : String(error);
}
