// The error a function throws, for asserting on its fields (message, hints); fails when nothing is thrown.
export function errorOf(fn: () => unknown): any {
	try {
		fn();
	} catch (error) {
		return error;
	}
	throw new Error("expected a throw");
}
