// Skills: markdown instructions for one kind of task, a `SKILL.md` with frontmatter `name` and
// `description` in a folder of its own. The system prompt lists them; the model reads one with the
// read tool when a task matches, and `/skill:<name> [args]` puts one into the prompt directly.
import { readdirSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { parseFrontmatter } from "./frontmatter.ts";
import { dedupeByName, kindOf, missingPathWarning, readResourceText, resourceProblem, type ResourceDiagnostic, type ResourcePath, type ResourceScope } from "./resource-paths.ts";

export interface Skill {
	name: string;
	description: string;
	/** The skill's markdown file. */
	filePath: string;
	/** Its folder: relative paths inside the skill resolve from here. */
	baseDir: string;
	scope: ResourceScope;
	/** Where the path that found it was named (`--skill`, a settings file, `extension:<name>`). */
	origin: string;
	/** Frontmatter `disable-model-invocation: true`: not listed to the model, only `/skill:<name>`. */
	disableModelInvocation: boolean;
}

export interface LoadSkillsResult {
	/** In precedence order, one per name. */
	skills: Skill[];
	diagnostics: ResourceDiagnostic[];
}

const SKILL_FILE = "SKILL.md";
/** Letters, digits, `.`, `_`, `-`: a name that `/skill:<name>` can carry. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Skill folders nest (`skills/team/review/SKILL.md`), but not without end. */
const MAX_DEPTH = 4;

function readSkill(filePath: string, source: ResourcePath, fallbackName: string, diagnostics: ResourceDiagnostic[]): Skill | undefined {
	let frontmatter: Record<string, unknown>;
	try {
		frontmatter = parseFrontmatter(readResourceText(filePath)).frontmatter;
	} catch (error) {
		diagnostics.push({ type: "warning", path: filePath, message: `${resourceProblem(error)}; skill skipped` });
		return undefined;
	}
	const name = typeof frontmatter.name === "string" && frontmatter.name.trim() ? frontmatter.name.trim() : fallbackName;
	const description = typeof frontmatter.description === "string" ? frontmatter.description.trim() : "";
	if (!description) {
		diagnostics.push({ type: "warning", path: filePath, message: `"description" is missing from the frontmatter; skill skipped` });
		return undefined;
	}
	if (!NAME.test(name)) {
		diagnostics.push({ type: "warning", path: filePath, message: `name "${name}" may hold only letters, digits, ".", "_" and "-"; skill skipped` });
		return undefined;
	}
	return {
		name,
		description,
		filePath,
		baseDir: dirname(filePath),
		scope: source.scope,
		origin: source.origin,
		disableModelInvocation: frontmatter["disable-model-invocation"] === true,
	};
}

/** A skill file found in a folder, with the name it gets when its frontmatter names none. */
export interface SkillFile {
	path: string;
	fallbackName: string;
}

/**
 * A skills folder: a folder with `SKILL.md` is one skill (nothing below it is searched); otherwise
 * loose `*.md` files at the top are skills named after the file, and subfolders are searched.
 */
export function skillFilesIn(dir: string, depth = 0, out: SkillFile[] = []): SkillFile[] {
	let names: string[];
	try {
		names = readdirSync(dir).sort();
	} catch {
		return out;
	}
	if (names.includes(SKILL_FILE) && kindOf(join(dir, SKILL_FILE)) === "file") {
		out.push({ path: join(dir, SKILL_FILE), fallbackName: basename(dir) });
		return out;
	}
	for (const name of names) {
		if (name.startsWith(".") || name === "node_modules") continue;
		const path = join(dir, name);
		const kind = kindOf(path);
		if (kind === "dir" && depth < MAX_DEPTH) skillFilesIn(path, depth + 1, out);
		else if (kind === "file" && depth === 0 && name.endsWith(".md")) out.push({ path, fallbackName: name.slice(0, -3) });
	}
	return out;
}

/** Load skills from `sources`, in precedence order: the first skill of a name wins. */
export function loadSkills(sources: ResourcePath[]): LoadSkillsResult {
	const found: Skill[] = [];
	const diagnostics: ResourceDiagnostic[] = [];
	for (const source of sources) {
		const kind = kindOf(source.path);
		if (kind === "dir") {
			for (const file of skillFilesIn(source.path)) {
				const skill = readSkill(file.path, source, file.fallbackName, diagnostics);
				if (skill) found.push(skill);
			}
		} else if (kind === "file") {
			const fallback = basename(source.path) === SKILL_FILE ? basename(dirname(source.path)) : basename(source.path).replace(/\.md$/, "");
			const skill = readSkill(source.path, source, fallback, diagnostics);
			if (skill) found.push(skill);
		} else {
			const warning = missingPathWarning(source);
			if (warning) diagnostics.push(warning);
		}
	}
	return { skills: dedupeByName(found, diagnostics), diagnostics };
}

/**
 * What `/skill:<name> [args]` sends: the skill's instructions (frontmatter dropped) in a
 * `<skill>` block that says where its relative paths point, then the user's words.
 */
export function skillPrompt(skill: Skill, args: string): string {
	let body: string;
	try {
		body = parseFrontmatter(readResourceText(skill.filePath)).body.trim();
	} catch (error) {
		throw new Error(`Cannot read skill "${skill.name}" from ${skill.filePath}: ${resourceProblem(error)}`);
	}
	const block = `<skill name="${skill.name}" path="${skill.filePath}">\nPaths in this skill are relative to ${skill.baseDir}.\n\n${body}\n</skill>`;
	return args.trim() ? `${block}\n\n${args.trim()}` : block;
}
