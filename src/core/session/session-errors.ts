// Errors the session store raises. Each is written for the user (a UserError) and carries the file.
import { UserError } from "../errors.ts";

/** A session file that cannot be read or is not a session. */
export class SessionFileError extends UserError {
	constructor(
		message: string,
		readonly path: string,
		hints: string[] = [],
	) {
		super(message, hints);
		this.name = "SessionFileError";
	}
}

/** An append that did not reach the disk. The entry stays in memory and is retried with the next one. */
export class SessionWriteError extends UserError {
	constructor(
		readonly path: string,
		override readonly cause: unknown,
		/** Entries (the header counts as one) held in memory, not yet on disk. */
		readonly unsaved: number,
	) {
		const reason = cause instanceof Error ? cause.message : String(cause);
		super(
			`Could not save the session to ${path}: ${reason}. What was already saved is unchanged; ` +
				`the conversation continues in memory and ${unsaved} unsaved ${unsaved === 1 ? "entry" : "entries"} will be written with the next one.`,
			["Free disk space or fix the permissions of the session directory."],
		);
		this.name = "SessionWriteError";
	}
}

/** `--session`/`--fork` with an id prefix that matches no session, or several. */
export class SessionLookupError extends UserError {
	constructor(
		message: string,
		readonly arg: string,
		/** Matching session files, when the prefix was ambiguous. */
		readonly candidates: string[],
		hints: string[] = [],
	) {
		super(message, hints);
		this.name = "SessionLookupError";
	}
}
