// Packages at start-up and /reload (SPEC §3): install what the run's settings and `-e` name that is
// not on disk, and check `-e` packages against their source at most once a day. Everything is
// imported on first need: a run whose packages are all in place and checked reads two settings files.
import { isOffline, tildify } from "../config.ts";
import type { ConfiguredPackage } from "../core/packages/configured.ts";
import { isRemoteSource } from "../core/packages/source.ts";
import { writeStderr } from "../stdio.ts";
import type { Args } from "./args.ts";

export interface PackageStartupOptions {
	/** Whether the project's settings count (the folder is trusted), and the user's. */
	scopes: { project: boolean; user: boolean };
	/**
	 * /reload: every failure goes here and is skipped, and nothing is written to the terminal the
	 * TUI owns. Without it (start-up) a configured package that fails is one warning line, and a
	 * `-e` package that fails is returned for the caller to stop on.
	 */
	report?: (source: string, error: unknown) => void;
}

export interface PackageStartupFailure {
	source: string;
	message: string;
}

/** Whether a `-e` value names a package (`npm:`, `git:`, a URL): a loop, not Array#some, a builtin compiled on its first call that a run with only `-e` files makes nowhere else. */
function namesRemoteSource(extensions: readonly string[]): boolean {
	for (const value of extensions) if (isRemoteSource(value)) return true;
	return false;
}

/** Install and check the run's packages; returns the `-e` packages that could not be installed (start-up only). */
export async function preparePackages(args: Args, cwd: string, options: PackageStartupOptions): Promise<PackageStartupFailure[]> {
	const { scopes, report } = options;
	// `-ne` and no `-e` package (`-e ./guard.ts` names a file): settings are not read and no package is
	// named, so there is nothing to import or check.
	if (args.noExtensions && !namesRemoteSource(args.extensions)) return [];
	const { forgetResolvedPackages, packageSourcesIn, selectPackages, needsInstall } = await import("../core/packages/configured.ts");
	// Folders may have changed since they were last read (another agent's install, before a /reload).
	forgetResolvedPackages();
	const { readRunSettings } = await import("../core/resources/settings.ts");
	const cli = scopes.user ? packageSourcesIn(args.extensions) : [];
	const settings = args.noExtensions && cli.length === 0 ? {} : readRunSettings(cwd, scopes.project);
	if (!Array.isArray(settings.user?.data.packages) && !Array.isArray(settings.project?.data.packages) && cli.length === 0) return [];
	let selection: ReturnType<typeof selectPackages>;
	try {
		selection = selectPackages(args.noExtensions ? {} : { project: settings.project, user: scopes.user ? settings.user : undefined }, cli, cwd);
	} catch {
		// An unreadable -e source: discovery turns it into a load error with the reason.
		return [];
	}
	// A loop, not Array#filter (a builtin compiled on its first call): resolving each package here
	// also keeps what discovery, skills and prompts read of it next.
	const missing: ConfiguredPackage[] = [];
	for (const pkg of selection.packages) if (needsInstall(pkg)) missing.push(pkg);
	const fatal: PackageStartupFailure[] = [];
	if (missing.length > 0) {
		if (!report) for (const pkg of missing) writeStderr(`Installing ${pkg.source}${pkg.settingsPath ? ` (from ${tildify(pkg.settingsPath)})` : ""}…\n`);
		const { ensureInstalled } = await import("../core/packages/package-manager.ts");
		const failures = await ensureInstalled(missing, { offline: args.offline });
		const failed = new Set(failures.map((f) => f.pkg));
		await recordTemporaryChecks(missing.filter((p) => !failed.has(p)));
		for (const f of failures) {
			if (report) report(f.pkg.source, new Error(`Package ${f.pkg.source} could not be installed: ${f.message}. Its extensions, skills and prompt templates are skipped.`));
			else if (f.pkg.scope === "temporary") fatal.push({ source: f.pkg.source, message: f.message });
			else writeStderr(`Warning: Package ${f.pkg.source} (${tildify(f.pkg.settingsPath ?? cwd)}) could not be installed: ${f.message}. Its extensions, skills and prompt templates are skipped this run.\n`);
		}
	}
	const installed: ConfiguredPackage[] = [];
	for (const p of selection.packages) if (p.scope === "temporary" && p.parsed.type !== "local" && !missing.includes(p)) installed.push(p);
	if (installed.length > 0 && !args.offline && !isOffline()) await checkTemporary(installed, report);
	return fatal;
}

async function recordTemporaryChecks(packages: ConfiguredPackage[]): Promise<void> {
	if (!packages.some((p) => p.scope === "temporary")) return;
	const { recordChecks } = await import("../core/packages/temporary-check.ts");
	recordChecks(packages);
}

/**
 * `-e` packages last checked a day ago or more move to the newest version their spec allows (a
 * git branch to its head). A check that fails keeps the cached copy, with a warning; either way
 * the next check is a day later.
 */
async function checkTemporary(packages: ConfiguredPackage[], report: PackageStartupOptions["report"]): Promise<void> {
	const { dueForCheck, recordChecks } = await import("../core/packages/temporary-check.ts");
	const due = packages.filter((p) => dueForCheck(p));
	if (due.length === 0) return;
	const { updatePackages } = await import("../core/packages/package-manager.ts");
	const results = await updatePackages(due);
	recordChecks(due);
	for (const r of results) {
		if (r.outcome === "updated" && !report) writeStderr(`Updated ${r.pkg.source}: ${r.from} → ${r.to} (a -e package is checked once a day).\n`);
		if (r.outcome !== "failed") continue;
		const message = `Could not check ${r.pkg.source} for a newer version: ${r.message}. Using the copy cached in ${tildify(r.pkg.dir)}.`;
		if (report) report(r.pkg.source, new Error(message));
		else writeStderr(`Warning: ${message}\n`);
	}
}
