// Package operations: install what a run is missing (start-up, never fatal for configured
// packages), and the commands `agent install`, `agent remove`, `agent update` with the settings
// entry they add, drop or keep.
import { existsSync, rmSync } from "node:fs";
import { join, relative } from "node:path";
import { getAgentDir, getProjectConfigDir, isOffline } from "../../config.ts";
import { readSettingsFile } from "../resources/settings.ts";
import { entryIdentity, forgetResolvedPackages, installState, resolvePackage, selectPackages, updatePackageSettings, versionMismatch, type ConfiguredPackage, type ResolvedPackage } from "./configured.ts";
import { gitHead, installGit, installNpm, PackageInstallError, removeNpm, updateGit, type InstallOptions } from "./installer.ts";
import { parseSource, resolveLocalPath, sourceIdentity, type NpmSource, type PackageScope } from "./source.ts";

export interface PackageFailure {
	pkg: ConfiguredPackage;
	message: string;
}


/**
 * Install every package in `packages` that is not on disk (or whose installed version no longer
 * satisfies its spec). Offline, nothing is fetched: what is installed is used and the rest fails.
 * Returns the failures; the caller warns (configured packages) or stops (`-e`).
 */
export async function ensureInstalled(packages: ConfiguredPackage[], options: InstallOptions = {}): Promise<PackageFailure[]> {
	const failures: PackageFailure[] = [];
	const npmByScope = new Map<PackageScope, ConfiguredPackage[]>();
	for (const pkg of packages) {
		const state = installState(pkg);
		if (state.installed && !versionMismatch(pkg, state.version)) continue;
		if (pkg.parsed.type === "local") {
			failures.push({ pkg, message: `${pkg.dir} does not exist` });
			continue;
		}
		if (options.offline || isOffline()) {
			failures.push({ pkg, message: state.installed ? `the installed version ${state.version} does not match, and offline mode is on` : "it is not installed, and offline mode is on" });
			continue;
		}
		if (pkg.parsed.type === "git") {
			try {
				await installGit(pkg.parsed, pkg.source, pkg.dir, pkg.scope, pkg.cwd, options);
			} catch (error) {
				failures.push({ pkg, message: messageOf(error) });
			}
			continue;
		}
		npmByScope.set(pkg.scope, [...(npmByScope.get(pkg.scope) ?? []), pkg]);
	}
	for (const [scope, list] of npmByScope) {
		const cwd = list[0]!.cwd;
		try {
			await installNpm(list.map((p) => (p.parsed as NpmSource).spec), scope, cwd, options);
		} catch (error) {
			if (list.length === 1) {
				failures.push({ pkg: list[0]!, message: messageOf(error) });
				continue;
			}
			// One bad package must not keep the others out: try them one by one.
			for (const pkg of list) {
				try {
					await installNpm([(pkg.parsed as NpmSource).spec], scope, cwd, options);
				} catch (single) {
					failures.push({ pkg, message: messageOf(single) });
				}
			}
		}
	}
	return failures;
}

function messageOf(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

// ---- agent install / remove / update ----

export interface CommandScope {
	cwd: string;
	/** `-l/--local`: the project's settings and `.agent/packages/`. */
	local: boolean;
}

export function settingsPathFor(scope: CommandScope): string {
	return scope.local ? join(getProjectConfigDir(scope.cwd), "settings.json") : join(getAgentDir(), "settings.json");
}

function settingsDir(scope: CommandScope): string {
	return scope.local ? getProjectConfigDir(scope.cwd) : getAgentDir();
}

/** How a source is written into settings: local paths relative to a project's `.agent/`, absolute for the user. */
function settingsSource(source: string, scope: CommandScope): string {
	const parsed = parseSource(source);
	if (parsed.type !== "local") return source.trim();
	const abs = resolveLocalPath(parsed.path, scope.cwd);
	return scope.local ? relative(settingsDir(scope), abs) || "." : abs;
}

function configuredFor(source: string, scope: CommandScope): ConfiguredPackage {
	const file = readSettingsFile(settingsPathFor(scope)) ?? { path: settingsPathFor(scope), dir: settingsDir(scope), data: {} };
	const written = settingsSource(source, scope);
	const { packages } = selectPackages(scope.local ? { project: { ...file, data: { packages: [written] } } } : { user: { ...file, data: { packages: [written] } } }, [], scope.cwd);
	return packages[0]!;
}

export interface InstallResult {
	pkg: ResolvedPackage;
	settingsPath: string;
	/** An entry for the same package was there already and now names this source. */
	replaced: boolean;
	ms: number;
}

/** `agent install <source>`: fetch it (npm, git) or check it (local), then record it in settings. */
export async function installSource(source: string, scope: CommandScope, options: InstallOptions = {}): Promise<InstallResult> {
	const started = performance.now();
	const pkg = configuredFor(source, scope);
	if (pkg.parsed.type === "local") {
		if (!existsSync(pkg.dir)) throw new PackageInstallError(source, `${pkg.dir} does not exist`);
	} else {
		if (options.offline || isOffline()) throw new PackageInstallError(source, "offline mode is on (AGENT_OFFLINE=1 or --offline): nothing can be fetched");
		if (pkg.parsed.type === "npm") await installNpm([pkg.parsed.spec], pkg.scope, scope.cwd, options);
		else if (existsSync(pkg.dir)) await updateGit(pkg.parsed, pkg.source, pkg.dir, pkg.scope, scope.cwd, options);
		else await installGit(pkg.parsed, pkg.source, pkg.dir, pkg.scope, scope.cwd, options);
	}
	const resolved = resolvePackage(pkg);
	if (!resolved.installed) throw new PackageInstallError(source, `the installer reported success but ${pkg.dir} is missing`);
	const settingsPath = settingsPathFor(scope);
	let replaced = false;
	updatePackageSettings(settingsPath, (list) => {
		const at = list.findIndex((e) => entryIdentity(e, settingsDir(scope)) === pkg.identity);
		if (at < 0) return [...list, pkg.source];
		replaced = true;
		const old = list[at];
		const next = [...list];
		// The object form keeps its filters; only the source changes.
		next[at] = old && typeof old === "object" ? { ...(old as object), source: pkg.source } : pkg.source;
		return next;
	});
	return { pkg: resolved, settingsPath, replaced, ms: performance.now() - started };
}

export interface RemoveResult {
	source: string;
	settingsPath: string;
	/** What was deleted from disk (nothing for local packages). */
	deleted?: string;
}

/** `agent remove <source>`: drop the settings entry and the installed files. */
export async function removeSource(source: string, scope: CommandScope): Promise<RemoveResult> {
	const settingsPath = settingsPathFor(scope);
	const file = readSettingsFile(settingsPath);
	const want = sourceIdentity(parseSource(settingsSource(source, scope)), settingsDir(scope));
	const list: unknown[] = Array.isArray(file?.data.packages) ? (file!.data.packages as unknown[]) : [];
	const entry = list.find((e) => entryIdentity(e, settingsDir(scope)) === want);
	if (entry === undefined) {
		const other = { ...scope, local: !scope.local };
		const elsewhere = readSettingsFile(settingsPathFor(other));
		const there = Array.isArray(elsewhere?.data.packages) && (elsewhere!.data.packages as unknown[]).some((e) => entryIdentity(e, settingsDir(other)) === sourceIdentity(parseSource(settingsSource(source, other)), settingsDir(other)));
		throw new PackageInstallError(source, `${source} is not in ${settingsPath}${there ? `; it is in ${settingsPathFor(other)}: add ${scope.local ? "nothing (drop -l)" : "-l"} to remove it from there` : ""}`);
	}
	const written = typeof entry === "string" ? entry : (entry as { source: string }).source;
	const pkg = configuredFor(written, scope);
	let deleted: string | undefined;
	if (pkg.parsed.type === "npm") {
		await removeNpm(pkg.parsed.name, pkg.scope, scope.cwd);
		deleted = pkg.dir;
	} else if (pkg.parsed.type === "git") {
		rmSync(pkg.dir, { recursive: true, force: true });
		forgetResolvedPackages();
		deleted = pkg.dir;
	}
	updatePackageSettings(settingsPath, (l) => l.filter((e) => entryIdentity(e, settingsDir(scope)) !== want));
	return { source: written, settingsPath, ...(deleted ? { deleted } : {}) };
}

export interface UpdateResult {
	pkg: ConfiguredPackage;
	outcome: "updated" | "up to date" | "pinned" | "local" | "installed" | "failed";
	from?: string;
	to?: string;
	message?: string;
}

/**
 * `agent update [source]`: npm packages move to the newest version their spec allows (exact
 * versions stay), git checkouts to their branch's head (tags and commits stay); missing ones are installed.
 */
export async function updatePackages(packages: ConfiguredPackage[], options: InstallOptions = {}): Promise<UpdateResult[]> {
	const results: UpdateResult[] = [];
	for (const pkg of packages) {
		const before = resolvePackage(pkg);
		try {
			if (pkg.parsed.type === "local") {
				results.push({ pkg, outcome: "local", message: before.installed ? undefined : `${pkg.dir} does not exist` });
				continue;
			}
			if (options.offline || isOffline()) throw new PackageInstallError(pkg.source, "offline mode is on (AGENT_OFFLINE=1 or --offline): nothing can be fetched");
			if (pkg.parsed.type === "npm") {
				if (pkg.parsed.pinned && before.installed && !versionMismatch(pkg, before.version)) {
					results.push({ pkg, outcome: "pinned", from: before.version });
					continue;
				}
				await installNpm([`${pkg.parsed.name}@${pkg.parsed.version ?? "latest"}`], pkg.scope, pkg.cwd, { ...options, fresh: true });
				const after = resolvePackage(pkg);
				const outcome = !before.installed ? "installed" : before.version === after.version ? "up to date" : "updated";
				results.push({ pkg, outcome, from: before.version, to: after.version });
				continue;
			}
			if (!before.installed) {
				await installGit(pkg.parsed, pkg.source, pkg.dir, pkg.scope, pkg.cwd, options);
				results.push({ pkg, outcome: "installed", to: await gitHead(pkg.dir, pkg.source) });
				continue;
			}
			const r = await updateGit(pkg.parsed, pkg.source, pkg.dir, pkg.scope, pkg.cwd, options);
			results.push({ pkg, outcome: r.pinned ? "pinned" : r.before === r.after ? "up to date" : "updated", from: r.before, to: r.after });
		} catch (error) {
			results.push({ pkg, outcome: "failed", message: messageOf(error) });
		}
	}
	return results;
}

/** The configured packages `agent update <source>` names (by identity), or all of them. */
export function selectForUpdate(packages: ConfiguredPackage[], source: string | undefined, cwd: string): ConfiguredPackage[] {
	if (source === undefined) return packages.filter((p) => p.scope !== "temporary");
	const parsed = parseSource(source);
	return packages.filter((p) => p.scope !== "temporary" && (p.identity === sourceIdentity(parsed, p.baseDir) || p.identity === sourceIdentity(parsed, cwd)));
}
