// The packages a run knows about: `"packages"` in the user and (trusted) project settings, plus
// `-e npm:…|git:…` for one run; deduplicated by identity (project over user, `-e` over both), each
// resolved to its folder and, when installed, to the files it contributes.
import { existsSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { registerGatedInputs } from "../resources/gated-inputs.ts";
import { readJsonFile } from "../file-reader.ts";
import { readRunSettings, readSettingsFile, SettingsError, type RunSettings, type SettingsFile } from "../resources/settings.ts";
import { RESOURCE_KINDS, readManifestFile, resolvePackageResources, type ManifestRead, type PackageFilter, type PackageResources, type ResourceKind } from "./manifest.ts";
import { isRemoteSource, PackageSourceError, packageDir, parseSource, sourceIdentity, type PackageScope, type PackageSource } from "./source.ts";

export interface ConfiguredPackage {
	/** As written in settings or on the command line. */
	source: string;
	parsed: PackageSource;
	scope: PackageScope;
	/** The object form's per-kind patterns. */
	filter?: PackageFilter;
	/** The settings file that declares it (none for `-e`). */
	settingsPath?: string;
	/** Where a relative local path resolves from: the settings file's folder, or cwd. */
	baseDir: string;
	identity: string;
	/** Where its files are (installed or not). */
	dir: string;
	/** The folder the run started in (project packages live under its `.agent/packages/`). */
	cwd: string;
}

export interface ResolvedPackage extends ConfiguredPackage {
	/** Whether `dir` holds the package (always checked on disk). */
	installed: boolean;
	/** package.json `version`, when installed. */
	version?: string;
	resources: PackageResources;
	/** Manifest problems (a listed path that does not exist, a bad field). */
	warnings: string[];
}

export interface PackageSettingsProblem {
	settingsPath: string;
	source: string;
	message: string;
}

/** One entry of `"packages"`: a source string, or `{ source, extensions?, skills?, prompts?, themes? }`. */
export interface PackageSetting {
	source: string;
	filter?: PackageFilter;
}

/** The `packages` list of a settings file, validated. A wrong shape is a SettingsError naming the file. */
export function packageSettings(file: SettingsFile | undefined): PackageSetting[] {
	if (!file) return [];
	const list = file.data.packages;
	if (list === undefined) return [];
	const shape = `"packages" in ${file.path} must be an array of sources ("npm:<name>", "git:<host>/<path>", a path) or { "source": …, "extensions": [...] } objects.`;
	if (!Array.isArray(list)) throw new SettingsError(file.path, shape);
	const out: PackageSetting[] = [];
	for (const item of list) {
		if (typeof item === "string") {
			out.push({ source: item });
			continue;
		}
		if (!item || typeof item !== "object" || typeof item.source !== "string") throw new SettingsError(file.path, shape);
		const filter: PackageFilter = {};
		let kinds = 0;
		for (const kind of RESOURCE_KINDS) {
			const v = item[kind];
			if (v === undefined) continue;
			if (!Array.isArray(v) || v.some((p) => typeof p !== "string")) {
				throw new SettingsError(file.path, `"${kind}" of package "${item.source}" in ${file.path} must be an array of paths or patterns.`);
			}
			filter[kind] = v;
			kinds++;
		}
		out.push({ source: item.source, ...(kinds > 0 ? { filter } : {}) });
	}
	return out;
}

function configure(setting: PackageSetting, scope: PackageScope, cwd: string, baseDir: string, settingsPath?: string): ConfiguredPackage {
	const parsed = parseSource(setting.source);
	return {
		source: setting.source,
		parsed,
		scope,
		...(setting.filter ? { filter: setting.filter } : {}),
		...(settingsPath ? { settingsPath } : {}),
		baseDir,
		identity: sourceIdentity(parsed, baseDir),
		dir: packageDir(parsed, scope, cwd, baseDir),
		cwd,
	};
}

export interface PackageSelection {
	/** Highest precedence first: project (when trusted), user, then `-e` sources. */
	packages: ConfiguredPackage[];
	/** Entries that could not be read as a source: skipped with a warning. */
	problems: PackageSettingsProblem[];
}

/**
 * Every package of a run: `user` and `project` settings (pass the project's only when trusted),
 * then `cliSources` (`-e` values that name a remote package). One per identity.
 */
export function selectPackages(settings: { project?: SettingsFile; user?: SettingsFile }, cliSources: string[], cwd: string): PackageSelection {
	// Loops, not flatMap / map / spreads: builtins compiled on their first call, which a start
	// with packages would make here and nowhere else.
	// `-e` sources first: one that cannot be read throws before a settings list is looked at.
	const temporary: ConfiguredPackage[] = [];
	for (const source of cliSources) temporary.push(configure({ source }, "temporary", cwd, cwd));
	const problems: PackageSettingsProblem[] = [];
	const configured: ConfiguredPackage[] = [];
	const fromFile = (file: SettingsFile | undefined, scope: "project" | "user") => {
		for (const setting of packageSettings(file)) {
			try {
				configured.push(configure(setting, scope, cwd, file!.dir, file!.path));
			} catch (error) {
				if (!(error instanceof PackageSourceError)) throw error;
				problems.push({ settingsPath: file!.path, source: setting.source, message: error.message });
			}
		}
	};
	fromFile(settings.project, "project");
	fromFile(settings.user, "user");
	const seen = new Set<string>();
	for (const p of temporary) seen.add(p.identity);
	const packages: ConfiguredPackage[] = [];
	for (const pkg of configured) {
		if (seen.has(pkg.identity)) continue;
		seen.add(pkg.identity);
		packages.push(pkg);
	}
	for (const p of temporary) packages.push(p);
	return { packages, problems };
}

/** `-e` values that name a remote package rather than a path. */
export function packageSourcesIn(extensionPaths: readonly string[]): string[] {
	return extensionPaths.filter(isRemoteSource);
}

function installedVersion(dir: string): string | undefined {
	try {
		return versionOf(readJsonFile(join(dir, "package.json"))?.value);
	} catch {
		return undefined;
	}
}

function versionOf(manifest: unknown): string | undefined {
	const v = (manifest as { version?: unknown } | undefined)?.version;
	return typeof v === "string" ? v : undefined;
}

/** The file or folder whose presence says a package is installed: package.json (npm), .git (git), the folder itself (local). */
function installMarker(pkg: ConfiguredPackage): string {
	return join(pkg.dir, pkg.parsed.type === "npm" ? "package.json" : pkg.parsed.type === "git" ? ".git" : "");
}

/** Whether the package is on disk, and its package.json version; reads nothing else. */
export function installState(pkg: ConfiguredPackage): { installed: boolean; version?: string } {
	const installed = existsSync(installMarker(pkg));
	const version = installed ? installedVersion(pkg.dir) : undefined;
	return { installed, ...(version ? { version } : {}) };
}

/**
 * installState from a package.json read once (for the manifest too): an npm package's marker is
 * that file, so a read that found it (or failed on something that is there) answers; other
 * markers, and a read that failed, ask the file system as installState does.
 */
function installStateFrom(pkg: ConfiguredPackage, read: ManifestRead): { installed: boolean; version?: string } {
	const installed = pkg.parsed.type === "npm" && !(read.present && "error" in read) ? read.present : existsSync(installMarker(pkg));
	const version = installed && read.present && !("error" in read) ? versionOf(read.value) : undefined;
	return { installed, ...(version ? { version } : {}) };
}

/**
 * What resolvePackage found in an installed package's folder, by folder and filter, for the rest of
 * the process: a start-up resolves each package for extension discovery, for skills and prompts,
 * and for themes. Whatever changes package folders (the installer, /reload) forgets it all.
 */
const resolvedOnDisk = new Map<string, Pick<ResolvedPackage, "installed" | "version" | "resources" | "warnings">>();

/** Read package folders afresh from now on (after an install, update or removal, and on /reload). */
export function forgetResolvedPackages(): void {
	resolvedOnDisk.clear();
}

/** Look at what is on disk: whether the package is there, and what it contributes. Never installs. */
export function resolvePackage(pkg: ConfiguredPackage): ResolvedPackage {
	const key = `${pkg.dir}\0${JSON.stringify(pkg.filter ?? null)}`;
	const known = resolvedOnDisk.get(key);
	if (known) return { ...pkg, ...known };
	// package.json is read once, for whether it is installed (npm), its version and its manifest.
	const read = readManifestFile(pkg.dir);
	const state = installStateFrom(pkg, read);
	if (!state.installed) return { ...pkg, ...state, resources: { extensions: [], skills: [], prompts: [], themes: [] }, warnings: [] };
	const { resources, warnings } = resolvePackageResources(pkg.dir, pkg.filter, read);
	const kept = { ...state, resources, warnings };
	resolvedOnDisk.set(key, kept);
	return { ...pkg, ...kept };
}

/**
 * What the run's installed packages contribute of one kind (absolute paths): `-e` packages first,
 * then the project's (when trusted), then the user's. Never installs; a malformed list gives none
 * (extension discovery reports it). For readers that run before the session (the TUI's themes),
 * which may pass the settings files they read already.
 */
export function installedPackageFiles(kind: ResourceKind, cwd: string, projectTrusted: boolean, extensionPaths: readonly string[] = [], read?: RunSettings): string[] {
	const cli = packageSourcesIn(extensionPaths);
	let settings: RunSettings;
	try {
		settings = read ?? readRunSettings(cwd, projectTrusted);
	} catch {
		return [];
	}
	if (cli.length === 0 && !Array.isArray(settings.user?.data.packages) && !Array.isArray(settings.project?.data.packages)) return [];
	try {
		const packages = selectPackages(settings, cli, cwd).packages.map(resolvePackage).filter((p) => p.installed);
		const order: PackageScope[] = ["temporary", "project", "user"];
		return order.flatMap((scope) => packages.filter((p) => p.scope === scope).flatMap((p) => p.resources[kind]));
	} catch {
		return [];
	}
}

/** Configured but not usable as it is on disk: not installed, or its version no longer matches the spec. */
export function needsInstall(pkg: ConfiguredPackage): boolean {
	// Resolved (and kept) now: the run's discovery, skills and prompts then read nothing of it again.
	const state = resolvePackage(pkg);
	return !state.installed || versionMismatch(pkg, state.version);
}

/** An npm package whose installed version no longer satisfies the version it is configured with. */
export function versionMismatch(pkg: ConfiguredPackage, installed: string | undefined): boolean {
	if (pkg.parsed.type !== "npm" || !pkg.parsed.version || !installed) return false;
	const wanted = pkg.parsed.version;
	// A dist-tag (`latest`, `next`) cannot be checked offline: what is installed counts.
	if (!/^[\d^~<>=*xX|. -]/.test(wanted)) return false;
	try {
		return !Bun.semver.satisfies(installed, wanted);
	} catch {
		return false;
	}
}

// ---- Writing `"packages"` (agent install / remove) ----

/**
 * Change the `packages` list of a settings file and write it back atomically, keeping every other
 * key. A malformed file is never overwritten (readSettingsFile throws first).
 */
export function updatePackageSettings(path: string, change: (list: unknown[]) => unknown[]): void {
	const file = readSettingsFile(path);
	const data = file?.data ?? {};
	packageSettings(file); // validate before touching
	const next = change(Array.isArray(data.packages) ? [...data.packages] : []);
	const out = { ...data, packages: next };
	if (next.length === 0) delete (out as Record<string, unknown>).packages;
	mkdirSync(dirname(path), { recursive: true });
	const tmp = `${path}.${process.pid}.tmp`;
	writeFileSync(tmp, `${JSON.stringify(out, null, 2)}\n`);
	renameSync(tmp, path);
}

/** The identity of a settings entry, or undefined when it cannot be parsed. */
export function entryIdentity(entry: unknown, baseDir: string): string | undefined {
	const source = typeof entry === "string" ? entry : entry && typeof entry === "object" ? (entry as { source?: unknown }).source : undefined;
	if (typeof source !== "string") return undefined;
	try {
		return sourceIdentity(parseSource(source), baseDir);
	} catch {
		return undefined;
	}
}

// ---- Trust: what an untrusted project's packages would be (SPEC §4) ----

registerGatedInputs(
	{ kind: "package", noun: ["package", "packages"], counted: true, heading: "Project packages that would be installed and loaded", promptNoun: ["package", "packages"], settingsKeys: ["packages"] },
	(context) => {
		let settings: PackageSetting[] = [];
		try {
			settings = packageSettings(context.projectSettings);
		} catch {
			// A malformed list is reported once the folder is trusted; the settings file itself is listed.
		}
		const file = context.projectSettings;
		return settings.map((s) => {
			let path = s.source;
			try {
				const parsed = parseSource(s.source);
				if (parsed.type === "local") path = packageDir(parsed, "project", context.cwd, file!.dir);
			} catch {
				// Shown as written.
			}
			return { kind: "package", path, declaredBy: file!.path };
		});
	},
);
