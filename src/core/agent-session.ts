// One conversation: the model, tools, queues and the session file, around the agent loop.
// Modes talk only to this object: prompt(), steer(), followUp(), abort(), subscribe().
import { buildSystemPrompt, type BuildSystemPromptOptions } from "./agent/system-prompt.ts";
import { runAgentLoop, type AgentEvent, type AgentLoopHooks } from "./agent/loop.ts";
import { bashExecutionMessage, textOf, type AgentMessage, type BashExecutionMessage, type CustomMessage, type SystemMessage } from "./agent/messages.ts";
import type { AssistantMessage, AssistantMessageEventStream, Context, ImageContent, Model, StreamOptions, TextContent, ThinkingLevel } from "./providers/types.ts";
import type { AgentTool } from "./tools/types.ts";
import { executeBash, type BashResult } from "./tools/bash.ts";
import type { BashOperations } from "./tools/shell.ts";
import { clampThinkingLevel, supportedThinkingLevels } from "./providers/thinking.ts";
import { UserError } from "./errors.ts";
import { SessionManager } from "./session/session-manager.ts";
import type { SessionWriteError } from "./session/session-errors.ts";
import type { AppendableMessage, DeferredMessages, SessionEntry, SessionLoadWarning } from "./session/session-entries.ts";
import { DEFAULT_COMPACTION_SETTINGS, type CompactionResult, type CompactionSettings } from "./session/compaction.ts";
import { SessionCompactor, type CompactionEvent } from "./session/compactor.ts";
import { mark } from "./timing.ts";
import { keepOutputFilesOf } from "./tools/output-files.ts";

/** What emit returns when no listener was async. */
const SETTLED: Promise<void> = Promise.resolve();

/** What the session needs from the model registry. */
export interface ModelAccess {
	stream(model: Model, context: Context, options?: StreamOptions): AssistantMessageEventStream;
	getApiKeyAndHeaders(model: Model): Promise<{ apiKey?: string; headers?: Record<string, string> }>;
	/** Retry policy for failed requests that streamed nothing. */
	retry?: AgentLoopHooks["retry"];
	/** Look a model up by provider and id (restoring a resumed session's model). */
	find(provider: string, id: string): Model | undefined;
	/** One request's final message (compaction summaries); default: the stream's result. */
	complete?(model: Model, context: Context, options?: StreamOptions): Promise<AssistantMessage>;
}

export type ReplaceReason = "new" | "resume" | "fork";

/** Extension hooks around replacing the session (new, resume/switch, fork, clone). */
export interface SessionLifecycleHooks {
	/** session_before_switch / session_before_fork: true cancels. */
	beforeReplace?(reason: ReplaceReason, detail: { targetSessionFile?: string; entryId?: string; position?: "before" | "at" }): Promise<boolean>;
	/** session_shutdown on the old runtime, then session_start on the new one. */
	replaced?(reason: ReplaceReason, previousSessionFile: string | undefined): Promise<void>;
}

export interface SessionStats {
	sessionFile: string | undefined;
	sessionId: string;
	userMessages: number;
	assistantMessages: number;
	toolCalls: number;
	toolResults: number;
	totalMessages: number;
	tokens: { input: number; output: number; cacheRead: number; cacheWrite: number; total: number };
	cost: number;
}

/** How queued messages are delivered: all waiting ones at the next chance, or one per turn. */
export type QueueMode = "all" | "one-at-a-time";

export type QueueEvent = { type: "queue_update"; steering: string[]; followUp: string[] };
/** Session-level events beside the loop's (pi 1.6's AgentSessionEvent). */
export type SessionStateEvent =
	/** No more automatic work for the run that just ended (after agent_end, boundaries and queued work). */
	| { type: "agent_settled"; aborted: boolean }
	/** An extension appended an entry to the session (pi.appendEntry). */
	| { type: "entry_appended"; entry: SessionEntry }
	/** The session's display name changed; absent: cleared. */
	| { type: "session_info_changed"; name: string | undefined }
	| { type: "thinking_level_changed"; level: ThinkingLevel };
export type AgentSessionEvent = AgentEvent | QueueEvent | CompactionEvent | SessionStateEvent;

export interface PromptOptions {
	images?: ImageContent[];
	/** How to deliver the prompt when a run is in progress; without it a busy session rejects. */
	streamingBehavior?: "steer" | "followUp";
	source?: "interactive" | "rpc" | "extension";
}

/** The command line's say over tools that appear after start-up. */
export interface ToolPolicy {
	/** -nt: none. */
	noTools: boolean;
	/** --tools: only these. */
	allow?: string[];
	/** -nbt: no built-in. */
	noBuiltinTools: boolean;
	builtinNames: string[];
}

export interface AgentSessionOptions {
	cwd: string;
	model: Model | undefined;
	thinkingLevel: ThinkingLevel;
	models: ModelAccess;
	session: SessionManager;
	/** Every tool that may be activated, built-in and extension. */
	tools: AgentTool<any, any, any>[];
	/** Names of the tools active at start, in order. */
	activeTools: string[];
	/** What decides whether a tool added later starts active (--tools, -nt, -nbt). Default: it does. */
	toolPolicy?: ToolPolicy;
	/** Everything but the tool lists, which the session fills in from the active tools. */
	systemPrompt: Omit<BuildSystemPromptOptions, "selectedTools" | "toolSnippets" | "promptGuidelines">;
	/** Earlier messages (a resumed session), or ones built when first used (SessionManager.deferredContext). */
	messages?: AgentMessage[] | DeferredMessages;
	/** Extension hooks into the loop; the runtime binds these. */
	hooks?: AgentLoopHooks;
	/** The context object passed to tools' execute. */
	toolContext?: () => unknown;
	/** Settings `compaction`; missing fields take the defaults. */
	compaction?: Partial<CompactionSettings>;
	/** Stall detection for every provider request (settings `httpHeaderTimeoutMs`, `httpIdleTimeoutMs`). */
	requestTimeouts?: StreamOptions["timeouts"];
}


/** Two system prompt keys hold the same things (by identity). */
function sameKey(a: unknown[], b: unknown[]): boolean {
	if (a.length !== b.length) return false;
	for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
	return true;
}

/** A queued message as the queue shows it: a user message's text ("" for extension messages). */
function queuedText(m: AgentMessage): string {
	return m.role === "user" ? (typeof m.content === "string" ? m.content : m.content.map((c) => (c.type === "text" ? c.text : "")).join("")) : "";
}

export class BusyError extends Error {
	constructor() {
		super("Agent is already processing. Specify streamingBehavior ('steer' or 'followUp') to queue the message.");
		this.name = "BusyError";
	}
}

export class NoModelError extends Error {
	constructor() {
		super("No model selected");
		this.name = "NoModelError";
	}
}

export class AgentSession {
	readonly cwd: string;
	private _messages: AgentMessage[] | undefined;
	/** A resumed session's messages until something uses them (a long session starts without building them). */
	private deferredMessages: DeferredMessages | undefined;
	private _model: Model | undefined;
	private _thinkingLevel: ThinkingLevel;
	private readonly models: ModelAccess;
	private _session: SessionManager;
	lifecycle: SessionLifecycleHooks = {};
	private readonly allTools: Map<string, AgentTool<any, any, any>>;
	private readonly toolPolicy: ToolPolicy | undefined;
	private activeToolNames: string[];
	private promptOptions: AgentSessionOptions["systemPrompt"];
	hooks: AgentLoopHooks;
	private toolContext: (toolCallId?: string) => unknown;
	private readonly listeners = new Set<(event: AgentSessionEvent) => void | Promise<void>>();
	private steering: AgentMessage[] = [];
	private followUps: AgentMessage[] = [];
	private abortController: AbortController | undefined;
	private running: Promise<void> | undefined;
	private _lastRunAborted = false;
	/** Set by before_agent_start handlers for one run. */
	private systemPromptOverride: string | undefined;
	/** Manual and automatic compaction; the extension host sets `compaction.hooks`. */
	readonly compaction: SessionCompactor;
	private _steeringMode: QueueMode = "all";
	private _followUpMode: QueueMode = "all";
	private _autoRetryEnabled = true;
	private readonly requestTimeouts: StreamOptions["timeouts"];
	/** Aborted by abortRetry() to end the current retry wait. */
	private retryCancel: AbortController | undefined;
	private bashAbort: AbortController | undefined;
	/** `bash` results recorded while a run was going: added when it ends, so tool call/result pairs stay together. */
	private pendingBash: BashExecutionMessage[] = [];
	/** Awaited at the start of every run, before the tools are read (MCP waits for its direct servers here). */
	readonly beforeRun: (() => Promise<void>)[] = [];
	private _explicitToolSelection = false;

	/** The conversation the model sees (built on first use for a resumed session). */
	get messages(): AgentMessage[] {
		if (!this._messages) {
			this._messages = this.deferredMessages?.build() ?? [];
			this.deferredMessages = undefined;
		}
		return this._messages;
	}

	/** The last message passing `test`, without building a resumed session's messages for it. */
	private findLastMessage(test: (message: AgentMessage) => boolean): AgentMessage | undefined {
		if (this.deferredMessages) return this.deferredMessages.findLast(test);
		for (let i = this.messages.length - 1; i >= 0; i--) if (test(this.messages[i]!)) return this.messages[i];
		return undefined;
	}

	constructor(options: AgentSessionOptions) {
		const self = this;
		this.cwd = options.cwd;
		this._model = options.model;
		this._thinkingLevel = options.thinkingLevel;
		this.models = options.models;
		this._session = options.session;
		this.allTools = new Map(options.tools.map((t) => [t.name, t]));
		this.toolPolicy = options.toolPolicy;
		this.activeToolNames = options.activeTools.filter((n) => this.allTools.has(n));
		this.promptOptions = options.systemPrompt;
		if (options.messages && !Array.isArray(options.messages)) this.deferredMessages = options.messages;
		else this._messages = options.messages ? [...options.messages] : [];
		this.hooks = options.hooks ?? {};
		this.toolContext = options.toolContext ?? (() => ({}));
		this.requestTimeouts = options.requestTimeouts;
		this.compaction = new SessionCompactor(
			{
				get model() {
					return self._model;
				},
				get session() {
					return self._session;
				},
				get signal() {
					return self.signal;
				},
				get messages() {
					return self.messages;
				},
				getSystemPrompt: () => this.getSystemPrompt(),
				complete: async (model, context, opts) => {
					if (this.models.complete) return this.models.complete(model, context, opts);
					const auth = await this.models.getApiKeyAndHeaders(model);
					return this.models.stream(model, context, { timeouts: this.requestTimeouts, ...opts, apiKey: auth.apiKey, headers: auth.headers }).result();
				},
				publish: (event) => this.emit(event),
				rebuildFromSession: () => this.rebuildFromSession(),
			},
			{ ...DEFAULT_COMPACTION_SETTINGS, ...options.compaction },
		);
	}

	get session(): SessionManager {
		return this._session;
	}
	get model(): Model | undefined {
		return this._model;
	}
	get thinkingLevel(): ThinkingLevel {
		return this._thinkingLevel;
	}
	get isStreaming(): boolean {
		return this.running !== undefined;
	}
	get signal(): AbortSignal | undefined {
		return this.abortController?.signal;
	}
	/** Whether the last run was aborted (its last message may still be a finished tool call). */
	get lastRunAborted(): boolean {
		return this._lastRunAborted;
	}
	hasPendingMessages(): boolean {
		return this.pendingMessageCount > 0;
	}
	get pendingMessageCount(): number {
		return this.steering.length + this.followUps.length;
	}

	subscribe(listener: (event: AgentSessionEvent) => void | Promise<void>): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/**
	 * Each listener in turn, awaiting the ones that return a promise. Most return nothing, and an
	 * event goes out for every streamed delta: those cost no async step.
	 */
	private emit(event: AgentSessionEvent): Promise<void> {
		try {
			if (event.type === "message_end") this.persist(event.message);
			const listeners = this.listeners.values();
			for (let next = listeners.next(); !next.done; next = listeners.next()) {
				const returned: unknown = next.value(event);
				if (typeof (returned as PromiseLike<void> | undefined)?.then === "function") return this.emitRest(returned as PromiseLike<void>, listeners, event);
			}
			return SETTLED;
		} catch (error) {
			// As from an async function: a throw is a rejection.
			return Promise.reject(error);
		}
	}

	private async emitRest(pending: PromiseLike<void>, listeners: Iterator<(event: AgentSessionEvent) => void | Promise<void>>, event: AgentSessionEvent): Promise<void> {
		await pending;
		for (let next = listeners.next(); !next.done; next = listeners.next()) await next.value(event);
	}

	/** The session entry each saved message went into (turn_end's messageEntryId, toolResultEntryIds). */
	private readonly entryIds = new WeakMap<object, string>();

	entryIdOf(message: AgentMessage): string | undefined {
		return this.entryIds.get(message);
	}

	/** Custom messages are `custom_message` entries (reference §8); the rest are `message` entries. */
	private persist(message: AgentMessage): void {
		let id: string | undefined;
		if (message.role === "custom") id = this._session.appendCustomMessageEntry(message.customType, message.content, message.display, message.details);
		else if (message.role !== "branchSummary" && message.role !== "compactionSummary" && message.role !== "system") id = this._session.appendMessage(message as AppendableMessage);
		if (id) this.entryIds.set(message, id);
		// A saved entry naming a cut-off output's temp file keeps that file past this process.
		if (id && this._session.isPersisted()) keepOutputFilesOf(message);
	}

	/** Add a message without a model call (an extension's sendMessage while idle): shown, saved, in context. */
	async addMessage(message: AgentMessage): Promise<void> {
		await this.emit({ type: "message_start", message });
		this.messages.push(message);
		await this.emit({ type: "message_end", message });
	}

	/** Tell listeners about an event the session did not produce itself (e.g. nested tool calls). */
	async publish(event: AgentSessionEvent): Promise<void> {
		await this.emit(event);
	}

	// ---- model, thinking, tools -------------------------------------------------------------

	/** The same model, changed (its provider was re-registered): no model_change entry, no event. */
	refreshModel(model: Model): void {
		if (this._model && this._model.provider === model.provider && this._model.id === model.id) this._model = model;
	}

	setModel(model: Model): void {
		this._model = model;
		this._session.appendModelChange(model.provider, model.id);
	}

	/** The next level the model supports after the current one (wrapping); undefined without reasoning. */
	nextThinkingLevel(): ThinkingLevel | undefined {
		if (!this._model?.reasoning) return undefined;
		const levels = supportedThinkingLevels(this._model);
		return levels[(levels.indexOf(this._thinkingLevel) + 1) % levels.length];
	}

	/** `--models`: the models cycling goes through (empty: every available model). */
	scopedModels: Model[] = [];
	/** The thinking level a `--models` pattern named for a model (`provider/id:high`). */
	readonly scopedThinkingLevels = new Map<Model, ThinkingLevel>();

	/** The model after the current one in `candidates` (wrapping); undefined with fewer than two. */
	nextModel(candidates: Model[]): Model | undefined {
		if (candidates.length < 2) return undefined;
		const current = this._model;
		const index = candidates.findIndex((m) => current !== undefined && m.provider === current.provider && m.id === current.id);
		return candidates[(index + 1) % candidates.length];
	}

	/** Sets the nearest level the model supports ("off" on a model that does not think). */
	setThinkingLevel(level: ThinkingLevel): void {
		const clamped = this._model ? clampThinkingLevel(this._model, level) : level;
		if (clamped === this._thinkingLevel) return;
		this._thinkingLevel = clamped;
		this._session.appendThinkingLevelChange(clamped);
	}

	/** Whether a tool that appears now (an extension registering one after start-up) starts active. */
	admitsTool(name: string): boolean {
		const policy = this.toolPolicy;
		if (!policy) return true;
		if (policy.noTools) return false;
		if (policy.allow) return policy.allow.includes(name);
		return !(policy.noBuiltinTools && policy.builtinNames.includes(name));
	}

	getActiveToolNames(): string[] {
		return [...this.activeToolNames];
	}
	getAllTools(): AgentTool<any, any, any>[] {
		return [...this.allTools.values()];
	}
	setActiveTools(names: string[]): void {
		this.activeToolNames = names.filter((n) => this.allTools.has(n));
		this._explicitToolSelection = true;
	}
	/** True once setActiveTools chose the active set: tools added later (MCP servers connecting) stay inactive. */
	get explicitToolSelection(): boolean {
		return this._explicitToolSelection;
	}
	removeTool(name: string): void {
		this.allTools.delete(name);
		this.toolsVersion++;
		this.activeToolNames = this.activeToolNames.filter((n) => n !== name);
	}
	/** Add or replace a tool (an extension registering after start-up); active at once unless told otherwise. */
	addTool(tool: AgentTool<any, any, any>, activate = true): void {
		this.allTools.set(tool.name, tool);
		this.toolsVersion++;
		if (activate && !this.activeToolNames.includes(tool.name)) this.activeToolNames.push(tool.name);
	}

	/** What every tool's execute receives as its last argument (the extension tool context); `toolCallId` names the call. */
	setToolContextFactory(factory: (toolCallId?: string) => unknown): void {
		this.toolContext = factory;
	}
	/** Bumped whenever `allTools` or the active names change in place. */
	private toolsVersion = 0;
	private activeToolsBuilt: { names: string[]; version: number; tools: AgentTool<any, any, any>[] } | undefined;

	/** Asked before every request and tool batch: the same array until the tools change. */
	private activeTools(): AgentTool<any, any, any>[] {
		const built = this.activeToolsBuilt;
		if (built && built.names === this.activeToolNames && built.version === this.toolsVersion) return built.tools;
		const tools = this.activeToolNames.map((n) => this.allTools.get(n)!).filter(Boolean);
		this.activeToolsBuilt = { names: this.activeToolNames, version: this.toolsVersion, tools };
		return tools;
	}

	/** What the prompt is built from now: the session's options, the active tools, and this run's changes (before_agent_start). */
	systemPromptOptions(): BuildSystemPromptOptions {
		const tools = this.activeTools();
		const toolSnippets: Record<string, string> = {};
		const toolGuidelines: Record<string, string[]> = {};
		for (const t of tools) {
			if (t.promptSnippet) toolSnippets[t.name] = t.promptSnippet;
			if (t.promptGuidelines) toolGuidelines[t.name] = [...t.promptGuidelines];
		}
		const run = this.runPromptOptions;
		return {
			...this.promptOptions,
			...run,
			selectedTools: tools.map((t) => t.name),
			toolSnippets: { ...toolSnippets, ...run?.toolSnippets },
			toolGuidelines: { ...toolGuidelines, ...run?.toolGuidelines },
			promptGuidelines: run?.promptGuidelines ?? [],
		};
	}

	/** The system prompt the next request will use. */
	getSystemPrompt(): string {
		if (this.systemPromptOverride !== undefined) return this.systemPromptOverride;
		// Asked before every request and tool batch: built again only when something it is built from changed.
		const key = this.systemPromptKey();
		const cached = this.builtPrompt;
		if (cached && sameKey(cached.key, key)) return cached.prompt;
		const prompt = buildSystemPrompt(this.systemPromptOptions());
		this.builtPrompt = { key, prompt };
		return prompt;
	}

	private builtPrompt: { key: unknown[]; prompt: string } | undefined;

	/** Everything buildSystemPrompt reads, by identity (options are replaced, never changed in place), and today's date. */
	private systemPromptKey(): unknown[] {
		// The UTC day, as the prompt's date is (toISOString).
		const key: unknown[] = [this.promptOptions, this.runPromptOptions, Math.floor(Date.now() / 86_400_000)];
		for (const t of this.activeTools()) key.push(t, t.name, t.promptSnippet, t.promptGuidelines);
		return key;
	}

	/** This run's changes to the prompt options (before_agent_start handlers'); cleared when the run ends. */
	private runPromptOptions: Partial<BuildSystemPromptOptions> | undefined;

	/** Keep before_agent_start's changes to the prompt options (not the tool selection) for the current run. */
	setRunPromptOptions(options: Partial<BuildSystemPromptOptions> | undefined): void {
		if (!options) {
			this.runPromptOptions = undefined;
			return;
		}
		const { selectedTools: _selected, cwd: _cwd, ...rest } = options;
		this.runPromptOptions = rest;
	}

	/** Change what the system prompt is built from (skills found by resources_discover, a reload). */
	updateSystemPromptOptions(patch: Partial<AgentSessionOptions["systemPrompt"]>): void {
		this.promptOptions = { ...this.promptOptions, ...patch };
	}

	/** Replace the system prompt for the current run only (before_agent_start). */
	overrideSystemPrompt(prompt: string | undefined): void {
		this.systemPromptOverride = prompt;
	}

	// ---- prompting ----------------------------------------------------------------------------

	private userMessage(text: string, images?: ImageContent[]): AgentMessage {
		return images && images.length > 0
			? { role: "user", content: [{ type: "text", text }, ...images], timestamp: Date.now() }
			: { role: "user", content: text, timestamp: Date.now() };
	}

	/** Start a run with `text`, or queue it when busy and `streamingBehavior` says how. Resolves when the run ends. */
	async prompt(text: string, options: PromptOptions = {}): Promise<void> {
		const message = this.userMessage(text, options.images);
		if (this.running) {
			if (options.streamingBehavior === "steer") return this.queue("steer", message);
			if (options.streamingBehavior === "followUp") return this.queue("followUp", message);
			throw new BusyError();
		}
		await this.run([message]);
	}

	/**
	 * Run with already-built messages (user, custom). With none, whatever is queued opens the run
	 * (a boundary's `continue`, or messages queued as the last run ended).
	 */
	async run(prompts: AgentMessage[]): Promise<void> {
		if (this.running) throw new BusyError();
		await this.compaction.settled();
		const model = this._model;
		if (!model) throw new NoModelError();
		// Steering queued while idle goes with the prompt into the first request (pi); with no prompt, whatever waits opens the run.
		prompts = prompts.length === 0 ? [...this.take("steer"), ...this.take("followUp")] : [...prompts, ...this.take("steer")];
		this.abortController = new AbortController();
		const signal = this.abortController.signal;
		const done = (async () => {
			// MCP waits here for servers with direct tools, so their tools are in this run's list.
			for (const prepare of this.beforeRun) await prepare();
			const systemPrompt = this.getSystemPrompt();
			const tools = this.activeTools();
			const announce = this.systemAnnouncement(systemPrompt, tools);
			mark("prepare run");
			await runAgentLoop(prompts, this.messages, {
				model,
				systemPrompt,
				tools,
				hiddenTools: this.runPromptOptions?.hiddenTools,
				current: () => ({ systemPrompt: this.getSystemPrompt(), tools: this.activeTools(), hiddenTools: this.runPromptOptions?.hiddenTools }),
				announce: announce ? [announce] : undefined,
				stream: (m, c, o) => this.models.stream(m, c, o),
				toolContext: this.toolContext(),
				toolContextFor: (toolCallId) => this.toolContext(toolCallId),
				signal,
				emit: (e) => this.emit(e),
				hooks: {
					retry: this.retryHook(),
					...this.hooks,
					beforeRequest: () => this.compaction.beforeRequest(),
					recoverFromError: (message) => this.compaction.recover(message),
					takeSteeringMessages: () => this.take("steer"),
					takeFollowUpMessages: () => this.take("followUp"),
					streamOptions: async (m) => {
						const auth = await this.models.getApiKeyAndHeaders(m);
						const fromHooks = this.hooks.streamOptions ? await this.hooks.streamOptions(m) : {};
						return {
							...fromHooks,
							apiKey: auth.apiKey,
							headers: { ...auth.headers, ...fromHooks.headers },
							reasoning: this._thinkingLevel === "off" ? undefined : this._thinkingLevel,
							sessionId: this._session.getSessionId(),
							...(this.requestTimeouts ? { timeouts: this.requestTimeouts } : {}),
						};
					},
				},
			});
		})();
		this.running = done;
		try {
			await done;
		} finally {
			this._lastRunAborted = signal.aborted;
			this.running = undefined;
			this.abortController = undefined;
			this.systemPromptOverride = undefined;
			this.runPromptOptions = undefined;
			this.flushPendingBash();
		}
	}

	/** What the last run's system message announced; cleared when the session is replaced. */
	private announced: { prompt: string; tools: Map<string, string> } | undefined;

	/**
	 * The system message for a run (pi 1.6): the whole prompt and tool set the first time, then
	 * only what changed since the last announcement; undefined when nothing did.
	 */
	private systemAnnouncement(prompt: string, tools: AgentTool<any, any, any>[]): SystemMessage | undefined {
		const defs = new Map(tools.map((t) => [t.name, { name: t.name, description: t.description, parameters: t.parameters }]));
		const now = new Map([...defs].map(([name, def]) => [name, JSON.stringify(def)]));
		const before = this.announced;
		this.announced = { prompt, tools: now };
		const added = [...defs.values()].filter((d) => before?.tools.get(d.name) !== now.get(d.name));
		const removed = before ? [...before.tools.keys()].filter((name) => !now.has(name)).map((name) => ({ name })) : [];
		const promptChanged = before?.prompt !== prompt;
		if (!promptChanged && added.length === 0 && removed.length === 0) return undefined;
		return {
			role: "system",
			content: "",
			...(promptChanged ? { sections: { prompt } } : {}),
			...(added.length > 0 ? { toolsAdded: added } : {}),
			...(removed.length > 0 ? { toolsRemoved: removed } : {}),
			timestamp: Date.now(),
		};
	}

	/** The registry's retry policy while auto-retry is on, with a wait abortRetry() can cut short. */
	private retryHook(): AgentLoopHooks["retry"] {
		const policy = this.models.retry;
		if (!policy || !this._autoRetryEnabled) return undefined;
		return {
			maxAttempts: policy.maxAttempts,
			delayFor: (message, attempt) => (this._autoRetryEnabled ? policy.delayFor(message, attempt) : undefined),
			cancelSignal: () => {
				this.retryCancel = new AbortController();
				return this.retryCancel.signal;
			},
		};
	}

	get autoRetryEnabled(): boolean {
		return this._autoRetryEnabled;
	}
	setAutoRetryEnabled(enabled: boolean): void {
		this._autoRetryEnabled = enabled;
	}
	/** End a retry wait now: the failed request stays the answer (auto_retry_end with success false). */
	abortRetry(): void {
		this.retryCancel?.abort();
	}

	get autoCompactionEnabled(): boolean {
		return this.compaction.settings.enabled;
	}
	setAutoCompactionEnabled(enabled: boolean): void {
		this.compaction.settings.enabled = enabled;
	}

	private async queue(kind: "steer" | "followUp", message: AgentMessage): Promise<void> {
		(kind === "steer" ? this.steering : this.followUps).push(message);
		await this.emitQueue();
	}

	private take(kind: "steer" | "followUp"): AgentMessage[] {
		const list = kind === "steer" ? this.steering : this.followUps;
		if (list.length === 0) return [];
		const mode = kind === "steer" ? this._steeringMode : this._followUpMode;
		const taken = mode === "all" ? list.splice(0) : list.splice(0, 1);
		void this.emitQueue();
		return taken;
	}

	/** Empty both queues (rpc `clear_queue`); returns the texts that were waiting, for the client's editor. */
	clearQueue(): { steering: string[]; followUp: string[] } {
		const cleared = { steering: this.steering.map(queuedText), followUp: this.followUps.map(queuedText) };
		this.steering = [];
		this.followUps = [];
		void this.emitQueue();
		return cleared;
	}

	private async emitQueue(): Promise<void> {
		await this.emit({ type: "queue_update", steering: this.steering.map(queuedText), followUp: this.followUps.map(queuedText) });
	}

	get steeringMode(): QueueMode {
		return this._steeringMode;
	}
	get followUpMode(): QueueMode {
		return this._followUpMode;
	}
	setSteeringMode(mode: QueueMode): void {
		this._steeringMode = mode;
	}
	setFollowUpMode(mode: QueueMode): void {
		this._followUpMode = mode;
	}

	steer(text: string, images?: ImageContent[]): Promise<void> {
		return this.queue("steer", this.userMessage(text, images));
	}
	followUp(text: string, images?: ImageContent[]): Promise<void> {
		return this.queue("followUp", this.userMessage(text, images));
	}
	/** Queue a custom message (extension sendMessage while streaming). */
	queueCustom(message: CustomMessage, kind: "steer" | "followUp"): Promise<void> {
		return this.queue(kind, message);
	}

	/** Abort the current run (and a retry wait) and wait for it to wind down. */
	async abort(): Promise<void> {
		this.abortRetry();
		this.abortController?.abort();
		this.compaction.abort();
		await this.running?.catch(() => {});
	}

	async waitForIdle(): Promise<void> {
		while (this.running) await this.running.catch(() => {});
	}

	// ---- session replacement ------------------------------------------------------------------

	/** Start an empty session in the same folder. Resolves `{cancelled}`. */
	async newSession(options: { parentSession?: string } = {}): Promise<{ cancelled: boolean }> {
		const current = this._session;
		const next =
			current.isPersisted() || current.getSessionFile()
				? SessionManager.create(this.cwd, current.getSessionDir() || undefined, undefined, options.parentSession)
				: SessionManager.inMemory(this.cwd);
		return this.replaceWith(next, "new", {});
	}

	/** Open another session file (resume). */
	async switchSession(path: string): Promise<{ cancelled: boolean }> {
		const next = SessionManager.open(path, this._session.getSessionDir() || undefined);
		// Another agent writing that file is refused here, before anything is replaced.
		next.lockForWriting();
		try {
			const result = await this.replaceWith(next, "resume", { targetSessionFile: next.getSessionFile() });
			if (result.cancelled) next.close();
			return result;
		} catch (error) {
			if (this._session !== next) next.close();
			throw error;
		}
	}

	/**
	 * Fork into a new session file. `before` (fork at a user message): the new session ends just
	 * before `entryId`, and its text is returned to pre-fill the editor. `at` (clone): up to and
	 * including `entryId`.
	 */
	async fork(entryId: string, position: "before" | "at" = "before"): Promise<{ cancelled: boolean; text?: string }> {
		const entry = this._session.getEntry(entryId);
		if (!entry) throw new UserError(`No entry with id ${entryId} in this session.`);
		const file = this._session.getSessionFile();
		if (!file || !this._session.isPersisted()) throw new UserError("Nothing to fork yet: this session has no saved messages.");
		const next = SessionManager.forkFrom(file, this.cwd, this._session.getSessionDir() || undefined);
		const target = position === "before" ? entry.parentId : entry.id;
		if (target) next.branch(target);
		else next.resetLeaf();
		const text = position === "before" && entry.type === "message" && entry.message.role === "user" ? textOf(entry.message.content) : undefined;
		const result = await this.replaceWith(next, "fork", { entryId, position });
		return { ...result, ...(text !== undefined ? { text } : {}) };
	}

	/** User messages on the current branch, for choosing a fork point. */
	forkMessages(): { entryId: string; text: string }[] {
		const out: { entryId: string; text: string }[] = [];
		for (const entry of this._session.getBranch()) {
			if (entry.type === "message" && entry.message.role === "user") out.push({ entryId: entry.id, text: textOf(entry.message.content) });
		}
		return out;
	}

	private async replaceWith(next: SessionManager, reason: ReplaceReason, detail: { targetSessionFile?: string; entryId?: string; position?: "before" | "at" }): Promise<{ cancelled: boolean }> {
		if (this.running) throw new UserError("Cannot replace the session while the agent is running; abort first.");
		if (this.lifecycle.beforeReplace && (await this.lifecycle.beforeReplace(reason, detail))) return { cancelled: true };
		const previous = this._session.getSessionFile();
		this.loadFrom(next);
		for (const listener of this.replacedListeners) listener(reason);
		await this.lifecycle.replaced?.(reason, previous);
		return { cancelled: false };
	}

	private readonly replacedListeners = new Set<(reason: ReplaceReason) => void>();

	/**
	 * Called whenever the session is replaced (new, resume, fork — from a command or an extension),
	 * after the new one is loaded and before extensions see session_start: a UI redraws here.
	 */
	onReplaced(listener: (reason: ReplaceReason) => void): () => void {
		this.replacedListeners.add(listener);
		return () => this.replacedListeners.delete(listener);
	}

	private writeErrorHandler: ((error: SessionWriteError) => void) | undefined;

	/** Where save failures go, for this session file and every one that replaces it (new, resume, fork). */
	setWriteErrorHandler(handler: ((error: SessionWriteError) => void) | undefined): void {
		this.writeErrorHandler = handler;
		this._session.setWriteErrorHandler(handler);
	}

	private loadWarningHandler: ((warning: SessionLoadWarning) => void) | undefined;

	/**
	 * Where damaged session lines found after open go (a message is read when first used), for this
	 * session file and every one that replaces it. Those found at open are in createAgentSession's warnings.
	 */
	setLoadWarningHandler(handler: ((warning: SessionLoadWarning) => void) | undefined): void {
		this.loadWarningHandler = handler;
		this._session.setWarningHandler(handler);
	}

	/** Replace the conversation (in place once built: a run's loop holds the array). */
	private replaceMessages(messages: AgentMessage[]): void {
		this.deferredMessages = undefined;
		if (this._messages) this._messages.splice(0, this._messages.length, ...messages);
		else this._messages = [...messages];
	}

	/** Make `next` the session: messages, model and thinking level come from it. */
	loadFrom(next: SessionManager): void {
		// The session left behind is no longer written by this process.
		if (this._session !== next) this._session.close();
		this._session = next;
		this.announced = undefined;
		if (this.writeErrorHandler) next.setWriteErrorHandler(this.writeErrorHandler);
		if (this.loadWarningHandler) next.setWarningHandler(this.loadWarningHandler);
		const context = next.buildSessionContext();
		this.replaceMessages(context.messages);
		this.steering = [];
		this.followUps = [];
		if (context.model) {
			const model = this.models.find(context.model.provider, context.model.modelId);
			if (model) this._model = model;
		}
		if (context.messages.length > 0) this._thinkingLevel = context.thinkingLevel;
	}

	/** Rebuild the conversation from the session file's current leaf (after a compaction or tree move). */
	rebuildFromSession(): void {
		this.replaceMessages(this._session.buildSessionContext().messages);
	}

	/**
	 * A boundary's context_edit draft: replace the content of, or omit, the message an entry
	 * holds, for the model's context from now on. Recorded as a `context_edit` custom entry.
	 */
	editContext(entryId: string, action: "replace" | "omit", content?: string | (TextContent | ImageContent)[]): void {
		const entry = this._session.getEntry(entryId);
		if (!entry || entry.type !== "message") throw new UserError(`context_edit: no message entry with id ${entryId}`);
		const index = this.messages.indexOf(entry.message);
		if (index >= 0) {
			if (action === "omit") this.messages.splice(index, 1);
			else if (content !== undefined) {
				const m = this.messages[index]!;
				if (m.role === "user" || m.role === "toolResult" || m.role === "custom") this.messages[index] = { ...m, content } as AgentMessage;
			}
		}
		this._session.appendCustomEntry("context_edit", { entryId, action });
	}

	/**
	 * The context's size against the model's window (ctx.getContextUsage()): the last response's
	 * reported usage plus estimates for later messages; estimated throughout after a compaction.
	 */
	getContextUsage(): { tokens: number | null; contextWindow: number; percent: number | null } | undefined {
		if (!this._model) return undefined;
		const contextWindow = this._model.contextWindow;
		const tokens = this.compaction.contextTokens();
		return { tokens, contextWindow, percent: contextWindow > 0 ? (tokens / contextWindow) * 100 : null };
	}

	/**
	 * Summarise older turns into a compaction entry (`/compact [instructions]`, ctx.compact()).
	 * Waits for a run in progress to end first. Rejects with CompactionError (`Compaction cancelled`, …).
	 */
	async compact(customInstructions?: string): Promise<CompactionResult> {
		await this.waitForIdle();
		return this.compaction.compact("manual", customInstructions);
	}

	/**
	 * Before extensions register their tools again (reload, session replacement): back to `base`
	 * (built-in and SDK tools; a built-in an extension had replaced comes back). Active names of
	 * tools that still exist stay active.
	 */
	resetTools(base: AgentTool<any, any, any>[]): void {
		this.allTools.clear();
		for (const tool of base) this.allTools.set(tool.name, tool);
		this.toolsVersion++;
		this.activeToolNames = this.activeToolNames.filter((n) => this.allTools.has(n));
	}

	setSessionName(name: string): void {
		this._session.appendSessionInfo(name);
	}

	getSessionStats(): SessionStats {
		const stats: SessionStats = {
			sessionFile: this._session.getSessionFile(),
			sessionId: this._session.getSessionId(),
			userMessages: 0,
			assistantMessages: 0,
			toolCalls: 0,
			toolResults: 0,
			totalMessages: this.messages.length,
			tokens: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
			cost: 0,
		};
		for (const m of this.messages) {
			if (m.role === "user") stats.userMessages++;
			else if (m.role === "toolResult") stats.toolResults++;
			else if (m.role === "assistant") {
				stats.assistantMessages++;
				stats.toolCalls += m.content.filter((c) => c.type === "toolCall").length;
				stats.tokens.input += m.usage.input;
				stats.tokens.output += m.usage.output;
				stats.tokens.cacheRead += m.usage.cacheRead;
				stats.tokens.cacheWrite += m.usage.cacheWrite;
				stats.tokens.total += m.usage.totalTokens;
				stats.cost += m.usage.cost.total;
			}
		}
		return stats;
	}

	// ---- user bash (`!cmd`, rpc `bash`) -------------------------------------------------------

	/**
	 * Run a shell command in the session's folder and record it as a bashExecution message, which
	 * the model sees with the next prompt. No extension event: callers that want `user_bash` emit it.
	 */
	async executeBash(
		command: string,
		options: { excludeFromContext?: boolean; onOutput?: (text: string) => void; onChunk?: (text: string) => void; operations?: BashOperations } = {},
	): Promise<BashResult> {
		if (this.bashAbort) throw new UserError("A bash command is already running; abort it first.");
		this.bashAbort = new AbortController();
		try {
			const result = await executeBash(command, {
				cwd: this.cwd,
				...(options.operations ? { operations: options.operations } : {}),
				signal: this.bashAbort.signal,
				onOutput: options.onOutput ? (tail) => options.onOutput?.(tail.content) : undefined,
				onChunk: options.onChunk,
			});
			this.recordBashResult(command, result, options.excludeFromContext);
			return result;
		} finally {
			this.bashAbort = undefined;
		}
	}

	/** Kill the running bash command, if any. */
	abortBash(): void {
		this.bashAbort?.abort();
	}

	get isBashRunning(): boolean {
		return this.bashAbort !== undefined;
	}

	/** Keep a bash run in the conversation (and the session file); deferred while a run is going. */
	recordBashResult(command: string, result: Pick<BashResult, "output" | "exitCode" | "cancelled" | "truncated" | "fullOutputPath">, excludeFromContext?: boolean): void {
		const message = bashExecutionMessage(command, result, excludeFromContext);
		this.pendingBash.push(message);
		if (!this.running) this.flushPendingBash();
	}

	private flushPendingBash(): void {
		for (const message of this.pendingBash.splice(0)) {
			this.messages.push(message);
			this._session.appendMessage(message);
		}
	}

	/** Text of the last assistant message that has any; undefined when there is none. */
	lastAssistantText(): string | undefined {
		const m = this.findLastMessage((m) => m.role === "assistant" && !(m.stopReason === "aborted" && m.content.length === 0)) as AssistantMessage | undefined;
		return m ? textOf(m.content).trim() || undefined : undefined;
	}

	/** The last assistant message, if any. */
	lastAssistant(): AssistantMessage | undefined {
		return this.findLastMessage((m) => m.role === "assistant") as AssistantMessage | undefined;
	}
}
