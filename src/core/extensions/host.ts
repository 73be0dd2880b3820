// Binds loaded extensions to one AgentSession (SPEC §5–§7): the runtime's action slots, the
// contexts handlers receive, extension tools and commands, the loop hooks, session replacement
// and reload. Modes hand it their UI and an error sink; it knows nothing else of them.
import { BusyError, NoModelError, type AgentSession, type AgentSessionEvent } from "../agent-session.ts";
import type { AgentMessage, CustomMessage } from "../agent/messages.ts";
import { executeToolCall } from "../agent/loop.ts";
import type { ModelRegistry } from "../providers/registry.ts";
import type { Context, ImageContent, Model, StreamOptions, TextContent, ThinkingLevel } from "../providers/types.ts";
import type { AgentTool, AgentToolResult } from "../tools/types.ts";
import type { BashExecutionMessage } from "../agent/messages.ts";
import type { ExtensionResourcePath, ResourceSet } from "../resources/resource-set.ts";
import type { BeforeCompactDecision } from "../session/compactor.ts";
import type { McpSession } from "../mcp/manager.ts";
import type { ExtensionEntry } from "./discovery.ts";
import type { LoadExtensionsResult } from "./loader.ts";
import { createLoopHooks, runBoundary, type BoundarySink } from "./loop-hooks.ts";
import { createBoundarySink, customMessage } from "./boundary-drafts.ts";
import { ExtensionRunner, type ExtensionErrorReport } from "./runner.ts";
import { ambiguousCommandMessage, resolveCommandNames } from "./commands.ts";
import type { ExtensionRuntime } from "./api.ts";
import { withDialogEvents } from "./ui-events.ts";
import { askUserBash, runUserBash, type UserBashOptions } from "./user-bash.ts";
import type {
	Extension,
	ExtensionActions,
	ExtensionCommandContext,
	ExtensionContext,
	ExtensionMode,
	ExtensionToolContext,
	ExtensionUIContext,
	ReadonlySessionManager,
	ReplacedSessionContext,
	ResolvedCommand,
	SendMessageInput,
	SendMessageOptions,
	SendUserMessageOptions,
	SlashCommandInfo,
	ToolInfo,
	TreeNavigationOptions,
	VirtualModelConfig,
} from "./types.ts";
import type { SessionBeforeTreeResult, UserBashEventResult } from "./event-types.ts";
import type { SessionEntry } from "../session/session-entries.ts";
import { createNoopUI } from "./ui-noop.ts";
import { dispatchBeforeAgentStart } from "./agent-start.ts";
import { createVirtualResolver, virtualDefinition } from "./virtual-routing.ts";
import { readRunSettings } from "../resources/settings.ts";
import { mergeSettings } from "../resources/settings.ts";
import { ExtensionRenderers } from "./renderers.ts";
import { setActiveRegistry } from "../providers/active-registry.ts";

/** What `ctx.sessionManager` exposes: the reading half of the session manager (reference §3.1). */
const SESSION_READERS = [
	"getCwd",
	"getSessionDir",
	"getSessionId",
	"getSessionFile",
	"getLeafId",
	"getLeafEntry",
	"getEntry",
	"getLabel",
	"getBranch",
	"getHeader",
	"getEntries",
	"getTree",
	"getSessionName",
] as const;

/** Observe events the session stream carries, forwarded to extensions as they happen. */
const FORWARDED = new Set(["agent_start", "agent_end", "turn_start", "message_start", "message_update", "tool_execution_start", "tool_execution_update", "tool_execution_end"]);

export interface ExtensionHostOptions {
	session: AgentSession;
	registry: ModelRegistry;
	mode: ExtensionMode;
	/** What was loaded at start-up; undefined when there were no extensions. */
	loaded: LoadExtensionsResult | undefined;
	/** The entries to load again on reload. */
	entries: ExtensionEntry[];
	/**
	 * Finds the entries afresh on reload (new files take effect; packages that failed to install are
	 * tried again), reporting what it skips through `report`. Default: `entries` again.
	 */
	discover?: (report: (source: string, error: unknown) => void) => ExtensionEntry[] | Promise<ExtensionEntry[]>;
	/** Extension flag values given on the command line; a reloaded runtime gets them again. */
	flagValues?: ReadonlyMap<string, boolean | string>;
	/** The session's tools without extensions (built-in and SDK tools), restored before extensions register theirs again. Default: the session's tools no extension registered. */
	baseTools?: AgentTool<any, any, any>[];
	/** Names of the built-in tools, for getAllTools' `sourceInfo.source`. Default: every base tool's name. */
	builtinToolNames?: Iterable<string>;
	projectTrusted: boolean;
	/** Mode's UI; default: dialogs resolve to their defaults at once. */
	ui?: ExtensionUIContext;
	hasUI?: boolean;
	/** Where extension errors go (stderr line, rpc event, red line). */
	onError(report: ExtensionErrorReport): void;
	/** Mode's graceful exit (ctx.shutdown); print mode has none. */
	onShutdown?(): void;
	/** Reload the extension list and what the mode shows after /reload. */
	onReloaded?(loaded: LoadExtensionsResult): void;
	/** Skills, prompt templates and context files: expanded in submit(), extended by resources_discover. */
	resources?: ResourceSet;
	/** The session's MCP servers: told the registered servers at each bind, reloaded by /reload, closed at shutdown. Absent with --no-mcp. */
	mcp?: McpSession;
}

export type PromptSource = "interactive" | "rpc" | "extension";

/** Which tools were active and known before a reload or session replacement. */
interface ToolState {
	active: Set<string>;
	known: Set<string>;
}

export interface SubmitOptions {
	images?: ImageContent[];
	source?: PromptSource;
	streamingBehavior?: "steer" | "followUp";
	/** Expand `/skill:` and prompt templates in text an extension sent (sendUserMessage's expandPromptTemplates). */
	expand?: boolean;
	/** Whether `/name args` runs an extension command. Default true. */
	commands?: boolean;
	/**
	 * Told once what became of the text, as soon as that is known (pi's prompt disposition): a run
	 * is about to start, the text was queued, or a command or input handler consumed it.
	 */
	onAccepted?(disposition: PromptDisposition): void;
}

/** What became of submitted text, as soon as it is known (rpc `prompt`'s `disposition`). */
export type PromptDisposition = "started" | "queued" | "handled";

/** What became of submitted text. */
export type SubmitResult = { kind: "command"; name: string } | { kind: "handled" } | { kind: "prompted" } | { kind: "queued" } | { kind: "error"; message: string };

export class ExtensionHost {
	readonly session: AgentSession;
	readonly registry: ModelRegistry;
	readonly mode: ExtensionMode;
	private loaded: LoadExtensionsResult | undefined;
	private entries: ExtensionEntry[];
	private readonly projectTrusted: boolean;
	readonly resources: ResourceSet | undefined;
	ui: ExtensionUIContext;
	hasUI: boolean;
	/** Message and entry renderers, Markdown transformers and tool renderers, for the modes to draw with. */
	readonly renderers = new ExtensionRenderers(() => this.extensions);
	private readonly options: ExtensionHostOptions;
	private runner: ExtensionRunner;
	private commands: ResolvedCommand[] = [];
	private ambiguous = new Map<string, ResolvedCommand[]>();
	private readonly baseTools: AgentTool<any, any, any>[];
	private readonly builtinToolNames: Set<string>;
	private nextTurn: AgentMessage[] = [];
	/** Commands an extension queued with sendUserMessage("/cmd", {deliverAs}) while a run was going. */
	private queuedCommands: (() => Promise<SubmitResult | void>)[] = [];
	/** An agent_end dispatch is going: what extensions send now belongs after the run, not in it. */
	private ending = false;
	/** agent_settled handlers are running: work they request waits until all of them are done (pi). */
	private settling = false;
	private unsubscribe: (() => void) | undefined;
	/** Prompt runs starting or going, including those extensions started without awaiting (waitForIdle). */
	private busy = 0;
	private draining = false;
	private idleWaiters: (() => void)[] = [];

	constructor(options: ExtensionHostOptions) {
		this.options = options;
		this.session = options.session;
		this.registry = options.registry;
		// pi-ai's getModel/stream/complete for extensions read this session's catalogue and keys.
		setActiveRegistry(options.registry);
		this.mode = options.mode;
		this.loaded = options.loaded;
		this.entries = options.entries;
		this.projectTrusted = options.projectTrusted;
		this.resources = options.resources;
		this.ui = options.ui ?? createNoopUI();
		this.hasUI = options.hasUI ?? false;
		const extensionTools = new Set<unknown>();
		for (const e of this.extensions) for (const t of e.tools.values()) extensionTools.add(t.definition);
		this.baseTools = options.baseTools ?? this.session.getAllTools().filter((t) => !extensionTools.has(t as never));
		this.builtinToolNames = new Set(options.builtinToolNames ?? this.baseTools.map((t) => t.name));
		this.runner = this.createRunner();
	}

	get extensions(): Extension[] {
		return this.loaded?.extensions ?? [];
	}

	private get runtime(): ExtensionRuntime | undefined {
		return this.loaded?.runtime;
	}

	private createRunner(): ExtensionRunner {
		return new ExtensionRunner(this.extensions, () => this.createContext(), (report) => this.options.onError(report));
	}

	/** Report an error that happened outside a handler dispatch (send_message, command, …). */
	reportError(extensionPath: string, event: string, error: unknown): void {
		this.runner.report(extensionPath, event, error);
	}

	// ---- binding ---------------------------------------------------------------------------------

	/**
	 * Light up the runtime, add tools and hooks, then session_start and resources_discover (after
	 * every bind, as pi does: a replaced session's fresh extensions answer it again).
	 */
	async bind(reason: "startup" | "reload" | "new" | "resume" | "fork" = "startup", previousSessionFile?: string, previousTools?: ToolState): Promise<void> {
		this.wire(previousTools);
		await this.runner.emit("session_start", { reason, ...(previousSessionFile ? { previousSessionFile } : {}) });
		await this.discoverResources(reason === "reload" ? "reload" : "startup");
	}

	/** resources_discover (aggregate): every handler's skill and prompt paths join the resource set. */
	private async discoverResources(reason: "startup" | "reload"): Promise<void> {
		const resources = this.resources;
		if (reason === "reload") resources?.reload();
		const skills: ExtensionResourcePath[] = [];
		const prompts: ExtensionResourcePath[] = [];
		const strings = (v: unknown) => (Array.isArray(v) ? v.filter((p): p is string => typeof p === "string") : []);
		if (this.runner.has("resources_discover")) {
			const results = await this.runner.collect<{ skillPaths?: unknown; promptPaths?: unknown }>("resources_discover", { cwd: this.session.cwd, reason });
			for (const { path, result } of results) {
				skills.push(...strings(result.skillPaths).map((p) => ({ path: p, extensionPath: path })));
				prompts.push(...strings(result.promptPaths).map((p) => ({ path: p, extensionPath: path })));
			}
		}
		if (!resources) return;
		resources.setExtensionPaths(skills, prompts);
		this.session.updateSystemPromptOptions({ contextFiles: resources.contextFiles, skills: resources.skillSummaries() });
	}

	/** `previousTools`: tool state before a reload or replacement; at start-up the session already chose (--tools). */
	private wire(previousTools?: ToolState): void {
		const runtime = this.runtime;
		if (runtime) {
			const { errors } = runtime.bind(this.actions());
			for (const e of errors) this.runner.report(e.extensionPath, "register_provider", e.error);
		}
		this.resolveCommands();
		this.session.setToolContextFactory((toolCallId) => this.createToolContext(toolCallId));
		this.syncTools(previousTools);
		this.bindMcp();
		this.session.hooks = this.extensions.length > 0 ? createLoopHooks(this.runner, this.boundarySink()) : {};
		this.unsubscribe?.();
		this.unsubscribe = this.extensions.length > 0 ? this.session.subscribe((event) => this.forward(event)) : undefined;
		this.session.compaction.hooks = {
			before: async (event) =>
				this.runner.has("session_before_compact")
					? this.runner.first<BeforeCompactDecision>("session_before_compact", event, (r) => (r.cancel ? "stop" : r.compaction ? "keep" : "ignore"))
					: undefined,
			compacted: (compactionEntry, fromExtension, info) => this.runner.emit("session_compact", { compactionEntry, fromExtension, ...info }),
			failed: (info) =>
				this.runner.emit("session_compact_failed", {
					reason: info.reason,
					error: info.error ?? "Compaction cancelled",
					...(info.error !== undefined ? { errorMessage: info.error } : {}),
					aborted: info.aborted,
					willRetry: info.willRetry,
					fromExtension: info.fromExtension,
				}),
		};
		this.session.lifecycle = {
			beforeReplace: (reason, detail) => this.beforeReplace(reason, detail),
			replaced: async (reason, previous) => {
				const tools = await this.reloadExtensions(false);
				await this.bind(reason, previous, tools);
			},
		};
	}

	/** Servers extensions registered go to the MCP manager; later changes also fire mcp_servers_change. */
	private bindMcp(): void {
		const registry = this.runtime?.mcpServers;
		const mcp = this.options.mcp;
		registry?.setChangeListener(() => {
			const servers = registry.list();
			mcp?.setRegistered(servers);
			if (this.runner.has("mcp_servers_change")) void this.runner.emit("mcp_servers_change", { servers });
		});
		const servers = registry?.list() ?? [];
		if (mcp) mcp.bind(servers);
		else if (!this.runner.has("mcp_servers_change")) {
			for (const s of servers) this.runner.report(s.extensionPath, "register_mcp_server", new Error(`MCP is off for this run (--no-mcp): server "${s.name}" does not start`));
		}
	}

	private boundarySink(): BoundarySink {
		return createBoundarySink(this.session, () => this.runner);
	}

	private async forward(event: AgentSessionEvent): Promise<void> {
		if (!FORWARDED.has(event.type) || !this.runner.has(event.type)) return;
		// The run's system message is for json and rpc clients for now; extensions see the conversation as before.
		if (event.type === "message_start" && event.message.role === "system") return;
		const { type, ...payload } = event.type === "agent_end" ? { ...event, messages: event.messages.filter((m) => m.role !== "system") } : event;
		if (type !== "agent_end") return this.runner.emit(type, payload);
		this.ending = true;
		try {
			await this.runner.emit(type, payload);
		} finally {
			this.ending = false;
		}
	}

	private resolveCommands(): void {
		const resolution = resolveCommandNames(this.extensions);
		this.commands = resolution.commands;
		this.ambiguous = resolution.ambiguous;
	}

	private toolState(): ToolState {
		return { active: new Set(this.session.getActiveToolNames()), known: new Set(this.session.getAllTools().map((t) => t.name)) };
	}

	/**
	 * Extension tools into the session; a built-in name replaces the built-in. A tool new since
	 * `previous` is active at once; one that existed keeps its state. At start-up (no `previous`)
	 * the session already chose (--tools).
	 */
	private syncTools(previous?: ToolState): void {
		for (const ext of this.extensions) {
			for (const { definition } of ext.tools.values()) {
				// A tool new since `previous` (registered in session_start, a command, a tool) starts active if
				// the command line lets it (--tools, -nt, -nbt); one that existed keeps its state.
				const activate = previous ? previous.active.has(definition.name) || (!previous.known.has(definition.name) && this.session.admitsTool(definition.name)) : false;
				this.session.addTool(definition, activate);
			}
		}
	}

	// ---- actions (what `pi.*` does once bound) ----------------------------------------------------

	private actions(): ExtensionActions {
		const session = this.session;
		return {
			sendMessage: (message, options) => {
				this.sendMessage(message, options).catch((error) => this.runner.report("<runtime>", "send_message", error));
			},
			sendUserMessage: (content, options) => {
				this.sendUserMessage(content, options).catch((error) => this.runner.report("<runtime>", "send_user_message", error));
			},
			appendEntry: (customType, data) => {
				const id = session.session.appendCustomEntry(customType, data);
				// json and rpc clients see what extensions keep in the session (pi's entry_appended).
				const entry = session.session.getEntry(id);
				if (entry) void session.publish({ type: "entry_appended", entry });
			},
			setSessionName: (name) => this.setSessionName(name),
			getSessionName: () => session.session.getSessionName(),
			setLabel: (entryId, label) => {
				session.session.appendLabelChange(entryId, label);
			},
			getActiveTools: () => session.getActiveToolNames(),
			getAllTools: () => this.toolInfos(),
			setActiveTools: (names) => session.setActiveTools(names),
			getCommands: () => this.commandInfos(),
			setModel: async (model) => this.setModel(model, "set"),
			getThinkingLevel: () => session.thinkingLevel,
			setThinkingLevel: (level) => this.setThinkingLevel(level),
			refreshTools: () => this.syncTools(this.toolState()),
			registerProvider: (nameOrProvider, config) => {
				this.registry.registerProvider(nameOrProvider as never, config);
				this.refreshModel(typeof nameOrProvider === "string" ? nameOrProvider : nameOrProvider.id);
			},
			unregisterProvider: (name) => {
				this.registry.unregisterProvider(name);
				this.refreshModel(name);
			},
			registerVirtualModel: (config, path) => this.registerVirtualModel(config, path),
			unregisterVirtualModel: (provider, id) => {
				this.registry.unregisterVirtualModel(provider, id);
				this.refreshModel(provider);
			},
			getSettings: () => this.settings(),
		};
	}

	async setModel(model: Model, source: "set" | "cycle" | "restore"): Promise<boolean> {
		if (!this.registry.hasConfiguredAuth(model)) return false;
		const previousModel = this.session.model;
		this.session.setModel(model);
		await this.runner.emit("model_select", { model, previousModel, source });
		// The level the new model supports (a model that does not reason runs with thinking off).
		this.setThinkingLevel(this.session.thinkingLevel);
		return true;
	}

	/** Name the session (pi.setSessionName, a mode's /name); extensions hear session_info_changed. */
	setSessionName(name: string): void {
		this.session.setSessionName(name);
		void this.runner.emit("session_info_changed", { name });
		void this.session.publish({ type: "session_info_changed", name: this.session.session.getSessionName() });
	}

	setThinkingLevel(level: ThinkingLevel): void {
		const previousLevel = this.session.thinkingLevel;
		this.session.setThinkingLevel(level);
		if (this.session.thinkingLevel === previousLevel) return;
		void this.runner.emit("thinking_level_select", { level: this.session.thinkingLevel, previousLevel });
		void this.session.publish({ type: "thinking_level_changed", level: this.session.thinkingLevel });
	}

	/** A virtual model (pi 1.6): the registry routes its requests through the extension's route(). */
	private registerVirtualModel(config: VirtualModelConfig, extensionPath: string): void {
		const definition = virtualDefinition(config, this.registry, extensionPath);
		this.registry.registerVirtualModel(definition, createVirtualResolver(definition, { session: this.session, registry: this.registry, context: () => this.createContext() }), `extension:${extensionPath}`);
		this.refreshModel(config.provider);
	}

	/**
	 * A provider changed after bind (registerProvider, unregisterProvider, a virtual model): when it
	 * is the current model's, the session takes the model's new version (endpoint, headers, key),
	 * so a proxy an extension sets up is never bypassed.
	 */
	private refreshModel(provider: string): void {
		const current = this.session.model;
		if (!current || current.provider !== provider) return;
		const fresh = this.registry.find(current.provider, current.id);
		if (fresh && fresh !== current) this.session.refreshModel(fresh);
	}

	/** A copy of the settings in force (pi.getSettings()): the user's, then the trusted project's over them. */
	private settings(): Record<string, unknown> {
		const files = readRunSettings(this.session.cwd, this.projectTrusted);
		return structuredClone(mergeSettings(files.user?.data ?? {}, files.project?.data ?? {}));
	}

	private toolInfos(): ToolInfo[] {
		const owner = new Map<string, Extension>();
		for (const ext of this.extensions) for (const name of ext.tools.keys()) owner.set(name, ext);
		return this.session.getAllTools().map((t) => {
			const ext = owner.get(t.name);
			return {
				name: t.name,
				description: t.description,
				parameters: t.parameters,
				sourceInfo: ext
					? ext.sourceInfo
					: this.options.mcp?.isMcpTool(t.name)
						? { source: "builtin", path: "builtin:mcp" }
						: { source: this.builtinToolNames.has(t.name) && this.baseTools.includes(t) ? "builtin" : "sdk" },
			};
		});
	}

	/** Extension commands, then prompt templates, then skills (`skill:<name>`), as pi's getCommands(). */
	commandInfos(): SlashCommandInfo[] {
		const extension: SlashCommandInfo[] = this.commands.map((c) => ({ name: c.invocationName, description: c.description, source: "extension", sourceInfo: c.sourceInfo }));
		return [...extension, ...(this.resources?.commandInfos() ?? []), ...(this.options.mcp?.commandInfos() ?? [])];
	}

	/** Extension commands with their invocation names, for completion and listings. */
	resolvedCommands(): ResolvedCommand[] {
		return this.commands;
	}

	// ---- messages --------------------------------------------------------------------------------

	async sendMessage(input: SendMessageInput, options: SendMessageOptions = {}): Promise<void> {
		const message = customMessage(input);
		if (options.deliverAs === "nextTurn") {
			this.nextTurn.push(message);
			return;
		}
		if (this.settling && options.triggerTurn) {
			this.queuedCommands.push(() => this.runPrompts([message]));
			return;
		}
		this.enter();
		try {
			// From agent_end the run is over: a message that starts no turn is saved at once, one
			// that does opens the next run (the host runs queued work before settling).
			if (this.ending && !options.triggerTurn) await this.session.addMessage(message);
			else if (this.session.isStreaming) await this.session.queueCustom(message, options.deliverAs === "followUp" || this.ending ? "followUp" : "steer");
			else if (options.triggerTurn) await this.runPrompts([message]);
			else await this.session.addMessage(message);
		} finally {
			this.leave();
		}
		await this.drainCommands();
	}

	async sendUserMessage(content: string | (TextContent | ImageContent)[], options: SendUserMessageOptions = {}): Promise<void> {
		const text = typeof content === "string" ? content : content.map((c) => (c.type === "text" ? c.text : "")).join("");
		const images = typeof content === "string" ? undefined : content.filter((c): c is ImageContent => c.type === "image");
		// pi 1.6: while a run is going, text is queued as written, "/cmd" too (it reaches the model
		// verbatim), unless expandPromptTemplates asks for a command to run at once. Idle, "/cmd"
		// runs the command, as a prompt does (SPEC §12).
		const streaming = this.session.isStreaming && !this.settling;
		const commands = !streaming || options.expandPromptTemplates === true;
		const submit = () =>
			this.submit(text, { images, source: "extension", streamingBehavior: options.deliverAs ?? (this.ending ? "followUp" : undefined), expand: options.expandPromptTemplates, commands });
		if (this.settling) {
			// What agent_settled handlers send runs once they are all done.
			this.queuedCommands.push(submit);
			return;
		}
		const result = await submit();
		if (result.kind === "error") throw new Error(result.message);
	}

	// ---- idle ------------------------------------------------------------------------------------

	private enter(): void {
		this.busy++;
	}

	private leave(): void {
		if (--this.busy === 0) this.changed();
	}

	private changed(): void {
		for (const wake of this.idleWaiters.splice(0)) wake();
	}

	/**
	 * Resolves when no run is going or starting — including runs an extension started without
	 * waiting (sendMessage with triggerTurn, sendUserMessage) — and, unless `commands` is false,
	 * no queued command is running. Modes wait here before exiting; a command's
	 * `ctx.waitForIdle()` passes `commands: false` so it never waits for itself.
	 */
	async waitForIdle(options: { commands?: boolean } = {}): Promise<void> {
		for (;;) {
			if (this.busy > 0 || (options.commands !== false && this.draining)) await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
			else if (this.session.isStreaming) await this.session.waitForIdle();
			else return;
		}
	}

	/** SPEC §12: commands queued with sendUserMessage("/cmd") run once nothing else is running. */
	private async drainCommands(): Promise<void> {
		if (this.draining || this.busy > 0 || this.queuedCommands.length === 0) return;
		this.draining = true;
		try {
			while (this.busy === 0 && this.queuedCommands.length > 0) {
				const result = await this.queuedCommands.shift()!().catch((error: unknown) => ({ kind: "error" as const, message: error instanceof Error ? error.message : String(error) }));
				if (result && result.kind === "error") this.runner.report("<runtime>", "send_user_message", new Error(result.message));
			}
		} finally {
			this.draining = false;
			this.changed();
		}
	}

	// ---- input: commands, the input event, before_agent_start, the run ----------------------------

	private parseCommand(text: string): { name: string; args: string } | undefined {
		if (!text.startsWith("/")) return undefined;
		const space = text.indexOf(" ");
		const name = space < 0 ? text.slice(1) : text.slice(1, space);
		const args = space < 0 ? "" : text.slice(space + 1).trim();
		if (!name) return undefined;
		return this.commands.some((c) => c.invocationName === name) || this.ambiguous.has(name) ? { name, args } : undefined;
	}

	/**
	 * Everything typed or sent goes through here, in pi's order: an extension command runs (never
	 * reaching the model); otherwise the input event may handle or transform the raw text; then
	 * `/skill:<name>` and `/template` expand — except in text an extension sent (sendUserMessage),
	 * which reaches the model as written; then the model is prompted (or the text is queued).
	 */
	async submit(text: string, options: SubmitOptions = {}): Promise<SubmitResult> {
		const command = options.commands === false ? undefined : this.parseCommand(text);
		if (command) {
			const candidates = this.ambiguous.get(command.name);
			if (candidates && !this.commands.some((c) => c.invocationName === command.name)) {
				return { kind: "error", message: ambiguousCommandMessage(command.name, candidates) };
			}
			await this.runCommand(command.name, command.args);
			options.onAccepted?.("handled");
			return { kind: "command", name: command.name };
		}
		let result: SubmitResult;
		this.enter();
		try {
			const input = await this.runInputHandlers(text, options.images, options.source ?? "interactive", this.session.isStreaming ? options.streamingBehavior : undefined);
			if (!input) {
				options.onAccepted?.("handled");
				return { kind: "handled" };
			}
			result = await this.promptOrQueue(input.text, input.images, options);
		} finally {
			this.leave();
		}
		await this.drainCommands();
		return result;
	}

	private async promptOrQueue(text: string, images: ImageContent[] | undefined, options: SubmitOptions): Promise<SubmitResult> {
		const expand = options.source !== "extension" || options.expand === true;
		if (this.options.mcp && expand) {
			try {
				// `/mcp:<server>:<prompt> args` expands to what the server's prompt says.
				const prompt = await this.options.mcp.expandPrompt(text);
				if (prompt) {
					text = prompt.text;
					if (prompt.images.length > 0) images = [...(images ?? []), ...prompt.images];
				}
			} catch (error) {
				return { kind: "error", message: error instanceof Error ? error.message : String(error) };
			}
		}
		if (this.resources && expand) {
			try {
				text = this.resources.expand(text) ?? text;
			} catch (error) {
				return { kind: "error", message: error instanceof Error ? error.message : String(error) };
			}
		}
		const user: AgentMessage =
			images && images.length > 0 ? { role: "user", content: [{ type: "text", text }, ...images], timestamp: Date.now() } : { role: "user", content: text, timestamp: Date.now() };
		if (this.session.isStreaming) {
			if (!options.streamingBehavior) return { kind: "error", message: "Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message." };
			if (options.streamingBehavior === "steer") await this.session.steer(text, images);
			else await this.session.followUp(text, images);
			options.onAccepted?.("queued");
			return { kind: "queued" };
		}
		await this.runPrompts([user], text, images, options.onAccepted);
		return { kind: "prompted" };
	}

	/**
	 * rpc `steer` / `follow_up`: queue text for the current (or next) run, after the `input` event
	 * (which may handle it) and skill/template expansion. Extension commands cannot wait in a queue.
	 */
	async queueInput(text: string, kind: "steer" | "followUp", options: { images?: ImageContent[]; source?: PromptSource } = {}): Promise<"queued" | "handled"> {
		const command = this.parseCommand(text);
		if (command) throw new Error(`Extension command "/${command.name}" cannot be queued as a ${kind === "steer" ? "steering" : "follow-up"} message; send it with the prompt command, which runs it at once.`);
		const input = await this.runInputHandlers(text, options.images, options.source ?? "rpc", kind);
		if (!input) return "handled";
		const expanded = this.resources?.expand(input.text) ?? input.text;
		if (kind === "steer") await this.session.steer(expanded, input.images);
		else await this.session.followUp(expanded, input.images);
		return "queued";
	}

	/** The `input` event: undefined when a handler took the text; otherwise the text (and images) after every transform. */
	private async runInputHandlers(
		text: string,
		images: ImageContent[] | undefined,
		source: PromptSource,
		streamingBehavior?: "steer" | "followUp",
	): Promise<{ text: string; images: ImageContent[] | undefined } | undefined> {
		images = images?.length ? images : undefined;
		if (!this.runner.has("input")) return { text, images };
		// Transforms chain: the next handler sees the text (and images) the previous one made.
		const payload = { text, images, source, ...(streamingBehavior ? { streamingBehavior } : {}) };
		const decided = await this.runner.first<{ action: string; text?: string; images?: ImageContent[] }>("input", payload, (r, payload) => {
			if (r.action === "handled") return "stop";
			if (r.action === "transform" && typeof r.text === "string") {
				payload.text = text = r.text;
				if (r.images) payload.images = images = r.images;
			}
			return "ignore";
		});
		return decided?.action === "handled" ? undefined : { text, images };
	}

	/** One run: before_agent_start, the loop, agent_before_settle, agent_settled, then queued commands. */
	async runPrompts(prompts: AgentMessage[], promptText?: string, images?: ImageContent[], onAccepted?: (disposition: PromptDisposition) => void): Promise<void> {
		this.enter();
		try {
			await this.runOnce(prompts, promptText, images, onAccepted);
		} finally {
			this.leave();
		}
		await this.drainCommands();
	}

	private async runOnce(prompts: AgentMessage[], promptText: string | undefined, images: ImageContent[] | undefined, onAccepted?: (disposition: PromptDisposition) => void): Promise<void> {
		// A run that cannot start (busy, no model) fails before before_agent_start and settles nothing.
		if (this.session.isStreaming) throw new BusyError();
		if (!this.session.model) throw new NoModelError();
		const all = [...prompts, ...this.nextTurn.splice(0)];
		if (this.runner.has("before_agent_start")) all.push(...(await dispatchBeforeAgentStart(this.runner, this.session, prompts, promptText, images)));
		let outcome: "completed" | "aborted" | "error" = "completed";
		onAccepted?.("started");
		try {
			await this.session.run(all);
			outcome = this.lastOutcome();
			for (;;) {
				// Work queued as the run ended (agent_end handlers' follow-ups, late steering) runs
				// before anything settles: agent_settled comes only when nothing is queued.
				if (outcome === "completed" && this.session.hasPendingMessages()) {
					await this.session.run([]);
					outcome = this.lastOutcome();
					continue;
				}
				// agent_before_settle may add drafts and continue; an aborted run skips it (pi).
				if (outcome === "aborted" || !this.runner.has("agent_before_settle")) break;
				const settle = await runBoundary(this.runner, "agent_before_settle", { outcome }, this.boundarySink(), (added) => outcome === "completed" && (added || this.session.hasPendingMessages()));
				if (!settle.continue) {
					if (outcome === "completed" && this.session.hasPendingMessages()) continue;
					break;
				}
				await this.session.run([]);
				outcome = this.lastOutcome();
			}
		} finally {
			await this.settled(outcome);
		}
	}

	/** Nothing more will happen on its own: extensions hear agent_settled, then the session's listeners (json, rpc). */
	private async settled(outcome: "completed" | "aborted" | "error"): Promise<void> {
		if (this.runner.has("agent_settled")) {
			this.settling = true;
			try {
				await this.runner.emit("agent_settled", { aborted: outcome === "aborted", outcome });
			} finally {
				this.settling = false;
			}
		}
		await this.session.publish({ type: "agent_settled", aborted: outcome === "aborted" });
	}

	private lastOutcome(): "completed" | "aborted" | "error" {
		const last = this.session.lastAssistant();
		if (this.session.lastRunAborted || last?.stopReason === "aborted") return "aborted";
		return last?.stopReason === "error" ? "error" : "completed";
	}

	async runCommand(name: string, args: string): Promise<void> {
		const command = this.commands.find((c) => c.invocationName === name);
		if (!command) throw new Error(`Unknown command /${name}`);
		try {
			await command.handler(args, this.createCommandContext());
		} catch (error) {
			this.runner.report(`command:${name}`, "command", error);
		}
	}

	// ---- contexts --------------------------------------------------------------------------------

	/**
	 * Checks that a context still belongs to the live runtime: a ctx captured before a reload or
	 * session replacement throws the stale message on every use (SPEC §5).
	 */
	private liveCheck(): () => void {
		const runtime = this.runtime;
		return () => runtime?.assertActive();
	}

	/** ctx.ui: the mode's UI with dialog timeouts, signals and ui_prompt_* events. */
	private dialogUI(): ExtensionUIContext {
		return withDialogEvents(this.ui, {
			hasUI: () => this.hasUI,
			emit: (event, payload) => (this.runner.has(event) ? this.runner.emit(event, payload) : Promise.resolve()),
		});
	}

	private readonlySession(): ReadonlySessionManager {
		const view: Record<string, unknown> = {};
		for (const name of SESSION_READERS) view[name] = (...args: unknown[]) => (this.session.session[name] as (...a: unknown[]) => unknown)(...args);
		return view as unknown as ReadonlySessionManager;
	}

	/** A fresh ExtensionContext; every member checks staleness, so a captured ctx fails after reload. */
	createContext(): ExtensionContext {
		const host = this;
		const session = this.session;
		const check = this.liveCheck();
		const live = <T>(get: () => T) => {
			check();
			return get();
		};
		return {
			get ui() {
				return live(() => host.dialogUI());
			},
			get hasUI() {
				return live(() => host.hasUI);
			},
			get mode() {
				return live(() => host.mode);
			},
			get cwd() {
				return live(() => session.cwd);
			},
			get sessionManager() {
				return live(() => host.readonlySession());
			},
			get modelRegistry() {
				return live(() => host.registry as never);
			},
			get model() {
				return live(() => session.model);
			},
			get scopedModels() {
				// pi 1.6's ScopedModel entries.
				return live(() => session.scopedModels.map((model) => ({ model, thinkingLevel: session.scopedThinkingLevels.get(model) })));
			},
			get thinkingLevel() {
				return live(() => session.thinkingLevel);
			},
			isIdle: () => live(() => !session.isStreaming),
			isProjectTrusted: () => live(() => host.projectTrusted),
			get signal() {
				return live(() => session.signal);
			},
			abort: () => live(() => void session.abort()),
			hasPendingMessages: () => live(() => session.hasPendingMessages()),
			shutdown: () => live(() => host.options.onShutdown?.()),
			getContextUsage: () => live(() => session.getContextUsage()),
			compact: (options) =>
				live(() => {
					session.compact(options?.customInstructions).then(
						(result) => options?.onComplete?.(result),
						(error) => {
							const err = error instanceof Error ? error : new Error(String(error));
							if (options?.onError) options.onError(err);
							else host.runner.report("<runtime>", "compact", err);
						},
					);
				}),
			getSystemPrompt: () => live(() => session.getSystemPrompt()),
		};
	}

	/** A tool's context; `toolCallId` is the call it runs for, the parent of the calls it makes with executeTool. */
	createToolContext(toolCallId?: string): ExtensionToolContext {
		const ctx = this.createContext() as ExtensionToolContext;
		let nested = 0;
		const check = this.liveCheck();
		Object.defineProperty(ctx, "tools", {
			get: () => {
				check();
				const active = this.session.getActiveToolNames();
				return this.toolInfos().filter((t) => active.includes(t.name));
			},
			enumerable: true,
		});
		ctx.executeTool = (name, args, options) => {
			check();
			// pi's ids for calls a tool makes: `<parent id>/<n>`.
			const id = toolCallId ? `${toolCallId}/${++nested}` : `nested_${crypto.randomUUID().slice(0, 8)}`;
			return this.executeTool(name, args, id, toolCallId, options);
		};
		return ctx;
	}

	/** A nested tool call with full validation and the tool_call / tool_result hooks. */
	private async executeTool(
		name: string,
		args: Record<string, unknown>,
		id: string,
		parentToolCallId: string | undefined,
		options: { signal?: AbortSignal; onUpdate?: (p: AgentToolResult) => void } = {},
	): Promise<AgentToolResult> {
		const tool = this.session.getAllTools().find((t) => t.name === name);
		const outcome = await executeToolCall({ type: "toolCall", id, name, arguments: structuredClone(args) }, tool, {
			...(parentToolCallId ? { parentToolCallId } : {}),
			model: this.session.model as Model,
			systemPrompt: "",
			tools: this.session.getAllTools(),
			stream: () => {
				throw new Error("no model calls in a nested tool call");
			},
			toolContext: this.createToolContext(id),
			hooks: this.session.hooks,
			signal: options.signal ?? this.session.signal ?? new AbortController().signal,
			emit: async (event) => {
				if (event.type === "tool_execution_update") options.onUpdate?.(event.partialResult);
				await this.session.publish(event);
			},
		});
		if (outcome.isError) {
			const text = outcome.result.content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
			throw new Error(text || `Tool "${name}" failed`);
		}
		return outcome.result;
	}

	createCommandContext(): ExtensionCommandContext {
		const ctx = this.createContext() as ExtensionCommandContext;
		const host = this;
		const check = this.liveCheck();
		const withSession = async (fn: ((ctx: ReplacedSessionContext) => Promise<void>) | undefined) => {
			if (fn) await fn(host.createReplacedContext());
		};
		Object.assign(ctx, {
			waitForIdle: () => {
				check();
				return host.waitForIdle({ commands: false });
			},
			newSession: async (options: Parameters<ExtensionCommandContext["newSession"]>[0] = {}) => {
				check();
				const result = await host.session.newSession({ parentSession: options.parentSession });
				if (!result.cancelled) {
					if (options.setup) await options.setup(host.session.session);
					await withSession(options.withSession);
				}
				return result;
			},
			fork: async (entryId: string, options: Parameters<ExtensionCommandContext["fork"]>[1] = {}) => {
				check();
				const result = await host.session.fork(entryId, options.position ?? "before");
				if (!result.cancelled) await withSession(options.withSession);
				return { cancelled: result.cancelled };
			},
			switchSession: async (path: string, options: Parameters<ExtensionCommandContext["switchSession"]>[1] = {}) => {
				check();
				const result = await host.session.switchSession(path);
				if (!result.cancelled) await withSession(options.withSession);
				return result;
			},
			navigateTree: async (targetId: string, options?: TreeNavigationOptions) => {
				check();
				const { cancelled } = await host.navigateTree(targetId, options);
				return { cancelled };
			},
			reload: async () => {
				check();
				await host.reload();
			},
			getSystemPromptOptions: () => {
				check();
				return host.session.systemPromptOptions();
			},
		});
		return ctx;
	}

	private createReplacedContext(): ReplacedSessionContext {
		const ctx = this.createCommandContext() as ReplacedSessionContext;
		const check = this.liveCheck();
		ctx.sendMessage = async (message, options) => {
			check();
			await this.sendMessage(message, options);
		};
		ctx.sendUserMessage = async (content, options) => {
			check();
			await this.sendUserMessage(content, options);
		};
		return ctx;
	}

	// ---- user bash -------------------------------------------------------------------------------

	/**
	 * `!cmd` / `!!cmd` from a mode: user_bash, then the run, shown and kept as a bashExecution
	 * message (queued for the next prompt while a run is going). A throwing handler aborts it.
	 */
	/** rpc `bash`: what the user_bash handlers decide (the mode runs the command and streams its output itself). */
	askUserBash(command: string, excludeFromContext: boolean): Promise<UserBashEventResult | undefined> {
		return askUserBash(this.runner, command, this.session.cwd, excludeFromContext);
	}

	async runUserBash(command: string, options: UserBashOptions = {}): Promise<BashExecutionMessage> {
		const message = await runUserBash(this.runner, command, this.session.cwd, options);
		if (this.session.isStreaming) this.nextTurn.push(message);
		else await this.session.addMessage(message);
		return message;
	}

	// ---- session replacement and reload ----------------------------------------------------------

	private async beforeReplace(reason: "new" | "resume" | "fork", detail: { targetSessionFile?: string; entryId?: string; position?: "before" | "at" }): Promise<boolean> {
		if (reason === "fork") {
			const r = await this.runner.first<{ cancel?: boolean }>("session_before_fork", { entryId: detail.entryId, position: detail.position ?? "before" }, (x) => (x.cancel ? "stop" : "keep"));
			if (r?.cancel) return true;
		} else {
			const r = await this.runner.first<{ cancel?: boolean }>("session_before_switch", { reason, ...(detail.targetSessionFile ? { targetSessionFile: detail.targetSessionFile } : {}) }, (x) =>
				x.cancel ? "stop" : "keep",
			);
			if (r?.cancel) return true;
		}
		// The old runtime says goodbye; `replaced` then loads the extensions afresh for the new session.
		await this.runner.emit("session_shutdown", { reason, ...(detail.targetSessionFile ? { targetSessionFile: detail.targetSessionFile } : {}) });
		return false;
	}

	/**
	 * Move the leaf to `targetId` (/tree, ctx.navigateTree). With `summarize`, the branch being left
	 * (the old path below the entry both paths share) is summarised — by a session_before_tree handler's
	 * `summary`, or by the model — into a branch_summary entry at the new point.
	 */
	async navigateTree(targetId: string, options: TreeNavigationOptions = {}): Promise<{ cancelled: boolean; aborted?: boolean; summaryEntry?: SessionEntry }> {
		const sm = this.session.session;
		if (!sm.getEntry(targetId)) throw new Error(`No entry with id ${targetId} in this session.`);
		const oldLeafId = sm.getLeafId();
		const oldPath = oldLeafId ? sm.getBranch(oldLeafId) : [];
		const targetPath = new Set(sm.getBranch(targetId).map((e) => e.id));
		const common = [...oldPath].reverse().find((e) => targetPath.has(e.id));
		const entriesToSummarize = oldPath.slice(common ? oldPath.indexOf(common) + 1 : 0);
		const controller = new AbortController();
		const preparation = {
			targetId,
			oldLeafId,
			commonAncestorId: common?.id ?? null,
			entriesToSummarize,
			userWantsSummary: options.summarize === true,
			...(options.customInstructions !== undefined ? { customInstructions: options.customInstructions } : {}),
			...(options.replaceInstructions !== undefined ? { replaceInstructions: options.replaceInstructions } : {}),
			...(options.label !== undefined ? { label: options.label } : {}),
		};
		const r = await this.runner.first<SessionBeforeTreeResult>("session_before_tree", { preparation, signal: options.signal ?? controller.signal }, (x) =>
			x.cancel || x.summary ? "stop" : "keep",
		);
		if (r?.cancel) return { cancelled: true };
		let summary = preparation.userWantsSummary ? r?.summary : undefined;
		const fromExtension = summary !== undefined;
		if (preparation.userWantsSummary && !summary && entriesToSummarize.some((e) => e.type === "message")) {
			try {
				const text = await this.session.compaction.summarizeBranch(entriesToSummarize, {
					customInstructions: r?.customInstructions ?? options.customInstructions,
					replaceInstructions: r?.replaceInstructions ?? options.replaceInstructions,
					signal: options.signal,
				});
				summary = { summary: text };
			} catch (error) {
				if ((error as { cancelled?: boolean }).cancelled || options.signal?.aborted) return { cancelled: false, aborted: true };
				throw error;
			}
		}
		sm.branch(targetId);
		let summaryEntry: SessionEntry | undefined;
		if (summary && oldLeafId) {
			sm.appendBranchSummary(oldLeafId, summary.summary, summary.details, fromExtension || undefined);
			summaryEntry = sm.getLeafEntry();
		}
		const label = r?.label ?? options.label;
		if (label) sm.appendLabelChange(targetId, label);
		this.session.rebuildFromSession();
		await this.runner.emit("session_tree", { newLeafId: sm.getLeafId(), oldLeafId, ...(summaryEntry ? { summaryEntry, fromExtension } : {}) });
		return { cancelled: false, ...(summaryEntry ? { summaryEntry } : {}) };
	}

	/**
	 * Invalidate the old runtime (stale pi/ctx, its bus listeners gone), find the extensions
	 * again, bump the module generation and load them (errors reported, not fatal). Returns the
	 * tool state from before, so tools keep their active state and new ones become active.
	 */
	private async reloadExtensions(reevaluate: boolean): Promise<ToolState> {
		const tools = this.toolState();
		const old = this.loaded;
		if (!old) return tools;
		old.runtime.invalidate();
		if (this.options.discover) {
			try {
				this.entries = await this.options.discover((source, error) => this.runner.report(source, "reload", error));
			} catch (error) {
				this.runner.report("<runtime>", "reload", error);
			}
		}
		const { bumpExtensionGeneration } = await import("./module-import.ts");
		const { loadExtensions } = await import("./loader.ts");
		// /reload evaluates changed files (and their helpers) again; a session replacement runs the
		// factories again on the modules already loaded (pi: moduleLoads 1, factoryRuns 2).
		if (reevaluate) bumpExtensionGeneration();
		// The virtual models the old runtime registered go; the new one registers its own.
		for (const ext of old.extensions) this.registry.unregisterVirtualModelsOf(`extension:${ext.path}`);
		const next = await loadExtensions(this.entries, { cwd: this.session.cwd, eventBus: old.eventBus, reservedFlags: old.runtime.reservedFlags });
		for (const [name, value] of this.options.flagValues ?? []) next.runtime.flagValues.set(name, value);
		// Tools of extensions that no longer register them go; a replaced built-in comes back.
		this.session.resetTools(this.baseTools);
		this.loaded = next;
		this.runner = this.createRunner();
		for (const error of next.errors) this.runner.report(error.path, "load", error);
		this.options.onReloaded?.(next);
		return tools;
	}

	/** `/reload`, `ctx.reload()`: shutdown → stale → re-import → session_start {reason: "reload"}. */
	async reload(): Promise<void> {
		await this.runner.emit("session_shutdown", { reason: "reload" });
		const tools = await this.reloadExtensions(true);
		await this.options.mcp?.reload();
		await this.bind("reload", undefined, tools);
	}

	/** End of the process: session_shutdown {reason: "quit"}. */
	async shutdown(): Promise<void> {
		if (this.runner.has("session_shutdown")) await this.runner.emit("session_shutdown", { reason: "quit" });
		this.runtime?.invalidate();
		this.unsubscribe?.();
		await this.options.mcp?.shutdown();
	}
}
