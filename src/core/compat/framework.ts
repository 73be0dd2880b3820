// Values pi 1.6's `@earendil-works/pi-coding-agent` exports that extensions import, mapped onto
// ours: tool definitions and result guards, diff and session helpers, compaction and skills
// helpers, settings, config paths. What the agent cannot honour throws `not supported by agent`.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { CONFIG_DIR_NAME, getAgentDir, runtimeShape } from "../../config.ts";
import type { AgentMessage } from "../agent/messages.ts";
import type { Usage } from "../providers/types.ts";
import { loadContextFiles } from "../resources/context-files.ts";
import { mergeSettings, projectSettingsPath, readSettingsFile, userSettingsPath } from "../resources/settings.ts";
import { loadSkills as loadSkillSources, type LoadSkillsResult, type Skill } from "../resources/skills.ts";
import { buildContextFromPath } from "../session/session-context.ts";
import type { CompactionEntry, SessionContext, SessionEntry } from "../session/session-entries.ts";
import { parseSessionText } from "../session/session-file.ts";
import { createBashTool, createEditTool, createFindTool, createGrepTool, createLsTool, createReadTool, createWriteTool } from "../tools/index.ts";
import { displayDiff, unifiedDiff } from "../tools/edit-diff.ts";
import type { AgentTool } from "../tools/types.ts";
import type { ExtensionFactory, RegisteredTool, SourceInfo, ToolResultEvent } from "../extensions/types.ts";
import { unsupported } from "./unsupported.ts";

// ---- tools ----------------------------------------------------------------------------------------

/** pi's `create*ToolDefinition`: our built-in tools already carry what a definition needs. */
export const createReadToolDefinition = createReadTool;
export const createBashToolDefinition = createBashTool;
export const createEditToolDefinition = createEditTool;
export const createWriteToolDefinition = createWriteTool;
export const createGrepToolDefinition = createGrepTool;
export const createFindToolDefinition = createFindTool;
export const createLsToolDefinition = createLsTool;

/** read, bash, edit and write: the tools active by default. */
export function createCodingTools(cwd: string): AgentTool<any, any>[] {
	return [createReadTool(cwd), createBashTool(cwd), createEditTool(cwd), createWriteTool(cwd)];
}
/** read, grep, find and ls: nothing that changes a file or runs a command. */
export function createReadOnlyTools(cwd: string): AgentTool<any, any>[] {
	return [createReadTool(cwd), createGrepTool(cwd), createFindTool(cwd), createLsTool(cwd)];
}

const resultOf = (name: string) => (event: Pick<ToolResultEvent, "toolName">) => event.toolName === name;
export const isReadToolResult = resultOf("read");
export const isBashToolResult = resultOf("bash");
export const isEditToolResult = resultOf("edit");
export const isWriteToolResult = resultOf("write");
export const isGrepToolResult = resultOf("grep");
export const isFindToolResult = resultOf("find");
export const isLsToolResult = resultOf("ls");
/** There is no PowerShell tool here, so no result is one. */
export const isPowerShellToolResult = (_event: Pick<ToolResultEvent, "toolName">) => false;

function lineNumber(value: unknown): number | undefined {
	const n = typeof value === "string" && value.trim() !== "" ? Number(value) : value;
	return typeof n === "number" && Number.isFinite(n) ? n : undefined;
}

/** `:start` or `:start-end` for a read's offset and limit; "" when neither is a number. */
export function formatReadLineRange(offset: unknown, limit: unknown): string {
	if (offset == null && limit == null) return "";
	const start = offset == null ? 1 : lineNumber(offset);
	if (start === undefined) return "";
	if (limit == null) return `:${start}`;
	const count = lineNumber(limit);
	if (count === undefined) return "";
	const end = start + count - 1;
	return `:${start}${end ? `-${end}` : ""}`;
}

/** A numbered diff for display, with the first changed line of the new text. */
export function generateDiffString(oldContent: string, newContent: string, contextLines = 4): { diff: string; firstChangedLine: number | undefined } {
	return displayDiff(oldContent, newContent, contextLines);
}
/** A standard unified patch with `--- a/<path>` / `+++ b/<path>` headers. */
export function generateUnifiedPatch(path: string, oldContent: string, newContent: string, contextLines = 3): string {
	return unifiedDiff(oldContent, newContent, path, contextLines).diff;
}

/** A registered tool as the loop runs it: ours are already runnable. */
export function wrapRegisteredTool(registered: RegisteredTool): AgentTool<any, any, any> {
	return registered.definition;
}
export function wrapRegisteredTools(registered: RegisteredTool[]): AgentTool<any, any, any>[] {
	return registered.map(wrapRegisteredTool);
}

// ---- sessions -------------------------------------------------------------------------------------

export { CURRENT_SESSION_VERSION } from "../session/session-entries.ts";

export { VIRTUAL_MODEL_STATE_ENTRY } from "../providers/virtual-models.ts";

/** The entries of a session file's text (header and unreadable lines left out). */
export function parseSessionEntries(content: string): SessionEntry[] {
	return parseSessionText(content, "<session>").entries as SessionEntry[];
}

/** What the model sees at `leafId` (default: the last entry): messages, thinking level, model. */
export function buildSessionContext(entries: SessionEntry[], leafId?: string | null): SessionContext {
	const byId = new Map(entries.map((e) => [e.id, e]));
	const path: SessionEntry[] = [];
	let at: SessionEntry | undefined = leafId === null ? undefined : leafId ? byId.get(leafId) : entries.at(-1);
	while (at) {
		path.unshift(at);
		at = at.parentId ? byId.get(at.parentId) : undefined;
	}
	return buildContextFromPath(path);
}

export function getLatestCompactionEntry(entries: SessionEntry[]): CompactionEntry | undefined {
	for (let i = entries.length - 1; i >= 0; i--) if (entries[i]!.type === "compaction") return entries[i] as CompactionEntry;
	return undefined;
}

export function createSyntheticSourceInfo(path: string, options: { source?: string; baseDir?: string } = {}): SourceInfo {
	return { path, source: options.source ?? "sdk", scope: "temporary", origin: "top-level", ...(options.baseDir ? { baseDir: options.baseDir } : {}) };
}

// ---- compaction -----------------------------------------------------------------------------------

export { DEFAULT_COMPACTION_SETTINGS, estimateTokens, shouldCompact } from "../session/compaction.ts";
export { compact, findCutPoint, generateSummary, generateSummaryWithUsage, type CutPointResult } from "./compaction-helpers.ts";

/** Tokens a response's usage says the context held. */
export function calculateContextTokens(usage: Usage): number {
	return usage.totalTokens || usage.input + usage.output + usage.cacheRead + usage.cacheWrite;
}

/** The usage of the last assistant message that answered (not aborted, not failed). */
export function getLastAssistantUsage(entries: SessionEntry[]): Usage | undefined {
	for (let i = entries.length - 1; i >= 0; i--) {
		const e = entries[i]!;
		if (e.type !== "message") continue;
		const m = e.message as AgentMessage;
		if (m.role === "assistant" && m.stopReason !== "aborted" && m.stopReason !== "error") return m.usage;
	}
	return undefined;
}

// ---- skills ---------------------------------------------------------------------------------------

export interface LoadSkillsFromDirOptions {
	dir: string;
	/** Where the skills came from, for listings. */
	source: string;
}
export interface LoadSkillsOptions {
	cwd: string;
	agentDir?: string;
	skillPaths?: string[];
	/** Also ~/.agent/skills and <cwd>/.agent/skills. Default true. */
	includeDefaults?: boolean;
}

export function loadSkillsFromDir(options: LoadSkillsFromDirOptions): LoadSkillsResult {
	return loadSkillSources([{ path: options.dir, scope: "path", origin: options.source }]);
}

export function loadSkills(options: LoadSkillsOptions): LoadSkillsResult {
	const agentDir = options.agentDir ?? getAgentDir();
	const explicit = (options.skillPaths ?? []).map((p) => ({ path: resolve(options.cwd, p), scope: "path" as const, origin: "skillPaths" }));
	const defaults =
		options.includeDefaults === false
			? []
			: [
					{ path: join(options.cwd, CONFIG_DIR_NAME, "skills"), scope: "project" as const, origin: "project" },
					{ path: join(agentDir, "skills"), scope: "user" as const, origin: "user" },
				];
	return loadSkillSources([...explicit, ...defaults]);
}

const xml = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** The skills a model may load, as an `<available_skills>` list (skills only `/skill:` runs are left out). */
export function formatSkillsForPrompt(skills: Skill[], fileReadTool: "read" | "bash" | "indirect" = "read"): string {
	const listed = skills.filter((s) => !s.disableModelInvocation);
	if (listed.length === 0) return "";
	const how = fileReadTool === "indirect" ? "Load a skill's file" : `Use the ${fileReadTool} tool to load a skill's file`;
	const items = listed.map((s) => `  <skill>\n    <name>${xml(s.name)}</name>\n    <description>${xml(s.description)}</description>\n    <location>${xml(s.filePath)}</location>\n  </skill>`);
	return `The following skills give instructions for specific tasks. ${how} when the task matches its description.\n\n<available_skills>\n${items.join("\n")}\n</available_skills>`;
}

/** `<skill name="…" location="…">body</skill>` blocks that `/skill:` expansion writes, parsed back. */
export function parseSkillBlock(text: string): { name: string; location: string; content: string; userMessage?: string } | null {
	const m = /^<skill name="([^"]+)" location="([^"]+)">\n([\s\S]*?)\n<\/skill>(?:\n\n([\s\S]*))?$/.exec(text);
	return m ? { name: m[1]!, location: m[2]!, content: m[3]!, ...(m[4] ? { userMessage: m[4] } : {}) } : null;
}

// ---- settings -------------------------------------------------------------------------------------

type Settings = Record<string, unknown>;

/**
 * Settings as pi's SettingsManager reads them: the user file, the project file over it (when the
 * project is trusted), and overrides over both. Reading only: the agent's settings files are the
 * user's, so the setters of pi's manager are not supported.
 */
export class SettingsManager {
	private overrides: Settings = {};

	private constructor(
		private global: Settings,
		private project: Settings,
		private trusted: boolean,
		private readonly paths?: { user: string; project: string },
	) {}

	static create(cwd: string = process.cwd(), agentDir?: string, options: { projectTrusted?: boolean } = {}): SettingsManager {
		const user = agentDir ? join(agentDir, "settings.json") : userSettingsPath();
		const project = projectSettingsPath(cwd);
		const manager = new SettingsManager({}, {}, options.projectTrusted ?? true, { user, project });
		manager.load();
		return manager;
	}

	static inMemory(settings: Settings = {}): SettingsManager {
		return new SettingsManager(structuredClone(settings), {}, true);
	}

	private load(): void {
		if (!this.paths) return;
		this.global = readSettingsFile(this.paths.user)?.data ?? {};
		this.project = readSettingsFile(this.paths.project)?.data ?? {};
	}

	async reload(): Promise<void> {
		this.load();
	}
	getSettings(): Settings {
		return structuredClone(mergeSettings(mergeSettings(this.global, this.trusted ? this.project : {}), this.overrides));
	}
	getGlobalSettings(): Settings {
		return structuredClone(this.global);
	}
	getProjectSettings(): Settings {
		return structuredClone(this.project);
	}
	isProjectTrusted(): boolean {
		return this.trusted;
	}
	setProjectTrusted(trusted: boolean): void {
		this.trusted = trusted;
	}
	applyOverrides(overrides: Settings): void {
		this.overrides = mergeSettings(this.overrides, overrides);
	}
	async flush(): Promise<void> {}
	drainErrors(): never[] {
		return [];
	}
	private get<T>(key: string): T | undefined {
		return this.getSettings()[key] as T | undefined;
	}
	getDefaultProvider = () => this.get<string>("defaultProvider");
	getDefaultModel = () => this.get<string>("defaultModel");
	getDefaultThinkingLevel = () => this.get<string>("defaultThinkingLevel");
	getSteeringMode = () => this.get<"all" | "one-at-a-time">("steeringMode") ?? "one-at-a-time";
	getFollowUpMode = () => this.get<"all" | "one-at-a-time">("followUpMode") ?? "one-at-a-time";
	getTheme = () => this.get<string>("theme");
	getThemeSetting = () => this.get<string>("theme");
	getSessionDir = () => this.get<string>("sessionDir");
	getShellPath = () => this.get<string>("shellPath");
	getShellCommandPrefix = () => this.get<string>("shellCommandPrefix");
	getQuietStartup = () => this.get<boolean>("quietStartup") ?? false;
	getHideThinkingBlock = () => this.get<boolean>("hideThinkingBlock") ?? false;
	getEnableSkillCommands = () => this.get<boolean>("enableSkillCommands") ?? true;
	getCompactionEnabled = () => this.getCompactionSettings().enabled;
	getCompactionReserveTokens = () => this.getCompactionSettings().reserveTokens;
	getCompactionKeepRecentTokens = () => this.getCompactionSettings().keepRecentTokens;
	getCompactionSettings(): { enabled: boolean; reserveTokens: number; keepRecentTokens: number } {
		const c = (this.get<Settings>("compaction") ?? {}) as Partial<{ enabled: boolean; reserveTokens: number; keepRecentTokens: number }>;
		return { enabled: c.enabled ?? true, reserveTokens: c.reserveTokens ?? 16384, keepRecentTokens: c.keepRecentTokens ?? 20000 };
	}
	getRetryEnabled = () => ((this.get<Settings>("retry") ?? {}).enabled as boolean | undefined) ?? true;
	getPackages = () => this.get<unknown[]>("packages") ?? [];
	getExtensionPaths = () => this.get<string[]>("extensions") ?? [];
	getSkillPaths = () => this.get<string[]>("skills") ?? [];
	getPromptTemplatePaths = () => this.get<string[]>("prompts") ?? [];

	static {
		// The setters of pi's manager write the user's files; not through us.
		for (const name of [
			"setDefaultProvider", "setDefaultModel", "setDefaultModelAndProvider", "setSteeringMode", "setFollowUpMode", "setTheme",
			"setDefaultThinkingLevel", "setCompactionEnabled", "setRetryEnabled", "setHideThinkingBlock", "setShellPath",
			"setQuietStartup", "setShellCommandPrefix", "setPackages", "setExtensionPaths", "setSkillPaths", "setPromptTemplatePaths",
		]) {
			Object.defineProperty(SettingsManager.prototype, name, { value: unsupported(`SettingsManager.${name}`), writable: true, configurable: true });
		}
	}
}

// ---- config and paths -----------------------------------------------------------------------------

/**
 * The folder the agent runs from: the binary's folder, or the repository from source. The single
 * binary ships no docs or examples folder, so the paths below may not exist.
 */
export function getPackageDir(): string {
	return runtimeShape() === "compiled" ? dirname(process.execPath) : resolve(import.meta.dir, "../../..");
}
export const getReadmePath = () => join(getPackageDir(), "README.md");
export const getDocsPath = () => join(getPackageDir(), "docs");
export const getExamplesPath = () => join(getPackageDir(), "examples");

/** The shell `bash` runs commands with. */
export function getShellConfig(): { shell: string; args: string[] } {
	return { shell: existsSync("/bin/bash") ? "/bin/bash" : "bash", args: ["-c"] };
}

/** AGENTS.md / CLAUDE.md files from the repository root down to `cwd`. */
export function loadProjectContextFiles(options: { cwd?: string } | string = {}): { path: string; content: string }[] {
	const cwd = typeof options === "string" ? options : (options.cwd ?? process.cwd());
	return loadContextFiles(cwd).map((f) => ({ path: f.path, content: f.content }));
}

/** Whether `cwd` has project files that only load once the folder is trusted. */
export function hasTrustRequiringProjectResources(cwd: string): boolean {
	const dir = join(cwd, CONFIG_DIR_NAME);
	return ["extensions", "settings.json", "skills", "prompts", "mcp.json", "themes"].some((name) => existsSync(join(dir, name)));
}

/** An image's MIME type from its first bytes (png, jpeg, gif, webp), or null. */
export async function detectSupportedImageMimeTypeFromFile(path: string): Promise<string | null> {
	let head: Uint8Array;
	try {
		head = new Uint8Array(readFileSync(path).subarray(0, 12));
	} catch {
		return null;
	}
	const at = (i: number, ...bytes: number[]) => bytes.every((b, k) => head[i + k] === b);
	if (at(0, 0x89, 0x50, 0x4e, 0x47)) return "image/png";
	if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
	if (at(0, 0x47, 0x49, 0x46, 0x38)) return "image/gif";
	if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp";
	return null;
}

export class CredentialSynchronizationError extends Error {
	constructor(message = "Credential synchronization failed") {
		super(message);
		this.name = "CredentialSynchronizationError";
	}
}

// ---- what the agent cannot honour -------------------------------------------------------------------

export const AgentSessionRuntime = unsupported("AgentSessionRuntime");
export const DefaultPackageManager = unsupported("DefaultPackageManager");
export const DefaultResourceLoader = unsupported("DefaultResourceLoader");
export const ExtensionRunner = unsupported("ExtensionRunner");
export const InteractiveMode = unsupported("InteractiveMode");
export const ModelRuntime = unsupported("ModelRuntime");
export const ProjectTrustStore = unsupported("ProjectTrustStore");
export const RpcClient = unsupported("RpcClient");
export const buildContextEntries = unsupported("buildContextEntries");
export const buildSessionProjection = unsupported("buildSessionProjection");
export const collectEntriesForBranchSummary = unsupported("collectEntriesForBranchSummary");
export const convertToPng = unsupported("convertToPng");
export const copyToClipboard = unsupported("copyToClipboard");
export const createAgentSessionFromServices = unsupported("createAgentSessionFromServices");
export const createAgentSessionRuntime = unsupported("createAgentSessionRuntime");
export const createAgentSessionServices = unsupported("createAgentSessionServices");
export const createCodemodeExtension = unsupported<(options?: unknown) => ExtensionFactory>("createCodemodeExtension");
export const createExtensionRuntime = unsupported("createExtensionRuntime");
export const createLocalPowerShellOperations = unsupported("createLocalPowerShellOperations");
export const createMcpExtension = unsupported<(options?: unknown) => ExtensionFactory>("createMcpExtension");
export const createPowerShellTool = unsupported("createPowerShellTool");
export const createPowerShellToolDefinition = unsupported("createPowerShellToolDefinition");
export const createToolSearchExtension = unsupported<(options?: unknown) => ExtensionFactory>("createToolSearchExtension");
export const findTurnStartIndex = unsupported("findTurnStartIndex");
export const formatDimensionNote = unsupported("formatDimensionNote");
export const generateBranchSummary = unsupported("generateBranchSummary");
export const getPowerShellConfig = unsupported("getPowerShellConfig");
export const main = unsupported("main");
export const migrateSessionEntries = unsupported("migrateSessionEntries");
export const parseArgs = unsupported("parseArgs");
export const prepareBranchEntries = unsupported("prepareBranchEntries");
export const readStoredCredential = unsupported("readStoredCredential");
export const resizeImage = unsupported("resizeImage");
export const resolveCliModel = unsupported("resolveCliModel");
export const resolveModelScopeWithDiagnostics = unsupported("resolveModelScopeWithDiagnostics");
export const runPrintMode = unsupported("runPrintMode");
export const runRpcMode = unsupported("runRpcMode");
export const sessionEntryToContextMessages = unsupported("sessionEntryToContextMessages");
