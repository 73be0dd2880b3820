// Start-up of extensions for a run: trust (prompt or skip line), load, fail with exit 1 on any
// load error, resolve extension flags, and print the start-up list for --verbose. Also the
// quiet variant `--help` uses to list extension flags.
import { dirname, join } from "node:path";
import { isTerminal } from "./terminal.ts";
import { APP_NAME, getProjectConfigDir, VERSION } from "../config.ts";
import type { DiscoveryResult, ExtensionEntry } from "../core/extensions/discovery.ts";
import type { LoadExtensionsResult } from "../core/extensions/loader.ts";
import type { ExtensionMode } from "../core/extensions/types.ts";
import { decideTrust, discoverForRun, emitProjectTrust, projectResourceDirs } from "../core/resources/resource-loader.ts";
import { saveTrust } from "../core/resources/trust.ts";
import { mark } from "../core/timing.ts";
import { renderStartupList, type StartupIssue } from "../modes/interactive/startup-list.ts";
import { writeStderr } from "../stdio.ts";
import { resolveExtensionFlags, type Args, type FlagDefinition } from "./args.ts";
import { UserError } from "../core/errors.ts";
import type { ExtensionFlagHelp } from "./help.ts";

export interface StartedExtensions {
	mode: ExtensionMode;
	projectTrusted: boolean;
	discovery: DiscoveryResult;
	/** Undefined when there was nothing to load. */
	loaded: LoadExtensionsResult | undefined;
	/** The same discovery again, for /reload (new and removed files take effect). */
	discover: () => ExtensionEntry[];
	/** Values of extension flags given on the command line (already applied to the runtime). */
	flagValues: Map<string, boolean | string>;
	issues: StartupIssue[];
}

export function runMode(args: Args): ExtensionMode {
	if (args.mode === "json" || args.mode === "rpc") return args.mode;
	if (args.print) return "print";
	// Interactive needs a person at both ends and a terminal that can draw; otherwise print mode.
	return isTerminal(0) && !tuiFallbackReason() ? "tui" : "print";
}

/**
 * Why a person at the keyboard gets print mode instead of the TUI (stdout is not a terminal,
 * `TERM=dumb`), said in one line; undefined when the TUI can run.
 */
export function tuiFallbackReason(): string | undefined {
	if (!isTerminal(1)) return "stdout is not a terminal";
	if (process.env.TERM === "dumb") return "TERM=dumb cannot show the interactive screen";
	return undefined;
}

export function loadFailureHint(): string {
	return `Hint: Start without extensions using "${APP_NAME} -ne".`;
}

/** Exit 1 with one `Error: Failed to load extension …` line per failure and the hint (SPEC §5). */
export function loadFailure(errors: { message: string }[]): UserError {
	const [first, ...rest] = errors;
	return new UserError(first!.message, [...rest.map((e) => `Error: ${e.message}`), loadFailureHint()]);
}

async function load(entries: ExtensionEntry[], cwd: string): Promise<LoadExtensionsResult | undefined> {
	if (entries.length === 0) return undefined;
	// The loader (and with it the virtual-module table) is imported only when there is a file to load.
	const { loadExtensions } = await import("../core/extensions/loader.ts");
	return loadExtensions(entries, { cwd });
}

function skipLine(cwd: string, skipped: ExtensionEntry[]): string {
	const extDir = join(getProjectConfigDir(cwd), "extensions");
	const where = skipped.some((e) => e.resolvedPath.startsWith(`${extDir}/`) || e.path.startsWith(`${extDir}/`))
		? extDir
		: join(getProjectConfigDir(cwd), "settings.json");
	const n = skipped.length;
	return `Skipped ${n} project ${n === 1 ? "extension" : "extensions"} in ${where}: folder not trusted (pass --approve or run "${APP_NAME} trust").`;
}

function resourceSkipLine(cwd: string, dirs: string[]): string {
	const what = dirs.map((d) => (d.endsWith("skills") ? "skills" : "prompt templates")).join(" and ");
	const where = dirs.length === 1 ? dirs[0] : getProjectConfigDir(cwd);
	return `Skipped project ${what} in ${where}: folder not trusted (pass --approve or run "${APP_NAME} trust").`;
}

function collectIssues(discovery: DiscoveryResult, loaded: LoadExtensionsResult | undefined): StartupIssue[] {
	const issues: StartupIssue[] = discovery.warnings.map((w) => ({ group: "path", path: w.path, message: w.message }));
	const byPath = new Map(discovery.entries.map((e) => [e.path, e.group]));
	const owners = new Map<string, string[]>();
	for (const ext of loaded?.extensions ?? []) for (const name of ext.commands.keys()) owners.set(name, [...(owners.get(name) ?? []), ext.path]);
	for (const [name, paths] of owners) {
		if (paths.length < 2) continue;
		const names = paths.map((_, i) => `/${name}:${i + 1}`).join(", ");
		issues.push({ group: byPath.get(paths[1]!) ?? "path", path: paths[1]!, message: `Command /${name} is also registered by ${paths[0]}: use ${names}` });
	}
	return issues;
}

/** Everything between flag parsing and the session. Throws UserError (exit 1, or 130 on Ctrl+C). */
export async function startExtensions(args: Args, cwd = process.cwd()): Promise<StartedExtensions> {
	const mode = runMode(args);
	const trust = decideTrust(cwd, args);
	let projectTrusted = trust.state === "yes";
	let discovery = discoverForRun({ cwd, extensionPaths: args.extensions, noExtensions: args.noExtensions }, projectTrusted);
	let loaded = await load(discovery.entries, cwd);
	if (loaded && loaded.errors.length > 0) throw loadFailure(loaded.errors);

	const untrusted = discovery.untrustedProject;
	// Project skills and prompt templates are gated with the extensions (they steer the model).
	const resourceDirs = projectTrusted || args.noApprove ? [] : projectResourceDirs(cwd);
	if (!projectTrusted && (untrusted.length > 0 || resourceDirs.length > 0) && !args.noApprove) {
		let prompted = false;
		const answer = loaded
			? await emitProjectTrust(loaded.extensions, { cwd, trusted: trust.state }, mode, (path, error) =>
					writeStderr(`Extension error (${path}): ${error instanceof Error ? error.message : String(error)}\n`),
				)
			: undefined;
		if (answer) {
			projectTrusted = answer.trusted === "yes";
			if (answer.remember) saveTrust(cwd, projectTrusted);
		} else if (trust.state === "undecided" && mode === "tui") {
			const { promptProjectTrust } = await import("./trust-prompt.ts");
			const choice = await promptProjectTrust(cwd, untrusted.map((e) => e.resolvedPath), resourceDirs);
			if (choice === "cancelled") throw new UserError("Cancelled: no project code was run.", [], 130);
			projectTrusted = choice !== "dont-trust";
			saveTrust(choice === "trust-parent" ? dirname(cwd) : cwd, projectTrusted);
			prompted = true;
		}
		if (projectTrusted && untrusted.length > 0) {
			// Second pass in full load order (project first); the first pass's extensions are gone.
			loaded?.runtime.invalidate();
			discovery = discoverForRun({ cwd, extensionPaths: args.extensions, noExtensions: args.noExtensions }, true);
			loaded = await load(discovery.entries, cwd);
			if (loaded && loaded.errors.length > 0) throw loadFailure(loaded.errors);
		} else if (!projectTrusted && !prompted) {
			if (untrusted.length > 0) writeStderr(`${skipLine(cwd, untrusted)}\n`);
			if (resourceDirs.length > 0) writeStderr(`${resourceSkipLine(cwd, resourceDirs)}\n`);
		}
	}

	const registered = new Map<string, FlagDefinition>();
	for (const ext of loaded?.extensions ?? []) for (const flag of ext.flags.values()) registered.set(flag.name, flag);
	const flagValues = resolveExtensionFlags(args, registered);
	for (const [name, value] of flagValues) loaded?.runtime.flagValues.set(name, value);
	mark("extensions");

	const issues = collectIssues(discovery, loaded);
	if (args.verbose && mode !== "tui") {
		const lines = renderStartupList({
			appName: APP_NAME,
			version: VERSION,
			extensions: (loaded?.extensions ?? []).map((e) => ({ path: e.resolvedPath, group: discovery.entries.find((d) => d.path === e.path)?.group ?? "path" })),
			issues,
			expanded: true,
		});
		writeStderr(`${lines.join("\n")}\n\n`);
	}
	const discover = () => discoverForRun({ cwd, extensionPaths: args.extensions, noExtensions: args.noExtensions }, projectTrusted).entries;
	return { mode, projectTrusted, discovery, loaded, discover, flagValues, issues };
}

/**
 * `--help`: the flags extensions register, never prompting and never failing — a broken
 * extension or settings file only adds a note. With nothing on disk it loads nothing.
 */
export async function helpExtensionFlags(args: Args, cwd = process.cwd()): Promise<{ flags: ExtensionFlagHelp[]; notes: string[] }> {
	try {
		const trusted = decideTrust(cwd, args).state === "yes";
		const discovery = discoverForRun({ cwd, extensionPaths: args.extensions, noExtensions: args.noExtensions }, trusted);
		const loaded = await load(discovery.entries, cwd);
		if (!loaded) return { flags: [], notes: [] };
		const flags = loaded.extensions.flatMap((e) => [...e.flags.values()].map((f) => ({ name: f.name, type: f.type, description: f.description, extensionPath: e.path })));
		const n = loaded.errors.length;
		const notes = n > 0 ? [`${n} ${n === 1 ? "extension" : "extensions"} failed to load, so ${n === 1 ? "its" : "their"} flags are not listed: run "${APP_NAME} list" to see why.`] : [];
		return { flags, notes };
	} catch (error) {
		return { flags: [], notes: [`Extension flags are not listed: ${error instanceof Error ? error.message : String(error)}`] };
	}
}
