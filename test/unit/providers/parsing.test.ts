// The small parsers under the providers: JSON positions for config errors, and best-effort JSON
// for tool-call arguments that are still streaming.
import { describe, expect, test } from "bun:test";
import { lineColumn, pointerToPath, scanJson } from "../../../src/core/providers/json-file.ts";
import { parseStreamingJson } from "../../../src/core/providers/partial-json.ts";
import { parseArguments } from "../../../src/core/providers/wire.ts";

describe("scanJson", () => {
	test("records where every value starts, by JSON pointer", () => {
		const text = '{\n  "a": [1, {"b/c": true}],\n  "d": "x"\n}';
		const { positions, error } = scanJson(text);
		expect(error).toBeUndefined();
		expect(lineColumn(text, positions.get("/a/1/b~1c")!)).toEqual({ line: 2, column: 20 });
		expect(lineColumn(text, positions.get("/d")!)).toEqual({ line: 3, column: 8 });
	});

	test.each([
		['{"a": 1,}', 'a trailing comma before "}" (remove it)', 9],
		["[1, 2,]", 'a trailing comma before "]" (remove it)', 7],
		["{'a': 1}", "expected a property name in double quotes", 2],
		['{"a": \'x\'}', "strings need double quotes", 7],
		['{"a" 1}', 'expected ":" after "a"', 6],
		['{"a": tru}', 'unexpected "t"', 7],
		['{"a": "x\ny"}', 'a line break or control character inside a string (close the string with ")', 9],
		['{"a": 1} x', "unexpected text after the end of the JSON value", 10],
		['{"a": [1, 2', "unexpected end of file", 12],
		['{"a": "open', "unterminated string", 7],
	])("%j: %s", (text, message, column) => {
		const { error } = scanJson(text);
		expect(error?.message).toBe(message);
		expect(lineColumn(text, error!.offset).column).toBe(column);
	});

	test("pointers read as paths", () => {
		expect(pointerToPath("/providers/my.local/models/0/id")).toBe('providers["my.local"].models[0].id');
		expect(pointerToPath("")).toBe("");
	});
});

describe("parseStreamingJson", () => {
	test.each([
		['{"path": "src/a.ts", "content": "hel', { path: "src/a.ts", content: "hel" }],
		['{"path": "src/a.ts", "off', { path: "src/a.ts" }],
		['{"a": 1, "b": tru', { a: 1 }],
		['{"a": {"b": [1, 2', { a: { b: [1, 2] } }],
		['{"a": "x\\', { a: "x" }],
		['{"a": "\\u00', { a: "" }],
		['{"a":', {}],
		["", {}],
		["[1, 2]", {}],
	])("%j", (text, expected) => {
		expect(parseStreamingJson(text)).toEqual(expected as Record<string, unknown>);
	});
});

describe("parseArguments (a finished tool call's arguments are never repaired)", () => {
	test("whole JSON objects parse; empty text is no arguments", () => {
		expect(parseArguments('{"command": "ls"}')).toEqual({ arguments: { command: "ls" } });
		expect(parseArguments("  ")).toEqual({ arguments: {} });
	});

	test.each([
		['{"command":"rm -rf build', "its arguments are not complete JSON ("],
		['{"a": 1,', "its arguments are not complete JSON ("],
		["[1, 2]", "its arguments are not a JSON object"],
		['"ls"', "its arguments are not a JSON object"],
	])("%j → {} with an argumentsError", (text, reason) => {
		const parsed = parseArguments(text);
		expect(parsed.arguments).toEqual({});
		expect(parsed.argumentsError).toStartWith(reason);
		expect(parsed.argumentsError).toEndWith(`\nReceived: ${text}`);
	});
});
