// The resources a session carries besides extensions: context files, skills and prompt templates,
// from their folders, settings, flags and `resources_discover`, with what went wrong loading them.
// The host expands `/skill:<name>` and `/template` through it; start-up lists read it.
import { join } from "node:path";
import { getAgentDir, getProjectConfigDir } from "../../config.ts";
import type { SkillSummary } from "../agent/system-prompt.ts";
import type { SlashCommandInfo, SourceInfo } from "../extensions/types.ts";
import { packageSourcesIn, resolvePackage, selectPackages, type ResolvedPackage } from "../packages/configured.ts";
import { loadContextFiles, type ContextFile } from "./context-files.ts";
import { expandTemplate, loadPromptTemplates, type PromptTemplate } from "./prompt-templates.ts";
import { resolveResourcePath, type ResourceDiagnostic, type ResourcePath } from "./resource-paths.ts";
import { readRunSettings, settingBoolean, settingsPathList, type RunSettings } from "./settings.ts";
import { loadSkills, skillPrompt, type Skill } from "./skills.ts";

export interface ResourceOptions {
	cwd: string;
	/** Project `.agent/skills`, `.agent/prompts` and project settings load only when true. */
	projectTrusted: boolean;
	/** `--skill` paths (files or folders), relative to cwd. */
	skillPaths?: string[];
	/** `-ns`: no skills from the default folders or settings; `--skill` and extension paths still load. */
	noSkills?: boolean;
	/** `--prompt-template` paths (files or folders), relative to cwd. */
	promptPaths?: string[];
	/** `-np`: like `noSkills`, for prompt templates. */
	noPromptTemplates?: boolean;
	/** `-nc`: no AGENTS.md / CLAUDE.md. */
	noContextFiles?: boolean;
	/** Default: read from disk for each load (the project's only when trusted). */
	settings?: RunSettings;
	/** `-e` package sources (`npm:…`, `git:…`; paths are ignored): their skills and prompt templates join. */
	packageSources?: string[];
}

/** A path a `resources_discover` handler returned, with the extension that returned it. */
export interface ExtensionResourcePath {
	path: string;
	extensionPath: string;
}

/** `extension:<file name without .ts/.js>`, as pi labels extension-provided resources. */
function extensionOrigin(extensionPath: string): string {
	const base = extensionPath.split("/").pop() ?? extensionPath;
	return `extension:${base.replace(/^<|>$/g, "").replace(/\.(ts|js)$/, "")}`;
}

function extensionBaseDir(extensionPath: string, cwd: string): string {
	return extensionPath.startsWith("<") ? cwd : extensionPath.slice(0, Math.max(extensionPath.lastIndexOf("/"), 1));
}

export class ResourceSet {
	readonly options: ResourceOptions;
	contextFiles: ContextFile[] = [];
	/** One per name, in precedence order. */
	skills: Skill[] = [];
	/** One per name, in precedence order. */
	prompts: PromptTemplate[] = [];
	skillDiagnostics: ResourceDiagnostic[] = [];
	promptDiagnostics: ResourceDiagnostic[] = [];
	/** Settings `enableSkillCommands` (default true): whether `/skill:<name>` commands exist. */
	skillCommands = true;
	private runSettings: RunSettings = {};
	private packages: ResolvedPackage[] = [];
	private extensionSkillPaths: ResourcePath[] = [];
	private extensionPromptPaths: ResourcePath[] = [];

	constructor(options: ResourceOptions) {
		this.options = options;
	}

	/** Read everything from disk (start-up, `/reload`). Throws SettingsError on a malformed settings file. */
	reload(): this {
		const o = this.options;
		this.runSettings = o.settings ?? readRunSettings(o.cwd, o.projectTrusted);
		this.skillCommands = settingBoolean(this.runSettings, "enableSkillCommands") ?? true;
		this.contextFiles = o.noContextFiles ? [] : loadContextFiles(o.cwd);
		this.packages = this.readPackages();
		this.loadSkills();
		this.loadPrompts();
		return this;
	}

	get cwd(): string {
		return this.options.cwd;
	}

	/** The settings files the last load read (the project's only when trusted). */
	get settings(): RunSettings {
		return this.runSettings;
	}

	/** Installed packages of settings and `-e` (never installs; a package that failed to install contributes nothing). */
	private readPackages(): ResolvedPackage[] {
		const o = this.options;
		const cli = packageSourcesIn(o.packageSources ?? []);
		if (cli.length === 0 && !Array.isArray(this.runSettings.user?.data.packages) && !Array.isArray(this.runSettings.project?.data.packages)) return [];
		try {
			return selectPackages(this.runSettings, cli, o.cwd).packages.map(resolvePackage).filter((p) => p.installed);
		} catch {
			// A malformed "packages" setting or -e source is reported by extension discovery.
			return [];
		}
	}

	/** What a scope's packages contribute of one kind, as sources named after each package. */
	private packagePaths(kind: "skills" | "prompts", scope: ResolvedPackage["scope"]): ResourcePath[] {
		const as = scope === "temporary" ? "path" : scope;
		const out: ResourcePath[] = [];
		for (const p of this.packages) if (p.scope === scope) for (const path of p.resources[kind]) out.push({ path, scope: as, origin: p.source });
		return out;
	}

	/** Replace what extensions contributed (each `resources_discover`) and load again. */
	setExtensionPaths(skills: ExtensionResourcePath[], prompts: ExtensionResourcePath[]): void {
		const toSource = (p: ExtensionResourcePath): ResourcePath => ({
			path: resolveResourcePath(p.path, extensionBaseDir(p.extensionPath, this.options.cwd)),
			scope: "extension",
			origin: extensionOrigin(p.extensionPath),
		});
		const before = JSON.stringify([this.extensionSkillPaths, this.extensionPromptPaths]);
		this.extensionSkillPaths = skills.map(toSource);
		this.extensionPromptPaths = prompts.map(toSource);
		if (JSON.stringify([this.extensionSkillPaths, this.extensionPromptPaths]) === before) return;
		this.loadSkills();
		this.loadPrompts();
	}

	/**
	 * Where resources of one kind come from, highest precedence first: flags, the project
	 * (settings, then its folder), the user (settings, then `~/.agent/<kind>`), then extensions.
	 */
	private sources(kind: "skills" | "prompts", flagPaths: string[], flag: string, disabled: boolean | undefined, fromExtensions: ResourcePath[]): ResourcePath[] {
		const { cwd, projectTrusted } = this.options;
		const out: ResourcePath[] = flagPaths.map((p) => ({ path: resolveResourcePath(p, cwd), scope: "path", origin: flag }));
		// `-e npm:…` packages are explicit, like the flags: `-ns` / `-np` leave them in.
		out.push(...this.packagePaths(kind, "temporary"));
		if (!disabled) {
			const fromSettings = (file: RunSettings["project"], scope: "project" | "user") =>
				settingsPathList(file, kind).map((p) => ({ path: resolveResourcePath(p.value, p.baseDir), scope, origin: file!.path }) satisfies ResourcePath);
			// Per scope: settings paths, the folder, then packages (your own files win a name).
			if (projectTrusted) {
				out.push(...fromSettings(this.runSettings.project, "project"));
				out.push({ path: join(getProjectConfigDir(cwd), kind), scope: "project", origin: "the project folder", optional: true });
				out.push(...this.packagePaths(kind, "project"));
			}
			out.push(...fromSettings(this.runSettings.user, "user"));
			out.push({ path: join(getAgentDir(), kind), scope: "user", origin: "the user folder", optional: true });
			out.push(...this.packagePaths(kind, "user"));
		}
		return [...out, ...fromExtensions];
	}

	private loadSkills(): void {
		const o = this.options;
		const result = loadSkills(this.sources("skills", o.skillPaths ?? [], "--skill", o.noSkills, this.extensionSkillPaths));
		this.skills = result.skills;
		this.skillDiagnostics = result.diagnostics;
	}

	private loadPrompts(): void {
		const o = this.options;
		const result = loadPromptTemplates(this.sources("prompts", o.promptPaths ?? [], "--prompt-template", o.noPromptTemplates, this.extensionPromptPaths));
		this.prompts = result.templates;
		this.promptDiagnostics = result.diagnostics;
	}

	/** The skills the system prompt lists (those the model may pick itself). */
	skillSummaries(): SkillSummary[] {
		return this.skills.filter((s) => !s.disableModelInvocation).map((s) => ({ name: s.name, description: s.description, filePath: s.filePath }));
	}

	/**
	 * `/skill:<name> [args]` or `/<template> [args]` → the text to send; undefined when `text` is
	 * neither. Throws when the skill's file can no longer be read.
	 */
	expand(text: string): string | undefined {
		if (!text.startsWith("/")) return undefined;
		const match = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text);
		if (!match) return undefined;
		const [, name, args = ""] = match;
		if (name!.startsWith("skill:") && this.skillCommands) {
			const skill = this.skills.find((s) => s.name === name!.slice("skill:".length));
			if (skill) return skillPrompt(skill, args);
		}
		const template = this.prompts.find((t) => t.name === name);
		return template ? expandTemplate(template, args) : undefined;
	}

	/** Templates (`source: "prompt"`) then skills (`skill:<name>`, `source: "skill"`), for getCommands(). */
	commandInfos(): SlashCommandInfo[] {
		const info = (r: { filePath: string; scope: ResourcePath["scope"]; origin: string }): SourceInfo => ({
			path: r.filePath,
			source: r.origin.startsWith("extension:") ? r.origin : r.origin.startsWith("--") ? "cli" : "local",
			scope: r.scope === "project" || r.scope === "user" ? r.scope : "temporary",
			origin: "top-level",
		});
		const templates: SlashCommandInfo[] = this.prompts.map((t) => ({ name: t.name, description: t.description, source: "prompt", sourceInfo: info(t) }));
		const skills: SlashCommandInfo[] = this.skillCommands ? this.skills.map((s) => ({ name: `skill:${s.name}`, description: s.description, source: "skill", sourceInfo: info(s) })) : [];
		return [...templates, ...skills];
	}
}
