// Errors whose message is already written for the user; the entry path prints them as they are.

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
