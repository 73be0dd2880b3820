// Start-up sections for resources as plain lines: `[Context]`, `[Skills]`, `[Prompts]` (compact
// or expanded) and `[Skill conflicts]` / `[Prompt conflicts]`. Pure, like startup-list.ts, so the
// REPL and `--verbose` print the same thing.
import { relative } from "node:path";
import { tildify } from "../../config.ts";
import type { ResourceDiagnostic, ResourceScope } from "../../core/resources/resource-paths.ts";

export interface StartupSection {
	/** Without brackets: `Context`, `Skill conflicts`, … */
	title: string;
	lines: string[];
}

/** The parts of a ResourceSet the sections show. */
export interface ResourceSectionsInput {
	cwd: string;
	contextFiles: readonly { path: string }[];
	skills: readonly { name: string; filePath: string; scope: ResourceScope }[];
	prompts: readonly { name: string; filePath: string; scope: ResourceScope }[];
	skillDiagnostics: readonly ResourceDiagnostic[];
	promptDiagnostics: readonly ResourceDiagnostic[];
}

const SCOPES: ResourceScope[] = ["project", "user", "path", "extension"];
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Inside cwd: relative (`AGENTS.md`); elsewhere: absolute with home as `~`. */
function displayPath(path: string, cwd: string): string {
	const rel = relative(cwd, path);
	return rel && !rel.startsWith("..") && !rel.startsWith("/") ? rel : tildify(path);
}

function grouped<T extends { filePath: string; scope: ResourceScope }>(items: readonly T[], line: (item: T) => string): string[] {
	const out: string[] = [];
	for (const scope of SCOPES) {
		const lines = items.filter((i) => i.scope === scope).map(line).sort(byText);
		if (lines.length > 0) out.push(`  ${scope}`, ...lines.map((l) => `    ${l}`));
	}
	return out;
}

/** `[Context]`, `[Skills]`, `[Prompts]`; empty ones are left out. Context files keep their order. */
export function resourceSections(input: ResourceSectionsInput, expanded: boolean): StartupSection[] {
	const sections: StartupSection[] = [];
	const { cwd } = input;
	if (input.contextFiles.length > 0) {
		const paths = input.contextFiles.map((f) => (expanded ? tildify(f.path) : displayPath(f.path, cwd)));
		sections.push({ title: "Context", lines: expanded ? paths.map((p) => `  ${p}`) : [`  ${paths.join(", ")}`] });
	}
	if (input.skills.length > 0) {
		const lines = expanded ? grouped(input.skills, (s) => tildify(s.filePath)) : [`  ${input.skills.map((s) => s.name).sort(byText).join(", ")}`];
		sections.push({ title: "Skills", lines });
	}
	if (input.prompts.length > 0) {
		const lines = expanded ? grouped(input.prompts, (p) => `/${p.name}  ${tildify(p.filePath)}`) : [`  ${input.prompts.map((p) => `/${p.name}`).sort(byText).join(", ")}`];
		sections.push({ title: "Prompts", lines });
	}
	return sections;
}

function diagnosticLines(diagnostics: readonly ResourceDiagnostic[]): string[] {
	const lines: string[] = [];
	const collisions = new Map<string, Extract<ResourceDiagnostic, { type: "collision" }>[]>();
	for (const d of diagnostics) if (d.type === "collision") collisions.set(d.name, [...(collisions.get(d.name) ?? []), d]);
	for (const [name, list] of collisions) {
		lines.push(`  "${name}" collision:`, `    ✓ ${tildify(list[0]!.winnerPath)}`, ...list.map((d) => `    ✗ ${tildify(d.loserPath)} (skipped)`));
	}
	for (const d of diagnostics) if (d.type === "warning") lines.push(`  ${tildify(d.path)}`, `    ${d.message}`);
	return lines;
}

/** `[Skill conflicts]` and `[Prompt conflicts]`: name collisions (which file won) and files that did not load. */
export function resourceConflictSections(input: Pick<ResourceSectionsInput, "skillDiagnostics" | "promptDiagnostics">): StartupSection[] {
	const sections: StartupSection[] = [];
	if (input.skillDiagnostics.length > 0) sections.push({ title: "Skill conflicts", lines: diagnosticLines(input.skillDiagnostics) });
	if (input.promptDiagnostics.length > 0) sections.push({ title: "Prompt conflicts", lines: diagnosticLines(input.promptDiagnostics) });
	return sections;
}

/** Sections as printed: a blank line, `[Title]`, then the section's lines. */
export function sectionLines(sections: readonly StartupSection[]): string[] {
	// A loop, not flatMap: that builtin is compiled on its first call, and the first frame comes here.
	const lines: string[] = [];
	for (const s of sections) lines.push("", `[${s.title}]`, ...s.lines);
	return lines;
}
