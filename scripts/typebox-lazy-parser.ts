// A build transform (typebox-build-plugin.ts): typebox's script parser (type/script/parser.mjs, its
// mapping.mjs and token/ modules: ~300 functions) is needed only to parse a script, a template literal
// or a record key pattern, yet its modules' top level ran on every first import of typebox. Its three
// importers reach it through a `require()` made on their first call instead of an import, so Bun's
// splitting gives the parser a chunk of its own, loaded and evaluated when first used (measured −0.4M
// instructions of an extension's first import, callgrind). The parser's modules have no side effects at
// their top level (functions and constant tables), so running it later is not observable; the same
// module instance serves every caller.

interface Importer {
	/** The file, relative to typebox's build folder. */
	file: string;
	/** The import to replace, exactly as typebox writes it. */
	statement: string;
	/** What replaces it: the same names, each loading the parser on its first call. */
	lazy: string;
	/** The one use of the import the file must have, and what it becomes. */
	use: { from: string; to: string };
}

const LOAD = (path: string) => `let parserModule;\nconst parser = () => (parserModule ??= require('${path}'));`;

const IMPORTERS: Importer[] = [
	{
		file: "type/script/script.mjs",
		statement: "import * as Parser from './parser.mjs';",
		lazy: LOAD("./parser.mjs"),
		use: { from: "Parser.Script(input)", to: "parser().Script(input)" },
	},
	{
		file: "type/engine/patterns/pattern.mjs",
		statement: "import { Pattern } from '../../script/parser.mjs';",
		lazy: `${LOAD("../../script/parser.mjs")}\nfunction Pattern(input) { return parser().Pattern(input); }`,
		use: { from: "= Pattern(pattern)", to: "= Pattern(pattern)" },
	},
	{
		file: "type/engine/patterns/template.mjs",
		statement: "import { TemplateLiteralTypes } from '../../script/parser.mjs';",
		lazy: `${LOAD("../../script/parser.mjs")}\nfunction TemplateLiteralTypes(input) { return parser().TemplateLiteralTypes(input); }`,
		use: { from: "= TemplateLiteralTypes(`", to: "= TemplateLiteralTypes(`" },
	},
];

const importerOf = (path: string) => IMPORTERS.find((i) => path.replaceAll("\\", "/").endsWith(`/typebox/build/${i.file}`));
const count = (text: string, what: string) => text.split(what).length - 1;

/** The importer's source with its parser import made lazy; throws when the file is not the one this was written for. */
export function typeboxLazyParser(source: string, path: string): string {
	const importer = importerOf(path);
	if (!importer || count(source, importer.statement) !== 1 || count(source, "parser.mjs") !== 1 || count(source, importer.use.from) !== 1) {
		throw new Error(`${path}: typebox's parser imports changed; update scripts/typebox-lazy-parser.ts`);
	}
	const out = source.replace(importer.statement, importer.lazy).replace(importer.use.from, importer.use.to);
	if (/\bParser\./.test(out)) throw new Error(`${path}: typebox's parser imports changed; update scripts/typebox-lazy-parser.ts`);
	return out;
}

/**
 * The parser itself, which now starts with an import of typebox's index: every entry that reaches the
 * builders then reaches the index too, so Bun keeps them in one chunk (without it the parser's own
 * entry would split the index and its neighbours off into a chunk of their own). By the time the
 * parser loads, the index has run.
 */
export function typeboxParserEntry(source: string): string {
	return `import '../../index.mjs';\n${source}`;
}

/** The modules that import typebox's parser. */
export const TYPEBOX_PARSER_IMPORTERS = /[\\/]typebox[\\/]build[\\/]type[\\/](script[\\/]script|engine[\\/]patterns[\\/](pattern|template))\.mjs$/;
