// typebox's modules as the binary bundles them: the transforms that cut what an extension's first
// `import … from "typebox"` costs (typebox-char-literals.ts, typebox-type-object.ts,
// typebox-parser-functions.ts), and its guard modules kept in the chunk of the type builders that import them.
// The host and extensions share this one instance.
import type { BunPlugin } from "bun";
import { dirname, join } from "node:path";
import { TYPEBOX_CHAR_MODULE, typeboxCharLiterals } from "./typebox-char-literals.ts";
import { TYPEBOX_PARSER_MODULE, typeboxParserFunctions } from "./typebox-parser-functions.ts";
import { TYPEBOX_INDEX_MODULE, TYPEBOX_TYPE_MODULE, typeboxTypeObject } from "./typebox-type-object.ts";

/**
 * The binary never runs config-checks.ts's `require("typebox/guard")` (it serves the checks the build
 * generated; the require is for runs from source), but bundled it would be an entry of its own, and
 * Bun's splitting would then give the guard modules a chunk apart from the type builders: a third
 * chunk for every first import of typebox (~0.5M instructions, callgrind). Left to the run-time resolver.
 */
const SOURCE_ONLY_GUARD_IMPORTER = /[\\/]src[\\/]core[\\/]providers[\\/]config-checks\.ts$/;

export const typeboxBuildPlugin: BunPlugin = {
	name: "typebox-first-import",
	setup(build) {
		build.onLoad({ filter: TYPEBOX_CHAR_MODULE }, async ({ path }) => ({ contents: typeboxCharLiterals(await Bun.file(path).text(), path), loader: "js" }));
		build.onLoad({ filter: TYPEBOX_PARSER_MODULE }, async ({ path }) => ({ contents: typeboxParserFunctions(await Bun.file(path).text(), path), loader: "js" }));
		build.onLoad({ filter: TYPEBOX_INDEX_MODULE }, async ({ path }) => {
			const names = Object.keys(await import(join(dirname(path), TYPEBOX_TYPE_MODULE)));
			return { contents: typeboxTypeObject(await Bun.file(path).text(), names, path), loader: "js" };
		});
		build.onResolve({ filter: /^typebox\/guard$/ }, ({ path, importer }) => (SOURCE_ONLY_GUARD_IMPORTER.test(importer) ? { path, external: true } : undefined));
	},
};
