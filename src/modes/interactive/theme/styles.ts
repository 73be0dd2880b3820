// The theme in use, and the pi-tui component themes made from it: Markdown (with highlighted code),
// select lists, settings lists, the editor. Extensions' getMarkdownTheme() & co. read the theme in
// use when called; a theme change (tui2's setTheme) notifies listeners so the screen is redrawn.
import type { EditorTheme, MarkdownTheme, SelectListTheme, SettingsListTheme } from "@earendil-works/pi-tui";
import dark from "./dark.json" with { type: "json" };
import { DARK_CODES } from "./dark-codes.ts";
import { Theme, type ThemeJson } from "./theme.ts";

let active: Theme | undefined;
const listeners = new Set<() => void>();

/** The built-in dark theme, in pi's theme JSON format. */
export const DARK_THEME_JSON = dark as ThemeJson;
/**
 * The built-in light theme, required when the themes are listed or it is chosen (the first frame draws
 * with dark; the file is in the binary either way).
 */
export function lightThemeJson(): ThemeJson {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return require("./light.json") as ThemeJson;
}

/** The code highlighter (highlight.ts), required on the first code block: a first frame draws none. */
function highlightCode(code: string, lang: string | undefined, theme: Theme): string[] {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (require("./highlight.ts") as typeof import("./highlight.ts")).highlightCode(code, lang, theme);
}

export function currentTheme(): Theme {
	// Its codes were made at build time (dark-codes.ts): a first frame computes none.
	return (active ??= Theme.withCodes(DARK_THEME_JSON, DARK_CODES));
}

/** Make `theme` the one everything draws with; listeners redraw. */
export function setCurrentTheme(theme: Theme): void {
	active = theme;
	for (const listener of listeners) listener();
}

/** Called after each theme change; returns the unsubscribe. */
export function onThemeChange(listener: () => void): () => void {
	listeners.add(listener);
	return () => void listeners.delete(listener);
}

/** A theme argument, or the theme in use at each call (so a setTheme recolours what was built before). */
function themeOf(given: Theme | undefined): Theme {
	return given ?? currentTheme();
}

/** The given theme, or a stand-in that forwards each call to the theme in use at that moment. */
function live(given: Theme | undefined): Theme {
	if (given) return given;
	return new Proxy({} as Theme, {
		get(_target, key) {
			const theme = themeOf(undefined);
			const value = Reflect.get(theme, key, theme);
			return typeof value === "function" ? value.bind(theme) : value;
		},
	});
}

export function getMarkdownTheme(given?: Theme): MarkdownTheme {
	const theme = live(given);
	return {
		heading: (t) => theme.bold(theme.fg("mdHeading", t)),
		link: (t) => theme.underline(theme.fg("mdLink", t)),
		linkUrl: (t) => theme.fg("mdLinkUrl", t),
		code: (t) => theme.fg("mdCode", t),
		codeBlock: (t) => theme.fg("mdCodeBlock", t),
		codeBlockBorder: (t) => theme.fg("mdCodeBlockBorder", t),
		quote: (t) => theme.italic(theme.fg("mdQuote", t)),
		quoteBorder: (t) => theme.fg("mdQuoteBorder", t),
		hr: (t) => theme.fg("mdHr", t),
		listBullet: (t) => theme.fg("mdListBullet", t),
		bold: (t) => theme.bold(t),
		italic: (t) => theme.italic(t),
		strikethrough: (t) => theme.strikethrough(t),
		underline: (t) => theme.underline(t),
		highlightCode: (code, lang) => highlightCode(code, lang, theme),
	};
}

export function getSelectListTheme(given?: Theme): SelectListTheme {
	const theme = live(given);
	return {
		selectedPrefix: (t) => theme.fg("accent", t),
		selectedText: (t) => theme.fg("accent", t),
		description: (t) => theme.fg("muted", t),
		scrollInfo: (t) => theme.fg("dim", t),
		noMatch: (t) => theme.fg("warning", t),
	};
}

export function getSettingsListTheme(given?: Theme): SettingsListTheme {
	const theme = live(given);
	return {
		label: (t, selected) => (selected ? theme.fg("accent", t) : t),
		value: (t, selected) => (selected ? theme.bold(theme.fg("accent", t)) : theme.fg("muted", t)),
		description: (t) => theme.fg("dim", t),
		cursor: theme.fg("accent", "→ "),
		hint: (t) => theme.fg("dim", t),
	};
}

export function getEditorTheme(given?: Theme): EditorTheme {
	const theme = live(given);
	return { borderColor: (t) => theme.fg("borderMuted", t), selectList: getSelectListTheme(given) };
}
