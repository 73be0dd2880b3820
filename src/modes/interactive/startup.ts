// What the REPL prints before the first prompt (SPEC §9, reference §6): header and hints, the
// resource sections, `[Extensions]` compact or expanded, and `[Extension issues]` — start-up issues
// plus extension commands hidden by built-ins and refused or contested shortcuts.
import { APP_NAME, VERSION } from "../../config.ts";
import { resolveCommandNames } from "../../core/extensions/commands.ts";
import type { ExtensionGroup } from "../../core/extensions/discovery.ts";
import type { Extension } from "../../core/extensions/types.ts";
import { resolveShortcuts } from "./shortcuts.ts";
import { resourceConflictSections, resourceSections, sectionLines, type ResourceSectionsInput } from "./resource-sections.ts";
import { extensionLines, issueLines, type StartupIssue } from "./startup-list.ts";

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
	// No extension, no command or shortcut of one to conflict (the list of a start with -ne).
	if (extensions.length === 0) return [...base];
	const groups = new Map(extensions.map((e) => [e.path, groupOf(e)]));
	const shortcuts = resolveShortcuts(extensions).issues.map((i) => ({ group: groups.get(i.path) ?? ("path" as const), path: i.path, message: i.message }));
	return [...base, ...builtinConflicts(extensions, builtins), ...shortcuts];
}

/** The header: the name line and the key hints (the first two lines of the start-up list when not quiet). */
export function startupHeader(): string[] {
	return [` ${APP_NAME} v${VERSION}`, ` ${HINTS}`];
}

export interface StartupView {
	extensions: Extension[];
	issues: StartupIssue[];
	/** Context files, skills, prompt templates and their conflicts (the session's resource set). */
	resources?: ResourceSectionsInput;
	expanded: boolean;
	/** `quietStartup`: only problems (conflicts, issues) are shown. */
	quiet?: boolean;
}

/**
 * In pi's order (reference §6.1): header and hints, `[Context]`, `[Skills]`, `[Prompts]`,
 * `[Extensions]`, then `[Skill conflicts]`, `[Prompt conflicts]`, `[Extension issues]`.
 */
export function startupLines(view: StartupView): string[] {
	const problems = [...(view.resources ? sectionLines(resourceConflictSections(view.resources)) : []), ...issueLines(view.issues)];
	if (view.quiet) return problems;
	return [
		...startupHeader(),
		...(view.resources ? sectionLines(resourceSections(view.resources, view.expanded)) : []),
		...extensionLines(
			view.extensions.map((e) => ({ path: e.resolvedPath, group: groupOf(e) })),
			view.expanded,
		),
		...problems,
	];
}
