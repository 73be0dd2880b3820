// typebox's parser reached through a require() on first use: the three importers, transformed, give what
// typebox's own give (scripts, template literals, record key patterns), and only load the parser when called.
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TYPEBOX_PARSER_IMPORTERS, typeboxLazyParser, typeboxParserEntry } from "../../../scripts/typebox-lazy-parser.ts";

const BUILD = join(import.meta.dir, "../../../node_modules/typebox/build");
const IMPORTERS = ["type/script/script.mjs", "type/engine/patterns/pattern.mjs", "type/engine/patterns/template.mjs"];
const PARSER = "type/script/parser.mjs";
// A copy of typebox's build with the transforms applied, beside which nothing else changed.
const dir = mkdtempSync(join(tmpdir(), "agent-typebox-lazy-"));
const copy = join(dir, "build");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("typeboxLazyParser", () => {
	test("typebox built this way parses scripts, template literals and patterns as typebox does, the parser loaded on first use", async () => {
		cpSync(BUILD, copy, { recursive: true });
		for (const file of IMPORTERS) {
			expect(TYPEBOX_PARSER_IMPORTERS.test(join(BUILD, file))).toBe(true);
			const out = typeboxLazyParser(readFileSync(join(BUILD, file), "utf8"), join(BUILD, file));
			expect(out).not.toMatch(/^import .*parser\.mjs/m);
			writeFileSync(join(copy, file), out);
		}
		expect(TYPEBOX_PARSER_IMPORTERS.test(join(BUILD, PARSER))).toBe(false);
		// The parser says when it runs, so the test sees when it loads.
		writeFileSync(join(copy, PARSER), `${typeboxParserEntry(readFileSync(join(BUILD, PARSER), "utf8"))}\nglobalThis.typeboxParserLoads = (globalThis.typeboxParserLoads ?? 0) + 1;\n`);
		const g = globalThis as { typeboxParserLoads?: number };
		const lazy = await import(join(copy, "index.mjs"));
		const original = await import(join(BUILD, "index.mjs"));
		expect(Object.keys(lazy)).toEqual(Object.keys(original));
		expect(JSON.stringify(lazy.Type.Object({ a: lazy.Type.String(), b: lazy.Type.Optional(lazy.Type.Number()) }))).toBe(JSON.stringify(original.Type.Object({ a: original.Type.String(), b: original.Type.Optional(original.Type.Number()) })));
		expect(g.typeboxParserLoads).toBeUndefined();
		const same = (f: (t: typeof original.Type) => unknown) => expect(JSON.stringify(f(lazy.Type))).toBe(JSON.stringify(f(original.Type)));
		same((T) => T.Script("{ x: string, y?: number[] }"));
		expect(g.typeboxParserLoads).toBe(1);
		same((T) => T.Script("type A<T extends string = 'a'> = { value: T }"));
		same((T) => T.Script("`prefix-${string}-${number}`"));
		same((T) => T.TemplateLiteral("a${string}b${number}"));
		same((T) => T.TemplateLiteral([T.Literal("x"), T.Union([T.Literal("a"), T.Literal("b")])]));
		same((T) => T.Record(T.String(), T.Number()));
		same((T) => T.Record(T.TemplateLiteral("k${number}"), T.Boolean()));
		same((T) => T.Script("{ a: 1"));
		expect(g.typeboxParserLoads).toBe(1);
	});

	test("an importer that changed stops the build", () => {
		const path = join(BUILD, IMPORTERS[0]!);
		const source = readFileSync(path, "utf8");
		expect(() => typeboxLazyParser(source.replace("import * as Parser from './parser.mjs';", "import { Script } from './parser.mjs';"), path)).toThrow("typebox's parser imports changed");
		expect(() => typeboxLazyParser(`${source}\nexport const Other = () => Parser.Type('x');`, path)).toThrow("typebox's parser imports changed");
		expect(() => typeboxLazyParser(source, join(BUILD, "type/script/other.mjs"))).toThrow("typebox's parser imports changed");
	});
});
