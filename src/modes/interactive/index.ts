// Interactive mode: print the start-up list, create the session with this mode's UI (it starts
// without a model, saying how to configure one), then hand the terminal to the REPL until it exits.
import { resolve } from "node:path";
import { format } from "node:util";
import pc from "picocolors";
import { createAgentSession, type CreateAgentSessionOptions } from "../../core/sdk.ts";
import { noModelMessage } from "../../core/providers/model-resolver.ts";
import type { ExtensionErrorReport } from "../../core/extensions/runner.ts";
import type { ImageContent } from "../../core/providers/types.ts";
import { projectSettingsPath, readSettingsFile, userSettingsPath } from "../../core/resources/settings.ts";
import { mark } from "../../core/timing.ts";
import { builtinNames } from "./commands.ts";
import { Keymap } from "./keymap.ts";
import { Repl } from "./repl.ts";
import { startupIssues, startupLines } from "./startup.ts";
import type { StartupIssue } from "./startup-list.ts";
import { Terminal } from "./terminal.ts";
import { createInteractiveUI } from "./ui-context.ts";

export interface InteractiveModeOptions {
	/** What createAgentSession needs, except what this mode supplies (mode, ui, error sink, shutdown). */
	session: CreateAgentSessionOptions;
	/** Issues found while loading extensions (discovery warnings, duplicate commands). */
	issues?: StartupIssue[];
	/** `--verbose`: the start-up list starts expanded and is shown even with quietStartup. */
	verbose?: boolean;
	/** Messages from the command line (the first with @file text), sent once the prompt is ready. */
	prompts?: string[];
	/** Images from @file arguments, attached to the first prompt. */
	images?: ImageContent[];
	/** `--resume`: pick a session first. */
	resume?: boolean;
}

/** `quietStartup` from settings (project over user); unreadable settings count as not quiet. */
function quietStartup(cwd: string, projectTrusted: boolean): boolean {
	try {
		const user = readSettingsFile(userSettingsPath())?.data.quietStartup;
		const project = projectTrusted ? readSettingsFile(projectSettingsPath(cwd))?.data.quietStartup : undefined;
		return (project ?? user) === true;
	} catch {
		return false;
	}
}

function reportExtensionError(repl: Repl, report: ExtensionErrorReport): void {
	if (report.event === "load") {
		repl.renderer.block([pc.red(` Error: ${report.error}`)]);
		return;
	}
	const stack = (report.stack ?? "").split("\n").slice(1, 4).map((l) => pc.dim(`   ${l.trim()}`));
	repl.renderer.block([pc.red(` Extension "${report.extensionPath}" error: ${report.error}`), ...stack]);
}

/** Extensions print with console.*: their lines go above the live region instead of through it. */
function redirectConsole(repl: Repl): () => void {
	const saved = { log: console.log, info: console.info, warn: console.warn, error: console.error, debug: console.debug };
	const print = (...args: unknown[]) => repl.print(format(...args).split("\n"));
	Object.assign(console, { log: print, info: print, warn: print, error: print, debug: print });
	return () => Object.assign(console, saved);
}

export async function runInteractiveMode(options: InteractiveModeOptions): Promise<number> {
	const cwd = resolve(options.session.cwd ?? process.cwd());
	const extensions = options.session.extensions?.loaded?.extensions ?? [];
	const issues = options.issues ?? [];
	const terminal = new Terminal();
	const repl = new Repl({ terminal, cwd, expanded: options.verbose ?? false, startupIssues: issues, extensions });

	// The list comes first; what session_start handlers print waits until it is out.
	terminal.hold();
	const { session, host, registry, warnings, resources } = await createAgentSession({
		...options.session,
		cwd,
		mode: "tui",
		ui: createInteractiveUI(repl),
		hasUI: true,
		allowNoModel: true,
		onExtensionError: (report) => reportExtensionError(repl, report),
		onShutdown: () => repl.requestShutdown(),
	});
	repl.host = host;
	mark("create session");
	const quiet = !options.verbose && quietStartup(cwd, options.session.extensions?.projectTrusted ?? false);
	terminal.release(startupLines({ extensions, issues: startupIssues(extensions, issues, builtinNames), resources, expanded: repl.expanded, quiet }));
	session.session.setWriteErrorHandler((error) => repl.warn(error.message));
	// Without a model it still starts; the warning says how to configure one.
	const [noModel, ...howTo] = noModelMessage(registry).split("\n");
	for (const w of warnings) {
		repl.warn(w);
		if (!session.model && w === noModel) terminal.print(howTo.map((l) => pc.dim(` ${l}`)));
	}
	if (!session.model && !warnings.includes(noModel!)) terminal.print([pc.dim(" Pick a model with /model.")]);
	session.subscribe((event) => repl.renderer.handle(event));

	const keymap = new Keymap(repl);
	const restoreConsole = redirectConsole(repl);
	// Raw mode turns ctrl+c into a key; these come from outside. Each leaves the terminal as it was.
	const onInt = () => void repl.exit(130);
	const onTerm = () => void repl.exit(143);
	// A closed terminal: say goodbye to extensions, write nothing more.
	const onHup = () => {
		terminal.hangUp();
		void repl.exit(129);
	};
	const onEnd = () => {
		terminal.hangUp();
		void repl.exit(0);
	};
	process.on("SIGINT", onInt);
	process.on("SIGTERM", onTerm);
	process.on("SIGHUP", onHup);
	process.stdin.on("end", onEnd);
	terminal.start((data) => keymap.handle(data));
	terminal.redraw();
	mark("interactive ready");

	const [first, ...rest] = options.prompts ?? [];
	void (async () => {
		if (options.resume) await repl.submit("/resume");
		if (first) await repl.submit(first, "steer", options.images);
		for (const p of rest) await repl.submit(p);
	})();
	try {
		return await repl.done;
	} finally {
		restoreConsole();
		process.off("SIGINT", onInt);
		process.off("SIGTERM", onTerm);
		process.off("SIGHUP", onHup);
		process.stdin.off("end", onEnd);
	}
}
