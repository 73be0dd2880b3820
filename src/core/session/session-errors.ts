// Errors the session store raises. Each is written for the user (a UserError) and carries the file.
import { UserError } from "../errors.ts";
import { systemReason } from "../file-reader.ts";

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

/** Appends that did not reach the disk. The entries stay in memory and are retried with the next one. */
export class SessionWriteError extends UserError {
	constructor(
		readonly path: string,
		override readonly cause: unknown,
		/** Entries (the header counts as one) held in memory, not yet on disk. */
		readonly unsaved: number,
	) {
		super(
			`Could not save the session to ${path}: ${systemReason(cause)}. What was already saved is unchanged; ` +
				`the run goes on, and what is not saved yet (${unsaved} ${unsaved === 1 ? "entry" : "entries"} so far) is written as soon as saving works again.`,
			["Free disk space or fix the permissions of the session file and its folder."],
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
