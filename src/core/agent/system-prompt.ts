// Builds the system prompt from the active tools, their snippets and guidelines, context files,
// skills and the user's --system-prompt / --append-system-prompt.
import type { ContextFile } from "../resources/context-files.ts";

export interface SkillSummary {
	name: string;
	description: string;
	filePath: string;
}

export interface BuildSystemPromptOptions {
	/** Replaces the default opening (from --system-prompt). */
	customPrompt?: string;
	/** Names of the active tools, in order. */
	selectedTools?: string[];
	/** One line per tool for "Available tools"; tools without a snippet are left out of that list. */
	toolSnippets?: Record<string, string>;
	/** Extra guideline bullets (from tools' promptGuidelines). */
	promptGuidelines?: string[];
	/** Appended at the end (from --append-system-prompt). */
	appendSystemPrompt?: string;
	cwd: string;
	contextFiles?: ContextFile[];
	skills?: SkillSummary[];
}

const GENERAL_GUIDELINE = "Be concise. Show file paths clearly when referring to code.";

const OPENING = `You are an expert coding assistant working inside a software project through a command-line agent. You help the user by reading files, running commands, editing code and writing new files.`;

export function buildSystemPrompt(options: BuildSystemPromptOptions): string {
	const parts: string[] = [options.customPrompt ?? OPENING];
	const tools = options.selectedTools ?? [];
	if (!options.customPrompt) {
		const listed = tools.filter((t) => options.toolSnippets?.[t]).map((t) => `- ${t}: ${options.toolSnippets![t]}`);
		if (listed.length > 0) parts.push(`Available tools:\n${listed.join("\n")}`);
		// Tool-specific advice comes from each tool's promptGuidelines; a Set says each line once.
		const guidelines = new Set([...(options.promptGuidelines ?? []), GENERAL_GUIDELINE]);
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
	return parts.join("\n\n");
}
