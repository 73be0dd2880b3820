// Which themes there are — built-in dark and light, ~/.agent/themes/*.json, a trusted project's
// .agent/themes/*.json — and which one draws: the `theme` setting at start, ctx.ui.setTheme after.
// A theme file that is not valid is reported naming the file, and the screen stays on dark.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseColor } from "@earendil-works/pi-tui/dist/colors.js";
import { getAgentDir, getProjectConfigDir, tildify } from "../../../config.ts";
import { readJsonFile } from "../../../core/file-reader.ts";
import { currentTheme, DARK_THEME_JSON, lightThemeJson, setCurrentTheme } from "./styles.ts";
import { BACKGROUND_TOKENS, FOREGROUND_TOKENS, Theme, type ThemeJson } from "./theme.ts";

export interface ThemeInfo {
	name: string;
	/** The file it came from; undefined for a built-in theme. */
	path: string | undefined;
}

interface Entry {
	name: string;
	path: string | undefined;
	json: ThemeJson;
	theme?: Theme;
}

/** Tokens a theme may leave out (they fall back to another one). */
const OPTIONAL = new Set(["scrollbarTrack", "scrollbarThumb", "searchMatchBg", "searchMatchText", "thinkingMax"]);
const TOKENS = new Set<string>([...FOREGROUND_TOKENS, ...BACKGROUND_TOKENS]);
const TOP_LEVEL = new Set(["$schema", "name", "appearance", "vars", "colors", "export"]);
const EXPORT_KEYS = new Set(["pageBg", "cardBg", "infoBg"]);

function checkValue(where: string, value: unknown): void {
	if (typeof value === "number") {
		if (!Number.isInteger(value) || value < 0 || value > 255) throw new Error(`${where} must be a colour index from 0 to 255, not ${value}`);
		return;
	}
	if (typeof value !== "string") throw new Error(`${where} must be a colour string or a 256-colour index, not ${JSON.stringify(value)}`);
}

/**
 * A parsed theme document checked against pi's theme format: the top-level fields it knows, a
 * name without `/`, every required colour token and no unknown one, and values that are colours
 * or `vars` names. Throws with the reason.
 */
export function validateThemeJson(data: unknown): ThemeJson {
	if (!data || typeof data !== "object" || Array.isArray(data)) throw new Error("a theme is a JSON object with \"name\" and \"colors\"");
	const json = data as Record<string, unknown>;
	for (const key of Object.keys(json)) if (!TOP_LEVEL.has(key)) throw new Error(`unknown field "${key}" (a theme has name, appearance, vars, colors, export)`);
	if (typeof json.name !== "string" || json.name.trim() === "") throw new Error('"name" must be a non-empty string');
	if (json.name.includes("/")) throw new Error(`the name "${json.name}" may not contain "/"`);
	if (json.appearance !== undefined && json.appearance !== "dark" && json.appearance !== "light") throw new Error('"appearance" must be "dark" or "light"');
	const vars = json.vars ?? {};
	if (typeof vars !== "object" || Array.isArray(vars)) throw new Error('"vars" must be an object of colour values');
	for (const [name, value] of Object.entries(vars)) checkValue(`vars.${name}`, value);
	const colors = json.colors;
	if (!colors || typeof colors !== "object" || Array.isArray(colors)) throw new Error('"colors" must be an object of colour tokens');
	for (const [token, value] of Object.entries(colors)) {
		if (!TOKENS.has(token)) throw new Error(`unknown colour token "${token}" (custom colours go under "vars")`);
		checkValue(`colors.${token}`, value);
	}
	const missing = [...TOKENS].filter((t) => !OPTIONAL.has(t) && !(t in colors));
	if (missing.length > 0) throw new Error(`colour${missing.length === 1 ? "" : "s"} missing: ${missing.join(", ")}`);
	if (json.export !== undefined) {
		if (!json.export || typeof json.export !== "object" || Array.isArray(json.export)) throw new Error('"export" must be an object');
		for (const [key, value] of Object.entries(json.export)) {
			if (!EXPORT_KEYS.has(key)) throw new Error(`unknown export colour "${key}" (pageBg, cardBg, infoBg)`);
			checkValue(`export.${key}`, value);
		}
	}
	const theme = json as unknown as ThemeJson;
	// Resolving every token follows the vars (a missing or looping name throws); each value must then parse.
	const probe = new Theme(theme, "none");
	for (const token of Object.keys(colors)) {
		const value = probe.resolved(token);
		if (value !== "") {
			try {
				parseColor(value);
			} catch (error) {
				throw new Error(`colors.${token}: ${(error as Error).message}`);
			}
		}
	}
	return theme;
}

/** A theme file read (the safe reader: no FIFOs, bounded) and checked; the error names the file, with line and column for bad JSON. */
export function readThemeFile(path: string): ThemeJson {
	let data: unknown;
	try {
		data = readJsonFile(path)?.value;
	} catch (error) {
		throw new Error(`Theme file ${(error as Error).message}. The theme was not loaded.`);
	}
	try {
		return validateThemeJson(data);
	} catch (error) {
		throw new Error(`Theme file ${tildify(path)} is not a valid theme: ${(error as Error).message}.`);
	}
}

function jsonFiles(dir: string): string[] {
	try {
		return readdirSync(dir)
			.filter((name) => name.endsWith(".json") && !name.startsWith("."))
			.sort()
			.map((name) => join(dir, name));
	} catch {
		return [];
	}
}

export interface ThemeSources {
	cwd: string;
	/** Project themes load only from a trusted folder (SPEC §4). */
	projectTrusted: boolean;
	/** Theme files of installed packages, after your own folders' (a name defined there wins). Default none. */
	packageThemes?: () => string[];
}

/** The themes of a run and the one in use. Files are read on first need (`getAllThemes`, a setting). */
export class ThemeRegistry {
	private entries: Map<string, Entry> | undefined;
	/** Problems found reading theme files, each naming the file. */
	readonly issues: string[] = [];

	constructor(private readonly sources: ThemeSources) {}

	private load(): Map<string, Entry> {
		if (this.entries) return this.entries;
		const entries = new Map<string, Entry>();
		for (const json of [DARK_THEME_JSON, lightThemeJson()]) entries.set(json.name, { name: json.name, path: undefined, json });
		const dirs = [join(getAgentDir(), "themes")];
		if (this.sources.projectTrusted) dirs.push(join(getProjectConfigDir(this.sources.cwd), "themes"));
		for (const path of [...dirs.flatMap(jsonFiles), ...(this.sources.packageThemes?.() ?? [])]) {
			try {
				const json = readThemeFile(path);
				const earlier = entries.get(json.name);
				// A file may restyle a built-in theme; two files of one name: the first stays.
				if (earlier?.path) this.issues.push(`Theme "${json.name}" in ${tildify(path)} is also defined in ${tildify(earlier.path)}; using the first.`);
				else entries.set(json.name, { name: json.name, path, json });
			} catch (error) {
				this.issues.push((error as Error).message);
			}
		}
		return (this.entries = entries);
	}

	/** Whether any theme file could be present (so start-up reads nothing when there is none). */
	static hasFiles(sources: ThemeSources): boolean {
		return (
			existsSync(join(getAgentDir(), "themes")) ||
			(sources.projectTrusted && existsSync(join(getProjectConfigDir(sources.cwd), "themes"))) ||
			(sources.packageThemes?.().length ?? 0) > 0
		);
	}

	getAllThemes(): ThemeInfo[] {
		return [...this.load().values()].map((e) => ({ name: e.name, path: e.path }));
	}

	getTheme(name: string): Theme | undefined {
		const entry = this.load().get(name);
		if (!entry) return undefined;
		return (entry.theme ??= new Theme(entry.json, undefined, { sourcePath: entry.path }));
	}

	/** Switch to a theme by name or object; listeners redraw the screen. */
	setTheme(theme: string | Theme): { success: boolean; error?: string } {
		if (typeof theme !== "string") {
			if (!(theme instanceof Theme)) return { success: false, error: "setTheme takes a theme name or a Theme from getTheme()" };
			setCurrentTheme(theme);
			return { success: true };
		}
		const found = this.getTheme(theme);
		if (!found) return { success: false, error: `Theme "${theme}" not found (available: ${this.getAllThemes().map((t) => t.name).join(", ")})` };
		if (found !== currentTheme()) setCurrentTheme(found);
		return { success: true };
	}

	/**
	 * The theme the `theme` setting names, made current. A name that is not there, or whose file
	 * is broken, leaves dark in place and returns the warning to show.
	 */
	applySetting(name: string | undefined): string | undefined {
		if (!name || name === currentTheme().name) return undefined;
		if (this.setTheme(name).success) return undefined;
		const broken = this.issues.find((issue) => issue.includes(`/${name}.json`));
		return broken ? `${broken} Using the dark theme.` : `Theme "${name}" from settings was not found (available: ${this.getAllThemes().map((t) => t.name).join(", ")}). Using the dark theme.`;
	}
}

/** The `theme` setting of the files read (the project's only when trusted): the project's over the user's. */
export function readThemeSetting(settings: { project?: { data: Record<string, unknown> }; user?: { data: Record<string, unknown> } }): string | undefined {
	const pick = (file: { data: Record<string, unknown> } | undefined) => {
		const value = file?.data.theme;
		return typeof value === "string" && value.trim() ? value.trim() : undefined;
	};
	return pick(settings.project) ?? pick(settings.user);
}

/**
 * Remember a theme chosen by name in the user's settings.json (as pi does), changing only the
 * `theme` key and leaving the rest of the file as it was. Throws when the file cannot be written.
 */
export async function saveThemeSetting(name: string): Promise<void> {
	const { applyEdits, modify, parse } = await import("jsonc-parser");
	const { mkdirSync, renameSync, writeFileSync } = await import("node:fs");
	const path = join(getAgentDir(), "settings.json");
	const text = existsSync(path) ? readFileSync(path, "utf8") : "";
	const base = text.trim() ? text : "{}\n";
	const errors: import("jsonc-parser").ParseError[] = [];
	const data = parse(base, errors);
	// A file the user broke by hand is never rewritten.
	if (errors.length > 0 || !data || typeof data !== "object" || Array.isArray(data)) throw new Error(`${tildify(path)} is not a JSON object; the theme was not saved there.`);
	if (data.theme === name) return;
	const next = applyEdits(base, modify(base, ["theme"], name, { formattingOptions: { insertSpaces: !base.includes("\n\t"), tabSize: 2 } }));
	mkdirSync(getAgentDir(), { recursive: true });
	const temp = `${path}.${process.pid}.tmp`;
	writeFileSync(temp, next.endsWith("\n") ? next : `${next}\n`);
	renameSync(temp, path);
}
