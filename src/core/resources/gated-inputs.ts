// What an untrusted project would load (SPEC §4): one list of {kind, path, declaredBy} items that
// the trust prompt shows and the `Skipped …` line counts. Built-in kinds are extensions, skills,
// prompt templates, themes and settings; other inputs (packages, MCP servers) register their own collector.
import { join } from "node:path";
import { pathExists } from "../file-reader.ts";
import { APP_NAME, getProjectConfigDir } from "../../config.ts";
import type { ExtensionEntry } from "../extensions/discovery.ts";
import { resolveResourcePath } from "./resource-paths.ts";
import { peekSettingsFile, projectSettingsPath, type SettingsFile } from "./settings.ts";

export interface GatedInput {
	/** `extension`, `skills`, `prompts`, `settings`, or a registered kind. */
	kind: string;
	/** What would load: a file or folder, absolute. */
	path: string;
	/** The file or folder that asks for it: `.agent/extensions`, `.agent/settings.json`, a manifest, … */
	declaredBy: string;
}

export interface GatedKind {
	kind: string;
	/** How the skip line names items of this kind: `["extension", "extensions"]` (it adds "project"). */
	noun: [one: string, many: string];
	/** Whether the skip line gives a number ("2 project extensions") or only the noun ("project skills"). */
	counted: boolean;
	/** The trust prompt's heading for this kind; kinds with the same heading are listed together. */
	heading: string;
	/** What the trust prompt counts under the heading, when counted: default `["file", "files"]`. */
	promptNoun?: [one: string, many: string];
	/** Keys of `.agent/settings.json` this kind covers, so they are not reported again as "project settings". */
	settingsKeys?: string[];
}

export interface GatedInputContext {
	cwd: string;
	/** `<cwd>/.agent` */
	configDir: string;
	/** The project's settings.json, read without acting on it; undefined when absent or unreadable. */
	projectSettings?: SettingsFile;
}

export type GatedInputCollector = (context: GatedInputContext) => GatedInput[];

const KINDS = new Map<string, GatedKind>();
const collectors: GatedInputCollector[] = [];

/** Add a kind of trust-gated input: how it is named, and how to find what a project would load. */
export function registerGatedInputs(kind: GatedKind, collect?: GatedInputCollector): void {
	KINDS.set(kind.kind, kind);
	if (collect) collectors.push(collect);
}

const CODE = "Project code that would run";
const STEER = "Project skills and prompt templates the model would follow";
registerGatedInputs({ kind: "extension", noun: ["extension", "extensions"], counted: true, heading: CODE, settingsKeys: ["extensions"] });
registerGatedInputs({ kind: "skills", noun: ["skills", "skills"], counted: false, heading: STEER, settingsKeys: ["skills"] }, (c) => resourceInputs(c, "skills"));
registerGatedInputs({ kind: "prompts", noun: ["prompt templates", "prompt templates"], counted: false, heading: STEER, settingsKeys: ["prompts"] }, (c) =>
	resourceInputs(c, "prompts"),
);
registerGatedInputs({ kind: "themes", noun: ["themes", "themes"], counted: false, heading: "Project themes that would apply", settingsKeys: ["themes"] }, (c) => resourceInputs(c, "themes"));
registerGatedInputs({ kind: "settings", noun: ["settings", "settings"], counted: false, heading: "Project settings that would apply" });

/** `.agent/skills` (or prompts, themes) when present, and the paths settings.json lists under the same key. */
function resourceInputs(context: GatedInputContext, key: "skills" | "prompts" | "themes"): GatedInput[] {
	const out: GatedInput[] = [];
	const folder = join(context.configDir, key);
	if (pathExists(folder)) out.push({ kind: key, path: folder, declaredBy: context.configDir });
	const file = context.projectSettings;
	const listed = file?.data[key];
	if (file && Array.isArray(listed)) {
		for (const value of listed) if (typeof value === "string") out.push({ kind: key, path: resolveResourcePath(value, file.dir), declaredBy: file.path });
	}
	return out;
}

/** The settings file itself, when it says anything beyond the lists other kinds report (or cannot be read). */
function settingsInput(context: GatedInputContext): GatedInput[] {
	const path = projectSettingsPath(context.cwd);
	if (!pathExists(path)) return [];
	const covered = new Set([...KINDS.values()].flatMap((k) => k.settingsKeys ?? []));
	const data = context.projectSettings?.data;
	if (data && Object.keys(data).every((key) => covered.has(key))) return [];
	return [{ kind: "settings", path, declaredBy: path }];
}

/**
 * Everything an untrusted project at `cwd` would load: `extensions` (discovery's untrusted project
 * entries) first, then each registered kind, then the settings themselves. Reads, never runs.
 */
export function collectGatedInputs(cwd: string, extensions: ExtensionEntry[]): GatedInput[] {
	const configDir = getProjectConfigDir(cwd);
	// Every kind is found under `.agent` (its folders, settings.json, mcp.json): without it there is nothing to ask about.
	if (extensions.length === 0 && !pathExists(configDir)) return [];
	const settingsPath = projectSettingsPath(cwd);
	const context: GatedInputContext = { cwd, configDir, projectSettings: peekSettingsFile(settingsPath) };
	const extensionsDir = join(configDir, "extensions");
	const fromExtensions = extensions.map((e) => {
		// A manifest inside .agent/extensions that points outside it is named as what asked for the file.
		const outside = e.manifest !== undefined && !e.path.startsWith(`${extensionsDir}/`);
		const declaredBy = e.sourceInfo.source === "local" ? settingsPath : outside ? e.manifest! : extensionsDir;
		return { kind: "extension", path: e.resolvedPath, declaredBy };
	});
	return [...fromExtensions, ...collectors.flatMap((collect) => collect(context)), ...settingsInput(context)];
}

function kindOf(kind: string): GatedKind {
	return KINDS.get(kind) ?? { kind, noun: [kind, `${kind}s`], counted: true, heading: `Project ${kind}s that would load` };
}

/** `a`, `a and b`, `a, b and c`. */
function listWords(words: string[]): string {
	return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} and ${words.at(-1)}`;
}

/**
 * The `Skipped …` lines of a non-interactive run: one per file or folder that asked, each saying
 * what was skipped, where, and the fix (SPEC §4).
 */
export function skipLines(items: GatedInput[]): string[] {
	const byWhere = new Map<string, GatedInput[]>();
	for (const item of items) byWhere.set(item.declaredBy, [...(byWhere.get(item.declaredBy) ?? []), item]);
	return [...byWhere].map(([where, group]) => {
		const counts = new Map<string, number>();
		for (const item of group) counts.set(item.kind, (counts.get(item.kind) ?? 0) + 1);
		// "2 project extensions and skills": the first phrase says "project" for all of them.
		const what = [...counts].map(([kind, n], i) => {
			const k = kindOf(kind);
			const noun = `${i === 0 ? "project " : ""}${n === 1 ? k.noun[0] : k.noun[1]}`;
			return k.counted ? `${n} ${noun}` : noun;
		});
		return `Skipped ${listWords(what)} in ${where}: folder not trusted (pass --approve or run "${APP_NAME} trust").`;
	});
}

/** The trust prompt's sections: a heading per kind of input and the paths under it. */
export function promptSections(items: GatedInput[]): { heading: string; counted: boolean; noun: [string, string]; items: GatedInput[] }[] {
	const sections = new Map<string, { heading: string; counted: boolean; noun: [string, string]; items: GatedInput[] }>();
	for (const item of items) {
		const { heading, counted, promptNoun } = kindOf(item.kind);
		const section = sections.get(heading) ?? { heading, counted, noun: promptNoun ?? ["file", "files"], items: [] };
		section.items.push(item);
		sections.set(heading, section);
	}
	return [...sections.values()];
}
