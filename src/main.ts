// Start-up: flags → settings → resources and extensions → session → mode. Only this path
// decides the exit code; everything below returns or throws.
import { ArgsError, parseArgs, type Args } from "./cli/args.ts";
import { UserError } from "./core/errors.ts";
import { VERSION } from "./config.ts";
import { mark, printTiming } from "./core/timing.ts";
import { writeStderr, writeStdout } from "./stdio.ts";

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
	if (args.help) return printHelp(args);
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

async function printHelp(args?: Args): Promise<number> {
	const { helpText } = await import("./cli/help.ts");
	// Extension flags: loads extensions only when some exist on disk; never fails.
	const { flags, notes } = args && !args.command ? await (await import("./cli/extensions-startup.ts")).helpExtensionFlags(args) : { flags: [], notes: [] };
	writeStdout(helpText(flags) + notes.map((n) => `\n${n}\n`).join(""));
	return 0;
}

async function run(args: Args): Promise<number> {
	if (args.command?.name === "list") return (await import("./cli/list-command.ts")).runListCommand(args, args.command.json);
	if (args.command?.name === "trust") return (await import("./cli/trust-command.ts")).runTrustCommand(args.command.dir, args.command.revoke);
	// Trust, extension loading (exit 1 on a load failure), extension flags, the --verbose list.
	await (await import("./cli/extensions-startup.ts")).startExtensions(args);
	throw new UserError("Running a session is not implemented yet.");
}

export { ArgsError };
