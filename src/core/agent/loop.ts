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
	ToolCall,
	ToolResultMessage,
} from "../providers/types.ts";
import type { AgentTool, AgentToolResult } from "../tools/types.ts";
import { newAssistantMessage } from "../providers/wire.ts";
import { convertToLlm, type AgentMessage } from "./messages.ts";
import { validateToolArguments } from "./validate.ts";
import { beginTurn, endTurn, enterPhase, inPhase, phased } from "../timing.ts";

export type AgentEvent =
	| { type: "agent_start" }
	| { type: "agent_end"; messages: AgentMessage[] }
	| { type: "turn_start"; turnIndex: number; timestamp: number }
	| { type: "turn_end"; turnIndex: number; message: AgentMessage; toolResults: ToolResultMessage[] }
	| { type: "message_start"; message: AgentMessage }
	| { type: "message_update"; message: AgentMessage; assistantMessageEvent: AssistantMessageEvent }
	| { type: "message_end"; message: AgentMessage }
	| { type: "tool_execution_start"; toolCallId: string; toolName: string; args: unknown }
	| { type: "tool_execution_update"; toolCallId: string; toolName: string; args: unknown; partialResult: AgentToolResult }
	/** `durationMs`: how long the tool's execute() took (monotonic clock); absent when the tool did not run. */
	| { type: "tool_execution_end"; toolCallId: string; toolName: string; result: AgentToolResult; isError: boolean; durationMs?: number }
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
}

export type TurnOutcome = "completed" | "aborted" | "error";

/** The seams through which the session (and so extensions) shape a run. All optional. */
export interface AgentLoopHooks {
	/** `context`: the messages about to be converted for the model (a copy the hook may change). */
	transformContext?(messages: AgentMessage[]): Promise<AgentMessage[]>;
	/** `context_with_system`: the provider-level context including the system prompt and tools. */
	transformLlmContext?(context: Context): Promise<Context>;
	/** `tool_call`: may mutate `input` in place; the first block wins. A throw blocks with its message. */
	beforeToolCall?(call: { toolCallId: string; toolName: string; input: Record<string, unknown> }): Promise<ToolCallDecision | undefined>;
	/** `tool_result`: field-wise patch of the result. */
	afterToolCall?(call: { toolCallId: string; toolName: string; input: Record<string, unknown> }, result: AgentToolResult, isError: boolean): Promise<ToolResultPatch | undefined>;
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
	hooks: AgentLoopHooks;
	signal: AbortSignal;
	emit(event: AgentEvent): Promise<void>;
	/** System messages to announce at the start of the first turn (the prompt or tools changed); never added to `messages`. */
	announce?: AgentMessage[];
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
		}
		for (const m of pending) await push(m);
		pending = [];

		const assistant = await requestAssistant(messages, added, config);
		let outcome: TurnOutcome = assistant.stopReason === "error" ? "error" : assistant.stopReason === "aborted" ? "aborted" : "completed";
		const toolCalls = outcome === "completed" ? assistant.content.filter((c): c is ToolCall => c.type === "toolCall") : [];
		let toolResults: ToolResultMessage[] = [];
		let terminate = false;
		if (toolCalls.length > 0) {
			const batch = await inPhase("tools", () => executeToolCalls(toolCalls, config, assistant.stopReason === "length"));
			toolResults = batch.results;
			terminate = batch.terminate;
			for (const r of toolResults) await push(r);
			if (signal.aborted) outcome = "aborted";
		}
		const boundary = hooks.onTurnEnd ? await hooks.onTurnEnd({ turnIndex, message: assistant, toolResults, outcome }) : undefined;
		await emit({ type: "turn_end", turnIndex, message: assistant, toolResults });
		endTurn();
		turnIndex++;
		if (outcome !== "completed" || terminate) break;

		pending = hooks.takeSteeringMessages?.() ?? [];
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

/** One provider request, streamed; the final message is appended to `messages` and `added`. */
async function requestAssistant(messages: AgentMessage[], added: AgentMessage[], config: AgentLoopConfig): Promise<AssistantMessage> {
	const { hooks, model, signal, emit } = config;
	if (hooks.beforeRequest && !signal.aborted) await hooks.beforeRequest();
	const buildContext = async (): Promise<Context> => {
		let contextMessages = messages;
		if (hooks.transformContext) contextMessages = await hooks.transformContext(structuredClone(messages));
		const context: Context = {
			systemPrompt: config.systemPrompt,
			messages: convertToLlm(contextMessages),
			tools: config.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters })),
		};
		return hooks.transformLlmContext ? hooks.transformLlmContext(context) : context;
	};
	let context = await buildContext();
	const options: StreamOptions = { ...(hooks.streamOptions ? await hooks.streamOptions(model) : {}), signal };

	let started = false;
	let recovered = false;
	let final: AssistantMessage;
	for (let attempt = 1; ; attempt++) {
		enterPhase("request build");
		const outcome = await streamOnce(context, options, config);
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

/**
 * Run a batch of tool calls: in parallel unless any called tool asks for sequential execution.
 * `cutOff`: the response stopped at the output limit, so every call in it may be a prefix of what
 * the model meant; none runs (nor does a call whose arguments are not whole JSON).
 */
async function executeToolCalls(calls: ToolCall[], config: AgentLoopConfig, cutOff: boolean): Promise<BatchResult> {
	const byName = new Map(config.tools.map((t) => [t.name, t]));
	const sequential = calls.some((c) => byName.get(c.name)?.executionMode === "sequential");
	const outcomes: { result: AgentToolResult; isError: boolean; terminate: boolean; durationMs?: number }[] = new Array(calls.length);
	const runOne = async (call: ToolCall, index: number) => {
		const refusal = cutOff || call.argumentsError !== undefined ? incompleteCallRefusal(call, cutOff) : undefined;
		outcomes[index] = refusal ? await refuseToolCall(call, refusal, config) : await executeToolCall(call, byName.get(call.name), config);
	};
	if (sequential) {
		for (let i = 0; i < calls.length; i++) await runOne(calls[i]!, i);
	} else {
		await Promise.all(calls.map((c, i) => runOne(c, i)));
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

/** What the model is told about a call that was not run because its arguments are incomplete. */
export function incompleteCallRefusal(call: ToolCall, cutOff: boolean): string {
	const next = "call the tool again with complete arguments.";
	if (cutOff) return `Tool call "${call.name}" was not executed: its arguments were cut off by the output limit; ${next}`;
	const [reason, ...received] = (call.argumentsError ?? "").split("\n");
	return [`Tool call "${call.name}" was not executed: ${reason}; ${next}`, ...received].join("\n");
}

/** Report a call as failed without running it or its hooks (there are no arguments to show them). */
async function refuseToolCall(call: ToolCall, text: string, config: AgentLoopConfig): Promise<{ result: AgentToolResult; isError: boolean; terminate: boolean }> {
	await config.emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args: call.arguments });
	const result = textResult(text);
	await config.emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.name, result, isError: true });
	return { result, isError: true, terminate: false };
}

function textResult(text: string): AgentToolResult {
	return { content: [{ type: "text", text }], details: undefined };
}

export async function executeToolCall(
	call: ToolCall,
	tool: AgentTool<any, any, any> | undefined,
	config: AgentLoopConfig,
): Promise<{ result: AgentToolResult; isError: boolean; terminate: boolean; durationMs?: number }> {
	const { emit, hooks, signal } = config;
	// The same object is shown to tool_call handlers, which may change it in place.
	const input: Record<string, unknown> = call.arguments && typeof call.arguments === "object" ? call.arguments : {};
	await emit({ type: "tool_execution_start", toolCallId: call.id, toolName: call.name, args: input });
	let result: AgentToolResult;
	let isError = false;
	let terminate = false;
	// What tool_call / tool_result handlers see: the prepared arguments when prepareArguments gave an object.
	let hookInput = input;
	let durationMs: number | undefined;
	const finish = async () => {
		if (hooks.afterToolCall) {
			const patch = await hooks.afterToolCall({ toolCallId: call.id, toolName: call.name, input: hookInput }, result, isError);
			if (patch) {
				result = { ...result, ...(patch.content !== undefined ? { content: patch.content } : {}), ...(patch.details !== undefined ? { details: patch.details } : {}) };
				if (patch.isError !== undefined) isError = patch.isError;
				if (patch.terminate !== undefined) terminate = patch.terminate;
			}
		}
		await emit({ type: "tool_execution_end", toolCallId: call.id, toolName: call.name, result, isError, ...(durationMs !== undefined ? { durationMs } : {}) });
		return { result, isError, terminate, durationMs };
	};

	if (!tool) {
		result = textResult(`Tool "${call.name}" not found. Available tools: ${config.tools.map((t) => t.name).join(", ") || "none"}.`);
		isError = true;
		return finish();
	}
	let args: unknown = input;
	try {
		if (tool.prepareArguments) args = tool.prepareArguments(args);
	} catch (error) {
		result = textResult(`Invalid arguments for tool "${call.name}": ${error instanceof Error ? error.message : String(error)}`);
		isError = true;
		return finish();
	}
	// tool_call handlers get the very object the tool will be validated against and receive, so an
	// in-place change reaches the tool (and is still validated).
	if (args !== null && typeof args === "object" && !Array.isArray(args)) hookInput = args as Record<string, unknown>;
	if (hooks.beforeToolCall) {
		let decision: ToolCallDecision | undefined;
		try {
			decision = await hooks.beforeToolCall({ toolCallId: call.id, toolName: call.name, input: hookInput });
		} catch (error) {
			decision = { block: true, reason: error instanceof Error ? error.message : `Extension failed, blocking execution: ${String(error)}` };
		}
		if (decision?.terminate) terminate = true;
		if (decision?.block) {
			result = textResult(decision.reason ?? `Tool call "${call.name}" was blocked.`);
			isError = true;
			return finish();
		}
	}
	const valid = validateToolArguments(call.name, tool.parameters, args);
	if (!valid.ok) {
		result = textResult(valid.message);
		isError = true;
		return finish();
	}
	const started = performance.now();
	try {
		result = await tool.execute(
			call.id,
			valid.value,
			signal,
			(partialResult: AgentToolResult) => {
				void emit({ type: "tool_execution_update", toolCallId: call.id, toolName: call.name, args: input, partialResult });
			},
			config.toolContext,
		);
		if (result.isError) isError = true;
		if (result.terminate) terminate = true;
	} catch (error) {
		result = textResult(error instanceof Error ? error.message : String(error));
		isError = true;
	}
	durationMs = Math.round(performance.now() - started);
	return finish();
}
