// The precompiled config checks (typebox's generated code, built in by a macro) answer exactly as
// typebox's own checker does, on valid files and on every kind of mistake the schemas catch.
import { describe, expect, test } from "bun:test";
import { Value } from "typebox/value";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { checkModuleSource } from "../../../src/core/providers/config-check-source.ts";
import { configSchema, precompiledCheck } from "../../../src/core/providers/config-checks.ts";
import { AuthJson, ModelsJson, ProviderConfigJson } from "../../../src/core/providers/provider-config.ts";

const provider = {
	name: "Local",
	baseUrl: "http://localhost:8080/v1",
	api: "openai-completions",
	apiKey: "$KEY",
	headers: { "x-a": "1" },
	authHeader: true,
	models: [{ id: "m", name: "M", reasoning: true, input: ["text", "image"], cost: { input: 1, output: 2, cacheRead: 0 }, contextWindow: 1000, maxTokens: 10, thinkingLevelMap: { high: 3, low: "l" }, compat: { x: [1] } }],
	modelOverrides: { other: { maxTokens: 5 } },
	compat: { supportsUsageInStreaming: false },
};

/** One valid provider, and one variant per field gone wrong. */
const providers: unknown[] = [
	provider,
	{},
	{ ...provider, baseUrl: "" },
	{ ...provider, baseUrl: "\ud83d" },
	{ ...provider, models: [{ id: "\ud83d\ude00" }] },
	{ ...provider, api: 3 },
	{ ...provider, headers: { a: 1 } },
	{ ...provider, authHeader: "yes" },
	{ ...provider, models: [{}] },
	{ ...provider, models: [{ id: "" }] },
	{ ...provider, models: [{ id: "m", input: ["audio"] }] },
	{ ...provider, models: [{ id: "m", cost: { input: -1, output: 0 } }] },
	{ ...provider, models: [{ id: "m", cost: { input: 1 } }] },
	{ ...provider, models: [{ id: "m", contextWindow: 1.5 }] },
	{ ...provider, models: [{ id: "m", maxTokens: 0 }] },
	{ ...provider, models: [{ id: "m", thinkingLevelMap: { high: true } }] },
	{ ...provider, modelOverrides: { other: { reasoning: "no" } } },
	{ ...provider, models: "m" },
	{ ...provider, unknownField: 1 },
	null,
	[],
	"x",
];

describe("precompiled checks", () => {
	test("ProviderConfigJson and ModelsJson: the same answer as Value.Check, valid or not", () => {
		const check = precompiledCheck("ProviderConfigJson");
		const models = precompiledCheck("ModelsJson");
		const answers = providers.map((p) => [check(p), Value.Check(ProviderConfigJson, p)]);
		for (const [ours, theirs] of answers) expect(ours).toBe(theirs);
		expect(answers.filter(([ours]) => ours).length).toBeGreaterThan(1);
		expect(answers.filter(([ours]) => !ours).length).toBeGreaterThan(10);
		for (const p of providers) {
			for (const file of [{ providers: { local: p } }, { providers: p }]) expect(models(file)).toBe(Value.Check(ModelsJson, file));
		}
		for (const file of [{}, [], null, { providers: {} }, { other: 1 }]) expect(models(file)).toBe(Value.Check(ModelsJson, file));
	});

	test("AuthJson", () => {
		const check = precompiledCheck("AuthJson");
		for (const file of [{}, { a: { type: "api_key", key: "k" } }, { a: { type: "oauth" } }, { a: { type: "" } }, { a: { key: "k" } }, { a: { type: "api_key", key: 1 } }, { a: "k" }, [], null]) {
			expect(check(file)).toBe(Value.Check(AuthJson, file));
		}
	});

	test("the module the build bakes in (its own CodePointCount, no typebox/guard) answers as typebox does", async () => {
		const dir = mkdtempSync(join(tmpdir(), "config-check-code-"));
		try {
			const file = join(dir, "config-check-code.mjs");
			writeFileSync(file, checkModuleSource());
			const { CHECKS } = (await import(file)) as { CHECKS: Record<string, (v: unknown) => boolean> };
			for (const p of providers) {
				expect(CHECKS.ProviderConfigJson!(p)).toBe(Value.Check(ProviderConfigJson, p));
				expect(CHECKS.ModelsJson!({ providers: { local: p } })).toBe(Value.Check(ModelsJson, { providers: { local: p } }));
			}
			for (const file of [{ a: { type: "" } }, { a: { type: "\ud83d" } }, { a: { type: "api_key" } }]) expect(CHECKS.AuthJson!(file)).toBe(Value.Check(AuthJson, file));
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});

	test("each check is built once; the schemas behind them are the module's", () => {
		expect(precompiledCheck("ModelsJson")).toBe(precompiledCheck("ModelsJson"));
		expect(configSchema("ModelsJson")).toBe(ModelsJson);
		expect(configSchema("AuthJson")).toBe(AuthJson);
		expect(configSchema("ProviderConfigJson")).toBe(ProviderConfigJson);
	});
});
