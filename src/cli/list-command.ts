// `agent list [--json]`: every resolved extension grouped project / user / path, its status and
// what it registered, then skills and prompt templates with their conflicts. Exits 1 when an
// extension is in error (so CI can gate on it), after showing why.
import { APP_NAME, tildify } from "../config.ts";
import type { ExtensionEntry, ExtensionGroup } from "../core/extensions/discovery.ts";
import type { Extension } from "../core/extensions/types.ts";
import { decideTrust, discoverForRun, packagesForRun } from "../core/resources/resource-loader.ts";
import { RESOURCE_KINDS, type ResourceKind } from "../core/packages/manifest.ts";
import { packageSettings } from "../core/packages/configured.ts";
import { peekSettingsFile, projectSettingsPath, readRunSettings } from "../core/resources/settings.ts";
import { relative } from "node:path";
import type { ResourceDiagnostic, ResourceScope } from "../core/resources/resource-paths.ts";
import { ResourceSet } from "../core/resources/resource-set.ts";
import { resourceConflictSections } from "../modes/interactive/resource-sections.ts";
import { writeStdout } from "../stdio.ts";
import { formatProblem, loadMcpConfig, peekProjectServers, projectMcpPath, userMcpPath } from "../core/mcp/mcp-config.ts";
import type { RegisteredMcpServer } from "../core/mcp/registry.ts";
import { isStdioConfig, serverKey } from "../core/mcp/server-config.ts";
import { targetOf } from "../core/mcp/status.ts";
import { builtinFlagNames, type Args } from "./args.ts";

export interface ListedMcpServer {
	name: string;
	/** `user` / `project` (mcp.json) or `extension` (pi.registerMcpServer). */
	source: "user" | "project" | "extension";
	/** The mcp.json file or the extension's path. */
	origin: string;
	status: "enabled" | "disabled" | "skipped (untrusted)" | "shadowed" | "error";
	error?: string;
	transport?: "stdio" | "http";
	target?: string;
}

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
	mcpServers: string[];
	/** Present when the extension loaded with problems (an unknown event name). */
	warnings?: string[];
}

const GROUPS: ExtensionGroup[] = ["project", "user", "path"];

function describe(entry: ExtensionEntry, status: ListedExtension["status"], ext?: Extension, error?: string, registered: RegisteredMcpServer[] = []): ListedExtension {
	return {
		path: entry.path,
		resolvedPath: entry.resolvedPath,
		group: entry.group,
		status,
		...(error !== undefined ? { error } : {}),
		tools: ext ? [...ext.tools.keys()] : [],
		commands: ext ? [...ext.commands.keys()].map((c) => `/${c}`) : [],
		flags: ext ? [...ext.flags.keys()].map((f) => `--${f}`) : [],
		events: ext ? [...ext.handlers.entries()].filter(([name, h]) => h.length > 0 && !ext.warnings.some((w) => w.event === name)).map(([name]) => name) : [],
		shortcuts: ext ? [...ext.shortcuts.keys()] : [],
		providers: ext ? [...ext.providers] : [],
		mcpServers: ext ? registered.filter((r) => r.extensionPath === ext.path).map((r) => r.name) : [],
		...(ext && ext.warnings.length > 0 ? { warnings: ext.warnings.map((w) => w.message) } : {}),
	};
}

/** Resolve and load (trusted inputs only; never prompts) and describe each extension, with the MCP servers they registered. */
export async function listExtensions(args: Args, cwd = process.cwd()): Promise<{ extensions: ListedExtension[]; registered: RegisteredMcpServer[] }> {
	const trusted = decideTrust(cwd, args).state === "yes";
	const discovery = discoverForRun({ cwd, extensionPaths: args.extensions, noExtensions: args.noExtensions }, trusted);
	const listed: ListedExtension[] = [];
	let registered: RegisteredMcpServer[] = [];
	if (discovery.entries.length > 0) {
		// What factories print goes to stderr: main routes stdout there before anything loads.
		const { loadExtensions } = await import("../core/extensions/loader.ts");
		const result = await loadExtensions(discovery.entries, { cwd, reservedFlags: builtinFlagNames });
		registered = result.runtime.mcpServers.list();
		for (const entry of discovery.entries) {
			const ext = result.extensions.find((e) => e.path === entry.path);
			const error = result.errors.find((e) => e.path === entry.path);
			listed.push(ext ? describe(entry, "loaded", ext, undefined, registered) : describe(entry, "error", undefined, error?.reason ?? "not loaded"));
		}
	}
	for (const entry of discovery.untrustedProject) listed.push(describe(entry, "skipped (untrusted)"));
	return { extensions: GROUPS.flatMap((g) => listed.filter((l) => l.group === g)), registered };
}

/** MCP servers from mcp.json and from extensions, with where each comes from; nothing is started (`agent mcp list` connects). */
export function listMcpServers(args: Args, registered: RegisteredMcpServer[], cwd = process.cwd()): ListedMcpServer[] {
	const projectTrusted = decideTrust(cwd, args).state === "yes";
	const config = loadMcpConfig({ cwd, projectTrusted });
	const out: ListedMcpServer[] = config.servers.map((s) => ({
		name: s.name,
		source: s.source as "user" | "project",
		origin: s.origin,
		status: s.config.enabled === false ? "disabled" : "enabled",
		transport: isStdioConfig(s.config) ? "stdio" : "http",
		target: targetOf(s),
	}));
	for (const p of config.problems) out.push({ name: p.server ?? "?", source: p.path === userMcpPath() ? "user" : "project", origin: p.path, status: "error", error: formatProblem(p) });
	if (!projectTrusted) for (const name of peekProjectServers(cwd)) out.push({ name, source: "project", origin: projectMcpPath(cwd), status: "skipped (untrusted)" });
	const taken = new Set(config.servers.map((s) => serverKey(s.name)));
	for (const r of registered) {
		const entry = { name: r.name, config: r.config, source: "extension" as const, origin: r.extensionPath };
		out.push({ name: r.name, source: "extension", origin: r.extensionPath, status: taken.has(serverKey(r.name)) ? "shadowed" : r.config.enabled === false ? "disabled" : "enabled", transport: isStdioConfig(r.config) ? "stdio" : "http", target: targetOf(entry) });
	}
	return out;
}

export function formatMcpList(servers: ListedMcpServer[]): string {
	if (servers.length === 0) return "";
	const lines = ["mcp servers"];
	for (const s of servers) {
		const status = s.status === "error" ? `error: ${s.error}` : s.status === "shadowed" ? "not started (a mcp.json server has this name)" : s.status;
		lines.push(`  ${s.name}  ${status}  (${s.source}, ${tildify(s.origin)})`);
		if (s.target) lines.push(`    ${s.transport} ${s.target}`);
	}
	lines.push(`"${APP_NAME} mcp list" connects to them and shows their tools.`);
	return `${lines.join("\n")}\n`;
}

export interface ListedPackage extends Record<ResourceKind, string[]> {
	source: string;
	scope: "project" | "user" | "temporary";
	status: "installed" | "not installed" | "skipped (untrusted)";
	/** Where its files are (or would be). */
	path?: string;
	version?: string;
	/** The settings file that declares it (none for `-e`). */
	settingsPath?: string;
	warnings: string[];
}

/** Configured packages (and `-e` ones) as they are on disk, with what each contributes (paths relative to it). */
export function listPackages(args: Args, cwd = process.cwd()): ListedPackage[] {
	const trusted = decideTrust(cwd, args).state === "yes";
	const { packages } = packagesForRun({ cwd, extensionPaths: args.extensions, noExtensions: args.noExtensions }, readRunSettings(cwd, trusted));
	const listed: ListedPackage[] = packages.map((p) => ({
		source: p.source,
		scope: p.scope,
		status: p.installed ? "installed" : "not installed",
		path: p.dir,
		...(p.version ? { version: p.version } : {}),
		...(p.settingsPath ? { settingsPath: p.settingsPath } : {}),
		...Object.fromEntries(RESOURCE_KINDS.map((k) => [k, p.resources[k].map((f) => relative(p.dir, f))])),
		warnings: p.warnings,
	}) as ListedPackage);
	if (!trusted && !args.noExtensions && !args.noApprove) {
		const file = peekSettingsFile(projectSettingsPath(cwd));
		let declared: { source: string }[] = [];
		try {
			declared = packageSettings(file);
		} catch {
			// A malformed untrusted file: nothing to list.
		}
		for (const d of declared) {
			listed.unshift({ source: d.source, scope: "project", status: "skipped (untrusted)", settingsPath: file!.path, extensions: [], skills: [], prompts: [], themes: [], warnings: [] });
		}
	}
	return listed;
}

export function formatPackageList(packages: ListedPackage[]): string {
	if (packages.length === 0) return "";
	const lines = ["packages"];
	for (const p of packages) {
		const status = p.status === "installed" ? `installed${p.version ? ` ${p.version}` : ""}` : p.status;
		lines.push(`  ${p.source}  ${p.scope}  ${status}${p.path && p.status !== "skipped (untrusted)" ? `  ${tildify(p.path)}` : ""}`);
		for (const kind of RESOURCE_KINDS) if (p[kind].length > 0) lines.push(`    ${kind}: ${p[kind].join(", ")}`);
		for (const w of p.warnings) lines.push(`    warning: ${w}`);
	}
	return `${lines.join("\n")}\n`;
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
		packageSources: args.extensions,
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
				["mcp servers", item.mcpServers],
			];
			for (const [label, values] of parts) if (values.length > 0) lines.push(`    ${label}: ${values.join(", ")}`);
			for (const w of item.warnings ?? []) lines.push(`    warning: ${w}`);
		}
	}
	if (listed.some((l) => l.status === "skipped (untrusted)")) {
		lines.push("", `Project extensions are skipped until you trust the folder: "${APP_NAME} trust" (or --approve for one run).`);
	}
	return `${lines.join("\n")}\n`;
}

export async function runListCommand(args: Args, json: boolean): Promise<number> {
	const { extensions: listed, registered } = await listExtensions(args);
	const resources = listResources(args);
	const packages = listPackages(args);
	const mcpServers = listMcpServers(args, registered);
	if (json) writeStdout(`${JSON.stringify({ extensions: listed, packages, ...resources, mcpServers }, null, 2)}\n`);
	else {
		const more = [formatPackageList(packages), formatResourceList(resources), formatMcpList(mcpServers)].filter(Boolean);
		writeStdout(formatExtensionList(listed) + more.map((m) => `\n${m}`).join(""));
	}
	// CI gates on this: an extension that does not load fails the listing.
	return listed.some((l) => l.status === "error") ? 1 : 0;
}
