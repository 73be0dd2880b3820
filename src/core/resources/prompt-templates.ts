// Prompt templates: `<name>.md` files typed as `/name args`. The body (frontmatter dropped) is sent
// with `$1`, `$2`, … `$@` / `$ARGUMENTS`, `${@:N}` and `${@:N:L}` replaced by the arguments.
import { readdirSync } from "node:fs";
import { basename, join } from "node:path";
import { parseFrontmatter } from "./frontmatter.ts";
import { dedupeByName, kindOf, missingPathWarning, readResourceText, resourceProblem, type ResourceDiagnostic, type ResourcePath, type ResourceScope } from "./resource-paths.ts";

export interface PromptTemplate {
	/** The file name without `.md`: what follows the `/`. */
	name: string;
	/** Frontmatter `description`, else the first line of the body (shortened). */
	description: string;
	/** Frontmatter `argument-hint`, shown after the name in completion. */
	argumentHint?: string;
	/** The body, frontmatter dropped. */
	content: string;
	filePath: string;
	scope: ResourceScope;
	origin: string;
}

export interface LoadPromptTemplatesResult {
	/** In precedence order, one per name. */
	templates: PromptTemplate[];
	diagnostics: ResourceDiagnostic[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const DESCRIPTION_LENGTH = 60;

function readTemplate(filePath: string, source: ResourcePath, diagnostics: ResourceDiagnostic[]): PromptTemplate | undefined {
	const name = basename(filePath).replace(/\.md$/, "");
	if (!NAME.test(name)) {
		diagnostics.push({ type: "warning", path: filePath, message: `"/${name}" cannot be typed as a command (use letters, digits, ".", "_" and "-"); template skipped` });
		return undefined;
	}
	let parsed: { frontmatter: Record<string, unknown>; body: string };
	try {
		parsed = parseFrontmatter(readResourceText(filePath));
	} catch (error) {
		diagnostics.push({ type: "warning", path: filePath, message: `${resourceProblem(error)}; template skipped` });
		return undefined;
	}
	const { frontmatter, body } = parsed;
	let description = typeof frontmatter.description === "string" ? frontmatter.description.trim() : "";
	if (!description) {
		const first = body.split("\n").find((line) => line.trim())?.trim() ?? "";
		description = first.length > DESCRIPTION_LENGTH ? `${first.slice(0, DESCRIPTION_LENGTH)}…` : first;
	}
	const hint = frontmatter["argument-hint"];
	return {
		name,
		description,
		...(typeof hint === "string" && hint ? { argumentHint: hint } : {}),
		content: body.trim(),
		filePath,
		scope: source.scope,
		origin: source.origin,
	};
}

/** Load templates from `sources` (folders: their `*.md` files, not recursive), first name wins. */
export function loadPromptTemplates(sources: ResourcePath[]): LoadPromptTemplatesResult {
	const found: PromptTemplate[] = [];
	const diagnostics: ResourceDiagnostic[] = [];
	for (const source of sources) {
		const kind = kindOf(source.path);
		if (kind === "dir") {
			let names: string[] = [];
			try {
				names = readdirSync(source.path).sort();
			} catch {
				// Unreadable folder: nothing to load from it.
			}
			for (const name of names) {
				const path = join(source.path, name);
				if (name.endsWith(".md") && !name.startsWith(".") && kindOf(path) === "file") {
					const template = readTemplate(path, source, diagnostics);
					if (template) found.push(template);
				}
			}
		} else if (kind === "file") {
			if (!source.path.endsWith(".md")) {
				diagnostics.push({ type: "warning", path: source.path, message: `a prompt template must be a .md file (named by ${source.origin})` });
				continue;
			}
			const template = readTemplate(source.path, source, diagnostics);
			if (template) found.push(template);
		} else {
			const warning = missingPathWarning(source);
			if (warning) diagnostics.push(warning);
		}
	}
	return { templates: dedupeByName(found, diagnostics), diagnostics };
}

/** Split an argument string the way a shell would for simple cases: spaces, '…' and "…". */
export function parseCommandArgs(text: string): string[] {
	const args: string[] = [];
	let current = "";
	let quote: string | undefined;
	let started = false;
	for (const ch of text) {
		if (quote) {
			if (ch === quote) quote = undefined;
			else current += ch;
		} else if (ch === '"' || ch === "'") {
			quote = ch;
			started = true;
		} else if (ch === " " || ch === "\t" || ch === "\n") {
			if (started) args.push(current);
			current = "";
			started = false;
		} else {
			current += ch;
			started = true;
		}
	}
	if (started) args.push(current);
	return args;
}

const PLACEHOLDER = /\$\{@:(\d+)(?::(\d+))?\}|\$(\d+)|\$ARGUMENTS|\$@/g;
const HAS_PLACEHOLDER = new RegExp(PLACEHOLDER.source);

/**
 * Replace the placeholders in one pass, so an argument that itself contains `$1` stays as typed.
 * `$N` past the last argument becomes empty; `${@:N}` is the arguments from the Nth on.
 */
export function substituteArgs(content: string, args: string[]): string {
	return content.replace(PLACEHOLDER, (match, sliceStart?: string, sliceLength?: string, index?: string) => {
		if (index !== undefined) return args[Number(index) - 1] ?? "";
		if (sliceStart !== undefined) {
			const start = Math.max(Number(sliceStart) - 1, 0);
			return (sliceLength !== undefined ? args.slice(start, start + Number(sliceLength)) : args.slice(start)).join(" ");
		}
		return args.join(" ");
	});
}

/**
 * The text a template sends for `args` (the raw text after the name). A template without any
 * placeholder gets the arguments appended, so nothing typed is silently dropped.
 */
export function expandTemplate(template: PromptTemplate, args: string): string {
	if (!HAS_PLACEHOLDER.test(template.content)) return args.trim() ? `${template.content}\n\n${args.trim()}` : template.content;
	return substituteArgs(template.content, parseCommandArgs(args));
}
