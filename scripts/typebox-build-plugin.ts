// typebox's modules as the binary bundles them: the transforms that cut what an extension's first
// `import … from "typebox"` costs (typebox-char-literals.ts, typebox-type-object.ts,
// typebox-parser-functions.ts, typebox-lazy-parser.ts), and its index and guards kept in one chunk with
// the type builders (Bun's splitting makes a chunk of each set of modules the same entries reach; each
// chunk is loaded and linked on its own). The host and extensions share this one instance.
import type { BunPlugin } from "bun";
import { dirname, join } from "node:path";
import { TYPEBOX_CHAR_MODULE, typeboxCharLiterals } from "./typebox-char-literals.ts";
import { TYPEBOX_PARSER_IMPORTERS, typeboxLazyParser, typeboxParserEntry } from "./typebox-lazy-parser.ts";
import { TYPEBOX_PARSER_MODULE, typeboxParserFunctions } from "./typebox-parser-functions.ts";
import { TYPEBOX_INDEX_MODULE, TYPEBOX_TYPE_MODULE, typeboxTypeObject } from "./typebox-type-object.ts";

/**
 * The binary never runs config-checks.ts's `require("typebox/guard")` (it serves the checks the build
 * generated; the require is for runs from source), but bundled it would be an entry of its own, and
 * Bun's splitting would then give the guard modules a chunk apart from the type builders: a third
 * chunk for every first import of typebox (~0.5M instructions, callgrind). Left to the run-time resolver.
 */
const SOURCE_ONLY_GUARD_IMPORTER = /[\\/]src[\\/]core[\\/]providers[\\/]config-checks\.ts$/;

const CHECKER_AND_COMPILER = /[\\/]typebox[\\/]build[\\/](value|compile)[\\/]index\.mjs$/;

export const typeboxBuildPlugin: BunPlugin = {
	name: "typebox-first-import",
	setup(build) {
		build.onLoad({ filter: TYPEBOX_CHAR_MODULE }, async ({ path }) => ({ contents: typeboxCharLiterals(await Bun.file(path).text(), path), loader: "js" }));
		build.onLoad({ filter: TYPEBOX_PARSER_MODULE }, async ({ path }) => ({ contents: typeboxParserEntry(typeboxParserFunctions(await Bun.file(path).text(), path)), loader: "js" }));
		build.onLoad({ filter: TYPEBOX_PARSER_IMPORTERS }, async ({ path }) => ({ contents: typeboxLazyParser(await Bun.file(path).text(), path), loader: "js" }));
		build.onLoad({ filter: TYPEBOX_INDEX_MODULE }, async ({ path }) => {
			const names = Object.keys(await import(join(dirname(path), TYPEBOX_TYPE_MODULE)));
			return { contents: typeboxTypeObject(await Bun.file(path).text(), names, path), loader: "js" };
		});
		// The checker and the compiler reach the builders without the index; importing it too (it only
		// re-exports, and makes `Type`) puts the index in the builders' chunk (~0.2M instructions, callgrind).
		build.onLoad({ filter: CHECKER_AND_COMPILER }, async ({ path }) => ({ contents: `import '../index.mjs';\n${await Bun.file(path).text()}`, loader: "js" }));
		build.onResolve({ filter: /^typebox\/guard$/ }, ({ path, importer }) => (SOURCE_ONLY_GUARD_IMPORTER.test(importer) ? { path, external: true } : undefined));
	},
};
