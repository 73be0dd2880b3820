// Start-up: flags → settings → resources and extensions → session → mode. Only this path
// decides the exit code; everything below returns or throws.
import { parseArgs, SUBCOMMAND_USAGE, type Args } from "./cli/args.ts";
import { UserError } from "./core/errors.ts";
import { VERSION } from "./config.ts";
import { installExitGuard } from "./core/exit-guard.ts";
import { endStartup } from "./core/jit-policy.ts";
import { mark, printTiming } from "./core/timing.ts";
import { routeStdoutToStderr, writeStderr, writeStdout } from "./stdio.ts";
import { isTerminal, runMode, tuiFallbackReason } from "./cli/terminal.ts";
import type { CreateAgentSessionOptions, SessionChoice } from "./core/sdk.ts";
import type { StartedExtensions } from "./cli/extensions-startup.ts";
import type { ModelRegistry } from "./core/providers/registry.ts";
import type { SessionInUseError } from "./core/session/session-errors.ts";

export async function main(argv: string[]): Promise<number> {
	let args: Args;
	try {
		args = parseArgs(argv);
	} catch (error) {
		// --help and --version answer even when other words are off.
		if (argv.includes("--version") || argv.includes("-v")) return printVersion();
		if (argv.includes("--help") || argv.includes("-h")) return printHelp();
		return reportError(error);
	}
	mark("parse args");
	// Before any extension or settings file is read: stdout belongs to the answer or the protocol.
	if (args.command?.name === "list" || args.help || (!args.command && !args.version && runMode(args) !== "tui")) routeStdoutToStderr();
	// isTerminal loads node:tty (and node:stream under it) unless flags settle the mode: a row of its own.
	mark("terminal check");
	// An extension's process.exit() is a load failure or an orderly shutdown, never a silent exit.
	installExitGuard();
	try {
		if (args.version) return printVersion();
		if (args.help) return await printHelp(args);
		return await run(args);
	} catch (error) {
		return reportError(error);
	} finally {
		printTiming();
	}
}

async function reportError(error: unknown): Promise<number> {
	const { formatError, exitCodeFor } = await import("./cli/format-error.ts");
	writeStderr(`${formatError(error)}\n`);
	return exitCodeFor(error);
}

function printVersion(): number {
	writeStdout(`${VERSION}\n`);
	return 0;
}

async function printHelp(args?: Args): Promise<number> {
	const usage = args?.command ? SUBCOMMAND_USAGE[args.command.name] : undefined;
	if (usage) {
		writeStdout(`Usage: ${usage}\n`);
		return 0;
	}
	const { helpText } = await import("./cli/help.ts");
	// Extension flags: loads extensions only when some exist on disk; never fails.
	const { flags, notes } = args && !args.command ? await (await import("./cli/extensions-startup.ts")).helpExtensionFlags(args) : { flags: [], notes: [] };
	writeStdout(helpText(flags) + notes.map((n) => `\n${n}\n`).join(""));
	return 0;
}

async function run(args: Args): Promise<number> {
	if (args.command?.name === "list") return (await import("./cli/list-command.ts")).runListCommand(args, args.command.json);
	if (args.command?.name === "trust") return (await import("./cli/trust-command.ts")).runTrustCommand(args.command.dir, args.command.revoke);
	if (args.command?.name === "mcp") return (await import("./cli/mcp-command.ts")).runMcpCommand(args.command.argv);
	if (args.command?.name === "install") return (await import("./cli/package-commands.ts")).runInstallCommand(args.command.source, args.command.local, { allowScripts: args.command.allowScripts, offline: args.offline });
	if (args.command?.name === "remove") return (await import("./cli/package-commands.ts")).runRemoveCommand(args.command.source, args.command.local);
	if (args.command?.name === "update") return (await import("./cli/package-commands.ts")).runUpdateCommand(args.command.source, { allowScripts: args.command.allowScripts, offline: args.offline });
	if (args.command?.name === "types") return (await import("./cli/authoring-commands.ts")).runTypesCommand(args.command.dir, args.command.print);
	if (args.command?.name === "new") return (await import("./cli/authoring-commands.ts")).runNewExtensionCommand(args.command.target);
	if (args.export) return exportCommand(args.export, args.messages[0], args.sessionDir);
	const cwd = process.cwd();
	// Trust, extension loading (exit 1 on a load failure), extension flags, the --verbose list.
	const modules = await import("./cli/run-modules.ts");
	const { startExtensions, ModelRegistry } = modules;
	mark("import start-up, registry, session");
	const started = await startExtensions(args, cwd);
	const registry = ModelRegistry.create();
	mark("model registry");
	if (args.listModels !== undefined) {
		// Providers and virtual models extensions register are listed too (as pi 1.6 does).
		if (started.loaded) (await import("./core/sdk.ts")).applyQueuedProviders(registry, started.loaded);
		writeStdout(registry.listModels(args.listModels || undefined));
		return 0;
	}
	const mode = runMode(args);
	// Someone typed `agent` at a terminal that cannot show the TUI: say once why this is print mode.
	if (mode === "print" && !args.print && !args.mode && isTerminal(0)) writeStderr(`Note: ${tuiFallbackReason()}: running in print mode.\n`);
	if (args.resume && mode !== "tui") {
		const { listSessionsText } = await import("./cli/session-list-text.ts");
		writeStdout(await listSessionsText(cwd, args.sessionDir));
		return 0;
	}
	if (mode === "rpc") {
		// A long-lived process from here on: the normal JIT policy (core/jit-policy.ts).
		endStartup();
		return (await import("./modes/rpc/index.ts")).runRpcMode(sessionOptions(args, started, registry, cwd));
	}

	const { readFileArgs, readPipedStdin } = modules;
	const files = readFileArgs(args.fileArgs, cwd);
	const stdin = mode === "tui" || isTerminal(0) ? undefined : await readPipedStdin();
	// A trailing newline from `echo` or a file says nothing; it would only pad the prompt.
	const first = [files.text, stdin?.trimEnd(), args.messages[0]].filter((p) => p !== undefined && p !== "").join("\n\n");
	const prompts = [first, ...args.messages.slice(1)].filter((p) => p !== "");
	mark("read prompt");
	if (mode === "tui") {
		const { runInteractiveMode } = await import("./modes/interactive/index.ts");
		mark("import interactive");
		// A session another agent is writing: ask whether to continue in a copy.
		const onSessionInUse = async (error: SessionInUseError) => (await import("./cli/session-in-use-prompt.ts")).promptSessionInUse(error);
		const session = { ...sessionOptions(args, started, registry, cwd), onSessionInUse: isTerminal(0) && isTerminal(1) ? onSessionInUse : undefined };
		return runInteractiveMode({ session, issues: started.issues, verbose: args.verbose, resume: args.resume, prompts, images: files.images });
	}
	if (prompts.length === 0) throw new UserError("No prompt given.", [`Pass one: agent -p "what to do", or pipe text on stdin.`]);

	const { createAgentSession, createStderrUI } = modules;
	// json mode streams from the moment the session exists: the header, then what session_start handlers emit.
	const { attachJsonStream } = mode === "json" ? await import("./modes/json.ts") : { attachJsonStream: undefined };
	let detachJson: (() => void) | undefined;
	const { session, host, warnings, resources, modelError } = await createAgentSession({
		...sessionOptions(args, started, registry, cwd),
		// A run of extension commands needs no model; a prompt for the model reports modelError.
		allowNoModel: !args.model && !args.provider,
		ui: createStderrUI(writeStderr),
		onExtensionError: (r) => writeStderr(`Extension error (${r.extensionPath}): ${r.error}\n`),
		onSessionCreated: attachJsonStream ? (s) => (detachJson = attachJsonStream(s, writeStderr)) : undefined,
	});
	// The first prompt goes to the model in a few ms: its connection opens now, in the background.
	if (session.model) registry.preconnect(session.model);
	for (const w of warnings) if (w !== modelError?.message) writeStderr(`Warning: ${w}\n`);
	if (args.verbose) {
		const { resourceSections, resourceConflictSections, sectionLines } = await import("./modes/interactive/resource-sections.ts");
		const lines = sectionLines([...resourceSections(resources, true), ...resourceConflictSections(resources)]);
		if (lines.length > 0) writeStderr(`${lines.slice(1).join("\n")}\n\n`);
	}
	if (!detachJson) session.setWriteErrorHandler((error) => writeStderr(`Warning: ${error.message}\n`));
	// Session lines found damaged when their message is first read (the context of the first prompt).
	session.setLoadWarningHandler((w) => writeStderr(`Warning: ${w.message}\n`));
	mark("create session");
	const { runPrintMode } = modules;
	return runPrintMode(session, host, { mode: mode === "json" ? "json" : "text", prompts, images: files.images, detach: detachJson, modelError });
}

/** `agent --export <session> [output.html]`: the session file (or id prefix) as an HTML page; prints where it went. */
async function exportCommand(target: string, output: string | undefined, sessionDir: string | undefined): Promise<number> {
	const cwd = process.cwd();
	const [{ existsSync }, { resolveSessionArg }, { SessionManager }, { exportSessionToHtml }] = await Promise.all([
		import("node:fs"),
		import("./core/session/session-list.ts"),
		import("./core/session/session-manager.ts"),
		import("./core/export/session-html.ts"),
	]);
	const path = existsSync(target) ? target : (await resolveSessionArg(target, cwd, { sessionDir })).path;
	const session = SessionManager.open(path);
	if (session.getEntries().length === 0) throw new UserError(`${path} has no entries to export.`, ["Pass a session file written by agent (or pi), or a session id prefix."]);
	for (const w of session.getWarnings()) writeStderr(`Warning: ${w.message}\n`);
	// The page reads the branch's messages: a damaged line found then is reported the same way.
	session.setWarningHandler((w) => writeStderr(`Warning: ${w.message}\n`));
	writeStdout(`${exportSessionToHtml(session, output, cwd)}\n`);
	return 0;
}

/** What the flags ask of the session; each mode adds its UI, error sink and shutdown. */
function sessionOptions(args: Args, started: StartedExtensions, registry: ModelRegistry, cwd: string): CreateAgentSessionOptions {
	return {
		cwd,
		registry,
		model: args.model,
		provider: args.provider,
		apiKey: args.apiKey,
		thinkingLevel: args.thinking,
		tools: args.tools,
		noTools: args.noTools,
		noBuiltinTools: args.noBuiltinTools,
		systemPrompt: args.systemPrompt,
		appendSystemPrompt: args.appendSystemPrompt,
		noContextFiles: args.noContextFiles,
		skills: args.skills,
		noSkills: args.noSkills,
		promptTemplates: args.promptTemplates,
		noPromptTemplates: args.noPromptTemplates,
		noMcp: args.noMcp,
		packageSources: args.extensions,
		session: sessionChoice(args),
		sessionDir: args.sessionDir,
		scopedModels: args.models,
		extensions: { loaded: started.loaded, entries: started.discovery.entries, discover: started.discover, flagValues: started.flagValues, projectTrusted: started.projectTrusted },
		mode: started.mode,
	};
}

function sessionChoice(args: Args): SessionChoice {
	if (args.noSession) return { kind: "memory" };
	if (args.continue) return { kind: "continue" };
	if (args.session) return { kind: "open", target: args.session };
	if (args.fork) return { kind: "fork", target: args.fork };
	return { kind: "new" };
}
