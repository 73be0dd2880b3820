// typebox's `Type` as the binary bundles it: one object literal with the namespace's keys, in its
// order, value for value; the index module exports what typebox's own exports; a changed index stops the build.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { TYPEBOX_INDEX_MODULE, TYPEBOX_TYPE_MODULE, typeboxTypeObject } from "../../../scripts/typebox-type-object.ts";

const INDEX = join(import.meta.dir, "../../../node_modules/typebox/build/index.mjs");
const dir = mkdtempSync(join(tmpdir(), "agent-typebox-type-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("typeboxTypeObject", () => {
	test("Type is an object of typebox.mjs's exports, and the module exports typebox's own", async () => {
		expect(TYPEBOX_INDEX_MODULE.test(INDEX)).toBe(true);
		const names = Object.keys(await import(join(dirname(INDEX), TYPEBOX_TYPE_MODULE)));
		const transformed = typeboxTypeObject(readFileSync(INDEX, "utf8"), names, INDEX);
		expect(transformed).not.toContain("* as Type");
		const out = join(dir, "index.mjs");
		writeFileSync(out, transformed.replace(/from '\.\//g, `from '${dirname(INDEX)}/`));
		const original = await import(INDEX);
		const literal = await import(out);
		expect(Object.keys(literal)).toEqual(Object.keys(original));
		for (const name of Object.keys(original)) if (name !== "Type" && name !== "default") expect(literal[name]).toBe(original[name]);
		expect(literal.default).toBe(literal.Type);
		// The namespace's keys in its order, each the same value, as writable data properties.
		expect(Object.keys(literal.Type)).toEqual(Object.keys(original.Type));
		for (const name of Object.keys(original.Type)) {
			expect(literal.Type[name]).toBe(original.Type[name]);
			expect(Object.getOwnPropertyDescriptor(literal.Type, name)).toMatchObject({ enumerable: true, writable: true });
		}
		expect(literal.Type.Object({ text: literal.Type.String() })).toEqual(original.Type.Object({ text: original.Type.String() }));
	});

	test("an index.mjs that changed stops the build", () => {
		const source = readFileSync(INDEX, "utf8");
		expect(() => typeboxTypeObject("export * from './typebox.mjs';", ["Any"], INDEX)).toThrow("typebox's index.mjs changed");
		expect(() => typeboxTypeObject(source, [], INDEX)).toThrow("typebox's index.mjs changed");
	});
});
