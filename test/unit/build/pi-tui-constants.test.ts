// pi-tui's top-level constants that the build writes in as literals (scripts/pi-tui-constants.ts):
// each literal is the value pi-tui's own line gives, the bundled modules no longer call Array.from or
// String.raw at import, and a pi-tui whose lines changed stops the build.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { evaluateConstant, PI_TUI_CONSTANTS, piTuiConstants } from "../../../scripts/pi-tui-constants.ts";

const DIST = join(import.meta.dir, "../../../node_modules/@earendil-works/pi-tui/dist");
const FILES = ["tui.js", "colors.js"];

/** The value `const name = …;` in `source` gives, with the lines it reads before it. */
function valueIn(source: string, name: string, reads: readonly string[]): unknown {
	const line = source.split("\n").find((l) => l.startsWith(`const ${name} = `));
	if (line === undefined) throw new Error(`no ${name} in the source`);
	return new Function(`${reads.join("\n")}\n${line}\nreturn ${name};`)();
}

describe("pi-tui-constants", () => {
	test("each constant is written as the value pi-tui's own line makes", () => {
		for (const file of FILES) {
			const source = readFileSync(join(DIST, file), "utf8");
			const built = piTuiConstants(source, join(DIST, file));
			for (const constant of PI_TUI_CONSTANTS.filter((c) => c.file.test(join(DIST, file)))) {
				expect(built).not.toContain(constant.line);
				expect(valueIn(built, constant.name, constant.reads)).toEqual(valueIn(source, constant.name, constant.reads));
			}
		}
		expect(evaluateConstant(PI_TUI_CONSTANTS[0]!)).toStartWith("\x1b]10;?\x07\x1b]11;?\x07\x1b]4;0;?\x07");
		expect(evaluateConstant(PI_TUI_CONSTANTS[1]!)).toHaveLength(24);
		expect(new RegExp(`^${evaluateConstant(PI_TUI_CONSTANTS[2]!) as string}$`).test("-1.5e3")).toBe(true);
	});

	test("no top-level Array.from or String.raw is left in those files, and other files are unchanged", () => {
		for (const file of FILES) expect(piTuiConstants(readFileSync(join(DIST, file), "utf8"), join(DIST, file))).not.toMatch(/^const \w+ = .*(Array\.from|String\.raw)/m);
		const utils = readFileSync(join(DIST, "utils.js"), "utf8");
		expect(piTuiConstants(utils, join(DIST, "utils.js"))).toBe(utils);
	});

	test("a pi-tui whose lines changed stops the build", () => {
		expect(() => piTuiConstants("const TERMINAL_PALETTE_SIZE = 16;\nconst TERMINAL_COLOR_QUERY = `x`;", "/pi-tui/dist/tui.js")).toThrow("/pi-tui/dist/tui.js: pi-tui's TERMINAL_COLOR_QUERY is no longer built as");
		expect(() => piTuiConstants("const GRAY_VALUES = [];", "/pi-tui/dist/colors.js")).toThrow("GRAY_VALUES");
	});
});
