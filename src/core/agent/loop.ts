// The agent loop: ask the model, run the tools it calls, feed the results back, repeat until it
// stops. Every extension hook reaches the loop through AgentLoopHooks; the loop knows no extensions.
import type {
	AssistantMessage,
	AssistantMessageEvent,
	Context,
	ImageContent,
	Model,
	StreamFunction,
	StreamOptions,
	TextContent,
	Tool,
	ToolCall,
	ToolResultMessage,
} from "../providers/types.ts";
import type { AgentTool, AgentToolResult } from "../tools/types.ts";
import { newAssistantMessage } from "../providers/wire.ts";
import { convertToLlm, type AgentMessage } from "./messages.ts";
import { validateToolArguments } from "./validate.ts";
import { beginTurn, endTurn, enterPhase, inPhase, phased } from "../timing.ts";

export type ToolExecutionStartEvent = {
	type: "tool_execution_start";
	toolCallId: string;
	toolName: string;
	args: unknown;
	/** Set when another tool made this call (ctx.executeTool). */
	parentToolCallId?: string;
};
export type ToolExecutionUpdateEvent = {
	type: "tool_execution_update";
	toolCallId: string;
	toolName: string;
	args: unknown;
	partialResult: AgentToolResult;
	parentToolCallId?: string;
};
export type ToolExecutionEndEvent = {
	type: "tool_execution_end";
	toolCallId: string;
	toolName: string;
	result: AgentToolResult;
	isError: boolean;
	/** Milliseconds `execute()` took; absent when the tool did not run. */
	durationMs?: number;
	parentToolCallId?: string;
};

export type AgentEvent =
	| { type: "agent_start" }
	| { type: "agent_end"; messages: AgentMessage[] }
	| { type: "turn_start"; turnIndex: number; timestamp: number }
	| { type: "turn_end"; turnIndex: number; message: AgentMessage; toolResults: ToolResultMessage[] }
	| { type: "message_start"; message: AgentMessage }
	| { type: "message_update"; message: AgentMessage; assistantMessageEvent: AssistantMessageEvent }
	| { type: "message_end"; message: AgentMessage }
	| ToolExecutionStartEvent
	| ToolExecutionUpdateEvent
	| ToolExecutionEndEvent
	| { type: "auto_retry_start"; attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }
	| { type: "auto_retry_end"; success: boolean; attempt: number; finalError?: string };

export interface ToolCallDecision {
	block?: boolean;
	reason?: string;
	terminate?: boolean;
}

export interface ToolResultPatch {
	content?: (TextContent | ImageContent)[];
	details?: unknown;
	isError?: boolean;
	terminate?: boolean;
	/** Present (possibly undefined) when the hooks decided the structured result: undefined drops it. */
	structuredContent?: unknown;
}

export type TurnOutcome = "completed" | "aborted" | "error";

/** A call as the tool hooks see it; `parentToolCallId` is set for a call another tool made (ctx.executeTool). */
export interface ToolCallInfo {
	toolCallId: string;
	toolName: string;
	input: Record<string, unknown>;
	parentToolCallId?: string;
}

/** The result of a call that was approved but had not started when the run was aborted. */
export const OPERATION_ABORTED = "Operation aborted";

/** The seams through which the session (and so extensions) shape a run. All optional. */
export interface AgentLoopHooks {
	/** `context`: the messages about to be converted for the model (a copy the hook may change). */
	transformContext?(messages: AgentMessage[]): Promise<AgentMessage[]>;
	/** `context_with_system`: the provider-level context including the system prompt and tools. */
	transformLlmContext?(context: Context): Promise<Context>;
	/** `tool_call`: may mutate `input` in place; the first block wins. A throw blocks with its message. */
	beforeToolCall?(call: ToolCallInfo): Promise<ToolCallDecision | undefined>;
	/** `tool_result`: field-wise patch of the result. */
	afterToolCall?(call: ToolCallInfo, result: AgentToolResult, isError: boolean): Promise<ToolResultPatch | undefined>;
	/** `message_end`: may replace a finished message (same role). */
	onMessageEnd?(message: AgentMessage): Promise<AgentMessage>;
	/** Turn boundary: `continue: true` makes one more provider request even without tool calls. */
	onTurnEnd?(info: { turnIndex: number; message: AgentMessage; toolResults: ToolResultMessage[]; outcome: TurnOutcome }): Promise<{ continue?: boolean } | undefined>;
	/** Messages the user queued to steer the run, delivered before the next provider request. */
	takeSteeringMessages?(): AgentMessage[];
	/** Messages queued to run after the agent would otherwise stop. */
	takeFollowUpMessages?(): AgentMessage[];
	/**
	 * Whether to retry a failed request that streamed no content: the delay in ms, or undefined to
	 * give up. `attempt` counts from 1. `maxAttempts` is reported in auto_retry_start.
	 */
	retry?: {
		delayFor(message: AssistantMessage, attempt: number): number | undefined;
		maxAttempts: number;
		/** Asked before each wait: a signal that, once aborted, ends the wait and gives up retrying (abort_retry). */
		cancelSignal?(): AbortSignal;
	};
	/** Per-request stream options (api key, headers, reasoning, provider hooks). */
	streamOptions?(model: Model): Promise<StreamOptions>;
	/** Before each provider request, with the turn's messages in place (auto-compaction may rewrite them). */
	beforeRequest?(): Promise<void>;
	/**
	 * A request failed before streaming anything and retries are over: true when the hook removed
	 * the cause (a compaction after a context overflow), so the request is sent once more.
	 */
	recoverFromError?(message: AssistantMessage): Promise<boolean>;
}

export interface AgentLoopConfig {
	model: Model;
	systemPrompt: string;
	tools: AgentTool<any, any, any>[];
	stream: StreamFunction;
	/** Passed to every tool's execute as its last argument. */
	toolContext: unknown;
	/** A context for one call (its id becomes the parent of calls the tool makes); default `toolContext`. */
	toolContextFor?: (toolCallId: string) => unknown;
	/** Set for a call another tool made: reported on its events and to the tool hooks. */
	parentToolCallId?: string;
	hooks: AgentLoopHooks;
	signal: AbortSignal;
	emit(event: AgentEvent): Promise<void>;
	/** System messages to announce at the start of the first turn (the prompt or tools changed); never added to `messages`. */
	announce?: AgentMessage[];
	/**
	 * The prompt and tools as they are now, asked before each request and tool batch, so a tool that
	 * changes the active tools (pi.setActiveTools) is seen by the very next request. Default: the fixed values above.
	 */
	current?: () => { systemPrompt: string; tools: AgentTool<any, any, any>[]; hiddenTools?: string[] };
	/** Active tools the requests do not declare (reachable only through another tool). */
	hiddenTools?: string[];
}

/** `config` with the prompt and tools of this moment. */
function refreshed(config: AgentLoopConfig): AgentLoopConfig {
	if (!config.current) return config;
	const now = config.current();
	// Usually nothing changed (the session keeps the same prompt and tool list): no new config then.
	if (now.systemPrompt === config.systemPrompt && now.tools === config.tools && now.hiddenTools === config.hiddenTools) return config;
	return { ...config, systemPrompt: now.systemPrompt, tools: now.tools, hiddenTools: now.hiddenTools };
}

/**
 * Run the loop for `prompts`, appending every message to `messages` (the conversation, owned by
 * the caller). Returns the messages this run added.
 */
export async function runAgentLoop(prompts: AgentMessage[], messages: AgentMessage[], loopConfig: AgentLoopConfig): Promise<AgentMessage[]> {
	const added: AgentMessage[] = [];
	const config = timedConfig(loopConfig);
	const { emit, hooks, signal } = config;
	const push = async (message: AgentMessage) => {
		await emit({ type: "message_start", message });
		const final = hooks.onMessageEnd ? await hooks.onMessageEnd(message) : message;
		messages.push(final);
		added.push(final);
		await emit({ type: "message_end", message: final });
		return final;
	};

	await emit({ type: "agent_start" });
	let pending: AgentMessage[] = prompts;
	let turnIndex = 0;
	while (true) {
		beginTurn(`turn ${turnIndex + 1}`);
		await emit({ type: "turn_start", turnIndex, timestamp: Date.now() });
		if (turnIndex === 0) {
			for (const m of config.announce ?? []) {
				await emit({ type: "message_start", message: m });
				added.push(m);
				await emit({ type: "message_end", message: m });
			}
			// pi: what was steered while the run started (a turn_start handler) joins the first request.
			if (!signal.aborted) pending = [...pending, ...(hooks.takeSteeringMessages?.() ?? [])];
		}
		// A virtual model's router is told whether this request answers a user's message.
		let reason: "user" | "continuation" = "continuation";
		for (const m of pending) if (m.role === "user") reason = "user";
		for (const m of pending) await push(m);
		pending = [];

		const assistant = await requestAssistant(messages, added, refreshed(config), reason);
		let outcome: TurnOutcome = assistant.stopReason === "error" ? "error" : assistant.stopReason === "aborted" ? "aborted" : "completed";
		const toolCalls = outcome === "completed" ? assistant.content.filter((c): c is ToolCall => c.type === "toolCall") : [];
		let toolResults: ToolResultMessage[] = [];
		let terminate = false;
		if (toolCalls.length > 0) {
			const batch = await inPhase("tools", () => executeToolCalls(toolCalls, refreshed(config), assistant.stopReason === "length"));
			toolResults = batch.results;
			terminate = batch.terminate;
			for (const r of toolResults) await push(r);
			// Aborted during the tools: the next turn's request ends aborted at once, as pi's does,
			// so the run's last message is an aborted assistant message.
		}
		const boundary = hooks.onTurnEnd ? await hooks.onTurnEnd({ turnIndex, message: assistant, toolResults, outcome }) : undefined;
		await emit({ type: "turn_end", turnIndex, message: assistant, toolResults });
		endTurn();
		turnIndex++;
		if (outcome !== "completed" || terminate) break;

		pending = signal.aborted ? [] : (hooks.takeSteeringMessages?.() ?? []);
		if (toolCalls.length > 0 || pending.length > 0 || boundary?.continue) continue;
		pending = hooks.takeFollowUpMessages?.() ?? [];
		if (pending.length > 0) continue;
		break;
	}
	await emit({ type: "agent_end", messages: added });
	return added;
}

/**
 * With AGENT_TIMING, the config with extension hooks and event delivery charged to the turn's
 * "hooks" phase; otherwise the config itself.
 */
function timedConfig(config: AgentLoopConfig): AgentLoopConfig {
	const hooks = phased(config.hooks, "hooks", ["transformContext", "transformLlmContext", "beforeToolCall", "afterToolCall", "onMessageEnd", "onTurnEnd"]);
	if (hooks === config.hooks) return config;
	return { ...config, hooks, emit: (event) => inPhase("hooks", () => config.emit(event)) };
}

/** What each request declares of the active tools, kept per tool list (the session keeps one list until its tools change). */
const declared = new WeakMap<AgentTool<any, any, any>[], { hidden: string[] | undefined; tools: Tool[] }>();

function declaredTools(config: AgentLoopConfig): Tool[] {
	const kept = declared.get(config.tools);
	if (kept && kept.hidden === config.hiddenTools) return kept.tools;
	const hidden = new Set(config.hiddenTools ?? []);
	const tools = config.tools.filter((t) => !hidden.has(t.name)).map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
	declared.set(config.tools, { hidden: config.hiddenTools, tools });
	return tools;
}

/** One provider request, streamed; the final message is appended to `messages` and `added`. */
async function requestAssistant(messages: AgentMessage[], added: AgentMessage[], config: AgentLoopConfig, reason: "user" | "continuation" = "continuation"): Promise<AssistantMessage> {
	const { hooks, model, signal, emit } = config;
	if (hooks.beforeRequest && !signal.aborted) await hooks.beforeRequest();
	const buildContext = async (): Promise<Context> => {
		let contextMessages = messages;
		if (hooks.transformContext) contextMessages = await hooks.transformContext(structuredClone(messages));
		const tools = declaredTools(config);
		// A context_with_system handler may change what it gets: its own copies, not the kept ones.
		const context: Context = { systemPrompt: config.systemPrompt, messages: convertToLlm(contextMessages), tools: hooks.transformLlmContext ? tools.map((t) => ({ ...t })) : tools };
		return hooks.transformLlmContext ? hooks.transformLlmContext(context) : context;
	};
	let context = await buildContext();
	const options: StreamOptions = { ...(hooks.streamOptions ? await hooks.streamOptions(model) : {}), signal };

	let started = false;
	let recovered = false;
	let final: AssistantMessage;
	for (let attempt = 1; ; attempt++) {
		enterPhase("request build");
		const outcome = await streamOnce(context, { ...options, requestReason: attempt > 1 || recovered ? "retry" : reason }, config);
		enterPhase("other");
		final = outcome.message;
		started = outcome.started;
		const failedEarly = !started && final.stopReason === "error" && !signal.aborted;
		const delay = failedEarly ? hooks.retry?.delayFor(final, attempt) : undefined;
		if (delay === undefined) {
			// `attempt` counts retries, as auto_retry_start's does (pi): the request succeeded or failed on retry N.
			if (attempt > 1) await emit({ type: "auto_retry_end", success: final.stopReason !== "error", attempt: attempt - 1, ...(final.stopReason === "error" ? { finalError: final.errorMessage } : {}) });
			// Once per request: e.g. an overflow compacted away, then the same request, rebuilt, again.
			if (failedEarly && !recovered && hooks.recoverFromError && (await hooks.recoverFromError(final))) {
				recovered = true;
				context = await buildContext();
				attempt = 0;
				continue;
			}
			break;
		}
		await emit({ type: "auto_retry_start", attempt, maxAttempts: hooks.retry!.maxAttempts, delayMs: delay, errorMessage: final.errorMessage ?? "request failed" });
		const cancel = hooks.retry!.cancelSignal?.();
		await abortableSleep(delay, cancel ? AbortSignal.any([signal, cancel]) : signal);
		if (cancel?.aborted && !signal.aborted) {
			// The failure stands as the final message; the run ends as it would have without retries.
			await emit({ type: "auto_retry_end", success: false, attempt, finalError: "Retry cancelled" });
			break;
		}
	}
	if (signal.aborted && final.stopReason !== "aborted" && final.stopReason !== "error") {
		final = { ...final, stopReason: "aborted" };
	}
	if (!started) await emit({ type: "message_start", message: final });
	const replaced = hooks.onMessageEnd ? await hooks.onMessageEnd(final) : final;
	messages.push(replaced);
	added.push(replaced);
	await emit({ type: "message_end", message: replaced });
	return replaced as AssistantMessage;
}

/**
 * Stream one response. message_start waits for the first content event so that a request that
 * fails before producing anything can be retried without showing a message that never was.
 */
async function streamOnce(context: Context, options: StreamOptions, config: AgentLoopConfig): Promise<{ message: AssistantMessage; started: boolean }> {
	const { model, signal, emit } = config;
	let started = false;
	let final: AssistantMessage | undefined;
	try {
		const stream = config.stream(model, context, options);
		for await (const event of stream) {
			if (event.type === "start") continue;
			if (event.type === "done") {
				final = event.message;
				break;
			}
			if (event.type === "error") {
				final = event.error;
				break;
			}
			if (!started) {
				started = true;
				await emit({ type: "message_start", message: event.partial });
			}
			await emit({ type: "message_update", message: event.partial, assistantMessageEvent: event });
		}
		final ??= await stream.result();
	} catch (error) {
		// Providers report failures as data; this guards against one that throws anyway.
		final = errorMessage(model, signal.aborted ? "aborted" : "error", error instanceof Error ? error.message : String(error));
	}
	return { message: final, started };
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
	return new Promise((resolve) => {
		if (signal.aborted) return resolve();
		const timer = setTimeout(done, ms);
		function done() {
			clearTimeout(timer);
			signal.removeEventListener("abort", done);
			resolve();
		}
		signal.addEventListener("abort", done, { once: true });
	});
}

function errorMessage(model: Model, stopReason: "error" | "aborted", text: string): AssistantMessage {
	return { ...newAssistantMessage(model), stopReason, errorMessage: text };
}

interface BatchResult {
	results: ToolResultMessage[];
	terminate: boolean;
}

type CallOutcome = { result: AgentToolResult; isError: boolean; terminate: boolean; durationMs?: number };

/**
 * Run a batch of tool calls. In parallel, every call is prepared first, in order (arguments,
 * `tool_call`), then the approved ones run together; with a sequential tool in the batch, each call
 * is prepared and run before the next. Once the run is aborted (ctx.abort() in a `tool_call`
 * handler, Escape), calls not yet prepared get no `tool_call` and nothing that has not started runs:
 * each gets the result "Operation aborted".
 * `cutOff`: the response stopped at the output limit, so every call in it may be a prefix of what
 * the model meant; none runs (nor does a call whose arguments are not whole JSON).
 */
async function executeToolCalls(calls: ToolCall[], config: AgentLoopConfig, cutOff: boolean): Promise<BatchResult> {
	const byName = toolsByName(config.tools);
	const sequential = calls.some((c) => byName.get(c.name)?.executionMode === "sequential");
	const outcomes: CallOutcome[] = new Array(calls.length);
	const prepare = async (call: ToolCall, index: number): Promise<PreparedCall | undefined> => {
		if (config.signal.aborted) {
			outcomes[index] = await endUnstarted(call, OPERATION_ABORTED, config);
			return undefined;
		}
		const refusal = cutOff || call.argumentsError !== undefined ? incompleteCallRefusal(call, cutOff) : undefined;
		if (refusal) {
			outcomes[index] = await endUnstarted(call, refusal, config);
			return undefined;
		}
		const prepared = await prepareToolCall(call, byName.get(call.name), config);
		if ("outcome" in prepared) {
			outcomes[index] = prepared.outcome;
			return undefined;
		}
		return prepared;
	};
	const run = async (prepared: PreparedCall | undefined, index: number) => {
		if (prepared) outcomes[index] = await runPreparedCall(prepared, config);
	};
	if (sequential) {
		for (let i = 0; i < calls.length; i++) await run(await prepare(calls[i]!, i), i);
	} else {
		const prepared: (PreparedCall | undefined)[] = [];
		for (let i = 0; i < calls.length; i++) prepared.push(await prepare(calls[i]!, i));
		await Promise.all(prepared.map((p, i) => run(p, i)));
	}
	const results: ToolResultMessage[] = calls.map((call, i) => ({
		role: "toolResult",
		toolCallId: call.id,
		toolName: call.name,
		content: outcomes[i]!.result.content,
		details: outcomes[i]!.result.details,
		isError: outcomes[i]!.isError,
		...(outcomes[i]!.durationMs !== undefined ? { durationMs: outcomes[i]!.durationMs } : {}),
		timestamp: Date.now(),
	}));
	return { results, terminate: outcomes.length > 0 && outcomes.every((o) => o.terminate) };
}

const byNameOf = new WeakMap<AgentTool<any, any, any>[], Map<string, AgentTool<any, any, any>>>();

/** The tools by name, kept per tool list. */
function toolsByName(tools: AgentTool<any, any, any>[]): Map<string, AgentTool<any, any, any>> {
	let byName = byNameOf.get(tools);
	if (!byName) byNameOf.set(tools, (byName = new Map(tools.map((t) => [t.name, t]))));
	return byName;
}

/** What the model is told about a call that was not run because its arguments are incomplete. */
export function incompleteCallRefusal(call: ToolCall, cutOff: boolean): string {
	const next = "call the tool again with complete arguments.";
	if (cutOff) return `Tool call "${call.name}" was not executed: its arguments were cut off by the output limit; ${next}`;
	const [reason, ...received] = (call.argumentsError ?? "").split("\n");
	return [`Tool call "${call.name}" was not executed: ${reason}; ${next}`, ...received].join("\n");
}

/** Report a call as failed without running it or its hooks (incomplete arguments, an aborted run). */
async function endUnstarted(call: ToolCall, text: string, config: AgentLoopConfig): Promise<CallOutcome> {
	const parent = config.parentToolCallId ? { parentToolCallId: config.parentToolCallId } : {};
	await config.emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args: call.arguments, ...parent });
	const result = textResult(text);
	await config.emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.name, result, isError: true, ...parent });
	return { result, isError: true, terminate: false };
}

function textResult(text: string): AgentToolResult {
	return { content: [{ type: "text", text }], details: undefined };
}

/** A call that passed its checks and `tool_call`, waiting to run. */
interface PreparedCall {
	call: ToolCall;
	tool: AgentTool<any, any, any>;
	info: ToolCallInfo;
	/** What the tool receives, validated. */
	value: unknown;
	/** As the model sent them, for tool_execution_update. */
	input: Record<string, unknown>;
	terminate: boolean;
}

/** Report the end of a call: `tool_result` may patch it (not when it never ran for an abort), then tool_execution_end. */
async function finishCall(info: ToolCallInfo, outcome: CallOutcome, config: AgentLoopConfig, durationMs?: number): Promise<CallOutcome> {
	let { result, isError, terminate } = outcome;
	if (config.hooks.afterToolCall) {
		const patch = await config.hooks.afterToolCall(info, result, isError);
		if (patch) {
			result = { ...result, ...(patch.content !== undefined ? { content: patch.content } : {}), ...(patch.details !== undefined ? { details: patch.details } : {}) };
			if ("structuredContent" in patch) {
				if (patch.structuredContent === undefined) delete result.structuredContent;
				else result.structuredContent = patch.structuredContent;
			}
			if (patch.isError !== undefined) isError = patch.isError;
			if (patch.terminate !== undefined) terminate = patch.terminate;
		}
	}
	await config.emit({
		type: "tool_execution_end",
		toolCallId: info.toolCallId,
		toolName: info.toolName,
		result,
		isError,
		...(durationMs !== undefined ? { durationMs } : {}),
		...(info.parentToolCallId ? { parentToolCallId: info.parentToolCallId } : {}),
	});
	return { result, isError, terminate, ...(durationMs !== undefined ? { durationMs } : {}) };
}

/** tool_execution_start, argument preparation, `tool_call` and validation; an outcome when the call ends here. */
async function prepareToolCall(call: ToolCall, tool: AgentTool<any, any, any> | undefined, config: AgentLoopConfig): Promise<PreparedCall | { outcome: CallOutcome }> {
	const { emit, hooks } = config;
	// The same object is shown to tool_call handlers, which may change it in place.
	const input: Record<string, unknown> = call.arguments && typeof call.arguments === "object" ? call.arguments : {};
	const parent = config.parentToolCallId ? { parentToolCallId: config.parentToolCallId } : {};
	await emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args: input, ...parent });
	const info: ToolCallInfo = { toolCallId: call.id, toolName: call.name, input, ...parent };
	const fail = async (text: string, terminate = false) => ({ outcome: await finishCall(info, { result: textResult(text), isError: true, terminate }, config) });
	if (!tool) return fail(`Tool "${call.name}" not found. Available tools: ${config.tools.map((t) => t.name).join(", ") || "none"}.`);
	let args: unknown = input;
	try {
		if (tool.prepareArguments) args = tool.prepareArguments(args);
	} catch (error) {
		return fail(`Invalid arguments for tool "${call.name}": ${error instanceof Error ? error.message : String(error)}`);
	}
	// tool_call handlers get the very object the tool will be validated against and receive, so an
	// in-place change reaches the tool (and is still validated).
	if (args !== null && typeof args === "object" && !Array.isArray(args)) info.input = args as Record<string, unknown>;
	let terminate = false;
	if (hooks.beforeToolCall) {
		let decision: ToolCallDecision | undefined;
		try {
			decision = await hooks.beforeToolCall(info);
		} catch (error) {
			decision = { block: true, reason: error instanceof Error ? error.message : `Extension failed, blocking execution: ${String(error)}` };
		}
		if (decision?.terminate) terminate = true;
		if (decision?.block) return fail(decision.reason ?? `Tool call "${call.name}" was blocked.`, terminate);
	}
	const valid = validateToolArguments(call.name, tool.parameters, args);
	if (!valid.ok) return fail(valid.message, terminate);
	return { call, tool, info, value: valid.value, input, terminate };
}

/** Run a prepared call (unless the run was aborted before it started) and report its end. */
async function runPreparedCall(prepared: PreparedCall, config: AgentLoopConfig): Promise<CallOutcome> {
	const { call, tool, info, input } = prepared;
	if (config.signal.aborted) {
		const result = textResult(OPERATION_ABORTED);
		await config.emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.name, result, isError: true, ...(info.parentToolCallId ? { parentToolCallId: info.parentToolCallId } : {}) });
		return { result, isError: true, terminate: false };
	}
	const parent = info.parentToolCallId ? { parentToolCallId: info.parentToolCallId } : {};
	let result: AgentToolResult;
	let isError = false;
	let terminate = prepared.terminate;
	const started = performance.now();
	try {
		result = await tool.execute(
			call.id,
			prepared.value,
			config.signal,
			(partialResult: AgentToolResult) => {
				void config.emit({ type: "tool_execution_update", toolCallId: call.id, toolName: call.name, args: input, partialResult, ...parent });
			},
			config.toolContextFor ? config.toolContextFor(call.id) : config.toolContext,
		);
		if (result.isError) isError = true;
		if (result.terminate) terminate = true;
	} catch (error) {
		result = textResult(error instanceof Error ? error.message : String(error));
		isError = true;
	}
	return finishCall(info, { result, isError, terminate }, config, Math.round(performance.now() - started));
}

/** One call start to end (a nested ctx.executeTool call): prepare, then run. */
export async function executeToolCall(call: ToolCall, tool: AgentTool<any, any, any> | undefined, config: AgentLoopConfig): Promise<CallOutcome> {
	const prepared = await prepareToolCall(call, tool, config);
	return "outcome" in prepared ? prepared.outcome : runPreparedCall(prepared, config);
}
