// Start-up of extensions for a run: trust (prompt or skip line), load, fail with exit 1 on any
// load error, resolve extension flags, and print the start-up list for --verbose. Also the
// quiet variant `--help` uses to list extension flags.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { runMode } from "./terminal.ts";
import { APP_NAME, getProjectConfigDir, getProjectMcpPath, VERSION } from "../config.ts";
import type { DiscoveryResult, ExtensionEntry } from "../core/extensions/discovery.ts";
import type { LoadExtensionsResult } from "../core/extensions/loader.ts";
import type { ExtensionMode } from "../core/extensions/types.ts";
import { collectGatedInputs, skipLines } from "../core/resources/gated-inputs.ts";
import { decideTrust, discoverForRun, emitProjectTrust } from "../core/resources/resource-loader.ts";
import { saveTrust } from "../core/resources/trust.ts";
import { detail, mark, tile } from "../core/timing.ts";
import type { StartupIssue } from "../modes/interactive/startup-list.ts";
import { writeStderr } from "../stdio.ts";
import { builtinFlagNames, resolveExtensionFlags, type Args, type FlagDefinition } from "./args.ts";
import { preparePackages } from "./package-startup.ts";
import { UserError } from "../core/errors.ts";
import type { ExtensionFlagHelp } from "./help.ts";

export interface StartedExtensions {
	mode: ExtensionMode;
	projectTrusted: boolean;
	discovery: DiscoveryResult;
	/** Undefined when there was nothing to load. */
	loaded: LoadExtensionsResult | undefined;
	/** The same discovery again, for /reload (new and removed files take effect, failed package installs are retried). */
	discover: (report: (source: string, error: unknown) => void) => Promise<ExtensionEntry[]>;
	/** Values of extension flags given on the command line (already applied to the runtime). */
	flagValues: Map<string, boolean | string>;
	issues: StartupIssue[];
}

export function loadFailureHint(): string {
	return `Hint: Start without extensions using "${APP_NAME} -ne".`;
}

/** Exit 1 with one `Error: Failed to load extension …` line per failure and the hint (SPEC §5). */
export function loadFailure(errors: { message: string }[]): UserError {
	const [first, ...rest] = errors;
	return new UserError(first!.message, [...rest.map((e) => `Error: ${e.message}`), loadFailureHint()]);
}

/**
 * Load `entries`. AGENT_TIMING: with `tiled`, its rows (importing the loader, the loader's set-up,
 * each file) continue the extensions phase's rows, so no time falls between two of them.
 */
async function load(entries: ExtensionEntry[], cwd: string, tiled = false): Promise<LoadExtensionsResult | undefined> {
	if (entries.length === 0) return undefined;
	// The loader (and with it the virtual-module table) is imported only when there is a file to load.
	const started = performance.now();
	const { loadExtensions } = await import("../core/extensions/loader.ts");
	if (tiled) tile("import loader");
	else detail("import loader", performance.now() - started);
	return loadExtensions(entries, { cwd, reservedFlags: builtinFlagNames, tiledRows: tiled });
}

/** AGENT_TIMING: trust and discovery since the phase's previous row, less each entry's resolve (its file row has it). */
function discoveryRow(discovery: DiscoveryResult): void {
	let resolving = 0;
	for (const e of discovery.entries) resolving += e.resolveMs;
	tile("trust, settings, discovery", resolving);
}

function collectIssues(discovery: DiscoveryResult, loaded: LoadExtensionsResult | undefined): StartupIssue[] {
	const issues: StartupIssue[] = discovery.warnings.map((w) => ({ group: "path", path: w.path, message: w.message }));
	const byPath = new Map(discovery.entries.map((e) => [e.path, e.group]));
	for (const ext of loaded?.extensions ?? []) for (const w of ext.warnings) issues.push({ group: byPath.get(ext.path) ?? "path", path: ext.path, message: w.message });
	const owners = new Map<string, string[]>();
	for (const ext of loaded?.extensions ?? []) for (const name of ext.commands.keys()) owners.set(name, [...(owners.get(name) ?? []), ext.path]);
	for (const [name, paths] of owners) {
		if (paths.length < 2) continue;
		const names = paths.map((_, i) => `/${name}:${i + 1}`).join(", ");
		issues.push({ group: byPath.get(paths[1]!) ?? "path", path: paths[1]!, message: `Command /${name} is also registered by ${paths[0]}: use ${names}` });
	}
	return issues;
}

/** Install (and check) the run's packages; a `-e` package that cannot be installed stops start-up like a missing `-e` path. */
async function installMissingPackages(args: Args, cwd: string, scopes: { project: boolean; user: boolean }): Promise<void> {
	const fatal = await preparePackages(args, cwd, { scopes });
	if (fatal.length > 0) throw loadFailure(fatal.map((f) => ({ message: `Failed to load extension "${f.source}": the package could not be installed: ${f.message}` })));
}

/** Everything between flag parsing and the session. Throws UserError (exit 1, or 130 on Ctrl+C). */
export async function startExtensions(args: Args, cwd = process.cwd()): Promise<StartedExtensions> {
	// AGENT_TIMING: the phase's sub-rows tile it, from the previous top-level row to mark("extensions").
	const mode = runMode(args);
	const trust = decideTrust(cwd, args);
	let projectTrusted = trust.state === "yes";
	await installMissingPackages(args, cwd, { project: projectTrusted, user: true });
	let discovery = discoverForRun({ cwd, extensionPaths: args.extensions, noExtensions: args.noExtensions }, projectTrusted);
	discoveryRow(discovery);
	let loaded = await load(discovery.entries, cwd, true);
	if (loaded && loaded.errors.length > 0) throw loadFailure(loaded.errors);

	const untrusted = discovery.untrustedProject;
	// Everything the project would load: extensions, and the skills, templates and settings that steer the model.
	// A project mcp.json (its servers run programs) registers as a gated kind; imported only when there is one.
	if (!projectTrusted && !args.noApprove && existsSync(getProjectMcpPath(cwd))) await import("../core/mcp/trust-gate.ts");
	const gated = projectTrusted || args.noApprove ? [] : collectGatedInputs(cwd, untrusted);
	if (gated.length > 0) {
		let prompted = false;
		const answer = loaded
			? await emitProjectTrust(
					loaded.extensions,
					{ cwd, trusted: trust.state },
					mode,
					(path, error) => writeStderr(`Extension error (${path}): ${error instanceof Error ? error.message : String(error)}\n`),
					mode === "tui" ? { dialogs: (await import("./startup-ui.ts")).terminalStartupUI(), hasUI: true } : { dialogs: (await import("./startup-ui.ts")).headlessStartupUI(), hasUI: false },
				)
			: undefined;
		if (answer) {
			projectTrusted = answer.trusted === "yes";
			if (answer.remember) saveTrust(cwd, projectTrusted);
		} else if (trust.state === "undecided" && mode === "tui") {
			const { promptProjectTrust } = await import("./trust-prompt.ts");
			const choice = await promptProjectTrust(cwd, gated);
			if (choice === "cancelled") throw new UserError("Cancelled: no project code was run.", [], 130);
			projectTrusted = choice !== "dont-trust";
			saveTrust(choice === "trust-parent" ? dirname(cwd) : cwd, projectTrusted);
			prompted = true;
		}
		if (projectTrusted && (untrusted.length > 0 || discovery.untrustedPackages.length > 0)) {
			// Second pass in full load order (project first); the first pass's extensions are gone.
			await installMissingPackages(args, cwd, { project: true, user: false });
			loaded?.runtime.invalidate();
			// The trust dialog and the second discovery; the second pass's files then have rows of their own.
			discovery = discoverForRun({ cwd, extensionPaths: args.extensions, noExtensions: args.noExtensions }, true);
			tile("trust gate, second discovery", discovery.entries.reduce((n, e) => n + e.resolveMs, 0));
			loaded = await load(discovery.entries, cwd, true);
			if (loaded && loaded.errors.length > 0) throw loadFailure(loaded.errors);
		} else if (!projectTrusted && !prompted) {
			for (const line of skipLines(gated)) writeStderr(`${line}\n`);
		}
	}

	const registered = new Map<string, FlagDefinition>();
	for (const ext of loaded?.extensions ?? []) for (const flag of ext.flags.values()) registered.set(flag.name, flag);
	const flagValues = resolveExtensionFlags(args, registered);
	for (const [name, value] of flagValues) loaded?.runtime.flagValues.set(name, value);
	// AGENT_TIMING: what follows the (last pass's) files.
	tile("trust gate, flags");
	mark("extensions");

	const issues = collectIssues(discovery, loaded);
	if (args.verbose && mode !== "tui") {
		// Imported only here: a run without --verbose loads no module of the list.
		const { renderStartupList } = await import("../modes/interactive/startup-list.ts");
		const lines = renderStartupList({
			appName: APP_NAME,
			version: VERSION,
			extensions: (loaded?.extensions ?? []).map((e) => ({ path: e.resolvedPath, group: discovery.entries.find((d) => d.path === e.path)?.group ?? "path" })),
			issues,
			expanded: true,
		});
		writeStderr(`${lines.join("\n")}\n\n`);
	}
	const discover = async (report: (source: string, error: unknown) => void) => {
		await preparePackages(args, cwd, { scopes: { project: projectTrusted, user: true }, report });
		return discoverForRun({ cwd, extensionPaths: args.extensions, noExtensions: args.noExtensions }, projectTrusted).entries;
	};
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
