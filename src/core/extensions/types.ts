// The contract of the extension system: the `pi` object an extension factory receives, the
// contexts its handlers get, what it can register, and the per-extension record the runner reads.
// Event payloads live in event-types.ts and are re-exported here.
import type { Static, TSchema } from "typebox";
import type { BuildSystemPromptOptions } from "../agent/system-prompt.ts";
import type { CustomMessage } from "../agent/messages.ts";
import type {
	Api,
	AssistantMessage,
	AssistantMessageEventStream,
	Context,
	ImageContent,
	Model,
	StreamOptions,
	TextContent,
	ThinkingLevel,
} from "../providers/types.ts";
import type { AgentTool, AgentToolResult, AgentToolUpdateCallback, ToolExecutionMode } from "../tools/types.ts";
import type { ModelRoute, ModelRouteReason, ModelRouteRequest, VirtualModelDefinition } from "../providers/virtual-models.ts";
import type { NativeProvider } from "../providers/native-provider.ts";
import type { McpServerConfig } from "../mcp/server-config.ts";
import type { RegisteredMcpServer } from "../mcp/registry.ts";
import type {
	AutocompleteProviderFactory,
	Component,
	CustomUIOptions,
	DisposableComponent,
	EditorFactory,
	ExtensionUIDialogOptions,
	ExtensionWidgetOptions,
	KeybindingsManager,
	ReadonlyFooterDataProvider,
	TerminalInputHandler,
	Theme,
	TUI,
	WorkingIndicatorOptions,
} from "./ui-types.ts";
import type { CompactionResult, ExtensionEventName, ExtensionEventPayload, ExtensionEventResult, SessionEntry } from "./event-types.ts";

export * from "./event-types.ts";
export type * from "./ui-types.ts";

// ---- Where an extension came from ----

/** `project` = `<cwd>/.agent/`, `user` = `~/.agent/`, `temporary` = `-e` or an SDK inline factory. */
export type SourceScope = "project" | "user" | "temporary";

export interface SourceInfo {
	/** Resolved absolute path of the entry file (or `<inline:N>`). */
	path: string;
	/** `auto` (discovered in an extensions dir), `local` (settings `extensions`), `cli` (`-e`), `sdk`. */
	source: string;
	scope: SourceScope;
	origin: "package" | "top-level";
	/** The folder the extension lives in (its own node_modules resolve from here). */
	baseDir?: string;
}

// ---- Modes and UI ----

/** pi 1.6's values: extensions test `ctx.mode === "tui"`. */
export type ExtensionMode = "tui" | "print" | "json" | "rpc";

/** ctx.ui's dialog options (pi 1.6's ExtensionUIDialogOptions). */
export type DialogOptions = ExtensionUIDialogOptions;

/** What `ctx.ui` offers, typed as pi 1.6 declares it; per-mode behaviour in SPEC §7. Methods a mode cannot honour are no-ops. */
export interface ExtensionUIContext {
	select(title: string, options: string[], opts?: ExtensionUIDialogOptions): Promise<string | undefined>;
	confirm(title: string, message: string, opts?: ExtensionUIDialogOptions): Promise<boolean>;
	input(title: string, placeholder?: string, opts?: ExtensionUIDialogOptions): Promise<string | undefined>;
	notify(message: string, type?: "info" | "warning" | "error"): void;
	onTerminalInput(handler: TerminalInputHandler): () => void;
	setStatus(key: string, text: string | undefined): void;
	setWorkingMessage(message?: string): void;
	setWorkingVisible(visible: boolean): void;
	setWorkingIndicator(options?: WorkingIndicatorOptions): void;
	setHiddenThinkingLabel(label?: string): void;
	setWidget(key: string, content: string[] | undefined, options?: ExtensionWidgetOptions): void;
	setWidget(key: string, content: ((tui: TUI, theme: Theme) => DisposableComponent) | undefined, options?: ExtensionWidgetOptions): void;
	setFooter(factory: ((tui: TUI, theme: Theme, footerData: ReadonlyFooterDataProvider) => DisposableComponent) | undefined): void;
	setHeader(factory: ((tui: TUI, theme: Theme) => DisposableComponent) | undefined): void;
	setTitle(title: string): void;
	custom<T>(factory: (tui: TUI, theme: Theme, keybindings: KeybindingsManager, done: (result: T) => void) => DisposableComponent | Promise<DisposableComponent>, options?: CustomUIOptions): Promise<T>;
	pasteToEditor(text: string): void;
	setEditorText(text: string): void;
	getEditorText(): string;
	editor(title: string, prefill?: string): Promise<string | undefined>;
	addAutocompleteProvider(factory: AutocompleteProviderFactory): void;
	setEditorComponent(factory: EditorFactory | undefined): void;
	getEditorComponent(): EditorFactory | undefined;
	readonly theme: Theme;
	/** Every theme by name, with the file it came from (undefined for built-in ones). */
	getAllThemes(): { name: string; path: string | undefined }[];
	getTheme(name: string): Theme | undefined;
	setTheme(theme: string | Theme): { success: boolean; error?: string };
	getToolsExpanded(): boolean;
	setToolsExpanded(expanded: boolean): void;
}

// ---- Session access (the session issue owns the implementation) ----

export interface ReadonlySessionManager {
	getCwd(): string;
	getSessionDir(): string;
	getSessionId(): string;
	getSessionFile(): string | undefined;
	getLeafId(): string | null;
	getLeafEntry(): SessionEntry | undefined;
	getEntry(id: string): SessionEntry | undefined;
	getLabel(id: string): string | undefined;
	getBranch(fromId?: string): SessionEntry[];
	getHeader(): Record<string, unknown> | null;
	getEntries(): SessionEntry[];
	getTree(): unknown[];
	getSessionName(): string | undefined;
}

/** The model catalogue as extensions see it (the providers issue owns the implementation). */
export interface ModelRegistryView {
	find(provider: string, modelId: string): Model | undefined;
	getAll(): Model[];
	getAvailable(): Model[];
	hasConfiguredAuth(model: Model): boolean;
	getApiKeyAndHeaders(model: Model): Promise<{ apiKey?: string; headers?: Record<string, string> } | undefined>;
	registerProvider(name: string, config: ProviderConfig): void;
	/** One request's final message with the registry's keys (pi 1.6's `modelRegistry.complete`); never rejects. */
	complete(model: Model, context: Context, options?: StreamOptions): Promise<AssistantMessage>;
}

export interface ContextUsage {
	tokens: number | null;
	contextWindow: number;
	percent: number | null;
}

// ---- Contexts (reference §3, SPEC §7) ----

export interface ExtensionContext {
	ui: ExtensionUIContext;
	hasUI: boolean;
	mode: ExtensionMode;
	cwd: string;
	sessionManager: ReadonlySessionManager;
	modelRegistry: ModelRegistryView;
	model: Model | undefined;
	/** `--models`: the models cycling goes through, with the level a pattern named (pi's ScopedModel). */
	scopedModels: { model: Model; thinkingLevel?: ThinkingLevel }[];
	thinkingLevel?: ThinkingLevel;
	isIdle(): boolean;
	isProjectTrusted(): boolean;
	signal: AbortSignal | undefined;
	abort(): void;
	hasPendingMessages(): boolean;
	shutdown(): void;
	getContextUsage(): ContextUsage | undefined;
	compact(options?: { customInstructions?: string; onComplete?: (result: CompactionResult) => void; onError?: (error: Error) => void }): void;
	getSystemPrompt(): string;
}

export interface ReplacedSessionContext extends ExtensionCommandContext {
	sendMessage<T = unknown>(message: SendMessageInput<T>, options?: SendMessageOptions): Promise<void>;
	sendUserMessage(content: string | (TextContent | ImageContent)[], options?: SendUserMessageOptions): Promise<void>;
}

/** How to move in the session tree (pi 1.6's navigateTree options); `signal` stops a summary being written. */
export interface TreeNavigationOptions {
	summarize?: boolean;
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
	signal?: AbortSignal;
}

export interface ExtensionCommandContext extends ExtensionContext {
	waitForIdle(): Promise<void>;
	newSession(options?: {
		parentSession?: string;
		setup?: (sessionManager: unknown) => Promise<void>;
		withSession?: (ctx: ReplacedSessionContext) => Promise<void>;
	}): Promise<{ cancelled: boolean }>;
	fork(entryId: string, options?: { position?: "before" | "at"; withSession?: (ctx: ReplacedSessionContext) => Promise<void> }): Promise<{ cancelled: boolean }>;
	navigateTree(targetId: string, options?: TreeNavigationOptions): Promise<{ cancelled: boolean }>;
	switchSession(sessionPath: string, options?: { withSession?: (ctx: ReplacedSessionContext) => Promise<void> }): Promise<{ cancelled: boolean }>;
	reload(): Promise<void>;
	getSystemPromptOptions(): BuildSystemPromptOptions;
}

export interface ToolInfo {
	name: string;
	description: string;
	parameters: TSchema;
	sourceInfo: SourceInfo | { source: "builtin" | "sdk"; path?: string };
}

/** What a tool's execute receives (v0.87): the context plus nested tool calls through the hooks. */
export interface ExtensionToolContext extends ExtensionContext {
	tools: ToolInfo[];
	executeTool(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal; onUpdate?: AgentToolUpdateCallback }): Promise<AgentToolResult>;
}

// ---- Tools (reference §4.1) ----

export interface ToolRenderContext<TArgs = unknown> {
	args: TArgs;
	toolCallId: string;
	invalidate(): void;
	lastComponent: unknown;
	state: unknown;
	cwd: string;
	executionStarted: boolean;
	argsComplete: boolean;
	isPartial: boolean;
	expanded: boolean;
	showImages: boolean;
	isError: boolean;
}

/** What renderers return: a pi-tui component (render(width) → lines, invalidate, handleInput). */
export type { Component } from "./ui-types.ts";

/** A tool an extension registers: an AgentTool whose execute gets the tool context, plus renderers. */
export interface ToolDefinition<TParams extends TSchema = TSchema, TDetails = unknown, TState = unknown>
	extends AgentTool<TParams, TDetails, ExtensionToolContext> {
	renderShell?: "default" | "self";
	renderCall?(args: Static<TParams>, theme: Theme, context: ToolRenderContext<Static<TParams>> & { state: TState }): Component | undefined;
	renderResult?(
		result: AgentToolResult<TDetails>,
		options: { expanded: boolean; isPartial: boolean },
		theme: Theme,
		context: ToolRenderContext<Static<TParams>> & { state: TState },
	): Component | undefined;
}

export interface RegisteredTool {
	definition: ToolDefinition<any, any, any>;
	sourceInfo: SourceInfo;
}

export type { ToolExecutionMode };

// ---- Commands, flags, shortcuts (reference §4.2–4.4) ----

export interface AutocompleteItem {
	value: string;
	label: string;
	description?: string;
}

export interface RegisteredCommand {
	name: string;
	sourceInfo: SourceInfo;
	description?: string;
	getArgumentCompletions?: (argumentPrefix: string) => AutocompleteItem[] | null | Promise<AutocompleteItem[] | null>;
	handler: (args: string, ctx: ExtensionCommandContext) => Promise<void> | void;
}

export type CommandOptions = Omit<RegisteredCommand, "name" | "sourceInfo">;

/** A command with the name a user types (`name`, or `name:N` when two extensions share it). */
export interface ResolvedCommand extends RegisteredCommand {
	invocationName: string;
}

export interface SlashCommandInfo {
	name: string;
	description?: string;
	source: "extension" | "prompt" | "skill";
	sourceInfo: SourceInfo;
}

export interface FlagOptions {
	description?: string;
	/** Default "boolean" (pi). */
	type?: "boolean" | "string";
	default?: boolean | string;
}

export interface ExtensionFlag extends Omit<FlagOptions, "type"> {
	type: "boolean" | "string";
	name: string;
	extensionPath: string;
}

/** `modifier+key`, e.g. `ctrl+alt+p`. */
export type KeyId = string;

export interface ShortcutOptions {
	description?: string;
	handler: (ctx: ExtensionContext) => Promise<void> | void;
}

export interface ExtensionShortcut extends ShortcutOptions {
	shortcut: KeyId;
	extensionPath: string;
}

// ---- Renderers (pi 1.6; the modes draw them, through ExtensionRenderers) ----

/** `keyHint(action, description)`: how to press an app action, for renderers' hints. */
export interface KeybindingHints {
	keyHint(action: string, description?: string): string;
}
export interface MessageRenderOptions extends KeybindingHints {
	expanded: boolean;
	/** Horizontal padding of the output. */
	outputPad: number;
}
export interface EntryRenderOptions extends KeybindingHints {
	expanded: boolean;
}
export type MessageRenderer<T = unknown> = (message: CustomMessage<T>, options: MessageRenderOptions, theme: Theme) => Component | undefined;
export type EntryRenderer<T = unknown> = (entry: SessionEntry & { type: "custom"; customType: string; data?: T }, options: EntryRenderOptions, theme: Theme) => Component | undefined;
/** The Markdown surfaces a transformer may run on. */
export type MarkdownMessageType = "user" | "assistant" | "assistant-thinking" | "custom" | "summary" | "changelog";
export interface MarkdownTransformContext {
	messageType: MarkdownMessageType;
	isStreaming: boolean;
	availableWidth: number;
	/** The session entry's id, when drawn from a saved entry. */
	messageId?: string;
	timestamp?: string;
}
/** Rewrites Markdown before it is drawn (never what the model sees). */
export type MarkdownTransformer = (markdown: string, context: MarkdownTransformContext) => string;
export interface MarkdownTransformerOptions {
	/** Default: user, assistant and assistant-thinking. */
	messageTypes?: readonly MarkdownMessageType[];
}
export interface MarkdownTransformerRegistration {
	transformer: MarkdownTransformer;
	messageTypes: ReadonlySet<MarkdownMessageType>;
}
export type ToolRenderers = Pick<ToolDefinition, "renderCall" | "renderResult" | "renderShell">;
/** Picks how a tool's calls are drawn; `next()` gives what the later resolvers (then the tool itself) would use. */
export type ToolRendererResolver = (toolName: string, next: () => ToolRenderers | undefined) => ToolRenderers | undefined;

// ---- Providers (reference §4.5) ----

export interface ProviderModelConfig {
	id: string;
	name: string;
	api?: Api;
	baseUrl?: string;
	reasoning: boolean;
	thinkingLevelMap?: Partial<Record<ThinkingLevel, string | number>>;
	input: ("text" | "image")[];
	cost: { input: number; output: number; cacheRead: number; cacheWrite: number };
	contextWindow: number;
	maxTokens: number;
	headers?: Record<string, string>;
	compat?: Record<string, unknown>;
}

export interface OAuthCredentials {
	access: string;
	refresh?: string;
	expires?: number;
	[key: string]: unknown;
}

export interface OAuthLoginCallbacks {
	onAuth(info: { url: string; instructions?: string }): void;
	onPrompt(prompt: { message: string; placeholder?: string }): Promise<string>;
	onProgress?(message: string): void;
	signal?: AbortSignal;
}

export interface ProviderConfig {
	/** Display name (e.g. in /login). */
	name?: string;
	/** Required when defining models. */
	baseUrl?: string;
	/** A literal key, or the name of an environment variable. */
	apiKey?: string;
	api?: Api;
	streamSimple?: (model: Model, context: Context, options?: StreamOptions) => AssistantMessageEventStream;
	headers?: Record<string, string>;
	/** Add an `Authorization: Bearer` header. */
	authHeader?: boolean;
	/** Replaces all of this provider's models. */
	models?: ProviderModelConfig[];
	oauth?: {
		name: string;
		login(callbacks: OAuthLoginCallbacks): Promise<OAuthCredentials>;
		refreshToken(credentials: OAuthCredentials, signal?: AbortSignal): Promise<OAuthCredentials>;
		getApiKey(credentials: OAuthCredentials): string;
		modifyModels?(models: Model[], credentials: OAuthCredentials): Model[];
		isSubscription?: boolean;
	};
}

/**
 * A virtual model (pi 1.6's ExtensionVirtualModel): selectable like any model, it picks a physical
 * model for every request with `route(request, ctx)`; the state `route` returns is kept on the
 * session branch and handed back as `request.state`. `target` (`provider/id`, or a function of the
 * request's context) is the older shape, still taken.
 */
export interface VirtualModelConfig<TState = unknown> extends Partial<Omit<VirtualModelDefinition<TState>, "route" | "provider" | "id">> {
	provider: string;
	id: string;
	route?: (request: ModelRouteRequest<TState>, ctx: ExtensionContext) => ModelRoute<TState> | Promise<ModelRoute<TState>>;
	target?: string | ((context: Context) => string);
}
export type ExtensionVirtualModel<TState = unknown> = VirtualModelConfig<TState>;
export type { ModelRoute, ModelRouteReason, ModelRouteRequest, VirtualModelDefinition };

// ---- Messages the API can send ----

export type SendMessageInput<T = unknown> = Pick<CustomMessage<T>, "customType" | "content" | "display" | "details">;
export interface SendMessageOptions {
	triggerTurn?: boolean;
	deliverAs?: "steer" | "followUp" | "nextTurn";
}
export interface SendUserMessageOptions {
	deliverAs?: "steer" | "followUp";
	/** Expand `/skill:` commands and prompt templates in the text (extension commands always run). */
	expandPromptTemplates?: boolean;
}

// ---- exec and the inter-extension bus ----

export interface ExecOptions {
	signal?: AbortSignal;
	/** Milliseconds before the process is killed. */
	timeout?: number;
	/** Default: the session's cwd. */
	cwd?: string;
}
export interface ExecResult {
	stdout: string;
	stderr: string;
	code: number;
	killed: boolean;
}

export interface EventBus {
	emit(channel: string, data?: unknown): void;
	/** Returns an unsubscribe function. */
	on(channel: string, handler: (data: unknown) => unknown): () => void;
}

// ---- The API object ----

export type ExtensionHandler<E extends ExtensionEventName = ExtensionEventName> = (
	event: ExtensionEventPayload<E>,
	ctx: ExtensionContext,
) => ExtensionEventResult<E> | void | undefined | Promise<ExtensionEventResult<E> | void | undefined>;

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;

/**
 * `pi.on` as one overload per event (an intersection of signatures), so a handler's return value
 * is checked against that event's result with its literals kept: `return { action: "handled" }`
 * type-checks without `as const`, which a single generic signature does not allow.
 */
export type OnEvent = UnionToIntersection<{ [E in ExtensionEventName]: (event: E, handler: ExtensionHandler<E>) => () => void }[ExtensionEventName]>;

/** Session actions: on `pi` they throw until the session binds the runtime, which supplies them. */
export interface ExtensionSessionActions {
	sendMessage<T = unknown>(message: SendMessageInput<T>, options?: SendMessageOptions): void;
	sendUserMessage(content: string | (TextContent | ImageContent)[], options?: SendUserMessageOptions): void;
	appendEntry<T = unknown>(customType: string, data?: T): void;
	setSessionName(name: string): void;
	getSessionName(): string | undefined;
	setLabel(entryId: string, label: string | undefined): void;
	getActiveTools(): string[];
	getAllTools(): ToolInfo[];
	setActiveTools(toolNames: string[]): void;
	getCommands(): SlashCommandInfo[];
	setModel(model: Model): Promise<boolean>;
	getThinkingLevel(): ThinkingLevel;
	setThinkingLevel(level: ThinkingLevel): void;
	/** A copy of the settings in force: the user's settings.json, the trusted project's over it. */
	getSettings(): Record<string, unknown>;
}

export interface ExtensionAPI extends ExtensionSessionActions {
	/** Subscribe to a lifecycle event; returns an unsubscribe function. */
	on: OnEvent;
	registerTool<TParams extends TSchema = TSchema, TDetails = unknown, TState = unknown>(tool: ToolDefinition<TParams, TDetails, TState>): void;
	registerCommand(name: string, options: CommandOptions): void;
	registerShortcut(shortcut: KeyId, options: ShortcutOptions): void;
	registerFlag(name: string, options: FlagOptions): void;
	/** The flag's value (CLI value once extensions have loaded, else its default); undefined unless this extension registered it. */
	getFlag(name: string): boolean | string | undefined;
	registerMessageRenderer<T = unknown>(customType: string, renderer: MessageRenderer<T>): void;
	registerEntryRenderer<T = unknown>(customType: string, renderer: EntryRenderer<T>): void;
	/** One per extension (a second call replaces the first). */
	registerMarkdownTransformer(transformer: MarkdownTransformer, options?: MarkdownTransformerOptions): void;
	registerToolRenderer(resolver: ToolRendererResolver): void;
	/** Queued during load; applied when the session binds the runtime. The one-argument form takes a pi-ai Provider. */
	registerProvider(name: string, config: ProviderConfig): void;
	registerProvider(provider: NativeProvider): void;
	unregisterProvider(name: string): void;
	registerVirtualModel<TState = unknown>(config: VirtualModelConfig<TState>): void;
	unregisterVirtualModel(provider: string, id: string): void;
	/**
	 * An MCP server for this session, shaped like an `mcpServers` entry of mcp.json. Registered while
	 * loading, it starts with the session; later, at once. Not saved; a server of the same name in
	 * mcp.json wins. Throws for an invalid name or config, or a name another extension registered.
	 */
	registerMcpServer(name: string, config: McpServerConfig): void;
	/** Remove a server this extension registered and close its connection. */
	unregisterMcpServer(name: string): void;
	/** Every server extensions registered. */
	getMcpServers(): RegisteredMcpServer[];
	/** Works during load. */
	exec(command: string, args: string[], options?: ExecOptions): Promise<ExecResult>;
	/** A bus shared by all extensions; listeners are removed when this extension is unloaded. */
	readonly events: EventBus;

}

/** What an extension module default-exports. A returned promise is awaited. */
export type ExtensionFactory = (pi: ExtensionAPI) => void | Promise<void>;

// ---- What the session supplies at bind ----

/** The action slots of the shared runtime; the session fills them in `runtime.bind()`. */
export interface ExtensionActions extends ExtensionSessionActions {
	/** Called after a tool is registered post-bind so the session can pick it up. */
	refreshTools(): void;
	registerProvider(nameOrProvider: string | NativeProvider, config: ProviderConfig | undefined, extensionPath: string): void;
	unregisterProvider(name: string, extensionPath: string): void;
	registerVirtualModel(config: VirtualModelConfig, extensionPath: string): void;
	unregisterVirtualModel(provider: string, id: string, extensionPath: string): void;
}

export type ExtensionStatus = "loading" | "active" | "failed";

/**
 * One loaded extension: everything it registered, each list in registration order. The runner
 * dispatches over extensions in load order, then `handlers.get(event)` in order.
 */
export interface Extension {
	/** The path as given (an `-e` argument, a discovered file, a settings entry resolved to absolute). */
	path: string;
	resolvedPath: string;
	sourceInfo: SourceInfo;
	status: ExtensionStatus;
	handlers: Map<ExtensionEventName, ExtensionHandler<any>[]>;
	tools: Map<string, RegisteredTool>;
	commands: Map<string, RegisteredCommand>;
	flags: Map<string, ExtensionFlag>;
	shortcuts: Map<KeyId, ExtensionShortcut>;
	messageRenderers: Map<string, MessageRenderer<any>>;
	entryRenderers: Map<string, EntryRenderer<any>>;
	markdownTransformer?: MarkdownTransformerRegistration;
	toolRenderers: ToolRendererResolver[];
	/** Providers this extension registered (names, in order), for listings. */
	providers: string[];
	virtualModels: VirtualModelConfig[];
	/** What loaded but will not work as written (an unknown event name), for listings and start-up issues. */
	warnings: ExtensionWarning[];
}

export interface ExtensionWarning {
	/** The unknown event name. */
	event: string;
	message: string;
}

