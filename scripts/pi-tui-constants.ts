// A build transform (pi-tui-build-plugin.ts): three of pi-tui's top-level constants that it builds with
// Array.from or String.raw at import (the terminal colour query, the 256-colour palette's grey ramp, the
// colour parser's number pattern) are written into the binary as the values those same lines make.
// Each of those builtins is compiled on its first call (Array.from ~0.35 ms in the binary, String.raw
// ~50 µs), and the TUI's first frame calls them nowhere else.

/** A top-level `const` evaluated at build time: the exact line, and the lines before it that it reads. */
interface BuildTimeConstant {
	file: RegExp;
	name: string;
	line: string;
	reads: readonly string[];
}

export const PI_TUI_CONSTANTS: readonly BuildTimeConstant[] = [
	{
		file: /[\\/]dist[\\/]tui\.js$/,
		name: "TERMINAL_COLOR_QUERY",
		line: "const TERMINAL_COLOR_QUERY = `\\x1b]10;?\\x07\\x1b]11;?\\x07${Array.from({ length: TERMINAL_PALETTE_SIZE }, (_, index) => `\\x1b]4;${index};?\\x07`).join(\"\")}\\x1b[c`;",
		reads: ["const TERMINAL_PALETTE_SIZE = 16;"],
	},
	{
		file: /[\\/]dist[\\/]colors\.js$/,
		name: "GRAY_VALUES",
		line: "const GRAY_VALUES = Array.from({ length: 24 }, (_, index) => 8 + index * 10);",
		reads: [],
	},
	{
		// Read by the oklch() and okhsl() patterns below it.
		file: /[\\/]dist[\\/]colors\.js$/,
		name: "NUMBER_PATTERN",
		line: "const NUMBER_PATTERN = String.raw `[+-]?(?:\\d+(?:\\.\\d*)?|\\.\\d+)(?:e[+-]?\\d+)?`;",
		reads: [],
	},
];

/** The value `line` gives its constant, run with the lines it reads (pi-tui's own code, at build time). */
export function evaluateConstant(constant: BuildTimeConstant): unknown {
	return new Function(`${constant.reads.join("\n")}\n${constant.line}\nreturn ${constant.name};`)();
}

/** `source` with each constant of this file as a literal; throws when one of its lines is not in the file as written here (a pi-tui update). */
export function piTuiConstants(source: string, file: string): string {
	let out = source;
	for (const constant of PI_TUI_CONSTANTS) {
		if (!constant.file.test(file)) continue;
		for (const line of [constant.line, ...constant.reads]) {
			if (!out.includes(line)) throw new Error(`${file}: pi-tui's ${constant.name} is no longer built as scripts/pi-tui-constants.ts expects (${line}); update it`);
		}
		out = out.replace(constant.line, `const ${constant.name} = ${JSON.stringify(evaluateConstant(constant))};`);
	}
	return out;
}
