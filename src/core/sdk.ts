// createAgentSession: everything the CLI can do, as one call a program can make. main.ts only
// turns flags into these options.
import { existsSync, readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { getProjectMcpPath, getUserMcpPath } from "../config.ts";
import { AgentSession } from "./agent-session.ts";
import { UserError } from "./errors.ts";
import { NO_MODEL_CONFIGURED, NoModelConfiguredError, selectModelIfAny } from "./providers/model-resolver.ts";
import { ModelRegistry } from "./providers/registry.ts";
import { clampThinkingLevel } from "./providers/thinking.ts";
import { THINKING_LEVELS, type Model, type ThinkingLevel } from "./providers/types.ts";
import { decideTrust } from "./resources/resource-loader.ts";
import { ResourceSet } from "./resources/resource-set.ts";
import { settingMilliseconds, settingObject, settingString, type RunSettings } from "./resources/settings.ts";
import { createRetryPolicy } from "./providers/retry.ts";
import type { CompactionSettings } from "./session/compaction.ts";
import { SessionManager } from "./session/session-manager.ts";
import { resolveSessionArg } from "./session/session-list.ts";
import { SessionInUseError } from "./session/session-errors.ts";
import { mark } from "./timing.ts";
import { createBuiltinTools } from "./tools/index.ts";
import { setOutputFileLimits } from "./tools/output-files.ts";
import type { AgentTool } from "./tools/types.ts";
import { ExtensionHost } from "./extensions/host.ts";
import { virtualDefinition } from "./extensions/virtual-routing.ts";
import type { ExtensionErrorReport } from "./extensions/runner.ts";
import type { ExtensionEntry } from "./extensions/discovery.ts";
import type { LoadExtensionsResult } from "./extensions/loader.ts";
import type { ExtensionMode, ExtensionUIContext } from "./extensions/types.ts";
import type { McpManager, McpSession } from "./mcp/manager.ts";
import type { RegisteredMcpServer } from "./mcp/registry.ts";

export type SessionChoice =
	| { kind: "new" }
	| { kind: "memory" }
	| { kind: "continue" }
	/** A path or an id prefix (`--session`). */
	| { kind: "open"; target: string }
	/** A path or an id prefix (`--fork`). */
	| { kind: "fork"; target: string };

export interface CreateAgentSessionOptions {
	/** Default: process.cwd(). */
	cwd?: string;
	/** Default: a registry reading ~/.agent/models.json and auth.json. */
	registry?: ModelRegistry;
	/** A model, or a pattern such as `anthropic/claude-sonnet-5-5:high`. Default: the first configured. */
	model?: Model | string;
	provider?: string;
	apiKey?: string;
	thinkingLevel?: ThinkingLevel;
	/** When no model can be selected: throw (default) or start without one (interactive). */
	allowNoModel?: boolean;
	/** Allowlist of active tools (built-in and extra). */
	tools?: string[];
	/** No tools at all. */
	noTools?: boolean;
	/** Extra tools keep working, built-ins are left out. */
	noBuiltinTools?: boolean;
	/** Tools beyond the built-ins (extensions, SDK users); a built-in's name replaces it. Active by default. */
	extraTools?: AgentTool<any, any, any>[];
	/** Replaces the default system prompt opening. */
	systemPrompt?: string;
	/** Texts or files appended to the system prompt. */
	appendSystemPrompt?: string[];
	/** Skip AGENTS.md / CLAUDE.md. */
	noContextFiles?: boolean;
	/** Skill files or folders (`--skill`), relative to cwd; they load even with `noSkills`. */
	skills?: string[];
	/** No skills from `~/.agent/skills`, `.agent/skills` or settings (`-ns`). */
	noSkills?: boolean;
	/** Prompt-template files or folders (`--prompt-template`), relative to cwd. */
	promptTemplates?: string[];
	/** No templates from `~/.agent/prompts`, `.agent/prompts` or settings (`-np`). */
	noPromptTemplates?: boolean;
	/** Package sources loaded for this session only (`-e npm:…|git:…`): their skills and prompt templates join. */
	packageSources?: string[];
	/** Whether project resources and settings count. Default: `extensions.projectTrusted`, else the saved decision. */
	projectTrusted?: boolean;
	/** Overrides settings `compaction` field by field. */
	compaction?: Partial<CompactionSettings>;
	/** Default: a new session file. */
	session?: SessionChoice;
	/** Folder holding session files (`--session-dir`). */
	sessionDir?: string;
	/**
	 * The session to continue is being written by another agent process: `"fork"` continues in a
	 * copy, `"quit"` rejects with the error. Default: reject (a non-interactive run says what to do).
	 */
	onSessionInUse?: (error: SessionInUseError) => Promise<"fork" | "quit">;
	/** Model pattern used when none is given. Default: settings `defaultProvider` + `defaultModel`. */
	defaultModel?: string;
	/** `--models`: patterns (provider/id, id, or globs with `*`) of the models to cycle through. */
	scopedModels?: string[];
	/** Extensions already loaded (the CLI loads them before this, to fail fast and parse their flags). */
	extensions?: {
		loaded: LoadExtensionsResult | undefined;
		/** What to load again on /reload or a session replacement. */
		entries: ExtensionEntry[];
		/** Finds the entries afresh on /reload (new files take effect, failed package installs are tried again). Default: `entries` again. */
		discover?: (report: (source: string, error: unknown) => void) => ExtensionEntry[] | Promise<ExtensionEntry[]>;
		/** Extension flag values from the command line, applied again after /reload. */
		flagValues?: ReadonlyMap<string, boolean | string>;
		projectTrusted: boolean;
	};
	/** Default "print". */
	mode?: ExtensionMode;
	/** The mode's ctx.ui; default: dialogs resolve to their defaults at once. */
	ui?: ExtensionUIContext;
	hasUI?: boolean;
	/** Where extension errors go. Default: a line on stderr. */
	onExtensionError?: (report: ExtensionErrorReport) => void;
	/** ctx.shutdown(): how the mode exits gracefully. */
	onShutdown?: () => void;
	/** `--no-mcp`: no MCP servers for this run (mcp.json is not read; registrations are reported). */
	noMcp?: boolean;
	/** A line about MCP for the user (a server failed or stopped, an mcp.json entry was skipped). Default: stderr. */
	onMcpNotice?: (message: string) => void;
	/**
	 * Called once the session file, the model and the thinking level are chosen, before the tools,
	 * the AgentSession, MCP and the extension host are built: the TUI draws its first frame here
	 * (building the AgentSession early only when the frame shows what needs it). Awaited. Default: nothing.
	 */
	onSessionChosen?: (chosen: ChosenSession) => unknown;
	/**
	 * Called once the session exists, before extensions hear session_start: subscribe here to see
	 * what those handlers emit (json and rpc mode stream it); the TUI starts here, so dialogs
	 * in session_start handlers have a screen. Awaited. Default: nothing.
	 */
	onSessionCreated?: (session: AgentSession, created: CreatedAgentSession) => unknown;
}

/** What createAgentSession has chosen before it builds the session (onSessionChosen). */
export interface ChosenSession {
	sessionManager: SessionManager;
	model: Model | undefined;
	thinkingLevel: ThinkingLevel;
	/** Whether the session holds messages already (a resumed one). */
	hasMessages: boolean;
	registry: ModelRegistry;
	resources: ResourceSet;
	/** Things the user should see, as CreatedAgentSession's (no more are added after this). */
	warnings: string[];
	/** The AgentSession, built on the first call; createAgentSession builds it after onSessionChosen otherwise. */
	session(): AgentSession;
}

export interface CreatedAgentSession {
	session: AgentSession;
	/** The extensions bound to the session: prompts go through `host.submit()` so commands and hooks run. */
	host: ExtensionHost;
	registry: ModelRegistry;
	/** Things the user should see (session lines skipped, model fallbacks, no model). */
	warnings: string[];
	/** With `allowNoModel`: why no model was selected (its message is also in `warnings`). */
	modelError?: Error;
	/** Context files, skills and prompt templates, with their conflicts (for start-up lists). */
	resources: ResourceSet;
	/** The MCP servers (status, reconnect); undefined with `noMcp` or nothing to manage. */
	mcp: McpSession | undefined;
}

function readAppend(value: string, cwd: string): string {
	const path = resolve(cwd, value);
	try {
		// A file's final newline would leave an empty line before what follows it in the prompt.
		if (existsSync(path) && statSync(path).isFile()) return readFileSync(path, "utf8").trimEnd();
	} catch {
		// Not a readable file: the text itself is appended.
	}
	return value;
}

/** The session a run starts with; one it will append to is locked first (SessionInUseError). */
export async function openSession(cwd: string, choice: SessionChoice, sessionDir?: string, onInUse?: CreateAgentSessionOptions["onSessionInUse"]): Promise<SessionManager> {
	const session = await chooseSession(cwd, choice, sessionDir);
	// A new session's file has a name no one else knows and does not exist yet: its first write takes
	// the lock (SessionManager's flush), so a start makes no lock file before it needs one.
	if (choice.kind === "new") return session;
	try {
		session.lockForWriting();
	} catch (error) {
		if (!(error instanceof SessionInUseError) || !onInUse || (await onInUse(error)) !== "fork") throw error;
		return SessionManager.forkFrom(error.path, cwd, sessionDir);
	}
	return session;
}

async function chooseSession(cwd: string, choice: SessionChoice, sessionDir?: string): Promise<SessionManager> {
	switch (choice.kind) {
		case "memory":
			return SessionManager.inMemory(cwd);
		case "continue":
			return SessionManager.continueRecent(cwd, sessionDir);
		case "new":
			return SessionManager.create(cwd, sessionDir);
		case "open": {
			const found = await resolveSessionArg(choice.target, cwd, { sessionDir });
			if (found.kind === "global") {
				throw new UserError(`Session ${choice.target} belongs to another folder (${found.info?.cwd ?? "unknown"}).`, [
					`Fork it into this folder with: agent --fork ${found.path}`,
				]);
			}
			return SessionManager.open(found.path, sessionDir);
		}
		case "fork": {
			const found = await resolveSessionArg(choice.target, cwd, { sessionDir });
			return SessionManager.forkFrom(found.path, cwd, sessionDir);
		}
	}
}

const COMPACTION_SHAPE = { enabled: "boolean", reserveTokens: "number", keepRecentTokens: "number" } as const;
// pi's names (settings.md, "Network and retries").
const RETRY_SHAPE = { enabled: "boolean", maxRetries: "number", baseDelayMs: "number", maxAgentDelayMs: "number" } as const;
const OUTPUT_FILES_SHAPE = { maxAgeDays: "number", maxTotalMB: "number" } as const;

/** `--models` patterns → available models, in pattern order; a pattern matching nothing is an error. */
export function resolveScopedModels(registry: ModelRegistry, patterns: string[], levels?: Map<Model, ThinkingLevel>): Model[] {
	const available = registry.getAvailable();
	const out: Model[] = [];
	for (const pattern of patterns) {
		let matched: Model[];
		if (pattern.includes("*")) {
			const re = new RegExp(`^${pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`, "i");
			matched = available.filter((m) => re.test(`${m.provider}/${m.id}`) || re.test(m.id));
		} else {
			const resolved = registry.resolveModel(pattern);
			matched = [resolved.model];
			if (resolved.thinkingLevel) levels?.set(resolved.model, resolved.thinkingLevel);
		}
		if (matched.length === 0) throw new UserError(`--models: no available model matches "${pattern}".`, [`"agent --list-models" shows the models you can use.`]);
		for (const m of matched) if (!out.includes(m)) out.push(m);
	}
	return out;
}

/**
 * Settings `defaultProvider`, `defaultModel` (an id, or `provider/id`) and `defaultThinkingLevel`:
 * the start-up model and level when no flag and no resumed session decides. Bad values name the file.
 */
function startupDefaults(settings: RunSettings): { selection: { defaultModel?: string; defaultProvider?: string; defaultSource?: string }; thinkingLevel?: ThinkingLevel } {
	const provider = settingString(settings, "defaultProvider");
	const model = settingString(settings, "defaultModel");
	const level = settingString(settings, "defaultThinkingLevel", THINKING_LEVELS);
	const sources = [model && `"defaultModel" in ${model.path}`, provider && `"defaultProvider" in ${provider.path}`].filter(Boolean);
	return {
		selection: {
			...(model ? { defaultModel: model.value } : {}),
			...(provider ? { defaultProvider: provider.value } : {}),
			...(sources.length ? { defaultSource: `Settings ${sources.join(" and ")}` } : {}),
		},
		...(level ? { thinkingLevel: level.value as ThinkingLevel } : {}),
	};
}

/** `httpHeaderTimeoutMs` (default: `httpIdleTimeoutMs` when that is set, else 120 s) and `httpIdleTimeoutMs` (300 s). */
function requestTimeouts(resources: ResourceSet): { headerMs?: number; idleMs?: number } | undefined {
	const idleMs = settingMilliseconds(resources.settings, "httpIdleTimeoutMs");
	const headerMs = settingMilliseconds(resources.settings, "httpHeaderTimeoutMs") ?? idleMs;
	return idleMs === undefined && headerMs === undefined ? undefined : { headerMs, idleMs };
}

/**
 * The providers and virtual models extensions registered while loading, into `registry` (before a
 * model is chosen, and for `--list-models`). A virtual model gets its router when the host binds.
 */
export function applyQueuedProviders(registry: ModelRegistry, loaded: LoadExtensionsResult | undefined): void {
	for (const change of loaded?.runtime.queuedProviders() ?? []) {
		if (change.kind === "register") registry.registerProvider(change.name, change.config as never);
		else if (change.kind === "register-native") registry.registerProvider(change.provider);
		else if (change.kind === "unregister") registry.unregisterProvider(change.name);
		else if (change.kind === "unregister-virtual") registry.unregisterVirtualModel(change.provider, change.id);
		else {
			const definition = virtualDefinition(change.config, registry, change.extensionPath);
			registry.registerVirtualModel(definition, () => Promise.reject(new Error("the extension runtime is not bound yet")), `extension:${change.extensionPath}`);
		}
	}
}

export async function createAgentSession(options: CreateAgentSessionOptions = {}): Promise<CreatedAgentSession> {
	const cwd = resolve(options.cwd ?? process.cwd());
	const warnings: string[] = [];
	const registry = options.registry ?? ModelRegistry.create();
	// Providers extensions registered while loading must exist before a model is chosen.
	const loaded = options.extensions?.loaded;
	applyQueuedProviders(registry, loaded);
	const projectTrusted = options.projectTrusted ?? options.extensions?.projectTrusted ?? decideTrust(cwd, {}).state === "yes";
	const resources = new ResourceSet({
		cwd,
		projectTrusted,
		skillPaths: options.skills,
		noSkills: options.noSkills,
		promptPaths: options.promptTemplates,
		noPromptTemplates: options.noPromptTemplates,
		noContextFiles: options.noContextFiles,
		packageSources: options.packageSources,
	}).reload();
	mark("resources");
	const sessionManager = await openSession(cwd, options.session ?? { kind: "new" }, options.sessionDir, options.onSessionInUse);
	mark("open session");
	for (const w of sessionManager.getWarnings()) warnings.push(w.message);
	// The model and thinking level to resume with; the messages are built when first used (a long
	// session opens without reading every message). Damaged lines found then go to setLoadWarningHandler.
	const context = sessionManager.contextSettings();
	const messages = sessionManager.deferredContext();
	mark("session context");

	let model: Model | undefined;
	let modelError: Error | undefined;
	// No model named and no provider with a key: the error is built only when asked for (a TUI never does).
	let noModel = false;
	let thinkingLevel: ThinkingLevel | undefined = options.thinkingLevel;
	const defaults = startupDefaults(resources.settings);
	if (typeof options.model === "object") {
		model = options.model;
	} else {
		// A resumed session keeps its model unless one is asked for.
		const restored = !options.model && !options.provider && context.model ? registry.find(context.model.provider, context.model.modelId) : undefined;
		try {
			if (restored && registry.hasConfiguredAuth(restored)) {
				if (options.apiKey) registry.setRuntimeApiKey(restored.provider, options.apiKey);
				model = restored;
			} else {
				const selected = selectModelIfAny(registry, {
					provider: options.provider,
					model: options.model,
					thinking: options.thinkingLevel,
					apiKey: options.apiKey,
					...(options.defaultModel ? { defaultModel: options.defaultModel } : defaults.selection),
				});
				if (selected) {
					model = selected.model;
					thinkingLevel ??= selected.thinkingLevel;
					if (selected.warning) warnings.push(selected.warning);
				} else if (!options.allowNoModel) {
					throw new NoModelConfiguredError(registry);
				} else {
					noModel = true;
					warnings.push(NO_MODEL_CONFIGURED);
				}
			}
		} catch (error) {
			if (!options.allowNoModel) throw error;
			modelError = error instanceof Error ? error : new Error(String(error));
			warnings.push(modelError.message);
		}
	}
	if (thinkingLevel === undefined && context.hasMessages) thinkingLevel = context.thinkingLevel;
	thinkingLevel ??= defaults.thinkingLevel;
	mark("select model");
	thinkingLevel = model ? clampThinkingLevel(model, thinkingLevel ?? "off") : (thinkingLevel ?? "off");

	// --models is checked before anything is drawn: a pattern matching nothing stops the start.
	const scopedLevels = new Map<Model, ThinkingLevel>();
	const scopedModels = options.scopedModels?.length ? resolveScopedModels(registry, options.scopedModels, scopedLevels) : undefined;
	const level = thinkingLevel;
	let built: BuiltSession | undefined;
	const build = () => (built ??= buildSession(options, { cwd, registry, sessionManager, resources, loaded, model, thinkingLevel: level, context, messages, scopedModels, scopedLevels }));
	await options.onSessionChosen?.({ sessionManager, model, thinkingLevel: level, hasMessages: context.hasMessages, registry, resources, warnings, session: () => build().session });
	const { session, baseTools, builtinToolNames } = build();
	const mcp = await startMcp(options, { cwd, projectTrusted, session, extensionsLoaded: loaded !== undefined });
	const host = new ExtensionHost({
		session,
		registry,
		mode: options.mode ?? "print",
		loaded,
		entries: options.extensions?.entries ?? [],
		discover: options.extensions?.discover,
		flagValues: options.extensions?.flagValues,
		baseTools,
		builtinToolNames,
		projectTrusted,
		ui: options.ui,
		hasUI: options.hasUI,
		onError: options.onExtensionError ?? ((r) => process.stderr.write(`Extension error (${r.extensionPath}): ${r.error}\n`)),
		onShutdown: options.onShutdown,
		resources,
		mcp,
	});
	const created: CreatedAgentSession = { session, host, registry, warnings, resources, mcp, ...(modelError ? { modelError } : {}) };
	if (noModel) {
		let error: Error | undefined;
		Object.defineProperty(created, "modelError", { enumerable: true, configurable: true, get: () => (error ??= new NoModelConfiguredError(registry)) });
	}
	await options.onSessionCreated?.(session, created);
	mark("session and host");
	await host.bind("startup");
	// Names in --tools may be tools extensions register later (in session_start): checked once they had the chance.
	if (options.tools && !options.noTools) {
		const known = new Set(session.getAllTools().map((t) => t.name));
		let unknown = options.tools.filter((n) => !known.has(n));
		// MCP tools (`mcp__server__*`) are not known yet: their servers are still to connect.
		if (unknown.length > 0) {
			const { isMcpToolName } = await import("./mcp/tool-names.ts");
			unknown = unknown.filter((n) => !isMcpToolName(n));
		}
		if (unknown.length > 0) {
			await host.shutdown();
			throw new UserError(`Unknown tool${unknown.length > 1 ? "s" : ""} in --tools: ${unknown.join(", ")}`, [`Available tools: ${[...known].join(", ")}`]);
		}
	}
	mark("bind extensions");
	return created;
}

interface BuiltSession {
	session: AgentSession;
	/** What reload restores before extensions register their tools again. */
	baseTools: AgentTool<any, any, any>[];
	builtinToolNames: string[];
}

/** What createAgentSession has chosen by the time it builds the tools and the AgentSession. */
interface SessionInputs {
	cwd: string;
	registry: ModelRegistry;
	sessionManager: SessionManager;
	resources: ResourceSet;
	loaded: LoadExtensionsResult | undefined;
	model: Model | undefined;
	thinkingLevel: ThinkingLevel;
	context: ReturnType<SessionManager["contextSettings"]>;
	messages: ReturnType<SessionManager["deferredContext"]>;
	/** `--models`, resolved (with the levels its patterns name). */
	scopedModels: Model[] | undefined;
	scopedLevels: Map<Model, ThinkingLevel>;
}

/** The tools and the AgentSession over the chosen session, model and resources, with the settings that shape it. */
function buildSession(options: CreateAgentSessionOptions, inputs: SessionInputs): BuiltSession {
	const { cwd, registry, sessionManager, resources, loaded, model, thinkingLevel, context, messages } = inputs;
	// Tools: built-ins, then extra tools (which replace a built-in of the same name). With -nt or
	// -nbt the built-ins exist but start inactive: getAllTools() lists them, setActiveTools() can turn one on.
	const builtins = createBuiltinTools(cwd);
	const byName = new Map<string, AgentTool<any, any, any>>(builtins.tools.map((t) => [t.name, t]));
	const active: string[] = options.noBuiltinTools || options.noTools ? [] : [...builtins.defaultActive];
	const extensionTools: AgentTool<any, any, any>[] = [];
	for (const e of loaded?.extensions ?? []) for (const t of e.tools.values()) extensionTools.push(t.definition);
	for (const tool of options.extraTools ?? []) byName.set(tool.name, tool);
	// What reload restores before extensions register their tools again.
	const baseTools = [...byName.values()];
	for (const tool of [...(options.extraTools ?? []), ...extensionTools]) {
		byName.set(tool.name, tool);
		if (!active.includes(tool.name)) active.push(tool.name);
	}
	mark("built-in tools");
	let activeNames = active;
	if (options.noTools) activeNames = [];
	else if (options.tools) activeNames = options.tools.filter((n) => byName.has(n));

	const session = new AgentSession({
		cwd,
		model,
		thinkingLevel,
		models: registry,
		session: sessionManager,
		tools: [...byName.values()],
		activeTools: activeNames,
		// Tools registered later (an extension's session_start, a command) obey --tools, -nt and -nbt too.
		toolPolicy: {
			noTools: options.noTools === true,
			...(options.tools ? { allow: options.tools } : {}),
			noBuiltinTools: options.noBuiltinTools === true,
			builtinNames: builtins.tools.map((t) => t.name),
		},
		messages,
		systemPrompt: {
			cwd,
			customPrompt: options.systemPrompt ? readAppend(options.systemPrompt, cwd) : undefined,
			appendSystemPrompt: options.appendSystemPrompt?.length ? options.appendSystemPrompt.map((a) => readAppend(a, cwd)).join("\n\n") : undefined,
			contextFiles: resources.contextFiles,
			skills: resources.skillSummaries(),
		},
		compaction: { ...settingObject(resources.settings, "compaction", COMPACTION_SHAPE), ...options.compaction },
		requestTimeouts: requestTimeouts(resources),
	});
	// How long and how much cut-off tool output a saved session keeps in the temp folder.
	const outputFiles = settingObject(resources.settings, "outputFiles", OUTPUT_FILES_SHAPE);
	if (outputFiles.maxAgeDays !== undefined || outputFiles.maxTotalMB !== undefined) {
		setOutputFileLimits({
			...(outputFiles.maxAgeDays !== undefined ? { maxAgeMs: (outputFiles.maxAgeDays as number) * 86_400_000 } : {}),
			...(outputFiles.maxTotalMB !== undefined ? { maxTotalBytes: (outputFiles.maxTotalMB as number) * 1024 * 1024 } : {}),
		});
	}
	const retry = settingObject(resources.settings, "retry", RETRY_SHAPE);
	if (retry.maxRetries !== undefined || retry.baseDelayMs !== undefined || retry.maxAgentDelayMs !== undefined) {
		registry.retry = createRetryPolicy({ maxAttempts: retry.maxRetries as number | undefined, baseDelayMs: retry.baseDelayMs as number | undefined, maxDelayMs: retry.maxAgentDelayMs as number | undefined });
	}
	if (retry.enabled === false) session.setAutoRetryEnabled(false);
	if (model && (!context.model || context.model.provider !== model.provider || context.model.modelId !== model.id)) {
		sessionManager.appendModelChange(model.provider, model.id);
	}
	if (!context.hasMessages || context.thinkingLevel !== thinkingLevel) sessionManager.appendThinkingLevelChange(thinkingLevel);
	if (inputs.scopedModels) {
		session.scopedModels = inputs.scopedModels;
		for (const [m, l] of inputs.scopedLevels) session.scopedThinkingLevels.set(m, l);
	}
	mark("agent session");
	return { session, baseTools, builtinToolNames: builtins.tools.map((t) => t.name) };
}

/** An mcp.json that exists and is not empty (a stat, so a run without MCP imports none of it). */
function hasMcpFile(path: string): boolean {
	try {
		return (statSync(path, { throwIfNoEntry: false })?.size ?? 0) > 0;
	} catch {
		return false;
	}
}

/**
 * The session's MCP servers: a manager at once when mcp.json has servers; with extensions loaded
 * (they may register servers), one that creates the manager on the first registration, so a run
 * without servers imports none of it. Undefined with `noMcp` or when nothing could have servers.
 */
async function startMcp(options: CreateAgentSessionOptions, run: { cwd: string; projectTrusted: boolean; session: AgentSession; extensionsLoaded: boolean }): Promise<McpSession | undefined> {
	if (options.noMcp) return undefined;
	const configured = () => hasMcpFile(getUserMcpPath()) || (run.projectTrusted && hasMcpFile(getProjectMcpPath(run.cwd)));
	const create = async (): Promise<McpManager> => {
		const [{ McpManager }, { loadMcpConfig }, { mcpToolFilter }] = await Promise.all([import("./mcp/manager.ts"), import("./mcp/mcp-config.ts"), import("./mcp/tool-names.ts")]);
		const manager = new McpManager({
			cwd: run.cwd,
			session: run.session,
			loadConfig: () => loadMcpConfig({ cwd: run.cwd, projectTrusted: run.projectTrusted }),
			toolFilter: mcpToolFilter(options.tools, options.noTools),
			// A person or a program may take a while to send the first prompt: connect once the session idles.
			idleConnectMs: options.mode === "tui" || options.mode === "rpc" ? 50 : undefined,
			onNotice: options.onMcpNotice ?? ((message) => process.stderr.write(`Warning: ${message}\n`)),
		});
		manager.start();
		return manager;
	};
	if (configured()) {
		const manager = await create();
		mark("mcp");
		return manager;
	}
	// Extensions may register servers; an interactive or rpc session may get a mcp.json before a /reload.
	const later = run.extensionsLoaded || options.mode === "tui" || options.mode === "rpc";
	return later ? new DeferredMcp(create, configured, run.session) : undefined;
}

/** Stands in for the manager until a server is registered (or mcp.json appears before a /reload). */
class DeferredMcp implements McpSession {
	private manager: McpManager | undefined;
	private creating: Promise<McpManager> | undefined;
	private registered: RegisteredMcpServer[] = [];
	private readonly listeners = new Set<() => void>();

	constructor(
		private readonly create: () => Promise<McpManager>,
		private readonly configured: () => boolean,
		session: AgentSession,
	) {
		// A run that starts while the manager is being created waits for it (and so for its servers).
		session.beforeRun.push(async () => void (await this.creating));
	}

	private ensure(): Promise<McpManager> {
		this.creating ??= this.create().then((manager) => {
			this.manager = manager;
			manager.onChange(() => {
				for (const listener of this.listeners) listener();
			});
			manager.bind(this.registered);
			return manager;
		});
		return this.creating;
	}

	bind(registered: RegisteredMcpServer[]): void {
		this.registered = registered;
		if (this.manager) this.manager.bind(registered);
		else if (registered.length > 0) void this.ensure();
	}

	setRegistered(registered: RegisteredMcpServer[]): void {
		this.bind(registered);
	}

	async reload(): Promise<void> {
		if (this.manager) await this.manager.reload();
		else if (this.configured()) await this.ensure();
	}

	async shutdown(): Promise<void> {
		await (this.creating ? (await this.creating).shutdown() : undefined);
	}

	commandInfos() {
		return this.manager?.commandInfos() ?? [];
	}

	expandPrompt(text: string) {
		return this.manager ? this.manager.expandPrompt(text) : Promise.resolve(undefined);
	}

	isMcpTool(name: string): boolean {
		return this.manager?.isMcpTool(name) ?? false;
	}

	status() {
		return this.manager?.status() ?? [];
	}

	async reconnect(name?: string): Promise<void> {
		if (this.manager) await this.manager.reconnect(name);
		else if (name !== undefined) throw new Error(`No MCP server named "${name}". Servers: none`);
	}

	onChange(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}
}
