// typebox's tokenizer characters as the binary bundles them: the module the transform writes exports
// what typebox's own char.mjs exports, value for value, and calls no Array.from.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { TYPEBOX_CHAR_MODULE, typeboxCharLiterals } from "../../../scripts/typebox-char-literals.ts";

const CHAR = join(import.meta.dir, "../../../node_modules/typebox/build/type/script/token/internal/char.mjs");
const dir = mkdtempSync(join(tmpdir(), "agent-typebox-char-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("typeboxCharLiterals", () => {
	test("the transformed module exports the same values as typebox's, without Array.from", async () => {
		expect(TYPEBOX_CHAR_MODULE.test(CHAR)).toBe(true);
		const source = readFileSync(CHAR, "utf8");
		const transformed = typeboxCharLiterals(source, CHAR);
		expect(transformed).not.toContain("Array.from");
		expect(transformed).not.toMatch(/Range\(\d/);
		const out = join(dir, "char.mjs");
		writeFileSync(out, transformed);
		const original = await import(CHAR);
		const literal = await import(out);
		expect(Object.keys(literal).sort()).toEqual(Object.keys(original).sort());
		for (const name of Object.keys(original)) expect(literal[name]).toEqual(original[name]);
		expect(literal.Alpha).toHaveLength(52);
		expect(literal.Digit).toEqual(["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]);
	});

	test("a char.mjs that changed stops the build", () => {
		expect(() => typeboxCharLiterals("export const Alpha = [];", CHAR)).toThrow("typebox's Range() changed");
		const source = readFileSync(CHAR, "utf8");
		expect(() => typeboxCharLiterals(`${source}\nexport const More = Range(1, 2);`, CHAR)).toThrow("typebox's Range() changed");
	});
});
