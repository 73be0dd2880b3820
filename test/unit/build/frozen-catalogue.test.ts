// The binary serves the model catalogue frozen (scripts/frozen-catalogue.ts): the same exports, and
// builtinProviders() the same data as the source builds, a fresh copy at every call.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CATALOGUE_MODULE, frozenCatalogueSource } from "../../../scripts/frozen-catalogue.ts";
import * as catalogue from "../../../src/core/providers/catalogue.ts";

const dir = mkdtempSync(join(tmpdir(), "frozen-catalogue-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the frozen catalogue has the source's exports and data; each builtinProviders() call is a fresh copy", async () => {
	expect(CATALOGUE_MODULE.test("/repo/src/core/providers/catalogue.ts")).toBe(true);
	const source = frozenCatalogueSource(catalogue as unknown as Record<string, unknown>);
	expect(source).not.toContain("import");
	const file = join(dir, "catalogue.mjs");
	writeFileSync(file, source);
	const frozen = (await import(file)) as typeof catalogue;
	expect(Object.keys(frozen).sort()).toEqual(Object.keys(catalogue).sort());
	expect(frozen.BUILTIN_ENV_KEYS).toStrictEqual(catalogue.BUILTIN_ENV_KEYS);
	expect(frozen.DEFAULT_PROVIDER_ORDER).toStrictEqual(catalogue.DEFAULT_PROVIDER_ORDER);
	const first = frozen.builtinProviders();
	expect(first).toStrictEqual(catalogue.builtinProviders());
	first[0]!.models[0]!.cost.input = -1;
	first[0]!.models[0]!.compat!.x = 1;
	expect(frozen.builtinProviders()).toStrictEqual(catalogue.builtinProviders());
});

test("data JSON cannot keep exactly stops the build", () => {
	expect(() => frozenCatalogueSource({ builtinProviders: () => [{ name: "x", envKey: undefined }] })).toThrow(/builtinProviders\(\) is not plain data/);
	expect(() => frozenCatalogueSource({ builtinProviders: () => [], helper: () => 1 })).toThrow(/export helper is a function/);
});
