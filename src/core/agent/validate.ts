// Tool-argument validation against the tool's typebox schema, with errors written for the model.
// Each schema is compiled once (typebox's JIT check, ~10 µs a call against ~160 µs for its
// interpreter); typebox's compiler and value module load with the first tool call, not at start-up.
import type { TSchema } from "typebox";

export type ValidationResult = { ok: true; value: unknown } | { ok: false; message: string };

type Value = Pick<typeof import("typebox/value"), "Check" | "Errors" | "Convert">;
type Checker = { Check(value: unknown): boolean };

/** Compiled checks by schema; null where typebox cannot compile one (the interpreter checks instead). */
const compiled = new WeakMap<object, Checker | null>();

function typeboxValue(): Value {
	// require(): synchronous, as pi-ai's validateToolArguments is; Bun loads the chunk on first use.
	// The module's functions, not its `Value` namespace, which a Bun plugin's copy of the module lacks.
	return require("typebox/value") as typeof import("typebox/value");
}

function checkerFor(schema: TSchema): Checker | null {
	let checker = compiled.get(schema);
	if (checker === undefined) {
		try {
			checker = (require("typebox/compile") as typeof import("typebox/compile")).Compile(schema);
		} catch {
			checker = null;
		}
		compiled.set(schema, checker);
	}
	return checker;
}

function check(schema: TSchema, value: unknown): boolean {
	const checker = typeof schema === "object" && schema !== null ? checkerFor(schema) : null;
	return checker ? checker.Check(value) : typeboxValue().Check(schema, value);
}

/**
 * Coerce what models commonly get wrong ("5" for 5) and check the result. The error lists every
 * problem with its JSON path so the model can correct the call in one go.
 */
export function validateToolArguments(toolName: string, schema: TSchema, args: unknown): ValidationResult {
	try {
		if (check(schema, args)) return { ok: true, value: args };
	} catch {
		// A JSON Schema the validator cannot compile (an MCP server's, say): the tool checks its own input.
		return { ok: true, value: args };
	}
	const Value = typeboxValue();
	const converted = Value.Convert(schema, structuredClone(args));
	if (check(schema, converted)) return { ok: true, value: converted };
	const problems = Value.Errors(schema, args).map((e) => {
		const where = e.instancePath ? e.instancePath.slice(1).replaceAll("/", ".") : "arguments";
		return `  - ${where}: ${e.message}`;
	});
	return {
		ok: false,
		message: `Invalid arguments for tool "${toolName}":\n${problems.join("\n")}\nReceived: ${JSON.stringify(args)}\nCall the tool again with arguments that match its schema.`,
	};
}
