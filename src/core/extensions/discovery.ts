// Where extensions come from and in what order (SPEC §3): the project dir (trusted only), the user
// dir, settings `extensions`, then `-e`; one level deep; deduplicated by real path, first wins.
import { lstatSync, readdirSync, realpathSync, statSync, type Dirent } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { expandHome } from "../../config.ts";
import { FileReadError, readJsonFile } from "../file-reader.ts";
import type { SourceInfo, SourceScope } from "./types.ts";

/** How the start-up list and `agent list` group extensions. */
export type ExtensionGroup = "project" | "user" | "path";

export interface ExtensionEntry {
	/** The path as given (`-e` argument) or as found (absolute). Used in messages. */
	path: string;
	/** Real path of the entry file; the absolute path when it does not exist. */
	resolvedPath: string;
	sourceInfo: SourceInfo;
	group: ExtensionGroup;
	/** An explicit path that does not exist: a load error, not a silent skip. */
	missing?: boolean;
	/** Why it is missing, when not simply "does not exist" (a `-e npm:` package that is not installed). */
	missingReason?: string;
	/** The package.json whose `agent.extensions` listed this entry, when one did. */
	manifest?: string;
	/** Time spent resolving this entry (stat + realpath), for AGENT_TIMING. */
	resolveMs: number;
}

export interface DiscoveryWarning {
	path: string;
	message: string;
}

export interface ExplicitPath {
	/** As written (settings value or `-e` argument). */
	value: string;
	/** Folder relative paths resolve against (the settings file's folder, or cwd for `-e`). */
	baseDir: string;
}

/** The extension files of one package, which join the source that declared it (SPEC §3). */
export interface PackageExtensions {
	/** As written (`npm:@x/y`, `git:github.com/x/y`, a path): the entries' `sourceInfo.source`. */
	source: string;
	/** The package folder: the entries' `baseDir`. */
	dir: string;
	files: string[];
	/** A package that is not installed: the reason, which makes a `-e` package a load error. */
	missing?: string;
}

export interface DiscoveryInput {
	cwd: string;
	/** `<cwd>/.agent/extensions`. */
	projectDir: string;
	/** `~/.agent/extensions`. */
	userDir: string;
	projectSettingsPaths: ExplicitPath[];
	userSettingsPaths: ExplicitPath[];
	/** `"packages"` of the project settings (loaded only when trusted) and of the user settings. */
	projectPackages?: PackageExtensions[];
	userPackages?: PackageExtensions[];
	/** `-e` values in order: paths, or packages (`-e npm:…`) already resolved. */
	cliPaths: (string | PackageExtensions)[];
	/** `-ne`: only `-e` paths load. */
	noExtensions: boolean;
	/** Whether project inputs load (SPEC §4). */
	projectTrusted: boolean;
}

export interface DiscoveryResult {
	/** What loads, in load order. */
	entries: ExtensionEntry[];
	/** Project entries that would load if the folder were trusted (for the prompt, the skip line, `agent list`). */
	untrustedProject: ExtensionEntry[];
	/** Project packages that would load if the folder were trusted (their sources). */
	untrustedPackages: string[];
	warnings: DiscoveryWarning[];
}

const isEntryFile = (name: string) => (name.endsWith(".ts") || name.endsWith(".js")) && !name.endsWith(".d.ts");

function isDir(path: string): boolean {
	return kindOf(path) === "dir";
}

function isFile(path: string): boolean {
	try {
		return statSync(path).isFile();
	} catch {
		return false;
	}
}

/** `agent.extensions` (or `pi.extensions`) of `<dir>/package.json`, resolved; undefined when absent. */
function manifestEntries(dir: string, warnings: DiscoveryWarning[], manifests?: Map<string, string>): string[] | undefined {
	const manifest = join(dir, "package.json");
	let pkg: { agent?: { extensions?: unknown }; pi?: { extensions?: unknown } } | undefined;
	try {
		// The one reader: a FIFO here (even in an untrusted project, which is only listed) never blocks.
		pkg = readJsonFile(manifest)?.value as typeof pkg;
	} catch (error) {
		warnings.push({ path: manifest, message: `Ignoring package.json: ${error instanceof FileReadError ? error.message : (error as Error).message}` });
		return undefined;
	}
	const list = pkg?.agent?.extensions ?? pkg?.pi?.extensions;
	if (!Array.isArray(list) || list.length === 0) return undefined;
	const found: string[] = [];
	for (const item of list) {
		if (typeof item !== "string") continue;
		const file = resolve(dir, item);
		if (isFile(file)) {
			found.push(file);
			manifests?.set(file, manifest);
		}
		else warnings.push({ path: manifest, message: `Extension entry "${item}" listed in package.json does not exist` });
	}
	return found.length > 0 ? found : undefined;
}

/** Entry files of one folder that is itself an extension (manifest, then index.ts / index.js). */
function packageEntries(dir: string, warnings: DiscoveryWarning[], manifests?: Map<string, string>): string[] | undefined {
	const manifest = manifestEntries(dir, warnings, manifests);
	if (manifest) return manifest;
	for (const index of ["index.ts", "index.js"]) if (isFile(join(dir, index))) return [join(dir, index)];
	return undefined;
}

/**
 * The extensions in a directory, one level deep, sorted by name: `*.ts`/`*.js` files (not
 * `.d.ts`, not dot-files), `<sub>/package.json` manifests, else `<sub>/index.ts|js`.
 */
export function discoverExtensionsInDir(dir: string, warnings: DiscoveryWarning[] = [], manifests?: Map<string, string>): string[] {
	let dirents: Dirent[];
	try {
		dirents = readdirSync(dir, { withFileTypes: true });
	} catch {
		return [];
	}
	const out: string[] = [];
	for (const d of dirents.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
		if (d.name.startsWith(".") || d.name === "node_modules") continue;
		const full = join(dir, d.name);
		// Symlinks are followed: decide by what they point at.
		const file = d.isFile() || (d.isSymbolicLink() && isFile(full));
		const folder = d.isDirectory() || (d.isSymbolicLink() && isDir(full));
		if (file && isEntryFile(d.name)) out.push(full);
		else if (folder) out.push(...(packageEntries(full, warnings, manifests) ?? []));
	}
	return out;
}

/** What `path` is, following symlinks; undefined when it does not exist (or cannot be reached). */
function kindOf(path: string): "file" | "dir" | undefined {
	try {
		const stats = statSync(path, { throwIfNoEntry: false });
		return stats === undefined ? undefined : stats.isDirectory() ? "dir" : "file";
	} catch {
		return undefined;
	}
}

/** An explicit path (`-e`, settings): a file, or a folder that is one extension or holds several. */
function explicitEntries(path: string, kind: "file" | "dir", warnings: DiscoveryWarning[], manifests: Map<string, string>): string[] {
	if (kind !== "dir") return [path];
	return packageEntries(path, warnings, manifests) ?? discoverExtensionsInDir(path, warnings, manifests);
}

function realPath(path: string): string {
	try {
		return realpathSync(path);
	} catch {
		return path;
	}
}

/** What `path` is, and whether the path itself is a symlink; undefined when it does not exist (a broken link included). */
function linkKindOf(path: string): { kind: "file" | "dir"; link: boolean } | undefined {
	try {
		const own = lstatSync(path, { throwIfNoEntry: false });
		if (own === undefined) return undefined;
		if (!own.isSymbolicLink()) return { kind: own.isDirectory() ? "dir" : "file", link: false };
		const kind = kindOf(path);
		return kind && { kind, link: true };
	} catch {
		return undefined;
	}
}

/**
 * Real paths for one discovery. On Linux a path that is not itself a symlink is its folder's real
 * path and its own name, so the files of one folder (twenty `-e` files side by side) cost one
 * realpath between them and an lstat each. Elsewhere (macOS answers a name in its on-disk case) and
 * for a symlink, the system's realpath.
 */
export function createRealPaths(platform: NodeJS.Platform = process.platform): (file: string, link?: boolean) => string {
	if (platform !== "linux") return realPath;
	const folders = new Map<string, string>();
	return (file, link) => {
		// Only an absolute, normalized path is its folder and its name (a realpath normalizes the rest).
		if (file !== resolve(file) || (link ?? linkKindOf(file)?.link ?? true)) return realPath(file);
		const folder = dirname(file);
		let real = folders.get(folder);
		if (real === undefined) folders.set(folder, (real = realPath(folder)));
		return join(real, basename(file));
	};
}

/** Resolve every source in load order. Pure apart from reading the filesystem. */
export function discoverExtensions(input: DiscoveryInput): DiscoveryResult {
	const warnings: DiscoveryWarning[] = [];
	const entries: ExtensionEntry[] = [];
	const untrustedProject: ExtensionEntry[] = [];
	const seen = new Set<string>();
	const manifests = new Map<string, string>();
	const realPathOf = createRealPaths();

	/** `link`: whether `file` itself is a symlink, when the caller already knows. */
	const add = (list: ExtensionEntry[], file: string, shownAs: string, scope: SourceScope, source: string, baseDir: string, missing = false, origin: SourceInfo["origin"] = "top-level", missingReason?: string, link?: boolean) => {
		const started = performance.now();
		const resolvedPath = missing ? file : realPathOf(file, link);
		if (list === entries) {
			if (seen.has(resolvedPath)) return;
			seen.add(resolvedPath);
		}
		const group: ExtensionGroup = scope === "temporary" ? "path" : scope;
		const sourceInfo: SourceInfo = { path: resolvedPath, source, scope, origin, baseDir };
		const manifest = manifests.get(file);
		list.push({ path: shownAs, resolvedPath, sourceInfo, group, ...(missing ? { missing } : {}), ...(missingReason ? { missingReason } : {}), ...(manifest ? { manifest } : {}), resolveMs: performance.now() - started });
	};
	const addPackage = (list: ExtensionEntry[], p: PackageExtensions, scope: SourceScope) => {
		// A configured package that is not installed was warned about at start-up; a `-e` one is a load error.
		if (p.missing) {
			if (scope === "temporary") add(list, p.source, p.source, scope, p.source, p.dir, true, "package", p.missing);
			return;
		}
		for (const file of p.files) add(list, file, file, scope, p.source, p.dir, false, "package");
	};
	const addExplicit = (list: ExtensionEntry[], p: ExplicitPath, scope: SourceScope, source: string) => {
		const abs = resolve(p.baseDir, expandHome(p.value));
		// One lstat says whether the path exists, whether it is a folder and whether it is a symlink (a -e
		// file that is not one costs that lstat; its folder's realpath is shared with the files beside it).
		const found = linkKindOf(abs);
		if (!found) {
			add(list, abs, scope === "temporary" ? p.value : abs, scope, source, p.baseDir, true);
			return;
		}
		const baseDir = found.kind === "dir" ? abs : p.baseDir;
		for (const file of explicitEntries(abs, found.kind, warnings, manifests)) {
			add(list, file, scope === "temporary" && file === abs ? p.value : file, scope, source, baseDir, false, "top-level", undefined, file === abs ? found.link : undefined);
		}
	};

	if (!input.noExtensions) {
		const project = input.projectTrusted ? entries : untrustedProject;
		for (const file of discoverExtensionsInDir(input.projectDir, warnings, manifests)) add(project, file, file, "project", "auto", input.projectDir);
		for (const file of discoverExtensionsInDir(input.userDir, warnings, manifests)) add(entries, file, file, "user", "auto", input.userDir);
		for (const p of input.projectSettingsPaths) addExplicit(project, p, "project", "local");
		if (input.projectTrusted) for (const p of input.projectPackages ?? []) addPackage(entries, p, "project");
		for (const p of input.userSettingsPaths) addExplicit(entries, p, "user", "local");
		for (const p of input.userPackages ?? []) addPackage(entries, p, "user");
	}
	for (const value of input.cliPaths) {
		if (typeof value === "string") addExplicit(entries, { value, baseDir: input.cwd }, "temporary", "cli");
		else addPackage(entries, value, "temporary");
	}
	// Untrusted project entries already loading from elsewhere (e.g. also passed with -e) are not "skipped".
	const untrustedPackages = input.projectTrusted || input.noExtensions ? [] : (input.projectPackages ?? []).map((p) => p.source);
	return { entries, untrustedProject: untrustedProject.filter((e) => !seen.has(e.resolvedPath)), untrustedPackages, warnings };
}
