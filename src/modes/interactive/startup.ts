// What the REPL prints before the first prompt (SPEC §9, reference §6): header and hints,
// `[Context]`, `[Extensions]` compact or expanded, and `[Extension issues]` — start-up issues plus
// extension commands hidden by built-ins and refused or contested shortcuts.
import { relative } from "node:path";
import { APP_NAME, tildify, VERSION } from "../../config.ts";
import { resolveCommandNames } from "../../core/extensions/commands.ts";
import type { ExtensionGroup } from "../../core/extensions/discovery.ts";
import type { Extension } from "../../core/extensions/types.ts";
import { resolveShortcuts } from "./shortcuts.ts";
import { renderStartupList, type StartupIssue } from "./startup-list.ts";

export const HINTS = "escape interrupt · ctrl+c/ctrl+d clear/exit · / commands · ! bash · ctrl+o more";

export function groupOf(ext: Extension): ExtensionGroup {
	return ext.sourceInfo.scope === "project" ? "project" : ext.sourceInfo.scope === "user" ? "user" : "path";
}

/** Extension commands that a built-in of the same name hides (reference §5.8 wording). */
export function builtinConflicts(extensions: Extension[], builtins: ReadonlySet<string>): StartupIssue[] {
	const issues: StartupIssue[] = [];
	for (const command of resolveCommandNames(extensions).commands) {
		if (!builtins.has(command.name)) continue;
		const owner = extensions.find((e) => e.sourceInfo.path === command.sourceInfo.path);
		const suffixed = command.invocationName !== command.name;
		issues.push({
			group: owner ? groupOf(owner) : "path",
			path: owner?.path ?? command.sourceInfo.path,
			message: `Extension command '/${command.name}' conflicts with built-in interactive command. ${suffixed ? `Available as '/${command.invocationName}'.` : "Skipping in autocomplete."}`,
		});
	}
	return issues;
}

/** Every issue the start-up list shows, in a stable order. */
export function startupIssues(extensions: Extension[], base: StartupIssue[], builtins: ReadonlySet<string>): StartupIssue[] {
	const groups = new Map(extensions.map((e) => [e.path, groupOf(e)]));
	const shortcuts = resolveShortcuts(extensions).issues.map((i) => ({ group: groups.get(i.path) ?? ("path" as const), path: i.path, message: i.message }));
	return [...base, ...builtinConflicts(extensions, builtins), ...shortcuts];
}

/** A context file as shown: relative to cwd when inside it, else with `~`. */
export function contextLabel(path: string, cwd: string): string {
	const rel = relative(cwd, path);
	return rel && !rel.startsWith("..") ? rel : tildify(path);
}

export interface StartupView {
	extensions: Extension[];
	issues: StartupIssue[];
	/** Context files, already labelled. */
	context: string[];
	expanded: boolean;
	/** `quietStartup`: only issues are shown. */
	quiet?: boolean;
}

export function startupLines(view: StartupView): string[] {
	const lines = renderStartupList({
		appName: APP_NAME,
		version: VERSION,
		hints: HINTS,
		context: view.context,
		extensions: view.extensions.map((e) => ({ path: e.resolvedPath, group: groupOf(e) })),
		issues: view.issues,
		expanded: view.expanded,
	});
	if (!view.quiet) return lines;
	const at = lines.indexOf("[Extension issues]");
	return at < 0 ? [] : lines.slice(at);
}
