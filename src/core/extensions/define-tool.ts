// `defineTool`: returns the tool unchanged; it exists so TypeScript infers the parameter types
// of `execute` from the schema.
import type { TSchema } from "typebox";
import type { ToolDefinition } from "./types.ts";

export function defineTool<TParams extends TSchema, TDetails = unknown, TState = unknown>(
	tool: ToolDefinition<TParams, TDetails, TState>,
): ToolDefinition<TParams, TDetails, TState> {
	return tool;
}
