// TypeBox schemas without typebox on the start path: `schemaSnapshot` is a Bun macro that builds a
// schema when Bun transpiles the importing file (bundle time for the binary, load time from source)
// and inlines it as JSON; `thawSchema` turns that JSON back into the object Type.* would have built.
//   export const ReadParams = thawSchema<typeof Schemas.ReadParams>(schemaSnapshot("tools/params.ts", "ReadParams"));

/**
 * Macro (`import { schemaSnapshot } from "../schema-snapshot.ts" with { type: "macro" }`): export
 * `name` of `module` (a path relative to src/core) as JSON, TypeBox's hidden `~` markers (`~kind`,
 * `~optional`, …: own, non-enumerable) written as ordinary keys. Throws on anything JSON cannot carry.
 * Synchronous (import.meta.require: macros have no require), so its call reads as the string it becomes.
 */
export function schemaSnapshot(module: string, name: string): string {
	const exports = import.meta.require(new URL(module, import.meta.url).pathname) as Record<string, unknown>;
	if (!(name in exports)) throw new Error(`schemaSnapshot: ${module} exports no ${name}`);
	return JSON.stringify(snapshotValue(exports[name], `${module}#${name}`));
}

function snapshotValue(value: unknown, at: string): unknown {
	if (value === null || typeof value === "string" || typeof value === "boolean") return value;
	if (typeof value === "number" && Number.isFinite(value)) return value;
	if (Array.isArray(value)) return value.map((v, i) => snapshotValue(v, `${at}[${i}]`));
	if (typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype || Object.getOwnPropertySymbols(value).length > 0) {
		throw new Error(`schemaSnapshot: ${at} is not plain JSON data (${String(value)})`);
	}
	const out: Record<string, unknown> = {};
	for (const key of Object.getOwnPropertyNames(value)) {
		const hidden = !Object.getOwnPropertyDescriptor(value, key)!.enumerable;
		// thawSchema hides exactly the `~` keys again: anything else hidden would come back visible.
		if (hidden !== key.startsWith("~")) throw new Error(`schemaSnapshot: ${at}.${key} is ${hidden ? "hidden" : "visible"}; only "~" keys may be hidden`);
		out[key] = snapshotValue((value as Record<string, unknown>)[key], `${at}.${key}`);
	}
	return out;
}

/** The schema a snapshot was taken of: the same keys, `~` keys non-enumerable as TypeBox defines them. */
export function thawSchema<T>(snapshot: string): T {
	return thaw(JSON.parse(snapshot)) as T;
}

function thaw(value: unknown): unknown {
	if (Array.isArray(value)) {
		for (let i = 0; i < value.length; i++) value[i] = thaw(value[i]);
		return value;
	}
	if (value === null || typeof value !== "object") return value;
	const record = value as Record<string, unknown>;
	for (const key of Object.keys(record)) {
		const v = thaw(record[key]);
		if (key.startsWith("~")) Object.defineProperty(record, key, { value: v, enumerable: false, writable: true, configurable: true });
		else record[key] = v;
	}
	return record;
}
