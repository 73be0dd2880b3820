// The built-in dark theme's escape codes are made at build time (theme/dark-codes.ts, frozen by
// scripts/frozen-module.ts), so the first frame computes none: they must be exactly what Theme makes.
import { describe, expect, test } from "bun:test";
import { FROZEN_MODULES, frozenModuleSource } from "../../../scripts/frozen-module.ts";
import { DARK_CODES } from "../../../src/modes/interactive/theme/dark-codes.ts";
import { currentTheme, DARK_THEME_JSON } from "../../../src/modes/interactive/theme/styles.ts";
import { BACKGROUND_TOKENS, FOREGROUND_TOKENS, Theme } from "../../../src/modes/interactive/theme/theme.ts";

describe("the dark theme's codes made ahead", () => {
	test("the build freezes the module: a literal, no import", () => {
		expect(FROZEN_MODULES.test("/repo/src/modes/interactive/theme/dark-codes.ts")).toBe(true);
		const source = frozenModuleSource({ DARK_CODES }, "dark-codes.ts");
		expect(source).not.toContain("import");
	});

	for (const mode of ["256color", "truecolor"] as const) {
		test(`${mode}: every token as a theme computing its codes draws it`, () => {
			// A copy of the JSON: Theme.withCodes would not know it, so this one computes every code.
			const computed = new Theme(structuredClone(DARK_THEME_JSON), mode);
			const preset = Theme.withCodes(DARK_THEME_JSON, DARK_CODES, mode);
			for (const token of FOREGROUND_TOKENS) {
				expect(DARK_CODES[mode].fg[token]).toBe(computed.getFgAnsi(token));
				expect(preset.fg(token, "x")).toBe(computed.fg(token, "x"));
			}
			for (const token of BACKGROUND_TOKENS) {
				expect(DARK_CODES[mode].bg[token]).toBe(computed.getBgAnsi(token));
				expect(preset.bg(token, "x")).toBe(computed.bg(token, "x"));
			}
			// Unknown tokens (and names on Object.prototype) leave the text as it is, as before.
			expect(preset.fg("constructor", "x")).toBe("x");
			expect(preset.fg("nope", "x")).toBe(computed.fg("nope", "x"));
		});
	}

	test("NO_COLOR: no codes made ahead, none drawn", () => {
		const theme = Theme.withCodes(DARK_THEME_JSON, DARK_CODES, "none");
		expect(theme.fg("accent", "x")).toBe("x");
		expect(theme.bold("x")).toBe("\x1b[1mx\x1b[22m");
	});

	test("the theme in use at start is the dark one with its codes made ahead", () => {
		const theme = currentTheme();
		expect(theme.name).toBe("dark");
		const mode = theme.getColorMode();
		if (mode === "256color" || mode === "truecolor") expect(theme.getFgAnsi("accent")).toBe(DARK_CODES[mode].fg.accent!);
		// A theme built any other way still checks every token.
		expect(() => new Theme({ name: "broken", colors: {} }, "256color")).toThrow('Theme "broken": colour "accent" is missing');
	});
});
