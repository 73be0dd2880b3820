// Turns errors that reach the top into the lines a user sees and the exit code. Imported only
// when there is an error: picocolors probes the terminal on import, which costs start-up time.
import pc from "picocolors";
import { ArgsError } from "./args.ts";
import { UserError, withoutSourceExcerpt } from "../core/errors.ts";

export function formatError(error: unknown): string {
	if (error instanceof ArgsError) return `${pc.red(`Error: ${error.message}`)}`;
	// Hint lines that are errors themselves (one per failed extension) are red too.
	if (error instanceof UserError) return [pc.red(`Error: ${error.message}`), ...error.hints.map((h) => (h.startsWith("Error: ") ? pc.red(h) : h))].join("\n");
	// A file or folder the system refused (EACCES on a config, ENOSPC, EISDIR): say which, no stack.
	const sys = error as NodeJS.ErrnoException;
	if (typeof sys?.code === "string" && /^E[A-Z0-9]+$/.test(sys.code) && typeof sys.path === "string") {
		const reason = (sys.message ?? "").replace(new RegExp(`^${sys.code}:\\s*`), "").replace(/,\s*\w+\s+'.*'$/, "");
		return pc.red(`Error: Cannot use ${sys.path}: ${reason || sys.code} (${sys.code})`);
	}
	const err = error instanceof Error ? error : new Error(String(error));
	return `${pc.red(`Internal error: ${withoutSourceExcerpt(err.message)}`)}\n${pc.dim(err.stack ?? "")}`;
}

export function exitCodeFor(error: unknown): number {
	return error instanceof UserError ? error.exitCode : 1;
}
