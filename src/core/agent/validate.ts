// Tool-argument validation against the tool's typebox schema, with errors written for the model.
import type { TSchema } from "typebox";
import { Value } from "typebox/value";

export type ValidationResult = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Coerce what models commonly get wrong ("5" for 5) and check the result. The error lists every
 * problem with its JSON path so the model can correct the call in one go.
 */
export function validateToolArguments(toolName: string, schema: TSchema, args: unknown): ValidationResult {
	try {
		if (Value.Check(schema, args)) return { ok: true, value: args };
	} catch {
		// A JSON Schema the validator cannot compile (an MCP server's, say): the tool checks its own input.
		return { ok: true, value: args };
	}
	const converted = Value.Convert(schema, structuredClone(args));
	if (Value.Check(schema, converted)) return { ok: true, value: converted };
	const problems = Value.Errors(schema, args).map((e) => {
		const where = e.instancePath ? e.instancePath.slice(1).replaceAll("/", ".") : "arguments";
		return `  - ${where}: ${e.message}`;
	});
	return {
		ok: false,
		message: `Invalid arguments for tool "${toolName}":\n${problems.join("\n")}\nReceived: ${JSON.stringify(args)}\nCall the tool again with arguments that match its schema.`,
	};
}
