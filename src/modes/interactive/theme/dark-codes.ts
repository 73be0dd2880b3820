// The built-in dark theme's escape codes for every token in both colour modes a terminal can have,
// so the first frame computes none (a hex colour's first match to the 256-colour palette, its regexes
// compiled on first use, measured ~0.15 ms for the handful of tokens a first frame draws). The build
// freezes this module into a literal (scripts/frozen-module.ts); run from source, it computes them here.
import { backgroundAnsi, foregroundAnsi, parseColor } from "@earendil-works/pi-tui/dist/colors.js";
import dark from "./dark.json" with { type: "json" };
import { BACKGROUND_TOKENS, FOREGROUND_TOKENS, resolveThemeValue, type ThemeJson } from "./theme.ts";

type Codes = Record<string, string>;

function codes(mode: "256color" | "truecolor", tokens: readonly string[], background: boolean): Codes {
	const out: Codes = {};
	for (const token of tokens) {
		const value = resolveThemeValue(dark as ThemeJson, token);
		out[token] = value === "" ? "" : background ? backgroundAnsi(parseColor(value), mode) : foregroundAnsi(parseColor(value), mode);
	}
	return out;
}

/** `DARK_CODES[mode].fg[token]`: what Theme's code() makes for the dark theme's token in that mode. */
export const DARK_CODES = {
	"256color": { fg: codes("256color", FOREGROUND_TOKENS, false), bg: codes("256color", BACKGROUND_TOKENS, true) },
	truecolor: { fg: codes("truecolor", FOREGROUND_TOKENS, false), bg: codes("truecolor", BACKGROUND_TOKENS, true) },
};
