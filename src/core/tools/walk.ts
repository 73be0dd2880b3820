// Listing files under a directory for find and the built-in grep: sorted, depth-first, never
// into .git or node_modules, and honouring a top-level .gitignore in a simple way.
import { readFile, readdir, stat } from "node:fs/promises";
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
		return parseGitignore(await readFile(join(dir, ".gitignore"), "utf8"));
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

/** Files under `root` as `/`-separated paths relative to it, in sorted depth-first order. */
export async function* walkFiles(root: string, options: { ignore?: IgnoreTest; signal?: AbortSignal } = {}): AsyncGenerator<string> {
	const stack: string[] = [""];
	while (stack.length > 0) {
		throwIfAborted(options.signal);
		const dir = stack.pop()!;
		let entries: import("node:fs").Dirent[];
		try {
			entries = await readdir(join(root, dir), { withFileTypes: true });
		} catch {
			continue; // unreadable or vanished mid-walk: skip it, like rg does
		}
		entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
		const subdirs: string[] = [];
		for (const entry of entries) {
			const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
			let isDirectory = entry.isDirectory();
			let isFile = entry.isFile();
			if (entry.isSymbolicLink()) {
				// Follow links to files; never links to directories (they can loop).
				const target = await stat(join(root, path)).catch(() => undefined);
				isFile = target?.isFile() ?? false;
				isDirectory = false;
			}
			if (isDirectory) {
				if (!ALWAYS_SKIPPED_DIRS.has(entry.name) && !options.ignore?.(path, true)) subdirs.push(path);
			} else if (isFile && !options.ignore?.(path, false)) {
				yield path;
			}
		}
		// Files of a directory come before its subdirectories' files; subdirectories in name order.
		for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
	}
}

/** Match a glob the way rg and fd do: against the name when it has no `/`, else the whole path. */
export function globMatcher(pattern: string): (relativePath: string) => boolean {
	const glob = new Bun.Glob(pattern);
	return pattern.includes("/") ? (path) => glob.match(path) : (path) => glob.match(basename(path));
}
