// What a package folder contributes: the `agent` (or `pi`) field of its package.json — paths, globs
// and `!` exclusions per kind — or, without one, the conventional extensions/ skills/ prompts/
// themes/ folders. The object form in settings then narrows that set (pi 1.6's rules).
import { existsSync, readdirSync, statSync } from "node:fs";
import { readJsonFile } from "../file-reader.ts";
import { join, relative, resolve, sep } from "node:path";
import { discoverExtensionsInDir } from "../extensions/discovery.ts";
import { skillFilesIn } from "../resources/skills.ts";

export const RESOURCE_KINDS = ["extensions", "skills", "prompts", "themes"] as const;
export type ResourceKind = (typeof RESOURCE_KINDS)[number];

/** Absolute file paths per kind, in a stable order. */
export type PackageResources = Record<ResourceKind, string[]>;

/** The settings object form's per-kind patterns; a missing kind loads all the package allows. */
export type PackageFilter = Partial<Record<ResourceKind, string[]>>;

export interface PackageManifest {
	name?: string;
	version?: string;
	dependencies?: Record<string, string>;
	bundleDependencies?: string[] | boolean;
	bundledDependencies?: string[] | boolean;
	/** Per kind: paths, globs, `!exclusions`. */
	entries?: Partial<Record<ResourceKind, string[]>>;
}

export interface ResolvedResources {
	resources: PackageResources;
	manifest: PackageManifest;
	warnings: string[];
}

const isGlob = (p: string) => /[*?[\]{}]/.test(p);
const emptyResources = (): PackageResources => ({ extensions: [], skills: [], prompts: [], themes: [] });
const toPosix = (p: string) => (sep === "/" ? p : p.split(sep).join("/"));

function kindOf(path: string): "file" | "dir" | undefined {
	try {
		// An absent path is an answer, not an error to build (throwIfNoEntry).
		const s = statSync(path, { throwIfNoEntry: false });
		if (s === undefined) return undefined;
		return s.isDirectory() ? "dir" : s.isFile() ? "file" : undefined;
	} catch {
		return undefined;
	}
}

/** The files of one kind inside a folder, by that kind's folder rules. */
function filesInDir(kind: ResourceKind, dir: string): string[] {
	switch (kind) {
		case "extensions":
			return discoverExtensionsInDir(dir);
		case "skills":
			return skillFilesIn(dir).map((f) => f.path);
		case "prompts":
		case "themes": {
			const ext = kind === "prompts" ? ".md" : ".json";
			let names: string[] = [];
			try {
				names = readdirSync(dir).sort();
			} catch {
				return [];
			}
			return names.filter((n) => n.endsWith(ext) && !n.startsWith(".")).map((n) => join(dir, n)).filter((p) => kindOf(p) === "file");
		}
	}
}

/** A file or folder named for a kind → its files. */
function expand(kind: ResourceKind, path: string): string[] {
	const k = kindOf(path);
	if (k === "dir") return filesInDir(kind, path);
	return k === "file" ? [path] : [];
}

/** `rel` (posix, relative to the package) is `pattern` itself or inside the folder it names. */
function isAt(pattern: string, rel: string): boolean {
	const p = toPosix(pattern).replace(/^\.\//, "").replace(/\/+$/, "");
	return p === rel || rel.startsWith(`${p}/`);
}

/** Like `isAt`, or a glob matching `rel`. */
function matches(pattern: string, rel: string): boolean {
	return isAt(pattern, rel) || (isGlob(pattern) && new Bun.Glob(toPosix(pattern).replace(/^\.\//, "")).match(rel));
}

/** Manifest entries of one kind → files: includes in order, then `!` exclusions. */
function manifestFiles(kind: ResourceKind, root: string, entries: string[], warnings: string[]): string[] {
	const found: string[] = [];
	const add = (file: string) => {
		if (!found.includes(file)) found.push(file);
	};
	for (const entry of entries.filter((e) => !e.startsWith("!"))) {
		if (isGlob(entry)) {
			const glob = new Bun.Glob(toPosix(entry).replace(/^\.\//, ""));
			const hits = [...glob.scanSync({ cwd: root, onlyFiles: false, followSymlinks: true })].sort();
			for (const hit of hits) if (!hit.split("/").includes("node_modules")) for (const f of expand(kind, join(root, hit))) add(f);
			continue;
		}
		const path = resolve(root, entry);
		const files = expand(kind, path);
		if (files.length === 0 && !existsSync(path)) warnings.push(`"${entry}" listed under ${kind} in package.json does not exist`);
		for (const f of files) add(f);
	}
	const exclusions = entries.filter((e) => e.startsWith("!")).map((e) => e.slice(1));
	return found.filter((f) => !exclusions.some((x) => matches(x, toPosix(relative(root, f)))));
}

/** Settings patterns: plain ones include (glob), `!` excludes (glob), `+` adds and `-` removes one exact path. */
export function applyFilter(root: string, allowed: string[], patterns: string[]): string[] {
	if (patterns.length === 0) return [];
	const rel = (f: string) => toPosix(relative(root, f));
	const includes = patterns.filter((p) => !/^[!+-]/.test(p));
	let out = includes.length > 0 ? allowed.filter((f) => includes.some((p) => matches(p, rel(f)))) : [...allowed];
	for (const p of patterns) {
		if (p.startsWith("!")) out = out.filter((f) => !matches(p.slice(1), rel(f)));
		else if (p.startsWith("-")) out = out.filter((f) => !isAt(p.slice(1), rel(f)));
		else if (p.startsWith("+")) for (const f of allowed) if (isAt(p.slice(1), rel(f)) && !out.includes(f)) out.push(f);
	}
	// Keep the package's own order whatever order the patterns came in.
	return allowed.filter((f) => out.includes(f));
}

/** `<root>/package.json` as read once: absent, its parsed value (undefined when empty), or the reader's error. */
export type ManifestRead = { present: false } | { present: true; value: unknown } | { present: true; error: Error };

/** Read `<root>/package.json` once; whether it is there, and what it holds or why it cannot be read. */
export function readManifestFile(root: string): ManifestRead {
	try {
		// The one reader: no FIFO hang, bounded size and nesting, file:line:column in the message.
		const read = readJsonFile(join(root, "package.json"));
		return read ? { present: true, value: read.value } : { present: false };
	} catch (error) {
		return { present: true, error: error as Error };
	}
}

/** Read `<root>/package.json`; a missing file is an empty manifest, a broken one a warning. */
export function readManifest(root: string, warnings: string[], read: ManifestRead = readManifestFile(root)): PackageManifest {
	const file = join(root, "package.json");
	if (!read.present) return {};
	if ("error" in read) {
		warnings.push(`${read.error.message}; using the conventional folders`);
		return {};
	}
	const data = read.value as Record<string, any>;
	if (!data || typeof data !== "object") return {};
	const field = data.agent ?? data.pi;
	const entries: PackageManifest["entries"] = {};
	if (field && typeof field === "object") {
		for (const kind of RESOURCE_KINDS) {
			const list = field[kind];
			if (list === undefined) continue;
			if (!Array.isArray(list) || list.some((v) => typeof v !== "string")) {
				warnings.push(`"${data.agent ? "agent" : "pi"}.${kind}" in ${file} must be an array of paths; ignored`);
				continue;
			}
			entries[kind] = list;
		}
	}
	return {
		name: typeof data.name === "string" ? data.name : undefined,
		version: typeof data.version === "string" ? data.version : undefined,
		dependencies: data.dependencies && typeof data.dependencies === "object" ? data.dependencies : undefined,
		bundleDependencies: data.bundleDependencies,
		bundledDependencies: data.bundledDependencies,
		entries: Object.keys(entries).length > 0 ? entries : undefined,
	};
}

/**
 * Whether `path` may be there: a stat that finds nothing says no without building an ENOENT error
 * (most packages have one or two of the four conventional folders); any other answer lets the
 * reader that follows decide, as it did alone.
 */
function mayExist(path: string): boolean {
	try {
		return statSync(path, { throwIfNoEntry: false }) !== undefined;
	} catch {
		return true;
	}
}

/**
 * Everything a package folder offers, narrowed by `filter`. Kinds the manifest names come from it;
 * the others from their conventional folder. A folder with neither is one extension if it has an
 * `index.ts` / `index.js`. `read`: its package.json, when the caller has read it already.
 */
export function resolvePackageResources(root: string, filter?: PackageFilter, read?: ManifestRead): ResolvedResources {
	const warnings: string[] = [];
	const manifest = readManifest(root, warnings, read);
	const resources = emptyResources();
	for (const kind of RESOURCE_KINDS) {
		const listed = manifest.entries?.[kind];
		if (listed) resources[kind] = manifestFiles(kind, root, listed, warnings);
		else {
			const folder = join(root, kind);
			if (mayExist(folder)) resources[kind] = filesInDir(kind, folder);
		}
	}
	if (!manifest.entries && resources.extensions.length + resources.skills.length + resources.prompts.length + resources.themes.length === 0) {
		for (const index of ["index.ts", "index.js"]) {
			if (kindOf(join(root, index)) === "file") {
				resources.extensions = [join(root, index)];
				break;
			}
		}
	}
	for (const kind of RESOURCE_KINDS) {
		const patterns = filter?.[kind];
		if (patterns) resources[kind] = applyFilter(root, resources[kind], patterns);
	}
	return { resources, manifest, warnings };
}

/** Host-provided packages the package lists in `dependencies` or bundles: the binary's copies win. */
export function bundledHostPackages(manifest: PackageManifest, hostNames: readonly string[]): string[] {
	const bundled = [manifest.bundleDependencies, manifest.bundledDependencies].flatMap((b) => (Array.isArray(b) ? b : b === true ? Object.keys(manifest.dependencies ?? {}) : []));
	const named = new Set([...Object.keys(manifest.dependencies ?? {}), ...bundled]);
	return hostNames.filter((n) => named.has(n));
}
