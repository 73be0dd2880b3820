// The binary holds the tool and config schemas frozen (scripts/frozen-module.ts): each export must be
// the very object TypeBox builds — the same keys in the same order, `~` markers hidden, shared parts
// shared — so the wire JSON, validation and an extension's Type.Partial(ReadParams) see no difference.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Type } from "typebox";
import { Compile } from "typebox/compile";
import { FROZEN_MODULES, frozenModuleSource } from "../../../scripts/frozen-module.ts";

const dir = mkdtempSync(join(tmpdir(), "frozen-schemas-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every own property with its enumerability, recursively, in order. */
function shape(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(shape);
	if (value === null || typeof value !== "object") return value;
	return Object.getOwnPropertyNames(value).map((key) => [key, Object.getOwnPropertyDescriptor(value, key)!.enumerable, shape((value as Record<string, unknown>)[key])]);
}

/** The frozen module as the binary would evaluate it. */
async function frozen(exports: Record<string, unknown>, name: string): Promise<Record<string, unknown>> {
	const file = join(dir, `${name}.mjs`);
	writeFileSync(file, frozenModuleSource(exports, name));
	return (await import(file)) as Record<string, unknown>;
}

const MODULES = ["src/core/tools/params.ts", "src/core/providers/provider-config.ts"];

describe("frozen schema modules", () => {
	test("the build freezes exactly these modules", () => {
		for (const m of MODULES) expect(FROZEN_MODULES.test(`/repo/${m}`)).toBe(true);
		expect(FROZEN_MODULES.test("/repo/src/core/tools/read.ts")).toBe(false);
	});

	for (const path of MODULES) {
		test(`${path}: every export is what the module builds, and no typebox is imported`, async () => {
			const original = (await import(`../../../${path}`)) as Record<string, unknown>;
			const source = frozenModuleSource(original, path);
			expect(source).not.toContain("import");
			const copy = await frozen(original, path.replace(/\W/g, "_"));
			expect(Object.keys(copy).sort()).toEqual(Object.keys(original).sort());
			for (const name of Object.keys(original)) {
				expect(shape(copy[name])).toEqual(shape(original[name]));
				expect(JSON.stringify(copy[name])).toBe(JSON.stringify(original[name]));
			}
		});
	}

	test("shared parts stay shared, and TypeBox works on the copies as on its own", async () => {
		const params = await import("../../../src/core/tools/params.ts");
		const copy = (await frozen(params, "params_shared")) as unknown as typeof params;
		expect(copy.EditParams.properties.edits.items).toBe(copy.EditBlock);
		expect(Object.keys(Type.Partial(copy.ReadParams).properties)).toEqual(["path", "offset", "limit"]);
		expect(Type.Partial(copy.ReadParams).required).toBeUndefined();
		const check = Compile(copy.EditParams);
		expect(check.Check({ path: "a.ts", edits: [{ oldText: "x", newText: "y" }] })).toBe(true);
		expect(check.Check({ path: "a.ts", edits: [{ oldText: 1 }] })).toBe(false);
	});

	test("what a frozen module cannot rebuild stops the build, naming the export", () => {
		expect(() => frozenModuleSource({ F: { type: "string", pattern: /^a/ } }, "m.ts")).toThrow("frozen module m.ts: F.pattern is not a plain object");
		expect(() => frozenModuleSource({ F: () => 1 }, "m.ts")).toThrow("frozen module m.ts: F (function) is not plain data");
		expect(() => frozenModuleSource({ F: Object.defineProperty({}, "secret", { value: 1 }) }, "m.ts")).toThrow('F.secret is hidden; only "~" keys may be hidden');
		expect(() => frozenModuleSource({ F: { "~kind": "String" } }, "m.ts")).toThrow("F.~kind is visible");
		expect(() => frozenModuleSource({ F: { a: undefined } }, "m.ts")).toThrow("F.a (undefined) is not plain data");
	});
});
