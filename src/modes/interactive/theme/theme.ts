// A colour theme in pi's theme JSON format (`name`, `vars`, `colors`): every token resolved once to
// the escape codes of the terminal's colour mode, so renderers call `theme.fg("accent", text)`.
// NO_COLOR keeps text attributes (bold, italic, inverse) and drops colours.
import { backgroundAnsi, foregroundAnsi, parseColor } from "@earendil-works/pi-tui/dist/colors.js";
import { getTerminalColorMode } from "@earendil-works/pi-tui/dist/terminal-image.js";
import type { TerminalColorMode } from "@earendil-works/pi-tui";
import type { ThinkingLevel } from "../../../core/providers/types.ts";
import type { Theme as ThemeContract, ThemeStyle } from "../../../core/extensions/ui-types.ts";

/** Foreground tokens of pi's theme format. */
export const FOREGROUND_TOKENS = [
	"accent", "border", "borderAccent", "borderMuted", "success", "error", "warning", "muted", "dim", "text", "thinkingText",
	"scrollbarTrack", "scrollbarThumb", "searchMatchText", "userMessageText", "customMessageText", "customMessageLabel",
	"toolTitle", "toolOutput", "mdHeading", "mdLink", "mdLinkUrl", "mdCode", "mdCodeBlock", "mdCodeBlockBorder", "mdQuote",
	"mdQuoteBorder", "mdHr", "mdListBullet", "toolDiffAdded", "toolDiffRemoved", "toolDiffContext", "syntaxComment",
	"syntaxKeyword", "syntaxFunction", "syntaxVariable", "syntaxString", "syntaxNumber", "syntaxType", "syntaxOperator",
	"syntaxPunctuation", "thinkingOff", "thinkingMinimal", "thinkingLow", "thinkingMedium", "thinkingHigh", "thinkingXhigh",
	"thinkingMax", "bashMode",
] as const;

/** Background tokens of pi's theme format. */
export const BACKGROUND_TOKENS = ["selectedBg", "searchMatchBg", "userMessageBg", "customMessageBg", "toolPendingBg", "toolSuccessBg", "toolErrorBg"] as const;

export type ThemeColor = (typeof FOREGROUND_TOKENS)[number];
export type ThemeBg = (typeof BACKGROUND_TOKENS)[number];

/** Optional tokens and the token each falls back to (pi's theme docs). */
const FALLBACKS: Record<string, string> = {
	scrollbarTrack: "muted",
	scrollbarThumb: "text",
	searchMatchBg: "selectedBg",
	searchMatchText: "text",
	thinkingMax: "thinkingXhigh",
};

export interface ThemeJson {
	name: string;
	appearance?: "dark" | "light";
	vars?: Record<string, string | number>;
	colors: Record<string, string | number>;
	export?: Record<string, string | number>;
}

/** `none`: NO_COLOR is set, colours are left out. */
export type ColorMode = TerminalColorMode | "none";

export function detectColorMode(env: NodeJS.ProcessEnv = process.env): ColorMode {
	if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return "none";
	// Inside tmux or screen only the hint counts; asking pi-tui would first run `tmux display-message`
	// to learn about hyperlinks (a blocking spawn before the first frame, measured 10-25 ms).
	const term = env.TERM?.toLowerCase() ?? "";
	if (env.TMUX || term.startsWith("tmux") || term.startsWith("screen")) {
		const hint = env.COLORTERM?.toLowerCase();
		return hint === "truecolor" || hint === "24bit" || term.endsWith("-direct") ? "truecolor" : "256color";
	}
	return getTerminalColorMode();
}

/** A `vars` reference, followed to its value; a loop or a missing name is an error naming the theme. */
function resolveValue(json: ThemeJson, value: string | number, seen: string[] = []): string | number {
	if (typeof value === "number" || value === "" || value.startsWith("#") || /^ok(lch|hsl)\(/.test(value)) return value;
	const next = json.vars?.[value];
	if (next === undefined) throw new Error(`Theme "${json.name}": unknown colour or variable "${value}"`);
	if (seen.includes(value)) throw new Error(`Theme "${json.name}": variables refer to each other in a loop (${[...seen, value].join(" → ")})`);
	return resolveValue(json, next, [...seen, value]);
}

/** A token's value with the vars followed (`#rrggbb`, `okhsl(…)`, an index, or "" for the terminal's default); throws naming the theme. */
export function resolveThemeValue(json: ThemeJson, token: string): string | number {
	let raw = json.colors[token];
	if (raw === undefined && FALLBACKS[token]) raw = json.colors[FALLBACKS[token]!];
	if (raw === undefined) throw new Error(`Theme "${json.name}": colour "${token}" is missing`);
	return resolveValue(json, raw);
}

/** Every token's escape code in one colour mode, made ahead (the built-in dark theme's: dark-codes.ts). */
export interface ThemeCodes {
	fg: Record<string, string>;
	bg: Record<string, string>;
}

const SGR = {
	bold: ["\x1b[1m", "\x1b[22m"],
	dim: ["\x1b[2m", "\x1b[22m"],
	italic: ["\x1b[3m", "\x1b[23m"],
	underline: ["\x1b[4m", "\x1b[24m"],
	inverse: ["\x1b[7m", "\x1b[27m"],
	strikethrough: ["\x1b[9m", "\x1b[29m"],
} as const;

const wrap = ([open, close]: readonly [string, string], text: string) => `${open}${text}${close}`;

export interface ThemeOptions {
	name?: string;
	sourcePath?: string;
	appearance?: "dark" | "light";
}


/** pi 1.6's Theme; extensions see it through core's Theme interface (src/core/extensions/ui-types.ts). */
export class Theme implements ThemeContract {
	readonly name: string;
	readonly sourcePath: string | undefined;
	readonly appearance: "dark" | "light";
	private readonly mode: ColorMode;
	private readonly fgCodes = new Map<string, string>();
	private readonly bgCodes = new Map<string, string>();
	/** Codes made ahead for this theme and mode (withCodes), looked up before any is computed. */
	private preset: ThemeCodes | undefined;
	/** Set while withCodes constructs a theme whose tokens are known to resolve. */
	private static checked = false;

	/**
	 * A theme whose codes were made ahead for some colour modes (`codes[mode]`, as code() would make
	 * them) and whose every token is known to resolve: the built-in dark theme, drawn by every first frame.
	 */
	static withCodes(json: ThemeJson, codes: Partial<Record<ColorMode, ThemeCodes>>, mode: ColorMode = detectColorMode()): Theme {
		Theme.checked = true;
		let theme: Theme;
		try {
			theme = new Theme(json, mode);
		} finally {
			Theme.checked = false;
		}
		theme.preset = codes[mode];
		return theme;
	}

	/**
	 * From a theme document (`new Theme(json, mode?)`), or pi 1.6's way: foreground and background
	 * token values, the colour mode and `{ name, sourcePath, appearance }`.
	 */
	constructor(json: ThemeJson, mode?: ColorMode, options?: ThemeOptions);
	constructor(fgColors: Record<string, string | number>, bgColors: Record<string, string | number>, mode: ColorMode, options?: ThemeOptions);
	constructor(first: ThemeJson | Record<string, string | number>, second?: ColorMode | Record<string, string | number>, third?: ColorMode | ThemeOptions, fourth?: ThemeOptions) {
		const piForm = typeof second === "object";
		const options = ((piForm ? fourth : third) ?? {}) as ThemeOptions;
		const json: ThemeJson = piForm
			? { name: options.name ?? "custom", appearance: options.appearance, colors: { ...(first as Record<string, string | number>), ...second } }
			: (first as ThemeJson);
		const mode = ((piForm ? third : second) as ColorMode | undefined) ?? detectColorMode();
		this.name = json.name;
		this.sourcePath = options.sourcePath;
		this.appearance = json.appearance ?? options.appearance ?? "dark";
		this.mode = mode;
		this.json = json;
		// Every token must resolve (a bad theme fails here, naming the colour); codes come on first use.
		if (!Theme.checked) for (const token of [...FOREGROUND_TOKENS, ...BACKGROUND_TOKENS]) this.value(token);
	}

	private readonly json: ThemeJson;

	/** A token's value with the vars followed (`#rrggbb`, `okhsl(…)`, an index, or "" for the terminal's default). */
	resolved(token: string): string | number {
		return this.value(token);
	}

	private value(token: string): string | number {
		return resolveThemeValue(this.json, token);
	}

	/**
	 * The escape code of a token, made when first asked for: matching a colour to the 256-colour
	 * palette is the slow part (all tokens at once measured ~4 ms), and most tokens are never drawn.
	 */
	private code(token: string, background: boolean): string | undefined {
		const preset = this.preset && (background ? this.preset.bg : this.preset.fg)[token];
		if (typeof preset === "string") return preset;
		const cache = background ? this.bgCodes : this.fgCodes;
		let code = cache.get(token);
		if (code !== undefined) return code;
		const known: readonly string[] = background ? BACKGROUND_TOKENS : FOREGROUND_TOKENS;
		if (!known.includes(token)) return undefined;
		const value = this.value(token);
		code = this.mode === "none" || value === "" ? "" : background ? backgroundAnsi(parseColor(value), this.mode) : foregroundAnsi(parseColor(value), this.mode);
		cache.set(token, code);
		return code;
	}

	/** Text in a foreground token's colour; an unknown token leaves the text as it is. */
	fg(color: ThemeColor | string, text: string): string {
		const open = this.code(color, false);
		return open ? `${open}${text}\x1b[39m` : text;
	}

	bg(color: ThemeBg | string, text: string): string {
		const open = this.code(color, true);
		return open ? `${open}${text}\x1b[49m` : text;
	}

	/** Text with a foreground token, a background token and attributes at once (pi 1.6's `style`). */
	style(text: string, style: ThemeStyle): string {
		let out = text;
		for (const attr of ["bold", "dim", "italic", "underline", "inverse", "strikethrough"] as const) if (style[attr]) out = wrap(SGR[attr], out);
		if (style.fg) out = this.fg(style.fg, out);
		if (style.bg) out = this.bg(style.bg, out);
		return out;
	}

	bold(text: string): string {
		return wrap(SGR.bold, text);
	}
	dim(text: string): string {
		return wrap(SGR.dim, text);
	}
	italic(text: string): string {
		return wrap(SGR.italic, text);
	}
	underline(text: string): string {
		return wrap(SGR.underline, text);
	}
	inverse(text: string): string {
		return wrap(SGR.inverse, text);
	}
	strikethrough(text: string): string {
		return wrap(SGR.strikethrough, text);
	}

	/** The opening escape of a token ("" for the terminal default or NO_COLOR). */
	getFgAnsi(color: ThemeColor): string {
		return this.code(color, false) ?? "";
	}
	getBgAnsi(color: ThemeBg): string {
		return this.code(color, true) ?? "";
	}
	getColorMode(): ColorMode {
		return this.mode;
	}

	getThinkingBorderColor(level: ThinkingLevel): (text: string) => string {
		const token = `thinking${level[0]!.toUpperCase()}${level.slice(1)}` as ThemeColor;
		return (text) => this.fg((FOREGROUND_TOKENS as readonly string[]).includes(token) ? token : "border", text);
	}
	getBashModeBorderColor(): (text: string) => string {
		return (text) => this.fg("bashMode", text);
	}
}
