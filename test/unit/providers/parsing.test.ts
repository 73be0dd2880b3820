// The small parsers under the providers: JSON positions for config errors, and best-effort JSON
// for tool-call arguments that are still streaming.
import { describe, expect, test } from "bun:test";
import { lineColumn, pointerToPath, scanJson } from "../../../src/core/providers/json-file.ts";
import { parseStreamingJson } from "../../../src/core/providers/partial-json.ts";
import { excessiveNesting } from "../../../src/core/json-scan.ts";
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

describe("excessiveNesting", () => {
	/** The walk on its own, without the bracket-count shortcut. */
	function walk(text: string, maxDepth: number): number | undefined {
		let depth = 0;
		let inString = false;
		for (let i = 0; i < text.length; i++) {
			const ch = text[i];
			if (inString) {
				if (ch === "\\") i++;
				else if (ch === '"') inString = false;
			} else if (ch === '"') inString = true;
			else if (ch === "{" || ch === "[") {
				if (++depth > maxDepth) return i;
			} else if (ch === "}" || ch === "]") depth--;
		}
		return undefined;
	}

	test("answers as the walk does, with few brackets, as many as the limit, one more, and brackets in strings", () => {
		const texts = [
			"{}",
			'{ "a": [1, 2, {"b": "[[[{{{"}] }',
			`${"[".repeat(5)}${"]".repeat(5)}`,
			`${"[".repeat(6)}${"]".repeat(6)}`,
			`${"{\"a\":".repeat(5)}1${"}".repeat(5)}`,
			`[${'"[{",'.repeat(10)}1]`,
			`${"[]".repeat(20)}`,
			`[${"[]".repeat(20)}]`,
			`"${"[".repeat(10)}"`,
			`["\\", ${"[".repeat(6)}${"]".repeat(6)}]`,
		];
		let seed = 7;
		const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
		for (let n = 0; n < 300; n++) {
			let text = "";
			for (let i = 0; i < 3 + Math.floor(random() * 30); i++) text += '[]{}"\\a, '[Math.floor(random() * 10)];
			texts.push(text);
		}
		for (const text of texts) for (const max of [0, 1, 3, 5, 6, 200]) expect([text, max, excessiveNesting(text, max)]).toEqual([text, max, walk(text, max)]);
	});
});
