// Package sources as users write them (`npm:@x/y@1.2.0`, `git:github.com/x/y@v1`, an https git
// URL, a local path), parsed into what the installer needs, and where each one lives on disk.
import { isAbsolute, join, resolve } from "node:path";
import { expandHome, getAgentDir, getProjectConfigDir } from "../../config.ts";

export type PackageScope = "user" | "project" | "temporary";

export interface NpmSource {
	type: "npm";
	/** As given after `npm:`: `@x/y@^1.2`. */
	spec: string;
	name: string;
	/** The version or range after the name; undefined for "whatever is latest". */
	version?: string;
	/** An exact version (`1.2.3`): never moved by `agent update`. */
	pinned: boolean;
}

export interface GitSource {
	type: "git";
	/** What `git clone` gets (no ref). */
	repo: string;
	/** For the install path: `github.com`, `127.0.0.1`, `local`. */
	host: string;
	/** `owner/name`, without `.git`. */
	path: string;
	/** Branch, tag or commit after `@`; undefined for the remote's default branch. */
	ref?: string;
}

export interface LocalSource {
	type: "local";
	/** As written (relative paths resolve against the settings file's folder or cwd). */
	path: string;
}

export type PackageSource = NpmSource | GitSource | LocalSource;

export class PackageSourceError extends Error {
	constructor(
		readonly source: string,
		message: string,
	) {
		super(message);
		this.name = "PackageSourceError";
	}
}

const NPM_NAME = /^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i;

/** `@x/y@^1` → name `@x/y`, version `^1`. */
export function parseNpmSpec(spec: string): { name: string; version?: string } {
	const at = spec.indexOf("@", spec.startsWith("@") ? 1 : 0);
	const name = at < 0 ? spec : spec.slice(0, at);
	const version = at < 0 ? undefined : spec.slice(at + 1) || undefined;
	return { name, version };
}

const isExactVersion = (v: string | undefined) => v !== undefined && /^v?\d+\.\d+\.\d+(-[\w.-]+)?(\+[\w.-]+)?$/.test(v);

/** Split `repo@ref` where `@` after the last path separator starts the ref (not `git@host:`). */
function splitRef(text: string): { repo: string; ref?: string } {
	const lastSlash = Math.max(text.lastIndexOf("/"), text.lastIndexOf(":"));
	const at = text.indexOf("@", lastSlash + 1);
	if (at < 0) return { repo: text };
	const ref = text.slice(at + 1);
	return ref ? { repo: text.slice(0, at), ref } : { repo: text.slice(0, at) };
}

/** Whether a string names a remote package (npm or git) rather than a path. */
export function isRemoteSource(source: string): boolean {
	// Every remote form starts with a letter (`npm:`, `git:`, `git@`, a URL scheme): a path starting with
	// `/`, `.` or `~` is never one, without compiling the regexes below (called for every `-e` value).
	const first = source.charCodeAt(0);
	if (first === 47 /* / */ || first === 46 /* . */ || first === 126 /* ~ */) return false;
	return source.startsWith("npm:") || source.startsWith("git:") || /^(https?|ssh|git|file):\/\//.test(source) || /^git@[^:]+:/.test(source);
}

function gitSource(repo: string, host: string, path: string, ref: string | undefined, given: string): GitSource {
	const clean = path.replace(/^\/+/, "").replace(/\/+$/, "").replace(/\.git$/, "");
	const parts = clean.split("/");
	if (!host || parts.length < 1 || !clean || parts.some((p) => p === ".." || p === "." || p === "")) {
		throw new PackageSourceError(given, `Cannot read "${given}" as a git source: expected git:<host>/<owner>/<repo>[@ref] or an https/ssh URL.`);
	}
	return { type: "git", repo, host, path: clean, ...(ref ? { ref } : {}) };
}

function parseGit(given: string): GitSource {
	const text = given.startsWith("git:") && !given.startsWith("git://") ? given.slice(4).trim() : given.trim();
	// git@host:owner/repo(.git)[@ref]
	const scp = /^git@([^:]+):(.+)$/.exec(text);
	if (scp) {
		const { repo, ref } = splitRef(text);
		return gitSource(repo, scp[1]!, /^git@[^:]+:(.+)$/.exec(repo)![1]!, ref, given);
	}
	if (/^(https?|ssh|git|file):\/\//.test(text)) {
		const { repo, ref } = splitRef(text);
		let url: URL;
		try {
			url = new URL(repo);
		} catch {
			throw new PackageSourceError(given, `Cannot read "${given}" as a git URL.`);
		}
		const host = url.protocol === "file:" ? "local" : url.port ? `${url.hostname}_${url.port}` : url.hostname;
		return gitSource(repo, host, decodeURIComponent(url.pathname), ref, given);
	}
	// host/owner/repo[@ref] shorthand → https
	const { repo, ref } = splitRef(text);
	const slash = repo.indexOf("/");
	if (slash < 0) throw new PackageSourceError(given, `Cannot read "${given}" as a git source: expected git:<host>/<owner>/<repo>[@ref].`);
	return gitSource(`https://${repo}`, repo.slice(0, slash), repo.slice(slash + 1), ref, given);
}

/** Parse a source as written in settings, `agent install` or `-e`. Throws PackageSourceError. */
export function parseSource(source: string): PackageSource {
	const text = source.trim();
	if (text.startsWith("npm:")) {
		const spec = text.slice(4).trim();
		const { name, version } = parseNpmSpec(spec);
		if (!NPM_NAME.test(name)) throw new PackageSourceError(source, `"${name}" is not an npm package name (in "${source}"); expected npm:<name>[@version], e.g. npm:@scope/tools@1.2.0.`);
		return { type: "npm", spec, name, ...(version ? { version } : {}), pinned: isExactVersion(version) };
	}
	if (isRemoteSource(text)) return parseGit(text);
	if (text === "") throw new PackageSourceError(source, "An empty package source: expected npm:<name>, git:<host>/<path>, a URL or a path.");
	return { type: "local", path: text };
}

/** One identity per package whatever the version or ref: the same package never loads twice. */
export function sourceIdentity(source: PackageSource, baseDir: string): string {
	switch (source.type) {
		case "npm":
			return `npm:${source.name}`;
		case "git":
			return `git:${source.host}/${source.path}`;
		case "local":
			return `local:${resolveLocalPath(source.path, baseDir)}`;
	}
}

/** Display form: `npm:@x/y`, `git:github.com/x/y`, the path for local ones. */
export function sourceLabel(source: PackageSource): string {
	switch (source.type) {
		case "npm":
			return `npm:${source.spec}`;
		case "git":
			return `git:${source.host.replace(/_(\d+)$/, ":$1")}/${source.path}${source.ref ? `@${source.ref}` : ""}`;
		case "local":
			return source.path;
	}
}

export function resolveLocalPath(path: string, baseDir: string): string {
	const expanded = expandHome(path);
	return isAbsolute(expanded) ? expanded : resolve(baseDir, expanded);
}

/** Where a scope's packages are installed: `~/.agent/packages`, `<cwd>/.agent/packages`, `~/.agent/tmp/packages`. */
export function packagesRoot(scope: PackageScope, cwd: string): string {
	if (scope === "project") return join(getProjectConfigDir(cwd), "packages");
	if (scope === "temporary") return join(getAgentDir(), "tmp", "packages");
	return join(getAgentDir(), "packages");
}

/** The folder npm packages of a scope are installed into (it holds package.json and node_modules/). */
export function npmRoot(scope: PackageScope, cwd: string): string {
	return join(packagesRoot(scope, cwd), "npm");
}

/** The folder a remote package's files are in once installed (it may not exist yet). */
export function installedPath(source: NpmSource | GitSource, scope: PackageScope, cwd: string): string {
	if (source.type === "npm") return join(npmRoot(scope, cwd), "node_modules", source.name);
	const base = join(packagesRoot(scope, cwd), "git", source.host, ...source.path.split("/"));
	// A `-e` checkout is per ref, so trying two refs of one repo does not flip one cache back and forth.
	if (scope !== "temporary" || !source.ref) return base;
	// Bun's hasher, not node:crypto: importing that costs milliseconds at every start-up (discovery imports this file).
	return `${base}@${new Bun.CryptoHasher("sha256").update(source.ref).digest("hex").slice(0, 8)}`;
}

/** Where a package's files are: the install folder, or the local path itself. */
export function packageDir(source: PackageSource, scope: PackageScope, cwd: string, baseDir: string): string {
	return source.type === "local" ? resolveLocalPath(source.path, baseDir) : installedPath(source, scope, cwd);
}
