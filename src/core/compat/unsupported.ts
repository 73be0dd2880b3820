// Values pi 1.6 exports that the agent cannot honour: they exist (an extension that imports one
// loads) and throw `not supported by agent: <name>` when used — called, constructed, or asked
// for a member (a static method of an unsupported class).

export class NotSupportedError extends Error {
	constructor(readonly what: string) {
		super(`not supported by agent: ${what}`);
		this.name = "NotSupportedError";
	}
}

/** Members a caller may read without using the value (printing it, `typeof`, awaiting a module). */
const INSPECTED = new Set<PropertyKey>(["name", "length", "prototype", "toString", "then", "constructor", "call", "apply", "bind"]);

/** A function (or class) named `name` that throws NotSupportedError when called, constructed or used. */
export function unsupported<T = any>(name: string): T {
	const fail = function (): never {
		throw new NotSupportedError(name);
	};
	Object.defineProperty(fail, "name", { value: name });
	return new Proxy(fail, {
		get(target, key, receiver) {
			if (typeof key === "symbol" || INSPECTED.has(key)) return Reflect.get(target, key, receiver);
			return unsupported(`${name}.${key}`);
		},
	}) as T;
}

/** A table of unsupported values, one per name. */
export function unsupportedAll<K extends string>(names: readonly K[]): Record<K, any> {
	return Object.fromEntries(names.map((n) => [n, unsupported(n)])) as Record<K, any>;
}
