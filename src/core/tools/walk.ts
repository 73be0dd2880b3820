// Listing files under a directory for find and the built-in grep: sorted, depth-first, never
// into .git or node_modules, and honouring a top-level .gitignore in a simple way.
import type { Dirent } from "node:fs";
import { fsp } from "./fs-async.ts";
import { basename, join, relative } from "node:path";
import { throwIfAborted } from "./paths.ts";

/** Directories no search wants: VCS internals and installed packages. */
export const ALWAYS_SKIPPED_DIRS: ReadonlySet<string> = new Set([".git", "node_modules"]);

export type IgnoreTest = (relativePath: string, isDirectory: boolean) => boolean;

/**
 * The subset of .gitignore that covers nearly every real file: `#` comments, `dir/` (directories
 * only), `/anchored` and `a/b` patterns matched from the file's folder, bare patterns matched
 * against the name at any depth. Negations (`!keep`) are not supported and are skipped.
 */
export function parseGitignore(text: string): IgnoreTest {
	const rules: { glob: Bun.Glob; anchored: boolean; directoryOnly: boolean }[] = [];
	for (const rawLine of text.split("\n")) {
		let line = rawLine.replace(/\r$/, "").trimEnd();
		if (line === "" || line.startsWith("#") || line.startsWith("!")) continue;
		const directoryOnly = line.endsWith("/");
		if (directoryOnly) line = line.slice(0, -1);
		const anchored = line.includes("/");
		if (line.startsWith("/")) line = line.slice(1);
		if (line === "") continue;
		rules.push({ glob: new Bun.Glob(line), anchored, directoryOnly });
	}
	return (relativePath, isDirectory) =>
		rules.some(
			(rule) => (!rule.directoryOnly || isDirectory) && rule.glob.match(rule.anchored ? relativePath : basename(relativePath)),
		);
}

async function readGitignore(dir: string): Promise<IgnoreTest | undefined> {
	try {
		return parseGitignore(await fsp().readFile(join(dir, ".gitignore"), "utf8"));
	} catch {
		return undefined;
	}
}

/**
 * The ignore test for a walk of `root`: root's own .gitignore, and cwd's when root lies inside
 * cwd (the project's top-level file applies to any folder searched within it).
 */
export async function loadIgnore(root: string, cwd: string): Promise<IgnoreTest> {
	const tests: IgnoreTest[] = [];
	const own = await readGitignore(root);
	if (own) tests.push(own);
	const fromCwd = relative(cwd, root);
	if (fromCwd !== "" && !fromCwd.startsWith("..")) {
		const top = await readGitignore(cwd);
		const prefix = fromCwd.split("\\").join("/");
		if (top) tests.push((path, isDirectory) => top(`${prefix}/${path}`, isDirectory));
	}
	return (path, isDirectory) => tests.some((test) => test(path, isDirectory));
}

/**
 * Files under `root` as `/`-separated paths relative to it, depth-first with each directory's
 * entries in name order, files and subdirectories interleaved (the order of `rg --sort path`).
 */
export async function* walkFiles(root: string, options: { ignore?: IgnoreTest; signal?: AbortSignal } = {}): AsyncGenerator<string> {
	yield* walkDir(root, "", options);
}

async function* walkDir(root: string, dir: string, options: { ignore?: IgnoreTest; signal?: AbortSignal }): AsyncGenerator<string> {
	throwIfAborted(options.signal);
	let entries: Dirent[];
	try {
		entries = await fsp().readdir(join(root, dir), { withFileTypes: true });
	} catch {
		return; // unreadable or vanished mid-walk: skip it, as rg does
	}
	entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
	for (const entry of entries) {
		const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
		if (entry.isDirectory()) {
			if (!ALWAYS_SKIPPED_DIRS.has(entry.name) && !options.ignore?.(path, true)) yield* walkDir(root, path, options);
			continue;
		}
		// Follow links to files; never links to directories (they can loop).
		const isFile = entry.isSymbolicLink() ? ((await fsp().stat(join(root, path)).catch(() => undefined))?.isFile() ?? false) : entry.isFile();
		if (isFile && !options.ignore?.(path, false)) yield path;
	}
}

/** The local `listFiles` of grep and find: walkFiles with the ignore rules for `root` in `cwd`. */
export function localFileLister(cwd: string): (root: string, signal?: AbortSignal) => AsyncIterable<string> {
	return async function* listFiles(root, signal) {
		yield* walkFiles(root, { ignore: await loadIgnore(root, cwd), signal });
	};
}

/** Match a glob the way rg and fd do: against the name when it has no `/`, else the whole path. */
export function globMatcher(pattern: string): (relativePath: string) => boolean {
	const glob = new Bun.Glob(pattern);
	return pattern.includes("/") ? (path) => glob.match(path) : (path) => glob.match(basename(path));
}
