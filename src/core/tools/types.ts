// What a tool is to the agent loop: a schema, a description for the model, and an execute
// function that returns content for the model plus details for the UI and session.
import type { Static, TSchema } from "typebox";
import type { ImageContent, TextContent, Usage } from "../providers/types.ts";

export interface AgentToolResult<TDetails = unknown> {
	content: (TextContent | ImageContent)[];
	details: TDetails;
	/** Report a failure without throwing: the model sees `content` as an error result; `details` are kept (pi 1.6). */
	isError?: boolean;
	/** Stop the run after this tool batch (takes effect only when every result in the batch has it). */
	terminate?: boolean;
	/** Machine-readable result, for tools with an output schema (MCP). */
	structuredContent?: unknown;
	/** What running the tool itself cost, when it called a model. */
	usage?: Usage;
}

export type AgentToolUpdateCallback<TDetails = unknown> = (partial: AgentToolResult<TDetails>) => void;

export type ToolExecutionMode = "sequential" | "parallel";

export interface AgentTool<TParams extends TSchema = TSchema, TDetails = unknown, TContext = unknown> {
	name: string;
	/** Shown in the UI. */
	label: string;
	/** Sent to the model. */
	description: string;
	parameters: TParams;
	/** One line for "Available tools" in the default system prompt. */
	promptSnippet?: string;
	/** Bullets appended to the system prompt's guidelines while the tool is active. */
	promptGuidelines?: string[];
	/** Runs before schema validation; may repair or migrate arguments. */
	prepareArguments?: (args: unknown) => Static<TParams>;
	/** Default "parallel". */
	executionMode?: ToolExecutionMode;
	execute(
		toolCallId: string,
		params: Static<TParams>,
		signal: AbortSignal | undefined,
		onUpdate: AgentToolUpdateCallback<TDetails> | undefined,
		ctx: TContext,
	): Promise<AgentToolResult<TDetails>>;
}

/** Execute functions known to ignore their ctx argument (the built-ins): the loop skips building a per-call context for them. */
const contextFree = new WeakSet<object>();

/** Marks `tool`'s current execute as one that never reads its ctx; a replaced execute is not covered. */
export function markContextFree<T extends AgentTool<any, any, any>>(tool: T): T {
	contextFree.add(tool.execute);
	return tool;
}

/** False only for an execute marked with markContextFree. */
export function usesToolContext(tool: AgentTool<any, any, any>): boolean {
	return !contextFree.has(tool.execute);
}
