// typebox's script parser as the binary bundles it: its rules as function declarations parse every
// input as typebox's own arrow-function rules do, and the transform stops the build when the file changes.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { TYPEBOX_PARSER_MODULE, typeboxParserFunctions } from "../../../scripts/typebox-parser-functions.ts";

const PARSER = join(import.meta.dir, "../../../node_modules/typebox/build/type/script/parser.mjs");
const dir = mkdtempSync(join(tmpdir(), "agent-typebox-parser-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Inputs for every kind of rule: modules, generics, objects, tuples, templates, keywords, patterns. */
const SCRIPTS = [
	"string",
	"{ x: string, y?: number[], readonly z: [boolean, ...string[]] }",
	"type A<T extends string = 'a'> = { value: T }",
	"interface B extends C, D { f(a: number, b?: string): void; new (x: any): unknown }",
	"module M { export type X = 1 | 2n | -3.5 | true | null | undefined; export interface Y { [key: string]: X } }",
	"`prefix-${string}-${number}`",
	"keyof { a: 1 } & Partial<{ b: 2 }> | Record<string, bigint>",
	"T extends infer U ? U : never",
	"(a: string) => Promise<symbol>",
	"Array<Date>['length'][number]",
	"{ a: 1",
	"",
];
const PATTERNS = ["^.*$", "^(0|[1-9][0-9]*)$", "^a(b|c)-?(?:0|[1-9][0-9]*)n$", "^x-?(?:0|[1-9][0-9]*)(?:\\.[0-9]+)?$", "^(?!)$", "^un|closed("];

describe("typeboxParserFunctions", () => {
	test("the rules become function declarations that parse as typebox's own", async () => {
		expect(TYPEBOX_PARSER_MODULE.test(PARSER)).toBe(true);
		const source = readFileSync(PARSER, "utf8");
		const transformed = typeboxParserFunctions(source, PARSER);
		// Only the If helper stays an arrow.
		expect(transformed.match(/^(export )?const /gm)).toEqual(["const "]);
		expect(transformed.match(/^export function /gm)?.length).toBe(source.match(/^export const /gm)?.length);
		const out = join(dir, "parser.mjs");
		writeFileSync(out, transformed.replace(/from '\.\//g, `from '${dirname(PARSER)}/`));
		const original = await import(PARSER);
		const functions = await import(out);
		expect(Object.keys(functions).sort()).toEqual(Object.keys(original).sort());
		for (const name of Object.keys(original)) {
			expect(typeof functions[name]).toBe("function");
			expect(functions[name].name).toBe(name);
			expect(functions[name].length).toBe(original[name].length);
		}
		for (const input of SCRIPTS) expect(functions.Script(input)).toEqual(original.Script(input));
		for (const input of SCRIPTS) expect(functions.Type(input)).toEqual(original.Type(input));
		for (const input of PATTERNS) expect(functions.Pattern(input)).toEqual(original.Pattern(input));
		for (const input of ["`a${string}b`", "`${number}`", "`x`"]) expect(functions.TemplateLiteralTypes(input)).toEqual(original.TemplateLiteralTypes(input));
		expect(functions.Script("{ x: string }")[0]).toBeDefined();
	});

	test("a parser.mjs that changed stops the build", () => {
		const source = readFileSync(PARSER, "utf8");
		expect(() => typeboxParserFunctions("export const Type = (input) => input;", PARSER)).toThrow("typebox's script parser changed");
		expect(() => typeboxParserFunctions(`${source}\nexport const Other = function () { return this; };`, PARSER)).toThrow("typebox's script parser changed");
		expect(() => typeboxParserFunctions(source.replace("export const Script = (input) =>", "export const Script = (input) => this.x ??"), PARSER)).toThrow("typebox's script parser changed");
	});
});
