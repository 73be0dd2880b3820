// Turns errors that reach the top into the one line a user sees. Known errors carry their own
// wording; anything else is an internal error and says so.
import pc from "picocolors";
import { ArgsError } from "./args.ts";

/** Errors whose message is already written for the user. */
export class UserError extends Error {
	constructor(
		message: string,
		/** Extra lines printed after the error (hints, usage). */
		readonly hints: string[] = [],
		/** Exit code the entry path should use. */
		readonly exitCode = 1,
	) {
		super(message);
		this.name = "UserError";
	}
}

export function formatError(error: unknown): string {
	if (error instanceof ArgsError) return `${pc.red(`Error: ${error.message}`)}`;
	if (error instanceof UserError) return [pc.red(`Error: ${error.message}`), ...error.hints].join("\n");
	const err = error instanceof Error ? error : new Error(String(error));
	return `${pc.red(`Internal error: ${err.message}`)}\n${pc.dim(err.stack ?? "")}`;
}
