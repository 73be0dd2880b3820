// `agent list [--json]`: every resolved extension grouped project / user / path, its status and
// what it registered, then skills and prompt templates with their conflicts. A report: exits 0
// even when an extension fails, but shows why.
import { APP_NAME, tildify } from "../config.ts";
import type { ExtensionEntry, ExtensionGroup } from "../core/extensions/discovery.ts";
import type { Extension } from "../core/extensions/types.ts";
import { decideTrust, discoverForRun } from "../core/resources/resource-loader.ts";
import type { ResourceDiagnostic, ResourceScope } from "../core/resources/resource-paths.ts";
import { ResourceSet } from "../core/resources/resource-set.ts";
import { resourceConflictSections } from "../modes/interactive/resource-sections.ts";
import { writeStdout } from "../stdio.ts";
import type { Args } from "./args.ts";

export interface ListedExtension {
	path: string;
	resolvedPath: string;
	group: ExtensionGroup;
	status: "loaded" | "skipped (untrusted)" | "error";
	error?: string;
	tools: string[];
	commands: string[];
	flags: string[];
	events: string[];
	shortcuts: string[];
	providers: string[];
}

const GROUPS: ExtensionGroup[] = ["project", "user", "path"];

function describe(entry: ExtensionEntry, status: ListedExtension["status"], ext?: Extension, error?: string): ListedExtension {
	return {
		path: entry.path,
		resolvedPath: entry.resolvedPath,
		group: entry.group,
		status,
		...(error !== undefined ? { error } : {}),
		tools: ext ? [...ext.tools.keys()] : [],
		commands: ext ? [...ext.commands.keys()].map((c) => `/${c}`) : [],
		flags: ext ? [...ext.flags.keys()].map((f) => `--${f}`) : [],
		events: ext ? [...ext.handlers.entries()].filter(([, h]) => h.length > 0).map(([name]) => name) : [],
		shortcuts: ext ? [...ext.shortcuts.keys()] : [],
		providers: ext ? [...ext.providers] : [],
	};
}

/** Resolve and load (trusted inputs only; never prompts) and describe each extension. */
export async function listExtensions(args: Args, cwd = process.cwd()): Promise<ListedExtension[]> {
	const trusted = decideTrust(cwd, args).state === "yes";
	const discovery = discoverForRun({ cwd, extensionPaths: args.extensions, noExtensions: args.noExtensions }, trusted);
	const listed: ListedExtension[] = [];
	if (discovery.entries.length > 0) {
		// What factories print goes to stderr: main routes stdout there before anything loads.
		const { loadExtensions } = await import("../core/extensions/loader.ts");
		const result = await loadExtensions(discovery.entries, { cwd });
		for (const entry of discovery.entries) {
			const ext = result.extensions.find((e) => e.path === entry.path);
			const error = result.errors.find((e) => e.path === entry.path);
			listed.push(ext ? describe(entry, "loaded", ext) : describe(entry, "error", undefined, error?.reason ?? "not loaded"));
		}
	}
	for (const entry of discovery.untrustedProject) listed.push(describe(entry, "skipped (untrusted)"));
	return GROUPS.flatMap((g) => listed.filter((l) => l.group === g));
}

export interface ListedResource {
	name: string;
	description: string;
	path: string;
	scope: ResourceScope;
}

export interface ListedResources {
	skills: ListedResource[];
	prompts: ListedResource[];
	skillConflicts: ResourceDiagnostic[];
	promptConflicts: ResourceDiagnostic[];
}

/** Skills and prompt templates from disk (extension-provided ones need a session: not listed here). */
export function listResources(args: Args, cwd = process.cwd()): ListedResources {
	const projectTrusted = decideTrust(cwd, args).state === "yes";
	const set = new ResourceSet({
		cwd,
		projectTrusted,
		skillPaths: args.skills,
		noSkills: args.noSkills,
		promptPaths: args.promptTemplates,
		noPromptTemplates: args.noPromptTemplates,
		noContextFiles: true,
	}).reload();
	const item = (r: { name: string; description: string; filePath: string; scope: ResourceScope }) => ({ name: r.name, description: r.description, path: r.filePath, scope: r.scope });
	return { skills: set.skills.map(item), prompts: set.prompts.map(item), skillConflicts: set.skillDiagnostics, promptConflicts: set.promptDiagnostics };
}

export function formatResourceList(resources: ListedResources): string {
	const lines: string[] = [];
	const section = (title: string, items: ListedResource[], prefix: string) => {
		if (items.length === 0) return;
		lines.push(title, ...items.map((i) => `  ${prefix}${i.name}  ${tildify(i.path)} (${i.scope})`));
	};
	section("skills", resources.skills, "");
	section("prompt templates", resources.prompts, "/");
	for (const s of resourceConflictSections({ skillDiagnostics: resources.skillConflicts, promptDiagnostics: resources.promptConflicts })) {
		lines.push(s.title.toLowerCase(), ...s.lines);
	}
	return lines.length > 0 ? `${lines.join("\n")}\n` : "";
}

export function formatExtensionList(listed: ListedExtension[]): string {
	if (listed.length === 0) {
		return `No extensions found. Put .ts files in .agent/extensions/ (this project) or ~/.agent/extensions/ (all projects), or pass -e <path>.\n`;
	}
	const lines: string[] = [];
	for (const group of GROUPS) {
		const items = listed.filter((l) => l.group === group);
		if (items.length === 0) continue;
		lines.push(group);
		for (const item of items) {
			const status = item.status === "error" ? `error: ${item.error}` : item.status;
			lines.push(`  ${item.group === "path" ? item.path : tildify(item.path)}  ${status}`);
			const parts: [string, string[]][] = [
				["tools", item.tools],
				["commands", item.commands],
				["flags", item.flags],
				["events", item.events],
				["shortcuts", item.shortcuts],
				["providers", item.providers],
			];
			for (const [label, values] of parts) if (values.length > 0) lines.push(`    ${label}: ${values.join(", ")}`);
		}
	}
	if (listed.some((l) => l.status === "skipped (untrusted)")) {
		lines.push("", `Project extensions are skipped until you trust the folder: "${APP_NAME} trust" (or --approve for one run).`);
	}
	return `${lines.join("\n")}\n`;
}

export async function runListCommand(args: Args, json: boolean): Promise<number> {
	const listed = await listExtensions(args);
	const resources = listResources(args);
	if (json) writeStdout(`${JSON.stringify({ extensions: listed, ...resources }, null, 2)}\n`);
	else {
		const more = formatResourceList(resources);
		writeStdout(formatExtensionList(listed) + (more ? `\n${more}` : ""));
	}
	return 0;
}
