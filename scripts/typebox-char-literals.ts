// A build transform (typebox-build-plugin.ts): typebox's script tokenizer lists its character
// classes with Array.from at import time (`Range(97, 122)`: a–z). Array.from is a builtin compiled on
// its first call (~0.35 ms in the binary, measured), and in a print run with an extension that
// imports typebox nothing else calls it; the same arrays are written out as literals here.
const RANGE = /Range\((\d+), (\d+)\)/g;
const DEFINITION = "function Range(start, end) {\n    return Array.from({ length: end - start + 1 }, (_, i) => String.fromCharCode(start + i));\n}";

/** The file's `Range(a, b)` calls as array literals, Range itself gone; throws when the file is not the one this was written for (a typebox update). */
export function typeboxCharLiterals(source: string, file: string): string {
	if (!source.includes(DEFINITION) || source.match(RANGE)?.length !== 3) throw new Error(`${file}: typebox's Range() changed; update scripts/typebox-char-literals.ts`);
	return source.replace(DEFINITION, "").replace(RANGE, (_, start: string, end: string) => {
		const chars: string[] = [];
		for (let c = Number(start); c <= Number(end); c++) chars.push(String.fromCharCode(c));
		return JSON.stringify(chars);
	});
}

/** The module the transform applies to. */
export const TYPEBOX_CHAR_MODULE = /[\\/]typebox[\\/]build[\\/]type[\\/]script[\\/]token[\\/]internal[\\/]char\.mjs$/;
