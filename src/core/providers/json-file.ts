// Reads a user's JSON config file (models.json, auth.json) and validates it, turning a syntax or
// schema error into one message with file:line:column and the fix. Never writes the file.
import { checkJsonNesting, FileReadError, fixFileHint, readJsonFile, readTextFile } from "../file-reader.ts";
import { lineColumn, pointerToPath, scanJson } from "../json-scan.ts";
import { type CheckedSchema, configSchema, precompiledCheck } from "./config-checks.ts";

export { lineColumn, pointerToPath, scanJson };

/** A config file that does not fit its schema: `path:line:column: problem` (a FileReadError). */
export class ConfigFileError extends FileReadError {
	constructor(path: string, line: number | undefined, column: number | undefined, problem: string, hints?: string[]) {
		super(path, problem, line, column, hints);
		this.name = "ConfigFileError";
	}
}

/** A problem a schema cannot express, found by a caller's check: where (a JSON pointer) and what. */
export interface ConfigProblem {
	pointer: string;
	message: string;
}

/**
 * A config file's text through the one reader (BOM dropped, FIFOs refused, size and nesting
 * bounded); undefined when it does not exist. Read problems are ConfigFileErrors naming the file.
 */
export function readConfigText(path: string, hints: string[] = [fixFileHint()]): string | undefined {
	try {
		const text = readTextFile(path);
		if (text !== undefined) checkJsonNesting(path, text, hints);
		return text;
	} catch (error) {
		if (error instanceof FileReadError) throw new ConfigFileError(path, error.line, error.column, error.problem, error.hints);
		throw error;
	}
}

/**
 * The parsed, validated contents of `path`, or undefined when the file does not exist. An empty
 * file counts as `{}`. `example` is shown to the user as the expected shape; `check` looks further
 * once the schema passes.
 */
export function readJsonConfig(path: string, schema: CheckedSchema, example: string, check?: (value: any) => ConfigProblem | undefined): unknown {
	const hints = [`${fixFileHint()} Expected shape: ${example}`];
	// Not a regular file, too big, too deep, not JSON: the one reader says so, naming file and line.
	let read: ReturnType<typeof readJsonFile>;
	try {
		read = readJsonFile(path, { hints });
	} catch (error) {
		if (error instanceof FileReadError) throw new ConfigFileError(path, error.line, error.column, error.problem, error.hints);
		throw error;
	}
	if (!read) return undefined;
	const { text, value } = read;
	if (value === undefined) return {};
	if (checkValue(schema, value)) {
		const problem = check?.(value);
		if (!problem) return value;
		const offset = scanJson(text).positions.get(problem.pointer);
		const at = offset === undefined ? undefined : lineColumn(text, offset);
		throw new ConfigFileError(path, at?.line, at?.column, problem.message, hints);
	}
	const errors = typeboxValue().Errors(configSchema(schema), value) as SchemaError[];
	const pointer = errors[0]?.instancePath ?? "";
	const offset = scanJson(text).positions.get(pointer);
	const at = offset === undefined ? undefined : lineColumn(text, offset);
	throw new ConfigFileError(path, at?.line, at?.column, describeSchemaError(pointer, errors.filter((e) => e.instancePath === pointer)), hints);
}

/**
 * typebox's value module, loaded on first need: a valid config never needs it (its schema has a
 * precompiled check), so start-up does not evaluate it. require() is synchronous, as this reader is.
 */
export function typeboxValue(): Pick<typeof import("typebox/value"), "Check" | "Errors" | "Convert"> {
	// The module's own functions, not its `Value` namespace: a module served by a Bun plugin (the
	// extension loader's, from source) keeps the functions but not the namespace.
	return require("typebox/value") as typeof import("typebox/value");
}

/** Whether `value` fits the config schema named `schema` (its precompiled check). */
export function checkValue(schema: CheckedSchema, value: unknown): boolean {
	return precompiledCheck(schema)(value);
}

interface SchemaError {
	instancePath: string;
	keyword: string;
	message: string;
	params: Record<string, unknown>;
}

function describeSchemaError(pointer: string, errors: SchemaError[]): string {
	const where = pointerToPath(pointer);
	const error = errors[0];
	if (!error) return `${where || "the file"} is not valid`;
	const allowed = errors.filter((e) => e.keyword === "const").map((e) => JSON.stringify(e.params.allowedValue));
	if (allowed.length > 0) return `${where} must be ${allowed.length > 1 ? "one of " : ""}${allowed.join(", ")}`;
	if (error.keyword === "required") {
		const missing = (error.params.requiredProperties as string[] | undefined)?.join(", ") ?? "a required property";
		return `${where || "the top level"} is missing ${missing}`;
	}
	return `${where || "the top level"} ${error.message}`;
}

