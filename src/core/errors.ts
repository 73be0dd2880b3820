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

/**
 * Bun quotes the minified source of the expression that failed in a TypeError ("x.map is not a
 * function. (In 'l.map(…)', 'l.map' is undefined)", "… (evaluating 'l.x')"); users get the first part only.
 */
export function withoutSourceExcerpt(message: string): string {
	return message.replace(/\.? \(In '[\s\S]*\)$/, "").replace(/ \(evaluating '[\s\S]*'\)$/, "");
}
