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
	if (args.unknownFlags.length > 0) {
		// No extension can have registered these yet: report them the way the second pass would.
		const { resolveExtensionFlags } = await import("./cli/args.ts");
		resolveExtensionFlags(args, new Map());
	}
	throw new UserError("Running a session is not implemented yet.");
}

export { ArgsError };
