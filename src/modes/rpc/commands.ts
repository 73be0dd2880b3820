// The rpc command table: each command's fields (a typebox schema, checked before it runs) and
// what it does to the session, with pi 1.6's response `data`. A handler returns the data
// (undefined for none) or throws; the caller turns either into the response line.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { Type, type Static, type TSchema } from "typebox";
import { Value } from "typebox/value";
import type { AgentSession } from "../../core/agent-session.ts";
import type { ExtensionHost, PromptDisposition, SubmitOptions } from "../../core/extensions/host.ts";
import type { ModelRegistry } from "../../core/providers/registry.ts";
import { clampThinkingLevel, supportedThinkingLevels } from "../../core/providers/thinking.ts";
import { THINKING_LEVELS, type Model } from "../../core/providers/types.ts";
import { VERSION } from "../../config.ts";

/**
 * What `get_state` reports as `protocolVersion`: 2 is pi 1.6's command set, responses and event
 * stream (dispositions, agent_settled, delta-only message_update); 1 was pi 0.73's.
 */
export const RPC_PROTOCOL_VERSION = 2;

/** What a command handler works with. */
export interface RpcCommandContext {
	session: AgentSession;
	host: ExtensionHost;
	registry: ModelRegistry;
	/** The command's id, if it had one (bash_execution_update repeats it). */
	id: string | number | undefined;
	/** Write an event line. */
	emit(record: Record<string, unknown>): void;
	/**
	 * host.submit, with the response sent as soon as the disposition is known; resolves when the
	 * submission is over, rejects when it failed before it was accepted.
	 */
	submit(text: string, options: SubmitOptions): Promise<void>;
}

export interface RpcCommandSpec<S extends TSchema = TSchema> {
	/** Fields besides `type` and `id`; unknown fields are ignored. */
	fields: S;
	run(command: Static<S>, rpc: RpcCommandContext): unknown;
}

function command<S extends TSchema>(fields: S, run: (command: Static<S>, rpc: RpcCommandContext) => unknown): RpcCommandSpec {
	return { fields, run: run as RpcCommandSpec["run"] };
}

const NoFields = Type.Object({});
const Image = Type.Object({ type: Type.Literal("image"), data: Type.String(), mimeType: Type.String() });
const Message = Type.Object({ message: Type.String(), images: Type.Optional(Type.Array(Image)) });
const QueueMode = Type.Object({ mode: Type.Enum(["all", "one-at-a-time"]) });
const Enabled = Type.Object({ enabled: Type.Boolean() });

/** Set a model and bring the thinking level within what it supports. */
async function applyModel(rpc: RpcCommandContext, model: Model, source: "set" | "cycle"): Promise<void> {
	if (!(await rpc.host.setModel(model, source))) throw new Error(`No API key for ${model.provider}/${model.id}: configure one in ~/.agent/auth.json or the provider's environment variable.`);
	rpc.host.setThinkingLevel(clampThinkingLevel(model, rpc.session.thinkingLevel));
}

/** steer / follow_up: the disposition of text queued for the run (`handled` when an input handler took it). */
async function queue(rpc: RpcCommandContext, c: Static<typeof Message>, kind: "steer" | "followUp"): Promise<{ disposition: PromptDisposition }> {
	return { disposition: await rpc.host.queueInput(c.message, kind, { images: c.images, source: "rpc" }) };
}

export const COMMANDS: Readonly<Record<string, RpcCommandSpec>> = {
	// ---- prompting ----
	prompt: command(Type.Object({ ...Message.properties, streamingBehavior: Type.Optional(Type.Enum(["steer", "followUp"])) }), (c, rpc) =>
		rpc.submit(c.message, { images: c.images, source: "rpc", streamingBehavior: c.streamingBehavior as SubmitOptions["streamingBehavior"] }),
	),
	steer: command(Message, (c, rpc) => queue(rpc, c, "steer")),
	follow_up: command(Message, (c, rpc) => queue(rpc, c, "followUp")),
	abort: command(NoFields, async (_c, { session, host }) => {
		await session.abort();
		// After agent_settled: what the run's boundaries and handlers do on the way out is over too.
		await host.waitForIdle({ commands: false });
	}),
	clear_queue: command(NoFields, (_c, { session }) => session.clearQueue()),

	// ---- state ----
	get_state: command(NoFields, (_c, { session }) => ({
		model: session.model ?? null,
		thinkingLevel: session.thinkingLevel,
		isStreaming: session.isStreaming,
		isCompacting: session.compaction.isCompacting,
		steeringMode: session.steeringMode,
		followUpMode: session.followUpMode,
		sessionFile: session.session.getSessionFile(),
		sessionId: session.session.getSessionId(),
		sessionName: session.session.getSessionName(),
		autoCompactionEnabled: session.autoCompactionEnabled,
		messageCount: session.messages.length,
		pendingMessageCount: session.pendingMessageCount,
		protocolVersion: RPC_PROTOCOL_VERSION,
		agentVersion: VERSION,
	})),
	get_messages: command(NoFields, (_c, { session }) => ({ messages: session.messages })),

	// ---- model and thinking ----
	set_model: command(Type.Object({ provider: Type.String(), modelId: Type.String() }), async (c, rpc) => {
		const model = rpc.registry.getAvailable().find((m) => m.provider === c.provider && m.id === c.modelId);
		if (!model) throw new Error(`Model not found: ${c.provider}/${c.modelId} (get_available_models lists the models you can use).`);
		await applyModel(rpc, model, "set");
		return model;
	}),
	cycle_model: command(NoFields, async (_c, rpc) => {
		const scoped = rpc.session.scopedModels.length > 0;
		const next = rpc.session.nextModel(scoped ? rpc.session.scopedModels : rpc.registry.getAvailable());
		if (!next) return null;
		await applyModel(rpc, next, "cycle");
		return { model: next, thinkingLevel: rpc.session.thinkingLevel, isScoped: scoped };
	}),
	get_available_models: command(NoFields, (_c, { registry }) => ({ models: registry.getAvailable() })),
	set_thinking_level: command(Type.Object({ level: Type.Enum([...THINKING_LEVELS]) }), (c, { session, host }) => {
		const level = c.level as (typeof THINKING_LEVELS)[number];
		host.setThinkingLevel(session.model ? clampThinkingLevel(session.model, level) : level);
	}),
	cycle_thinking_level: command(NoFields, (_c, { session, host }) => {
		const next = session.nextThinkingLevel();
		if (!next) return null;
		host.setThinkingLevel(next);
		return { level: session.thinkingLevel };
	}),
	get_available_thinking_levels: command(NoFields, (_c, { session }) => ({
		levels: session.model?.reasoning ? supportedThinkingLevels(session.model) : ["off"],
	})),

	// ---- queues, compaction, retry ----
	set_steering_mode: command(QueueMode, (c, { session }) => session.setSteeringMode(c.mode as "all" | "one-at-a-time")),
	set_follow_up_mode: command(QueueMode, (c, { session }) => session.setFollowUpMode(c.mode as "all" | "one-at-a-time")),
	compact: command(Type.Object({ customInstructions: Type.Optional(Type.String()) }), (c, { session }) => session.compact(c.customInstructions)),
	set_auto_compaction: command(Enabled, (c, { session }) => session.setAutoCompactionEnabled(c.enabled)),
	set_auto_retry: command(Enabled, (c, { session }) => session.setAutoRetryEnabled(c.enabled)),
	abort_retry: command(NoFields, (_c, { session }) => session.abortRetry()),

	// ---- bash: user_bash first (as for `!cmd`), recorded for the next prompt; the output streams as bash_execution_update ----
	bash: command(Type.Object({ command: Type.String(), excludeFromContext: Type.Optional(Type.Boolean()) }), async (c, { session, host, id, emit }) => {
		const decided = await host.askUserBash(c.command, c.excludeFromContext ?? false);
		if (decided?.result) {
			// A handler ran it: its result is kept and answered, nothing streams.
			const given = decided.result;
			session.recordBashResult(c.command, given, c.excludeFromContext);
			return { output: given.output, exitCode: given.exitCode ?? null, cancelled: given.cancelled, truncated: given.truncated, ...(given.fullOutputPath ? { fullOutputPath: given.fullOutputPath } : {}) };
		}
		const r = await session.executeBash(c.command, {
			excludeFromContext: c.excludeFromContext,
			...(decided?.operations ? { operations: decided.operations } : {}),
			onChunk: (delta) => emit({ type: "bash_execution_update", ...(id !== undefined ? { id } : {}), delta }),
		});
		return { output: r.output, exitCode: r.exitCode ?? null, cancelled: r.cancelled, truncated: r.truncated, ...(r.fullOutputPath ? { fullOutputPath: r.fullOutputPath } : {}) };
	}),
	abort_bash: command(NoFields, (_c, { session }) => session.abortBash()),

	// ---- sessions ----
	// A self-contained HTML transcript of the current branch; relative paths are from the agent's folder.
	export_html: command(Type.Object({ outputPath: Type.Optional(Type.String()) }), async (c, { session }) => {
		const { exportSessionToHtml } = await import("../../core/export/session-html.ts");
		return { path: exportSessionToHtml(session.session, c.outputPath, session.cwd) };
	}),
	get_session_stats: command(NoFields, (_c, { session }) => {
		const contextUsage = session.getContextUsage();
		return { ...session.getSessionStats(), ...(contextUsage ? { contextUsage } : {}) };
	}),
	new_session: command(Type.Object({ parentSession: Type.Optional(Type.String()) }), (c, { session }) => session.newSession({ parentSession: c.parentSession })),
	switch_session: command(Type.Object({ sessionPath: Type.String() }), (c, { session }) => {
		const path = resolve(session.cwd, c.sessionPath);
		if (!existsSync(path)) throw new Error(`Session file not found: ${path}`);
		return session.switchSession(path);
	}),
	fork: command(Type.Object({ entryId: Type.String() }), async (c, { session }) => {
		const result = await session.fork(c.entryId, "before");
		return { text: result.text ?? "", cancelled: result.cancelled };
	}),
	clone: command(NoFields, async (_c, { session }) => {
		const leaf = session.session.getLeafId();
		if (!leaf) throw new Error("Cannot clone session: no current entry selected (the session has no entries yet).");
		const result = await session.fork(leaf, "at");
		return { cancelled: result.cancelled };
	}),
	get_fork_messages: command(NoFields, (_c, { session }) => ({ messages: session.forkMessages() })),
	// Every entry in append order (all branches, before compactions too); `since` is a durable cursor.
	get_entries: command(Type.Object({ since: Type.Optional(Type.String()) }), (c, { session }) => {
		let entries = session.session.getEntries();
		if (c.since !== undefined) {
			const at = entries.findIndex((e) => e.id === c.since);
			if (at < 0) throw new Error(`Entry not found: ${c.since} (get_entries without "since" lists every entry id).`);
			entries = entries.slice(at + 1);
		}
		return { entries, leafId: session.session.getLeafId() };
	}),
	get_tree: command(NoFields, (_c, { session }) => ({ tree: session.session.getTree(), leafId: session.session.getLeafId() })),
	get_last_assistant_text: command(NoFields, (_c, { session }) => ({ text: session.lastAssistantText() ?? null })),
	set_session_name: command(Type.Object({ name: Type.String() }), (c, { host }) => {
		const name = c.name.trim();
		if (!name) throw new Error("Session name cannot be empty.");
		// Through the host, so extensions hear session_info_changed.
		host.setSessionName(name);
	}),
	get_commands: command(NoFields, (_c, { host }) => ({ commands: host.commandInfos() })),
};

/** Why `command` does not fit its schema, in one line; undefined when it fits. */
export function checkFields(type: string, spec: RpcCommandSpec, command: Record<string, unknown>): string | undefined {
	if (Value.Check(spec.fields, command)) return undefined;
	const problems: string[] = [];
	for (const e of Value.Errors(spec.fields, command)) {
		const field = e.instancePath.slice(1).replaceAll("/", ".");
		const params = e.params as { requiredProperties?: string[]; allowedValues?: unknown[] };
		if (e.keyword === "required") problems.push(`missing ${(params.requiredProperties ?? []).map((p) => `"${field ? `${field}.` : ""}${p}"`).join(", ")}`);
		else if (e.keyword === "enum") problems.push(`"${field}" must be one of ${(params.allowedValues ?? []).map((v) => JSON.stringify(v)).join(", ")}`);
		else problems.push(`"${field}" ${e.message}`);
	}
	return `Invalid ${type} command: ${problems.join("; ")}`;
}
