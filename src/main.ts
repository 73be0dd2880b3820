// Start-up: flags → settings → resources and extensions → session → mode. Only this path
// decides the exit code; everything below returns or throws.
import { parseArgs, type Args } from "./cli/args.ts";
import { UserError } from "./core/errors.ts";
import { VERSION } from "./config.ts";
import { mark, printTiming } from "./core/timing.ts";
import { writeStderr, writeStdout } from "./stdio.ts";
import { fstatSync, statSync } from "node:fs";
import type { SessionChoice } from "./core/sdk.ts";

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
	if (args.version) return printVersion();
	if (args.help) return printHelp();
	try {
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

async function printHelp(): Promise<number> {
	const { helpText } = await import("./cli/help.ts");
	writeStdout(helpText());
	return 0;
}

async function run(args: Args): Promise<number> {
	if (args.command) throw new UserError(`"agent ${args.command.name}" is not implemented yet.`);
	if (args.export) throw new UserError("--export is not implemented yet.");
	if (args.unknownFlags.length > 0) {
		// No extension can have registered these yet: report them the way the second pass would.
		const { resolveExtensionFlags } = await import("./cli/args.ts");
		resolveExtensionFlags(args, new Map());
	}
	const cwd = process.cwd();
	const { ModelRegistry } = await import("./core/providers/registry.ts");
	mark("import registry");
	const registry = ModelRegistry.create();
	mark("model registry");
	if (args.listModels !== undefined) {
		writeStdout(registry.listModels(args.listModels || undefined));
		return 0;
	}
	const mode = await runMode(args);
	if (args.resume && mode !== "interactive") {
		const { listSessionsText } = await import("./cli/session-list-text.ts");
		writeStdout(await listSessionsText(cwd, args.sessionDir));
		return 0;
	}
	if (mode === "interactive") throw new UserError("Interactive mode is not implemented yet; use -p for now.");
	if (mode === "rpc") throw new UserError("--mode rpc is not implemented yet.");

	const { readFileArgs, readPipedStdin } = await import("./cli/prompt-input.ts");
	const files = readFileArgs(args.fileArgs, cwd);
	const stdin = (await stdinIsTerminal()) ? undefined : await readPipedStdin();
	// A trailing newline from `echo` or a file says nothing; it would only pad the prompt.
	const first = [files.text, stdin?.trimEnd(), args.messages[0]].filter((p) => p !== undefined && p !== "").join("\n\n");
	const prompts = [first, ...args.messages.slice(1)].filter((p) => p !== "");
	mark("read prompt");
	if (prompts.length === 0) throw new UserError("No prompt given.", [`Pass one: agent -p "what to do", or pipe text on stdin.`]);

	const { createAgentSession } = await import("./core/sdk.ts");
	mark("import sdk");
	const { session, warnings } = await createAgentSession({
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
		session: sessionChoice(args),
		sessionDir: args.sessionDir,
	});
	for (const w of warnings) writeStderr(`Warning: ${w}\n`);
	session.session.setWriteErrorHandler((error) => writeStderr(`Warning: ${error.message}\n`));
	mark("create session");
	const { runPrintMode } = await import("./modes/print.ts");
	const header = session.session.getHeader();
	return runPrintMode(session, {
		mode: mode === "json" ? "json" : "text",
		prompts,
		images: files.images,
		header: { id: header.id, timestamp: header.timestamp, cwd: header.cwd },
	});
}

type RunMode = "interactive" | "print" | "json" | "rpc";

/** SPEC §10: rpc and json by flag; print with -p or piped stdin; interactive otherwise. */
async function runMode(args: Args): Promise<RunMode> {
	if (args.mode === "rpc") return "rpc";
	if (args.mode === "json") return "json";
	if (args.print || args.mode === "text" || !(await stdinIsTerminal())) return "print";
	return "interactive";
}

/**
 * Whether stdin is a terminal. fstat settles pipes, files and /dev/null; only another character
 * device needs node:tty, whose import costs ~5 ms in the binary (measured), so it stays lazy.
 */
async function stdinIsTerminal(): Promise<boolean> {
	try {
		const stdin = fstatSync(0);
		if (!stdin.isCharacterDevice()) return false;
		if (stdin.rdev === statSync("/dev/null").rdev) return false;
	} catch {
		// No fd 0, or no /dev/null (Windows): let isatty decide.
	}
	const { isatty } = await import("node:tty");
	return isatty(0);
}

function sessionChoice(args: Args): SessionChoice {
	if (args.noSession) return { kind: "memory" };
	if (args.continue) return { kind: "continue" };
	if (args.session) return { kind: "open", target: args.session };
	if (args.fork) return { kind: "fork", target: args.fork };
	return { kind: "new" };
}
