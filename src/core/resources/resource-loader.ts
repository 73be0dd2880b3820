// The extension part of resource loading: read settings (project only when trusted), decide
// trust, discover, load. No prompts and no printing here: the CLI start-up and the SDK both
// build on these functions.
import { join } from "node:path";
import { pathExists } from "../file-reader.ts";
import { getProjectConfigDir, getUserExtensionsDir } from "../../config.ts";
import { discoverExtensions, type DiscoveryResult, type PackageExtensions } from "../extensions/discovery.ts";
import { packageSourcesIn, resolvePackage, selectPackages, type ResolvedPackage } from "../packages/configured.ts";
import { PackageSourceError, parseSource } from "../packages/source.ts";
import type { ProjectTrustContext } from "../compat/pi-types.ts";
import type { EventBusController } from "../extensions/event-bus.ts";
import type { LoadExtensionsResult } from "../extensions/loader.ts";
import type { Extension, ExtensionContext, ExtensionMode, ProjectTrustEvent, ProjectTrustResult } from "../extensions/types.ts";
import { peekSettingsFile, projectSettingsPath, readSettingsFile, settingsExtensionPaths, userSettingsPath, type SettingsFile } from "./settings.ts";
import { lookupTrust, type TrustLookup } from "./trust.ts";

export interface ExtensionSourceOptions {
	cwd: string;
	/** `-e` paths, in order. */
	extensionPaths?: string[];
	/** `-ne`. */
	noExtensions?: boolean;
}

/** Whether the project has a `.agent/` folder: everything in it is trust-gated (gated-inputs.ts). */
export function hasProjectInputs(cwd: string): boolean {
	return pathExists(getProjectConfigDir(cwd));
}

/**
 * The trust decision for this run: `-na` → no, `-a` → yes (both for this run only), else the
 * saved decision. Reads trust.json only when the project has something to gate.
 */
export function decideTrust(cwd: string, flags: { approve?: boolean; noApprove?: boolean }): TrustLookup & { forRun?: boolean } {
	if (flags.noApprove) return { state: "no", forRun: true };
	if (flags.approve) return { state: "yes", forRun: true };
	if (!hasProjectInputs(cwd)) return { state: "undecided" };
	return lookupTrust(cwd);
}

/** The package sources an (untrusted) project's settings declare: only listed, never installed or loaded. */
function declaredSources(file: SettingsFile | undefined): string[] {
	const list = file?.data.packages;
	if (!Array.isArray(list)) return [];
	return list.map((e) => (typeof e === "string" ? e : e && typeof e === "object" && typeof e.source === "string" ? e.source : undefined)).filter((s): s is string => s !== undefined);
}

function toExtensions(pkg: ResolvedPackage): PackageExtensions {
	return { source: pkg.source, dir: pkg.dir, files: pkg.resources.extensions, ...(pkg.installed ? {} : { missing: `Package ${pkg.source} is not installed (${pkg.dir})` }) };
}

/**
 * The packages of a run as they are on disk (never installs): settings packages unless `-ne`,
 * the project's only when trusted, then `-e npm:…|git:…`. An unreadable `-e` source is a missing package.
 */
export function packagesForRun(options: ExtensionSourceOptions, settings: { project?: SettingsFile; user?: SettingsFile }): { packages: ResolvedPackage[]; cliErrors: Map<string, string>; problems: string[] } {
	const cliErrors = new Map<string, string>();
	const cliSources = packageSourcesIn(options.extensionPaths ?? []).filter((source) => {
		try {
			parseSource(source);
			return true;
		} catch (error) {
			if (!(error instanceof PackageSourceError)) throw error;
			cliErrors.set(source, error.message);
			return false;
		}
	});
	const files = options.noExtensions ? {} : settings;
	// Nothing names a package (the common case): no selection to make.
	if (cliSources.length === 0 && files.project?.data.packages === undefined && files.user?.data.packages === undefined) return { packages: [], cliErrors, problems: [] };
	const selection = selectPackages(files, cliSources, options.cwd);
	const problems = selection.problems.map((p) => `${p.settingsPath}: package "${p.source}" skipped: ${p.message}`);
	return { packages: selection.packages.map(resolvePackage), cliErrors, problems };
}

/** Resolve every extension source for `projectTrusted`. Reads settings; throws SettingsError on a bad file. */
export function discoverForRun(options: ExtensionSourceOptions, projectTrusted: boolean): DiscoveryResult {
	const { cwd } = options;
	const noExtensions = options.noExtensions ?? false;
	// `-ne` and no `-e`: nothing is found or named, and settings are not read.
	if (noExtensions && (options.extensionPaths ?? []).length === 0) return { entries: [], untrustedProject: [], untrustedPackages: [], warnings: [] };
	const user = noExtensions ? undefined : readSettingsFile(userSettingsPath());
	// An untrusted project's settings are only peeked at, to list what they would load.
	const project = noExtensions ? undefined : projectTrusted ? readSettingsFile(projectSettingsPath(cwd)) : peekSettingsFile(projectSettingsPath(cwd));
	let projectPaths: { value: string; baseDir: string }[] = [];
	try {
		projectPaths = settingsExtensionPaths(project);
	} catch (error) {
		if (projectTrusted) throw error;
	}
	const { packages, cliErrors, problems } = packagesForRun(options, { project: projectTrusted ? project : undefined, user });
	const byScope = (scope: ResolvedPackage["scope"]) => packages.filter((p) => p.scope === scope).map(toExtensions);
	const temporary = new Map(packages.filter((p) => p.scope === "temporary").map((p) => [p.source, toExtensions(p)]));
	const cliPaths = (options.extensionPaths ?? []).map((value): string | PackageExtensions => {
		const error = cliErrors.get(value);
		if (error) return { source: value, dir: cwd, files: [], missing: error };
		return temporary.get(value) ?? value;
	});
	const result = discoverExtensions({
		cwd,
		projectDir: join(getProjectConfigDir(cwd), "extensions"),
		userDir: getUserExtensionsDir(),
		projectSettingsPaths: projectPaths,
		userSettingsPaths: settingsExtensionPaths(user),
		projectPackages: projectTrusted ? byScope("project") : declaredSources(project).map((source) => ({ source, dir: cwd, files: [] })),
		userPackages: byScope("user"),
		cliPaths,
		noExtensions,
		projectTrusted,
	});
	for (const p of packages) for (const message of p.warnings) result.warnings.push({ path: p.dir, message: `${p.source}: ${message}` });
	for (const message of problems) result.warnings.push({ path: cwd, message });
	return result;
}

export interface DiscoverAndLoadOptions extends ExtensionSourceOptions {
	/** Default: the saved decision (never prompts). */
	projectTrusted?: boolean;
	eventBus?: EventBusController;
}

/** SDK: discover and load like the CLI does, without prompting. */
export async function discoverAndLoadExtensions(options: DiscoverAndLoadOptions): Promise<LoadExtensionsResult & { discovery: DiscoveryResult }> {
	const trusted = options.projectTrusted ?? decideTrust(options.cwd, {}).state === "yes";
	const discovery = discoverForRun(options, trusted);
	const { loadExtensions } = await import("../extensions/loader.ts");
	const result = await loadExtensions(discovery.entries, { cwd: options.cwd, eventBus: options.eventBus });
	return { ...result, discovery };
}

/** A context for handlers that run before any session exists: only cwd, mode and trust. */
function startupContext(cwd: string, mode: ExtensionMode, ui: ProjectTrustContext["ui"] | undefined, hasUI: boolean): ExtensionContext {
	const dialogs = ui ?? { select: async () => undefined, confirm: async () => false, input: async () => undefined, notify() {} };
	const base: Partial<ExtensionContext> = { cwd, mode, hasUI, ui: dialogs as ExtensionContext["ui"], isProjectTrusted: () => false };
	return new Proxy(base as ExtensionContext, {
		get(target, prop) {
			if (prop in target || typeof prop === "symbol") return Reflect.get(target, prop);
			throw new Error(`ctx.${String(prop)} is not available in project_trust handlers: they run at start-up, before the session exists`);
		},
	});
}

export interface ProjectTrustAnswer extends ProjectTrustResult {
	extensionPath: string;
}

/**
 * `project_trust`: first decisive answer wins (SPEC §4/§6). A throwing handler is reported
 * through `onError` and the next one runs. The runner issue may replace this with its dispatcher.
 */
export async function emitProjectTrust(
	extensions: Extension[],
	event: Omit<ProjectTrustEvent, "type">,
	mode: ExtensionMode,
	onError: (extensionPath: string, error: unknown) => void,
	/** pi 1.6's ProjectTrustContext.ui: dialogs in a terminal, their defaults elsewhere. */
	ui?: { dialogs: ProjectTrustContext["ui"]; hasUI: boolean },
): Promise<ProjectTrustAnswer | undefined> {
	const payload: ProjectTrustEvent = { type: "project_trust", ...event };
	const ctx = startupContext(event.cwd, mode, ui?.dialogs, ui?.hasUI ?? false);
	for (const extension of extensions) {
		for (const handler of [...(extension.handlers.get("project_trust") ?? [])]) {
			try {
				const result = (await handler(payload, ctx)) as ProjectTrustResult | undefined;
				if (result && (result.trusted === "yes" || result.trusted === "no")) return { ...result, extensionPath: extension.path };
			} catch (error) {
				onError(extension.path, error);
			}
		}
	}
	return undefined;
}
