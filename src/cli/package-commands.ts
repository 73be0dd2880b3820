// `agent install <source> [-l]`, `agent remove <source> [-l]`, `agent update [<source>]`: what they
// did, in a few lines, and exit 1 with the reason when they could not. Never runs package code.
import { relative } from "node:path";
import { APP_NAME, tildify } from "../config.ts";
import { UserError } from "../core/errors.ts";
import { selectPackages, type ResolvedPackage } from "../core/packages/configured.ts";
import { bundledHostPackages, readManifest, RESOURCE_KINDS } from "../core/packages/manifest.ts";
import { installSource, removeSource, selectForUpdate, updatePackages, type UpdateResult } from "../core/packages/package-manager.ts";
import { PackageSourceError } from "../core/packages/source.ts";
import type { InstallOptions } from "../core/packages/installer.ts";
import { decideTrust } from "../core/resources/resource-loader.ts";
import { readRunSettings } from "../core/resources/settings.ts";
import { writeStdout, writeStderr } from "../stdio.ts";

function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(1)} s`;
}

/** `extensions: a.ts, b.ts` lines, paths relative to the package. */
export function resourceLines(pkg: ResolvedPackage, indent = "  "): string[] {
	const lines: string[] = [];
	for (const kind of RESOURCE_KINDS) {
		const files = pkg.resources[kind];
		if (files.length > 0) lines.push(`${indent}${kind}: ${files.map((f) => relative(pkg.dir, f) || f).join(", ")}`);
	}
	return lines;
}

function failure(what: string, source: string, error: unknown): never {
	if (error instanceof UserError) throw error;
	const message = error instanceof Error ? error.message : String(error);
	throw new UserError(`Could not ${what} ${source}: ${message}`);
}

export async function runInstallCommand(source: string, local: boolean, options: InstallOptions, cwd = process.cwd()): Promise<number> {
	let result: Awaited<ReturnType<typeof installSource>>;
	try {
		result = await installSource(source, { cwd, local }, options);
	} catch (error) {
		failure("install", source, error);
	}
	const { pkg, settingsPath } = result;
	const version = pkg.version ? ` ${pkg.version}` : "";
	const where = pkg.parsed.type === "local" ? "" : ` into ${tildify(pkg.dir)}`;
	const lines = [`Installed ${pkg.source}${version}${where} in ${seconds(result.ms)}.`, ...resourceLines(pkg)];
	if (RESOURCE_KINDS.every((k) => pkg.resources[k].length === 0)) {
		lines.push(`  (it contributes nothing: no "agent" or "pi" field in its package.json and no extensions/, skills/, prompts/ or themes/ folder)`);
	}
	lines.push(`${result.replaced ? "Updated its entry in" : "Added to"} ${tildify(settingsPath)}.`);
	writeStdout(`${lines.join("\n")}\n`);
	for (const w of pkg.warnings) writeStderr(`Warning: ${pkg.source}: ${w}\n`);
	const { hostPackageNames } = await import("../../virtual-modules/index.ts");
	const bundled = bundledHostPackages(readManifest(pkg.dir, []), hostPackageNames());
	if (bundled.length > 0) {
		writeStderr(
			`Warning: ${pkg.source} lists ${bundled.join(", ")} in its dependencies; its extensions get the copies inside ${APP_NAME} instead. (Package authors: declare ${bundled.length === 1 ? "it" : "them"} in "peerDependencies" with "*".)\n`,
		);
	}
	if (local && decideTrust(cwd, {}).state !== "yes") {
		writeStderr(`Note: this folder is not trusted, so its packages do not load yet: run "${APP_NAME} trust" (or pass --approve for one run).\n`);
	}
	return 0;
}

export async function runRemoveCommand(source: string, local: boolean, cwd = process.cwd()): Promise<number> {
	let result: Awaited<ReturnType<typeof removeSource>>;
	try {
		result = await removeSource(source, { cwd, local });
	} catch (error) {
		failure("remove", source, error);
	}
	writeStdout(`Removed ${result.source} from ${tildify(result.settingsPath)}${result.deleted ? ` and deleted ${tildify(result.deleted)}` : ""}.\n`);
	return 0;
}

function updateLine(r: UpdateResult): string {
	switch (r.outcome) {
		case "updated":
			return `${r.pkg.source}  ${r.from} → ${r.to}`;
		case "installed":
			return `${r.pkg.source}  installed ${r.to ?? ""}`.trimEnd();
		case "up to date":
			return `${r.pkg.source}  up to date (${r.to ?? r.from})`;
		case "pinned":
			return `${r.pkg.source}  pinned at ${r.from}; change the version in settings to move it`;
		case "local":
			return `${r.pkg.source}  local folder, nothing to update${r.message ? ` (${r.message})` : ""}`;
		case "failed":
			return `${r.pkg.source}  failed: ${r.message}`;
	}
}

export async function runUpdateCommand(source: string | undefined, options: InstallOptions, cwd = process.cwd()): Promise<number> {
	const trusted = decideTrust(cwd, {}).state === "yes";
	const settings = readRunSettings(cwd, trusted);
	let packages: ReturnType<typeof selectPackages>["packages"];
	try {
		packages = selectForUpdate(selectPackages(settings, [], cwd).packages, source, cwd);
	} catch (error) {
		if (error instanceof PackageSourceError) throw new UserError(error.message);
		throw error;
	}
	if (packages.length === 0) {
		if (source !== undefined) throw new UserError(`${source} is not in your packages${trusted ? "" : " (this folder is not trusted, so its project packages were not looked at)"}.`, [`"${APP_NAME} list" shows them; "${APP_NAME} install ${source}" adds it.`]);
		writeStdout(`No packages to update. Add one with "${APP_NAME} install npm:<name>".\n`);
		return 0;
	}
	const results = await updatePackages(packages, options);
	writeStdout(`${results.map(updateLine).join("\n")}\n`);
	const failed = results.filter((r) => r.outcome === "failed");
	if (failed.length > 0) throw new UserError(`${failed.length} of ${results.length} ${results.length === 1 ? "package" : "packages"} could not be updated (see above).`);
	return 0;
}
