// Every event an extension can subscribe to with `pi.on()`: its payload and what a handler may
// return. Names are the snake_case vocabulary of SPEC §6; payloads follow the reference §2.2/§2.4.
import type { NormalizedSystemPromptOptions } from "../agent/system-prompt.ts";
import type { SystemMessage } from "../providers/transcript.ts";
import type { TurnOutcome } from "../agent/loop.ts";
import type { AgentMessage, CustomMessage } from "../agent/messages.ts";
import type {
	AssistantMessageEvent,
	Context,
	ImageContent,
	Model,
	TextContent,
	ThinkingLevel,
	ToolResultMessage,
	Message,
	Usage,
} from "../providers/types.ts";
import type { BashResult } from "../tools/bash.ts";
import type { BashOperations } from "../tools/shell.ts";
import type { AgentToolResult } from "../tools/types.ts";
import type { RegisteredMcpServer } from "../mcp/registry.ts";
import type { SessionEntry } from "../session/session-entries.ts";

export type { BashOperations };

// ---- Session-side shapes the events carry ----

/** One entry of a session file (reference §8): the session's own union, so `entry.type === "message"` narrows `entry.message` as in pi. */
export type { SessionEntry };

export interface CompactionPreparation {
	firstKeptEntryId: string;
	messagesToSummarize: AgentMessage[];
	tokensBefore: number;
	previousSummary?: string;
	[key: string]: unknown;
}

export interface CompactionResult<TDetails = unknown> {
	summary: string;
	firstKeptEntryId: string;
	tokensBefore: number;
	details?: TDetails;
}

export interface TreePreparation {
	targetId: string;
	oldLeafId: string | null;
	commonAncestorId: string | null;
	entriesToSummarize: SessionEntry[];
	userWantsSummary: boolean;
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}

/** What a `user_bash` handler may return as the full result of a `!cmd` (pi's BashResult fields). */
export type UserBashResult = Pick<BashResult, "output" | "exitCode" | "cancelled" | "truncated" | "fullOutputPath">;

// ---- Boundary drafts (turn_end, agent_before_settle; seeds 7.1) ----

export type SessionBoundaryDraft =
	| { kind: "custom"; customType: string; data?: unknown }
	| { kind: "custom_message"; customType: string; content: string | (TextContent | ImageContent)[]; display: boolean; details?: unknown }
	| { kind: "context_edit"; entryId: string; action: "replace" | "omit"; content?: string | (TextContent | ImageContent)[] }
	| { kind: "compaction"; summary: string; firstKeptEntryId: string; tokensBefore: number; details?: unknown };

/** The next request's context as it would be with the drafts so far applied. */
export interface BoundaryContextPreview {
	messages: AgentMessage[];
	canContinue: boolean;
}

export interface BoundaryResult {
	entries?: SessionBoundaryDraft[];
	continue?: boolean;
}

// ---- Resources ----

export interface ResourcesDiscoverEvent {
	type: "resources_discover";
	cwd: string;
	reason: "startup" | "reload";
}
export interface ResourcesDiscoverResult {
	skillPaths?: string[];
	promptPaths?: string[];
	themePaths?: string[];
}

// ---- Session lifecycle ----

export interface SessionStartEvent {
	type: "session_start";
	reason: "startup" | "reload" | "new" | "resume" | "fork";
	previousSessionFile?: string;
}
export interface SessionBeforeSwitchEvent {
	type: "session_before_switch";
	reason: "new" | "resume";
	targetSessionFile?: string;
}
export interface SessionBeforeSwitchResult {
	cancel?: boolean;
}
export interface SessionBeforeForkEvent {
	type: "session_before_fork";
	entryId: string;
	position: "before" | "at";
}
export interface SessionBeforeForkResult {
	cancel?: boolean;
	skipConversationRestore?: boolean;
}
export interface SessionBeforeCompactEvent {
	type: "session_before_compact";
	preparation: CompactionPreparation;
	branchEntries: SessionEntry[];
	customInstructions?: string;
	signal: AbortSignal;
}
export interface SessionBeforeCompactResult {
	cancel?: boolean;
	compaction?: CompactionResult;
}
export interface SessionCompactEvent {
	type: "session_compact";
	compactionEntry: SessionEntry;
	fromExtension: boolean;
}
export interface SessionCompactFailedEvent {
	type: "session_compact_failed";
	reason: "manual" | "threshold" | "overflow";
	/** The failure, when it was not an abort (same as `errorMessage`). */
	error: string;
	errorMessage?: string;
	/** Cancelled by a handler or aborted. */
	aborted: boolean;
	/** The request that overflowed would have been sent again after this compaction. */
	willRetry: boolean;
	/** The failing compaction came from a session_before_compact handler. */
	fromExtension: boolean;
}
export interface SessionShutdownEvent {
	type: "session_shutdown";
	reason: "quit" | "reload" | "new" | "resume" | "fork";
	targetSessionFile?: string;
}
export interface SessionBeforeTreeEvent {
	type: "session_before_tree";
	preparation: TreePreparation;
	signal: AbortSignal;
}
export interface SessionBeforeTreeResult {
	cancel?: boolean;
	summary?: { summary: string; details?: unknown };
	customInstructions?: string;
	replaceInstructions?: boolean;
	label?: string;
}
export interface SessionTreeEvent {
	type: "session_tree";
	newLeafId: string | null;
	oldLeafId: string | null;
	summaryEntry?: SessionEntry;
	fromExtension?: boolean;
}
export interface SessionInfoChangedEvent {
	type: "session_info_changed";
	name?: string;
}

// ---- Trust (SPEC §4) ----

export interface ProjectTrustEvent {
	type: "project_trust";
	cwd: string;
	trusted: "yes" | "no" | "undecided";
}
export interface ProjectTrustResult {
	trusted: "yes" | "no";
	/** Save the answer in trust.json (default false: this run only). */
	remember?: boolean;
}

// ---- Provider requests ----

export interface ContextEvent {
	type: "context";
	/** A copy: safe to mutate. */
	messages: AgentMessage[];
}
export interface ContextResult {
	messages?: AgentMessage[];
}
/**
 * After every `context` handler: the request's transcript with the system prompt and tool
 * declarations as its leading system message (pi 1.6). Returned `messages` are sent as they are.
 * `context` is the same request in our older shape ({ systemPrompt, messages, tools }).
 */
export interface ContextWithSystemEvent {
	type: "context_with_system";
	messages: (Message | SystemMessage)[];
	context: Context;
}
export interface ContextWithSystemResult {
	messages?: (Message | SystemMessage)[];
	context?: Context;
}
export interface BeforeProviderRequestEvent {
	type: "before_provider_request";
	payload: unknown;
}
/** Any non-undefined return replaces the payload. */
export type BeforeProviderRequestResult = unknown;
export interface BeforeProviderHeadersEvent {
	type: "before_provider_headers";
	headers: Record<string, string>;
}
export interface BeforeProviderHeadersResult {
	headers?: Record<string, string>;
}
export interface AfterProviderResponseEvent {
	type: "after_provider_response";
	status: number;
	headers: Record<string, string>;
}
/** Each parsed event of the provider's stream (an SSE chunk's JSON), before it becomes ours. */
export interface ProviderStreamEvent {
	type: "provider_stream_event";
	provider: string;
	api: string;
	model: string;
	data: unknown;
}
/**
 * pi 1.6 keeps an idle prompt cache warm and asks extensions first. The agent does no cache
 * warming, so this event never fires; handlers are accepted so extensions written for pi load.
 */
export interface CacheWarmingDecisionEvent {
	type: "cache_warming_decision";
	warmCost: number;
	missCost: number;
	continuationProbability: number;
	action: "warm" | "skip" | "stop";
}
export interface CacheWarmingDecisionEventResult {
	action?: "warm" | "skip" | "stop";
}


// ---- Agent run ----

export interface BeforeAgentStartEvent {
	type: "before_agent_start";
	/** "user": a prompt or sendUserMessage (with `prompt`, `images`); "custom": sendMessage with triggerTurn (with `message`). */
	messageType: "user" | "custom";
	/** The prompt text after expansion ("" for a custom message). */
	prompt: string;
	images?: ImageContent[];
	/** The custom message that starts the run (messageType "custom"). */
	message?: CustomMessage;
	/** The current system prompt: rendered from systemPromptOptions and what earlier handlers changed. */
	systemPrompt: string;
	/** Mutable: later handlers and the request see changes (sections, selectedTools, promptGuidelines, forceSystemPrompt, …). */
	systemPromptOptions: NormalizedSystemPromptOptions;
}
export interface BeforeAgentStartResult {
	message?: Pick<CustomMessage, "customType" | "content" | "display" | "details">;
	systemPrompt?: string;
}
export interface AgentStartEvent {
	type: "agent_start";
}
export interface AgentEndEvent {
	type: "agent_end";
	messages: AgentMessage[];
}
export interface AgentBeforeSettleEvent {
	type: "agent_before_settle";
	entries: SessionBoundaryDraft[];
	continue: boolean;
	context: BoundaryContextPreview;
	outcome: TurnOutcome;
}
/** Nothing more runs on its own: no retry, compaction or queued message is left. */
export interface AgentSettledEvent {
	type: "agent_settled";
	/** The run ended because it was aborted (Escape, ctx.abort()). */
	aborted: boolean;
	outcome: TurnOutcome;
}
export interface TurnStartEvent {
	type: "turn_start";
	turnIndex: number;
	timestamp: number;
}
export interface TurnEndEvent {
	type: "turn_end";
	turnIndex: number;
	message: AgentMessage;
	toolResults: ToolResultMessage[];
	/** The session entry of `message` ("" with no session entry, e.g. --no-session). */
	messageEntryId: string;
	/** The session entries of `toolResults`, in order. */
	toolResultEntryIds: string[];
	entries: SessionBoundaryDraft[];
	continue: boolean;
	context: BoundaryContextPreview;
	outcome: TurnOutcome;
}

// ---- Messages ----

export interface MessageStartEvent {
	type: "message_start";
	message: AgentMessage;
}
export interface MessageUpdateEvent {
	type: "message_update";
	message: AgentMessage;
	assistantMessageEvent: AssistantMessageEvent;
}
export interface MessageEndEvent {
	type: "message_end";
	message: AgentMessage;
}
export interface MessageEndResult {
	/** Must keep the same role. */
	message?: AgentMessage;
}

// ---- Tools ----

// The loop emits these three as they are (agent/loop.ts defines them).
export type { ToolExecutionEndEvent, ToolExecutionStartEvent, ToolExecutionUpdateEvent } from "../agent/loop.ts";
import type { ToolExecutionEndEvent, ToolExecutionStartEvent, ToolExecutionUpdateEvent } from "../agent/loop.ts";

/** Arguments of the built-in tools, so `isToolCallEventType("bash", e)` narrows `e.input`. */
export interface BuiltinToolInputs {
	read: { path: string; offset?: number; limit?: number };
	bash: { command: string; timeout?: number };
	edit: { path: string; oldText?: string; newText?: string; edits?: { oldText: string; newText: string }[] };
	write: { path: string; content: string };
	grep: { pattern: string; path?: string; glob?: string; ignoreCase?: boolean; literal?: boolean; context?: number; limit?: number };
	find: { pattern: string; path?: string; limit?: number };
	ls: { path?: string; limit?: number };
}

export interface ToolCallEvent<TName extends string = string, TInput = Record<string, unknown>> {
	type: "tool_call";
	/** For a call another tool made: `<parent id>/<n>`. */
	toolCallId: string;
	/** Set when another tool made this call (ctx.executeTool). */
	parentToolCallId?: string;
	toolName: TName;
	/** Mutable: in-place edits change the real arguments (no re-validation). */
	input: TInput;
}
export interface ToolCallEventResult {
	block?: boolean;
	reason?: string;
	/** Stop the run after this tool batch. */
	terminate?: boolean;
}
export interface ToolResultEvent {
	type: "tool_result";
	toolCallId: string;
	parentToolCallId?: string;
	toolName: string;
	input: Record<string, unknown>;
	content: (TextContent | ImageContent)[];
	/** Machine-readable result of tools with an output schema; replacing `content` alone drops it. */
	structuredContent?: unknown;
	details: unknown;
	isError: boolean;
	/** What running the tool itself cost, if it called a model. */
	usage?: Usage;
}
/** Field-wise patch: omitted fields keep their value. */
export interface ToolResultEventResult {
	content?: (TextContent | ImageContent)[];
	structuredContent?: unknown;
	details?: unknown;
	isError?: boolean;
}

// ---- Selection ----

export interface ModelSelectEvent {
	type: "model_select";
	model: Model;
	previousModel: Model | undefined;
	source: "set" | "cycle" | "restore";
}
export interface ThinkingLevelSelectEvent {
	type: "thinking_level_select";
	level: ThinkingLevel;
	previousLevel: ThinkingLevel;
}

// ---- Input ----

export interface InputEvent {
	type: "input";
	text: string;
	images?: ImageContent[];
	source: "interactive" | "rpc" | "extension";
	/** How the text will be queued while the agent runs; undefined when idle. */
	streamingBehavior?: "steer" | "followUp";
}
export type InputEventResult =
	| { action: "continue" }
	| { action: "transform"; text: string; images?: ImageContent[] }
	| { action: "handled" };
export interface UserBashEvent {
	type: "user_bash";
	command: string;
	/** `!!cmd`: output stays out of the model's context. */
	excludeFromContext: boolean;
	cwd: string;
}
export interface UserBashEventResult {
	operations?: BashOperations;
	result?: UserBashResult;
}
export interface BashExecutionUpdateEvent {
	type: "bash_execution_update";
	command: string;
	output: string;
}

// ---- UI / progress ----

export type UIPromptKind = "select" | "confirm" | "input" | "editor" | "custom";
export interface UiPromptStartEvent {
	type: "ui_prompt_start";
	reason: "ui_prompt";
	kind: UIPromptKind;
	/** Same as `kind` (our older name). */
	method: UIPromptKind;
	title?: string;
}
export interface UiPromptEndEvent {
	type: "ui_prompt_end";
	reason: "ui_prompt";
	kind: UIPromptKind;
	method: UIPromptKind;
	title?: string;
	cancelled: boolean;
}

// ---- MCP ----

/** An extension registered or unregistered an MCP server after the session bound the runtime. */
export interface McpServersChangeEvent {
	type: "mcp_servers_change";
	/** Every registered server after the change. */
	servers: RegisteredMcpServer[];
}

/** Every event name → its payload and the result a handler may return. */
export interface ExtensionEventMap {
	resources_discover: [ResourcesDiscoverEvent, ResourcesDiscoverResult];
	session_start: [SessionStartEvent, void];
	session_before_switch: [SessionBeforeSwitchEvent, SessionBeforeSwitchResult];
	session_before_fork: [SessionBeforeForkEvent, SessionBeforeForkResult];
	session_before_compact: [SessionBeforeCompactEvent, SessionBeforeCompactResult];
	session_compact: [SessionCompactEvent, void];
	session_compact_failed: [SessionCompactFailedEvent, void];
	session_shutdown: [SessionShutdownEvent, void];
	session_before_tree: [SessionBeforeTreeEvent, SessionBeforeTreeResult];
	session_tree: [SessionTreeEvent, void];
	session_info_changed: [SessionInfoChangedEvent, void];
	project_trust: [ProjectTrustEvent, ProjectTrustResult];
	context: [ContextEvent, ContextResult];
	context_with_system: [ContextWithSystemEvent, ContextWithSystemResult];
	before_provider_request: [BeforeProviderRequestEvent, BeforeProviderRequestResult];
	before_provider_headers: [BeforeProviderHeadersEvent, BeforeProviderHeadersResult];
	after_provider_response: [AfterProviderResponseEvent, void];
	provider_stream_event: [ProviderStreamEvent, void];
	cache_warming_decision: [CacheWarmingDecisionEvent, CacheWarmingDecisionEventResult];
	before_agent_start: [BeforeAgentStartEvent, BeforeAgentStartResult];
	agent_start: [AgentStartEvent, void];
	agent_end: [AgentEndEvent, void];
	agent_before_settle: [AgentBeforeSettleEvent, BoundaryResult];
	agent_settled: [AgentSettledEvent, void];
	turn_start: [TurnStartEvent, void];
	turn_end: [TurnEndEvent, BoundaryResult];
	message_start: [MessageStartEvent, void];
	message_update: [MessageUpdateEvent, void];
	message_end: [MessageEndEvent, MessageEndResult];
	tool_execution_start: [ToolExecutionStartEvent, void];
	tool_execution_update: [ToolExecutionUpdateEvent, void];
	tool_execution_end: [ToolExecutionEndEvent, void];
	tool_call: [ToolCallEvent, ToolCallEventResult];
	tool_result: [ToolResultEvent, ToolResultEventResult];
	model_select: [ModelSelectEvent, void];
	thinking_level_select: [ThinkingLevelSelectEvent, void];
	input: [InputEvent, InputEventResult];
	user_bash: [UserBashEvent, UserBashEventResult];
	bash_execution_update: [BashExecutionUpdateEvent, void];
	ui_prompt_start: [UiPromptStartEvent, void];
	ui_prompt_end: [UiPromptEndEvent, void];
	mcp_servers_change: [McpServersChangeEvent, void];
}

export type ExtensionEventName = keyof ExtensionEventMap;
export type ExtensionEvent = ExtensionEventMap[ExtensionEventName][0];
export type ExtensionEventPayload<E extends ExtensionEventName> = ExtensionEventMap[E][0];
export type ExtensionEventResult<E extends ExtensionEventName> = ExtensionEventMap[E][1];

/** Every event name, in the order of SPEC §6 groups; the runtime checks `pi.on()` names against it. */
export const EXTENSION_EVENT_NAMES: readonly ExtensionEventName[] = [
	"resources_discover", "session_start", "session_before_switch", "session_before_fork", "session_before_compact",
	"session_compact", "session_compact_failed", "session_shutdown", "session_before_tree", "session_tree",
	"session_info_changed", "project_trust", "context", "context_with_system", "before_provider_request",
	"before_provider_headers", "after_provider_response", "provider_stream_event", "cache_warming_decision", "before_agent_start", "agent_start", "agent_end",
	"agent_before_settle", "agent_settled", "turn_start", "turn_end", "message_start", "message_update", "message_end",
	"tool_execution_start", "tool_execution_update", "tool_execution_end", "tool_call", "tool_result", "model_select",
	"thinking_level_select", "input", "user_bash", "bash_execution_update", "ui_prompt_start", "ui_prompt_end",
	"mcp_servers_change",
];

/** Narrow a tool_call event to a built-in tool's typed input. */
export function isToolCallEventType<TName extends keyof BuiltinToolInputs>(
	toolName: TName,
	event: ToolCallEvent,
): event is ToolCallEvent<TName, BuiltinToolInputs[TName]> {
	return event.toolName === toolName;
}
