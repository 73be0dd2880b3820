// Builds the system prompt from the active tools, their snippets and guidelines, context files,
// skills, the user's --system-prompt / --append-system-prompt and extensions' named sections.
// before_agent_start handlers get the options in their normalized, mutable form (pi 1.6).
import type { ContextFile } from "../resources/context-files.ts";

export interface SkillSummary {
	name: string;
	description: string;
	filePath: string;
}

export interface BuildSystemPromptOptions {
	/** Replaces the default opening (from --system-prompt). */
	customPrompt?: string;
	/** The exact, whole prompt (a before_agent_start handler's replacement). */
	forceSystemPrompt?: string;
	/** Names of the active tools, in order. */
	selectedTools?: string[];
	/** Active tools the request does not declare (reachable only through another tool); left out of the prompt too. */
	hiddenTools?: string[];
	/** One line per tool for "Available tools"; tools without a snippet are left out of that list. */
	toolSnippets?: Record<string, string>;
	/** Guideline bullets per tool (its promptGuidelines), used while the tool is selected. */
	toolGuidelines?: Record<string, string[]>;
	/** Extra guideline bullets. */
	promptGuidelines?: string[];
	/** Appended after the guidelines (from --append-system-prompt). */
	appendSystemPrompt?: string;
	/** Extra sections by name, each rendered as `<name>\n…\n</name>` at the end. */
	sections?: Record<string, string>;
	cwd: string;
	contextFiles?: ContextFile[];
	skills?: SkillSummary[];
}

/** Every collection present and copied, so handlers can change them in place. */
export type NormalizedSystemPromptOptions = BuildSystemPromptOptions &
	Required<Pick<BuildSystemPromptOptions, "selectedTools" | "hiddenTools" | "toolSnippets" | "toolGuidelines" | "promptGuidelines" | "sections" | "contextFiles" | "skills">> & {
		appendSystemPrompt: string;
	};

const SECTION_NAME = /^[a-z][a-z0-9_-]*$/;

export function normalizeSystemPromptOptions(input: BuildSystemPromptOptions): NormalizedSystemPromptOptions {
	return {
		...input,
		selectedTools: [...(input.selectedTools ?? [])],
		hiddenTools: [...(input.hiddenTools ?? [])],
		toolSnippets: { ...input.toolSnippets },
		toolGuidelines: Object.fromEntries(Object.entries(input.toolGuidelines ?? {}).map(([name, lines]) => [name, [...lines]])),
		promptGuidelines: [...(input.promptGuidelines ?? [])],
		appendSystemPrompt: input.appendSystemPrompt ?? "",
		sections: { ...input.sections },
		contextFiles: (input.contextFiles ?? []).map((f) => ({ ...f })),
		skills: (input.skills ?? []).map((s) => ({ ...s })),
	};
}

const GENERAL_GUIDELINE = "Be concise. Show file paths clearly when referring to code.";

const OPENING = `You are an expert coding assistant working inside a software project through a command-line agent. You help the user by reading files, running commands, editing code and writing new files.`;

export function buildSystemPrompt(options: BuildSystemPromptOptions): string {
	if (options.forceSystemPrompt !== undefined) return options.forceSystemPrompt;
	const parts: string[] = [options.customPrompt ?? OPENING];
	const hidden = new Set(options.hiddenTools ?? []);
	const tools = (options.selectedTools ?? []).filter((t) => !hidden.has(t));
	if (!options.customPrompt) {
		const listed = tools.filter((t) => options.toolSnippets?.[t]).map((t) => `- ${t}: ${options.toolSnippets![t]}`);
		if (listed.length > 0) parts.push(`Available tools:\n${listed.join("\n")}`);
		// Tool-specific advice comes from each selected tool's guidelines; a Set says each line once.
		const lines: string[] = [];
		for (const t of tools) lines.push(...(options.toolGuidelines?.[t] ?? []));
		lines.push(...(options.promptGuidelines ?? []), GENERAL_GUIDELINE);
		const guidelines = new Set(lines.map((g) => g.trim()).filter(Boolean));
		parts.push(`Guidelines:\n${[...guidelines].map((g) => `- ${g}`).join("\n")}`);
	}
	if (options.contextFiles && options.contextFiles.length > 0) {
		const files = options.contextFiles.map((f) => `## ${f.path}\n\n${f.content.trim()}`).join("\n\n");
		parts.push(`# Project context\n\nInstructions from context files; nearer folders come later and take precedence.\n\n${files}`);
	}
	if (options.skills && options.skills.length > 0 && tools.includes("read")) {
		const list = options.skills.map((s) => `  <skill name="${s.name}" location="${s.filePath}">${s.description}</skill>`).join("\n");
		parts.push(
			`# Skills\n\nSkills are instructions for specific tasks. When a task matches a skill's description, read its file with the read tool before acting.\n<available_skills>\n${list}\n</available_skills>`,
		);
	}
	if (options.appendSystemPrompt) parts.push(options.appendSystemPrompt);
	parts.push(`Current date: ${new Date().toISOString().slice(0, 10)}\nCurrent working directory: ${options.cwd}`);
	for (const [name, content] of Object.entries(options.sections ?? {})) {
		if (!SECTION_NAME.test(name)) throw new Error(`Invalid system prompt section name "${name}": use lowercase letters, digits, "_" and "-", starting with a letter`);
		if (content) parts.push(`<${name}>\n${content}\n</${name}>`);
	}
	return parts.join("\n\n");
}
