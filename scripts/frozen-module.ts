// Freezing a module of plain data (TypeBox schemas, strings, numbers) into JavaScript that rebuilds the
// same values without running the module: scripts/build.ts serves the frozen source in place of the
// schema modules, so the binary evaluates object literals instead of typebox's builders (~5 ms of a
// `-p` run, measured). TypeBox's hidden `~` markers (`~kind`, `~optional`: own, non-enumerable) are
// defined hidden again, and objects the exports share stay shared.

/** Modules the build freezes: every export is plain data, built once at import. */
export const FROZEN_MODULES = /[\\/]src[\\/](core[\\/](tools[\\/]params|providers[\\/]provider-config)|modes[\\/]interactive[\\/]theme[\\/]dark-codes)\.ts$/;

const HIDE = "h";
const HELPER = `function ${HIDE}(o, ...kv) { for (let i = 0; i < kv.length; i += 2) Object.defineProperty(o, kv[i], { value: kv[i + 1], writable: true, configurable: true }); return o; }`;

/** Source of an ES module whose exports equal `exports` (a module namespace or plain record); throws on what it cannot rebuild. */
export function frozenModuleSource(exports: Record<string, unknown>, label: string): string {
	const uses = new Map<object, number>();
	const count = (value: unknown) => {
		if (value === null || typeof value !== "object") return;
		const n = (uses.get(value) ?? 0) + 1;
		uses.set(value, n);
		if (n === 1) for (const key of Object.getOwnPropertyNames(value)) count((value as Record<string, unknown>)[key]);
	};
	for (const name of Object.keys(exports)) count(exports[name]);

	const shared = new Map<object, string>();
	const prelude: string[] = [];
	const expr = (value: unknown, at: string): string => {
		if (value === null || typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
		if (typeof value === "number" && Number.isFinite(value)) return String(value);
		if (typeof value !== "object") throw new Error(`frozen module ${label}: ${at} (${typeof value}) is not plain data`);
		const known = shared.get(value);
		if (known) return known;
		const source = Array.isArray(value) ? `[${value.map((v, i) => expr(v, `${at}[${i}]`)).join(", ")}]` : objectExpr(value, at);
		if ((uses.get(value) ?? 0) < 2) return source;
		const id = `s${shared.size}`;
		shared.set(value, id);
		prelude.push(`const ${id} = ${source};`);
		return id;
	};
	const objectExpr = (value: object, at: string): string => {
		if (Object.getPrototypeOf(value) !== Object.prototype || Object.getOwnPropertySymbols(value).length > 0) {
			throw new Error(`frozen module ${label}: ${at} is not a plain object`);
		}
		const visible: string[] = [];
		const hidden: string[] = [];
		for (const key of Object.getOwnPropertyNames(value)) {
			const d = Object.getOwnPropertyDescriptor(value, key)!;
			if (!("value" in d)) throw new Error(`frozen module ${label}: ${at}.${key} is an accessor`);
			const isHidden = !d.enumerable;
			if (isHidden !== key.startsWith("~")) throw new Error(`frozen module ${label}: ${at}.${key} is ${isHidden ? "hidden" : "visible"}; only "~" keys may be hidden`);
			// Hidden keys are defined after the literal: one before a visible key would change the key order.
			if (!isHidden && hidden.length > 0) throw new Error(`frozen module ${label}: ${at}.${key} comes after a hidden key`);
			const v = expr(d.value, `${at}.${key}`);
			if (isHidden) hidden.push(`${JSON.stringify(key)}, ${v}`);
			else visible.push(`${JSON.stringify(key)}: ${v}`);
		}
		const literal = `{ ${visible.join(", ")} }`;
		return hidden.length > 0 ? `/* @__PURE__ */ ${HIDE}(${literal}, ${hidden.join(", ")})` : literal;
	};

	const body = Object.keys(exports).map((name) => `export const ${name} = ${expr(exports[name], name)};`);
	return [`// Frozen by scripts/frozen-module.ts from ${label}.`, HELPER, ...prelude, ...body, ""].join("\n");
}
