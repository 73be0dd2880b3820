// The start-up list of SPEC §9 as plain lines: header, `[Context]`, `[Extensions]` compact or
// expanded, and `[Extension issues]`. Pure, so the REPL (ctrl+o) and `--verbose` print the same thing.
import { tildify } from "../../config.ts";
import type { ExtensionGroup } from "../../core/extensions/discovery.ts";

export interface StartupListExtension {
	/** Resolved absolute path of the entry file. */
	path: string;
	group: ExtensionGroup;
}

export interface StartupIssue {
	group: ExtensionGroup;
	path: string;
	message: string;
}

export interface StartupListInput {
	appName: string;
	version: string;
	/** The key-hints line under the header (interactive only). */
	hints?: string;
	/** Context files (AGENTS.md, CLAUDE.md) as they should be shown. Default none. */
	context?: string[];
	extensions: StartupListExtension[];
	issues: StartupIssue[];
	expanded: boolean;
}

const GROUPS: ExtensionGroup[] = ["project", "user", "path"];
const ISSUE_LABELS: Record<ExtensionGroup, string> = { project: "project", user: "user", path: "path (temp)" };

/** A dir-style extension is shown by its folder: drop a trailing `/index.ts` or `/index.js`. */
function dropIndex(path: string): string {
	return path.replace(/\/index\.(ts|js)$/, "");
}

/** Shortest trailing path of each entry that no other entry shares. */
export function compactLabels(paths: string[]): string[] {
	const parts = paths.map((p) => dropIndex(p).split("/").filter(Boolean));
	return parts.map((segs, i) => {
		for (let n = 1; n <= segs.length; n++) {
			const tail = segs.slice(-n).join("/");
			const clash = parts.some((other, j) => j !== i && other.slice(-n).join("/") === tail);
			if (!clash) return tail;
		}
		return segs.join("/");
	});
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function renderStartupList(input: StartupListInput): string[] {
	const lines = [` ${input.appName} v${input.version}`];
	if (input.hints) lines.push(` ${input.hints}`);
	if (input.context && input.context.length > 0) {
		lines.push("", "[Context]");
		if (input.expanded) lines.push(...input.context.map((c) => `  ${c}`));
		else lines.push(`  ${input.context.join(", ")}`);
	}
	if (input.extensions.length > 0) {
		lines.push("", "[Extensions]");
		if (!input.expanded) {
			lines.push(`  ${compactLabels(input.extensions.map((e) => e.path)).sort(byText).join(", ")}`);
		} else {
			for (const group of GROUPS) {
				const paths = input.extensions.filter((e) => e.group === group).map((e) => tildify(dropIndex(e.path)));
				if (paths.length === 0) continue;
				lines.push(`  ${group}`, ...paths.sort(byText).map((p) => `    ${p}`));
			}
		}
	}
	if (input.issues.length > 0) {
		lines.push("", "[Extension issues]");
		for (const issue of input.issues) lines.push(`  ${ISSUE_LABELS[issue.group]} ${tildify(issue.path)}`, `    ${issue.message}`);
	}
	return lines;
}
