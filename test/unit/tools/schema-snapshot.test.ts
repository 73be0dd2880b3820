// The built-in tools' and the config files' schemas come from build-time snapshots (schema-snapshot.ts):
// each must be the very object TypeBox builds — the same keys in the same order, `~` markers hidden —
// so the wire JSON, validation and an extension's Type.Partial(ReadParams) see no difference.
import { describe, expect, test } from "bun:test";
import { Compile } from "typebox/compile";
import { Type } from "typebox";
import { schemaSnapshot, thawSchema } from "../../../src/core/schema-snapshot.ts";
import { EditBlock } from "../../../src/core/tools/edit.ts";
import * as tools from "../../../src/core/tools/index.ts";
import * as toolSchemas from "../../../src/core/tools/params.ts";
import * as config from "../../../src/core/providers/provider-config.ts";
import * as configSchemas from "../../../src/core/providers/provider-config-schemas.ts";

/** Every own property with its enumerability, recursively, in order. */
function shape(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(shape);
	if (value === null || typeof value !== "object") return value;
	return Object.getOwnPropertyNames(value).map((key) => [key, Object.getOwnPropertyDescriptor(value, key)!.enumerable, shape((value as Record<string, unknown>)[key])]);
}

describe("schema snapshots", () => {
	const toolPairs = Object.entries({ ...tools, EditBlock }).filter(([name]) => name.endsWith("Params") || name === "EditBlock");
	test("every built-in tool schema is in params.ts", () => {
		expect(toolPairs.map(([name]) => name).sort()).toEqual(Object.keys(toolSchemas).sort());
	});

	for (const [name, thawed] of toolPairs) {
		test(`${name} is the schema TypeBox builds`, () => {
			const built = toolSchemas[name as keyof typeof toolSchemas];
			expect(shape(thawed)).toEqual(shape(built));
			expect(JSON.stringify(thawed)).toBe(JSON.stringify(built));
		});
	}

	for (const name of Object.keys(configSchemas) as (keyof typeof configSchemas)[]) {
		test(`config schema ${name} is the schema TypeBox builds`, () => {
			expect(shape(config[name])).toEqual(shape(configSchemas[name]));
		});
	}

	test("TypeBox works on a thawed schema as on its own", () => {
		expect(Object.keys(Type.Partial(tools.ReadParams).properties)).toEqual(["path", "offset", "limit"]);
		expect(Type.Partial(tools.ReadParams).required).toBeUndefined();
		const check = Compile(tools.EditParams);
		expect(check.Check({ path: "a.ts", edits: [{ oldText: "x", newText: "y" }] })).toBe(true);
		expect(check.Check({ path: "a.ts", edits: [{ oldText: 1 }] })).toBe(false);
	});

	test("a snapshot refuses what JSON cannot carry or would bring back differently", () => {
		const fixture = "../../test/fixtures/schema-snapshot/not-json.ts";
		expect(() => schemaSnapshot("tools/params.ts", "NoSuchSchema")).toThrow("tools/params.ts exports no NoSuchSchema");
		expect(() => schemaSnapshot(fixture, "WithRegExp")).toThrow("#WithRegExp.pattern is not plain JSON data");
		expect(() => schemaSnapshot(fixture, "HiddenPlainKey")).toThrow('#HiddenPlainKey.secret is hidden; only "~" keys may be hidden');
		expect(() => schemaSnapshot(fixture, "VisibleMarker")).toThrow("#VisibleMarker.~kind is visible");
	});

	test("a thawed snapshot hides its ~ keys again", () => {
		const thawed = thawSchema<Record<string, unknown>>(schemaSnapshot("tools/params.ts", "LsParams"));
		expect(Object.keys(thawed)).toEqual(["type", "properties"]);
		expect(thawed["~kind"]).toBe("Object");
	});
});
