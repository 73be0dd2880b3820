// `agent list [--json]`: every resolved extension grouped project / user / path, its status and
// what it registered. A report: exits 0 even when an extension fails, but shows why.
import { APP_NAME, tildify } from "../config.ts";
import type { ExtensionEntry, ExtensionGroup } from "../core/extensions/discovery.ts";
import type { Extension } from "../core/extensions/types.ts";
import { decideTrust, discoverForRun } from "../core/resources/resource-loader.ts";
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
		const { loadExtensions } = await import("../core/extensions/loader.ts");
		// The report owns stdout (`--json` must stay parseable): what factories print goes to stderr.
		const { log, info, debug } = console;
		console.log = console.info = console.debug = console.error;
		const result = await loadExtensions(discovery.entries, { cwd }).finally(() => Object.assign(console, { log, info, debug }));
		for (const entry of discovery.entries) {
			const ext = result.extensions.find((e) => e.path === entry.path);
			const error = result.errors.find((e) => e.path === entry.path);
			listed.push(ext ? describe(entry, "loaded", ext) : describe(entry, "error", undefined, error?.reason ?? "not loaded"));
		}
	}
	for (const entry of discovery.untrustedProject) listed.push(describe(entry, "skipped (untrusted)"));
	return GROUPS.flatMap((g) => listed.filter((l) => l.group === g));
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
	writeStdout(json ? `${JSON.stringify({ extensions: listed }, null, 2)}\n` : formatExtensionList(listed));
	return 0;
}
