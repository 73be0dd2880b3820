// A build transform (typebox-build-plugin.ts): typebox's `Type` (index.mjs's `export * as Type from
// './typebox.mjs'`) as one object literal of typebox.mjs's exports instead of a namespace. Bun's bundler
// makes a namespace an object of getters (a closure, a bound setter and a defineProperty per export),
// made when an extension first imports typebox; one literal is ~0.28M fewer instructions (callgrind).
// The same object everywhere, the same keys in the same (sorted) order and values; its properties are
// data properties rather than the bundler's accessors (writable, as the accessors' setters were).
const NAMESPACE = "export * as Type from './typebox.mjs';\nimport * as Type from './typebox.mjs';\nexport default Type;";

/** index.mjs with `Type` (and the default export) as an object literal of `names`, typebox.mjs's exports; throws when index.mjs is not the one this was written for. */
export function typeboxTypeObject(source: string, names: string[], file: string): string {
	if (source.split(NAMESPACE).length !== 2 || names.length === 0) throw new Error(`${file}: typebox's index.mjs changed; update scripts/typebox-type-object.ts`);
	const sorted = [...names].sort();
	const imports = sorted.map((name, i) => `${name} as Type$${i}`).join(", ");
	const members = sorted.map((name, i) => `${name}: Type$${i}`).join(", ");
	return source.replace(NAMESPACE, `import { ${imports} } from './typebox.mjs';\nconst Type = { ${members} };\nexport { Type, Type as default };`);
}

/** The module the transform applies to, and the one whose exports make `Type`. */
export const TYPEBOX_INDEX_MODULE = /[\\/]typebox[\\/]build[\\/]index\.mjs$/;
export const TYPEBOX_TYPE_MODULE = "typebox.mjs";
