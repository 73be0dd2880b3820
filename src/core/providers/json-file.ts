// Reads a user's JSON config file (models.json, auth.json) and validates it, turning a syntax or
// schema error into one message with file:line:column and the fix. Never writes the file.
import { readFileSync } from "node:fs";
import type { TSchema } from "typebox";
import { precompiledCheck } from "./config-checks.ts";
import { UserError } from "../errors.ts";
import { tildify } from "../../config.ts";

export class ConfigFileError extends UserError {
	constructor(
		readonly path: string,
		readonly line: number | undefined,
		readonly column: number | undefined,
		problem: string,
		hints: string[] = [],
	) {
		const where = line === undefined ? tildify(path) : `${tildify(path)}:${line}:${column}`;
		super(`${where}: ${problem}`, hints);
		this.name = "ConfigFileError";
	}
}

/** A problem a schema cannot express, found by a caller's check: where (a JSON pointer) and what. */
export interface ConfigProblem {
	pointer: string;
	message: string;
}

/**
 * The parsed, validated contents of `path`, or undefined when the file does not exist. An empty
 * file counts as `{}`. `example` is shown to the user as the expected shape; `check` looks further
 * once the schema passes.
 */
export function readJsonConfig(path: string, schema: TSchema, example: string, check?: (value: any) => ConfigProblem | undefined): unknown {
	let text: string;
	try {
		text = readFileSync(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw new UserError(`Cannot read ${tildify(path)}: ${(error as Error).message}`);
	}
	text = text.replace(/^\uFEFF/, "");
	if (!text.trim()) return {};
	const hints = [`Fix the file and run again; it was not changed. Expected shape: ${example}`];
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch {
		const scan = scanJson(text);
		const at = lineColumn(text, scan.error?.offset ?? 0);
		throw new ConfigFileError(path, at.line, at.column, `invalid JSON: ${scan.error?.message ?? "cannot be parsed"}`, hints);
	}
	if (checkValue(schema, value)) {
		const problem = check?.(value);
		if (!problem) return value;
		const offset = scanJson(text).positions.get(problem.pointer);
		const at = offset === undefined ? undefined : lineColumn(text, offset);
		throw new ConfigFileError(path, at?.line, at?.column, problem.message, hints);
	}
	const errors = typeboxValue().Errors(schema, value) as SchemaError[];
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

/** `schema`'s precompiled check when it has one, else typebox's. */
export function checkValue(schema: TSchema, value: unknown): boolean {
	const check = precompiledCheck(schema);
	return check ? check(value) : typeboxValue().Check(schema, value);
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

/** `/providers/x/models/0/id` → `providers.x.models[0].id` */
export function pointerToPath(pointer: string): string {
	let out = "";
	for (const raw of pointer.split("/").slice(1)) {
		const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
		out += /^\d+$/.test(part) ? `[${part}]` : /^[A-Za-z_$][\w$-]*$/.test(part) ? `${out ? "." : ""}${part}` : `[${JSON.stringify(part)}]`;
	}
	return out;
}

export function lineColumn(text: string, offset: number): { line: number; column: number } {
	let line = 1;
	let lineStart = 0;
	for (let i = 0; i < offset && i < text.length; i++) {
		if (text[i] === "\n") {
			line++;
			lineStart = i + 1;
		}
	}
	return { line, column: offset - lineStart + 1 };
}

interface Scan {
	/** Offset of each value by JSON pointer (`""` is the root). */
	positions: Map<string, number>;
	error?: { offset: number; message: string };
}

class ScanError extends Error {
	constructor(
		readonly offset: number,
		message: string,
	) {
		super(message);
	}
}

/**
 * A strict JSON scanner that records where each value starts, so errors can name a line:
 * JSON.parse in Bun reports no position, and schema errors report only a pointer.
 */
export function scanJson(text: string): Scan {
	const positions = new Map<string, number>();
	let i = 0;
	const fail = (message: string): never => {
		throw new ScanError(i, i >= text.length ? "unexpected end of file" : message);
	};
	const ws = () => {
		while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
	};
	const string = (): string => {
		const start = i++;
		while (i < text.length && text[i] !== '"') {
			if (text[i] === "\\") i++;
			else if (text.charCodeAt(i) < 0x20) fail("a line break or control character inside a string (close the string with \")");
			i++;
		}
		if (i >= text.length) {
			i = start;
			throw new ScanError(start, "unterminated string");
		}
		i++;
		try {
			return JSON.parse(text.slice(start, i)) as string;
		} catch {
			i = start;
			return fail("invalid escape in string");
		}
	};
	const value = (pointer: string): void => {
		ws();
		positions.set(pointer, i);
		const ch = text[i];
		if (ch === "{") {
			i++;
			ws();
			if (text[i] === "}") {
				i++;
				return;
			}
			while (true) {
				ws();
				if (text[i] !== '"') fail(text[i] === "}" ? 'a trailing comma before "}" (remove it)' : "expected a property name in double quotes");
				const key = string();
				ws();
				if (text[i] !== ":") fail(`expected ":" after "${key}"`);
				i++;
				value(`${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
				ws();
				if (text[i] === ",") {
					i++;
					continue;
				}
				if (text[i] === "}") {
					i++;
					return;
				}
				fail('expected "," or "}" after a property value');
			}
		}
		if (ch === "[") {
			i++;
			ws();
			if (text[i] === "]") {
				i++;
				return;
			}
			for (let index = 0; ; index++) {
				ws();
				if (text[i] === "]") fail('a trailing comma before "]" (remove it)');
				value(`${pointer}/${index}`);
				ws();
				if (text[i] === ",") {
					i++;
					continue;
				}
				if (text[i] === "]") {
					i++;
					return;
				}
				fail('expected "," or "]" after an array item');
			}
		}
		if (ch === '"') {
			string();
			return;
		}
		for (const literal of ["true", "false", "null"]) {
			if (text.startsWith(literal, i)) {
				i += literal.length;
				return;
			}
		}
		const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
		number.lastIndex = i;
		if (ch !== undefined && number.test(text)) {
			i = number.lastIndex;
			return;
		}
		fail(ch === "'" ? "strings need double quotes" : `unexpected ${JSON.stringify(ch)}`);
	};
	try {
		value("");
		ws();
		if (i < text.length) fail("unexpected text after the end of the JSON value");
		return { positions };
	} catch (error) {
		if (error instanceof ScanError) return { positions, error: { offset: error.offset, message: error.message } };
		throw error;
	}
}
