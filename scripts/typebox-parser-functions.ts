// A build transform (typebox-build-plugin.ts): typebox's generated script parser (type/script/parser.mjs)
// defines its 127 rules as `export const Rule = (input) => …;` arrow functions, each made by the module's
// top level when an extension first imports typebox; as function declarations they are made with the
// module (~0.26M fewer instructions, callgrind). The rules use neither `this` nor `arguments`, are only
// called after the module has run, and are not part of typebox's public exports (its `If` helper, whose
// parameters hold an arrow, stays as it is).
const RULE = /^(export )?const (\w+) = \(([\w\s,=[\]]*)\) => (.*);$/gm;
const CONST = /^(?:export )?const /gm;

/** parser.mjs with its arrow-function rules as function declarations; throws when the file is not the one this was written for. */
export function typeboxParserFunctions(source: string, file: string): string {
	let rules = 0;
	const out = source.replace(RULE, (_line, exported: string | undefined, name: string, params: string, body: string) => {
		rules++;
		return `${exported ?? ""}function ${name}(${params}) { return ${body}; }`;
	});
	// Every const but `If` is a rule, and nothing outside a string literal reads `this` or `arguments`.
	const consts = source.match(CONST)?.length ?? 0;
	const code = source.replace(/'[^'\n]*'/g, "''");
	if (rules < 100 || consts !== rules + 1 || !/^const If = \(/m.test(source) || /\b(this|arguments)\b/.test(code)) {
		throw new Error(`${file}: typebox's script parser changed; update scripts/typebox-parser-functions.ts`);
	}
	return out;
}

/** The module the transform applies to. */
export const TYPEBOX_PARSER_MODULE = /[\\/]typebox[\\/]build[\\/]type[\\/]script[\\/]parser\.mjs$/;
