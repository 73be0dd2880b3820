// settings.json, user (`~/.agent/settings.json`) and project (`.agent/settings.json`, read only
// when the folder is trusted). A malformed file stops start-up with its line and column; we
// never write over it.
import { dirname, join } from "node:path";
import { UserError } from "../errors.ts";
import { FileReadError, fixFileHint, readJsonFile } from "../file-reader.ts";
import { getAgentDir, getProjectConfigDir } from "../../config.ts";

export type Settings = Record<string, unknown>;

export interface SettingsFile {
	path: string;
	/** Relative paths inside the file resolve against this folder. */
	dir: string;
	data: Settings;
}

export class SettingsError extends UserError {
	constructor(
		readonly path: string,
		message: string,
	) {
		super(message, [fixFileHint()]);
		this.name = "SettingsError";
	}
}

export function userSettingsPath(): string {
	return join(getAgentDir(), "settings.json");
}

export function projectSettingsPath(cwd: string): string {
	return join(getProjectConfigDir(cwd), "settings.json");
}

/** Read one settings file; undefined when it does not exist. */
export function readSettingsFile(path: string): SettingsFile | undefined {
	let read: ReturnType<typeof readJsonFile>;
	try {
		read = readJsonFile(path);
	} catch (error) {
		// The reader's words (file, line, column), as the SettingsError callers expect.
		if (error instanceof FileReadError) throw new SettingsError(path, error.message);
		throw error;
	}
	if (!read) return undefined;
	if (read.value === undefined) return { path, dir: dirname(path), data: {} };
	const data = read.value;
	if (!data || typeof data !== "object" || Array.isArray(data)) {
		throw new SettingsError(path, `${path} must hold a JSON object ({ ... }), not ${Array.isArray(data) ? "an array" : JSON.stringify(data)}.`);
	}
	return { path, dir: dirname(path), data: data as Settings };
}

/** A list of paths under `key` (`extensions`, `skills`, `prompts`), validated; relative to the file's folder. */
export function settingsPathList(file: SettingsFile | undefined, key: string): { value: string; baseDir: string }[] {
	if (!file) return [];
	const list = file.data[key];
	if (list === undefined) return [];
	if (!Array.isArray(list) || list.some((v) => typeof v !== "string")) {
		throw new SettingsError(file.path, `"${key}" in ${file.path} must be an array of paths (strings), relative to ${file.dir}.`);
	}
	return (list as string[]).map((value) => ({ value, baseDir: file.dir }));
}

/** The `extensions` list of a settings file, validated. */
export function settingsExtensionPaths(file: SettingsFile | undefined): { value: string; baseDir: string }[] {
	return settingsPathList(file, "extensions");
}

/** The settings that apply to a run, highest precedence first: project (only when trusted), then user. */
export interface RunSettings {
	project?: SettingsFile;
	user?: SettingsFile;
}

export function readRunSettings(cwd: string, projectTrusted: boolean): RunSettings {
	return { project: projectTrusted ? readSettingsFile(projectSettingsPath(cwd)) : undefined, user: readSettingsFile(userSettingsPath()) };
}

/** A boolean setting: the project's value wins over the user's; a wrong type names the file. */
export function settingBoolean(settings: RunSettings, key: string): boolean | undefined {
	for (const file of [settings.project, settings.user]) {
		const value = file?.data[key];
		if (value === undefined) continue;
		if (typeof value !== "boolean") throw new SettingsError(file!.path, `"${key}" in ${file!.path} must be true or false.`);
		return value;
	}
	return undefined;
}

/** Milliseconds (`httpIdleTimeoutMs`): a number of 0 or more, or "disabled" (0); the project's value wins. */
export function settingMilliseconds(settings: RunSettings, key: string): number | undefined {
	for (const file of [settings.project, settings.user]) {
		const value = file?.data[key];
		if (value === undefined) continue;
		if (value === "disabled") return 0;
		if (typeof value !== "number" || !Number.isFinite(value) || value < 0) {
			throw new SettingsError(file!.path, `"${key}" in ${file!.path} must be a number of milliseconds (0 or more) or "disabled".`);
		}
		return value;
	}
	return undefined;
}

/**
 * An object of numbers and booleans (`compaction`): user fields, then project fields over them.
 * `shape` names each field's type; unknown fields are left alone, wrong types name the file.
 */
export function settingObject(settings: RunSettings, key: string, shape: Record<string, "number" | "boolean">): Record<string, number | boolean> {
	const out: Record<string, number | boolean> = {};
	for (const file of [settings.user, settings.project]) {
		const value = file?.data[key];
		if (value === undefined) continue;
		if (!value || typeof value !== "object" || Array.isArray(value)) throw new SettingsError(file!.path, `"${key}" in ${file!.path} must be an object.`);
		for (const [field, type] of Object.entries(shape)) {
			const v = (value as Record<string, unknown>)[field];
			if (v === undefined) continue;
			if (typeof v !== type || (type === "number" && !(Number.isFinite(v) && (v as number) >= 0))) {
				throw new SettingsError(file!.path, `"${key}.${field}" in ${file!.path} must be ${type === "number" ? "a number of 0 or more" : "true or false"}.`);
			}
			out[field] = v as number | boolean;
		}
	}
	return out;
}

/** Project settings read only to show what an untrusted folder would load: errors are ignored. */
export function peekSettingsFile(path: string): SettingsFile | undefined {
	try {
		return readSettingsFile(path);
	} catch {
		return undefined;
	}
}

const isPlain = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** `over` on top of `base`; nested objects (compaction, retry, …) merge one level deep. */
export function mergeSettings(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
	const out: Record<string, unknown> = { ...base };
	for (const [k, v] of Object.entries(over)) out[k] = isPlain(v) && isPlain(out[k]) ? { ...(out[k] as Record<string, unknown>), ...v } : v;
	return out;
}

/** A string setting with the file it came from: the project's value wins; a wrong type names the file. */
export function settingString(settings: RunSettings, key: string, choices?: readonly string[]): { value: string; path: string } | undefined {
	for (const file of [settings.project, settings.user]) {
		const value = file?.data[key];
		if (value === undefined) continue;
		if (typeof value !== "string" || !value.trim() || (choices && !choices.includes(value))) {
			const want = choices ? `one of ${choices.map((c) => `"${c}"`).join(", ")}` : "a non-empty string";
			throw new SettingsError(file!.path, `"${key}" in ${file!.path} must be ${want}, not ${JSON.stringify(value)}.`);
		}
		return { value: value.trim(), path: file!.path };
	}
	return undefined;
}
