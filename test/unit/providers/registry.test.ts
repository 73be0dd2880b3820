// The model registry: built-ins, models.json and auth.json merged, key sources, registerProvider,
// and clear errors for malformed files that are never rewritten.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigFileError } from "../../../src/core/providers/json-file.ts";
import { ModelRegistry } from "../../../src/core/providers/registry.ts";
import type { AssistantMessageEventStream, Model } from "../../../src/core/providers/types.ts";
import { TempWorld } from "../../support/agent.ts";
import { errorOf } from "../../support/error-of.ts";

function registry(world: TempWorld, env: Record<string, string | undefined> = {}): ModelRegistry {
	return ModelRegistry.create({ agentDir: world.agentDir, env });
}

function writeModels(world: TempWorld, value: unknown): string {
	return world.write("home/.agent/models.json", typeof value === "string" ? value : JSON.stringify(value, null, 2));
}

describe("built-in providers", () => {
	test("every built-in provider has models with context windows and costs, and its env key", async () => {
		await using world = new TempWorld();
		const reg = registry(world);
		const byProvider = Object.fromEntries(reg.getProviders().map((p) => [p.name, p]));
		expect(Object.keys(byProvider)).toEqual(["anthropic", "openai", "openrouter", "groq", "deepseek", "ollama"]);
		expect(byProvider.anthropic!.envKey).toBe("ANTHROPIC_API_KEY");
		expect(byProvider.openai!.envKey).toBe("OPENAI_API_KEY");
		expect(byProvider.openrouter!.envKey).toBe("OPENROUTER_API_KEY");
		expect(byProvider.groq!.envKey).toBe("GROQ_API_KEY");
		expect(byProvider.deepseek!.envKey).toBe("DEEPSEEK_API_KEY");
		expect(byProvider.ollama!.keyless).toBe(true);
		for (const m of reg.getAll()) {
			expect(m.contextWindow).toBeGreaterThan(1000);
			expect(m.maxTokens).toBeGreaterThan(1000);
			if (m.provider !== "ollama") expect(m.cost.input).toBeGreaterThan(0);
		}
		const sonnet = reg.find("anthropic", "claude-sonnet-5-5")!;
		expect(sonnet.api).toBe("anthropic-messages");
		expect(sonnet.baseUrl).toBe("https://api.anthropic.com");
		expect(reg.find("ollama", "gpt-oss:20b")!.baseUrl).toBe("http://localhost:11434/v1");
	});

	test("getAvailable lists models whose provider has a key, plus keyless local ones", async () => {
		await using world = new TempWorld();
		const reg = registry(world, { GROQ_API_KEY: "gsk-1" });
		expect([...new Set(reg.getAvailable().map((m) => m.provider))]).toEqual(["groq", "ollama"]);
		expect(reg.hasConfiguredAuth(reg.find("anthropic", "claude-sonnet-5-5")!)).toBe(false);
	});

	test("getApiKeyAndHeaders reads the env var of a built-in provider", async () => {
		await using world = new TempWorld();
		const reg = registry(world, { ANTHROPIC_API_KEY: "sk-ant-env" });
		expect(await reg.getApiKeyAndHeaders(reg.find("anthropic", "claude-sonnet-5-5")!)).toEqual({ ok: true, apiKey: "sk-ant-env", headers: {} });
		expect(await reg.getApiKeyAndHeaders(reg.find("ollama", "gpt-oss:20b")!)).toEqual({ ok: true, headers: {} });
	});
});

describe("auth.json and --api-key", () => {
	test("auth.json wins over the env var, and --api-key wins over both", async () => {
		await using world = new TempWorld();
		world.write("home/.agent/auth.json", JSON.stringify({ openai: { type: "api_key", key: "sk-from-auth" }, other: { type: "oauth" } }));
		const reg = registry(world, { OPENAI_API_KEY: "sk-from-env" });
		const model = reg.find("openai", "gpt-6.1-sol")!;
		expect((await reg.getApiKeyAndHeaders(model)) as any).toMatchObject({ ok: true, apiKey: "sk-from-auth" });
		reg.setRuntimeApiKey("openai", "sk-from-flag");
		expect((await reg.getApiKeyAndHeaders(model)) as any).toMatchObject({ ok: true, apiKey: "sk-from-flag" });
	});

	test("an auth.json key may name an env var or a command", async () => {
		await using world = new TempWorld();
		world.write("home/.agent/auth.json", JSON.stringify({ openai: { type: "api_key", key: "$MY_OPENAI" }, groq: { type: "api_key", key: "!printf 'gsk-cmd\\n'" } }));
		const reg = registry(world, { MY_OPENAI: "sk-named" });
		expect((await reg.getApiKeyAndHeaders(reg.find("openai", "gpt-6.1-sol")!)) as any).toMatchObject({ apiKey: "sk-named" });
		expect((await reg.getApiKeyAndHeaders(reg.find("groq", "openai/gpt-oss-120b")!)) as any).toMatchObject({ apiKey: "gsk-cmd" });
	});

	test("a malformed auth.json names the file, line and column, and is not rewritten", async () => {
		await using world = new TempWorld();
		const text = '{\n  "anthropic": { "type": "api_key", "key": "sk-1" },\n}\n';
		const path = world.write("home/.agent/auth.json", text);
		const error = errorOf(() => registry(world));
		expect(error).toBeInstanceOf(ConfigFileError);
		expect(error.message).toBe(`${path}:3:1: invalid JSON: a trailing comma before "}" (remove it)`);
		expect(error.hints[0]).toStartWith("Fix the file and run again (it was not changed), or move it aside to start without it. Expected shape: {");
		expect(readFileSync(path, "utf8")).toBe(text);
	});

	test("an auth.json entry of the wrong shape names its path", async () => {
		await using world = new TempWorld();
		const path = world.write("home/.agent/auth.json", '{\n  "openai": { "type": "api_key", "key": 42 }\n}');
		expect(errorOf(() => registry(world)).message).toBe(`${path}:2:41: openai.key must be string`);
	});
});

describe("models.json", () => {
	test("adds a provider whose key is an env var name, with defaults for unspecified fields", async () => {
		await using world = new TempWorld();
		writeModels(world, {
			providers: {
				local: {
					baseUrl: "http://localhost:8080/v1",
					api: "openai-completions",
					apiKey: "LOCAL_KEY",
					headers: { "X-Team": "core" },
					models: [{ id: "qwen-coder", contextWindow: 32768 }],
				},
			},
		});
		const reg = registry(world, { LOCAL_KEY: "lk-1" });
		const model = reg.find("local", "qwen-coder")!;
		expect(model).toEqual({
			id: "qwen-coder",
			name: "qwen-coder",
			api: "openai-completions",
			provider: "local",
			baseUrl: "http://localhost:8080/v1",
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 32768,
			maxTokens: 16384,
		});
		expect(await reg.getApiKeyAndHeaders(model)).toEqual({ ok: true, apiKey: "lk-1", headers: { "X-Team": "core" } });
		expect(reg.hasConfiguredAuth(model)).toBe(true);
		expect(registry(world, {}).hasConfiguredAuth(model)).toBe(false);
	});

	test("a provider without apiKey is keyless; authHeader adds a Bearer header from the key", async () => {
		await using world = new TempWorld();
		writeModels(world, {
			providers: {
				lmstudio: { baseUrl: "http://localhost:1234/v1", api: "openai-completions", models: [{ id: "m" }] },
				proxy: { baseUrl: "https://proxy.example/v1", api: "openai-completions", apiKey: "literal-key", authHeader: true, models: [{ id: "p" }] },
			},
		});
		const reg = registry(world);
		expect(reg.hasConfiguredAuth(reg.find("lmstudio", "m")!)).toBe(true);
		expect(await reg.getApiKeyAndHeaders(reg.find("proxy", "p")!)).toEqual({ ok: true, apiKey: "literal-key", headers: { Authorization: "Bearer literal-key" } });
	});

	test("baseUrl alone re-points a built-in provider; models add to it and modelOverrides change one", async () => {
		await using world = new TempWorld();
		writeModels(world, {
			providers: {
				anthropic: {
					baseUrl: "https://gateway.example",
					models: [{ id: "claude-next", reasoning: true }],
					modelOverrides: { "claude-haiku-5-5": { maxTokens: 8000 } },
				},
			},
		});
		const reg = registry(world);
		const all = reg.getAll().filter((m) => m.provider === "anthropic");
		expect(all.every((m) => m.baseUrl === "https://gateway.example")).toBe(true);
		expect(all.map((m) => m.id)).toContain("claude-sonnet-5-5");
		const next = reg.find("anthropic", "claude-next")!;
		expect(next.api).toBe("anthropic-messages");
		expect(next.reasoning).toBe(true);
		const haiku = reg.find("anthropic", "claude-haiku-5-5")!;
		expect(haiku.maxTokens).toBe(8000);
		expect(haiku.cost).toEqual({ input: 0.1, output: 0.5, cacheRead: 0.01, cacheWrite: 0.125 });
	});

	test("an apiKey command that fails is reported, not thrown", async () => {
		await using world = new TempWorld();
		writeModels(world, { providers: { vault: { baseUrl: "http://x/v1", api: "openai-completions", apiKey: "!echo locked >&2; exit 3", models: [{ id: "v" }] } } });
		const reg = registry(world);
		const model = reg.find("vault", "v")!;
		expect(reg.hasConfiguredAuth(model)).toBe(true);
		expect(await reg.getApiKeyAndHeaders(model)).toEqual({ ok: false, error: 'The apiKey command for provider "vault" failed (exit 3): locked' });
	});

	test("invalid JSON: file, line, column and what is wrong; the file is untouched", async () => {
		await using world = new TempWorld();
		const text = '{\n  "providers": {\n    "local": { "baseUrl": "http://x" "api": "openai-completions" }\n  }\n}\n';
		const path = writeModels(world, text);
		const error = errorOf(() => registry(world));
		expect(error.message).toBe(`${path}:3:38: invalid JSON: expected "," or "}" after a property value`);
		expect(readFileSync(path, "utf8")).toBe(text);
	});

	test("a value of the wrong type points at the value", async () => {
		await using world = new TempWorld();
		const path = writeModels(world, '{\n  "providers": {\n    "local": {\n      "baseUrl": "http://x/v1",\n      "api": "openai-completions",\n      "models": [{ "id": "m", "contextWindow": "big" }]\n    }\n  }\n}');
		expect(errorOf(() => registry(world)).message).toBe(`${path}:6:48: providers.local.models[0].contextWindow must be integer`);
	});

	test("input must be text or image; a missing id is named", async () => {
		await using world = new TempWorld();
		const path = writeModels(world, '{ "providers": { "l": { "baseUrl": "u", "api": "openai-completions", "models": [{ "id": "m", "input": ["txt"] }] } } }');
		expect(errorOf(() => registry(world)).message).toBe(`${path}:1:104: providers.l.models[0].input[0] must be one of "text", "image"`);
		writeModels(world, '{ "providers": { "l": { "baseUrl": "u", "api": "openai-completions", "models": [{ "name": "m" }] } } }');
		expect(errorOf(() => registry(world)).message).toBe(`${path}:1:81: providers.l.models[0] is missing id`);
	});

	test("a new provider's model without api or baseUrl says where to add it", async () => {
		await using world = new TempWorld();
		const path = writeModels(world, '{ "providers": { "mine": { "baseUrl": "http://x/v1", "models": [{ "id": "m1" }] } } }');
		expect(errorOf(() => registry(world)).message).toBe(
			`${path}:1:65: model "m1" of provider "mine" has no "api": set "api" on the provider or the model ("openai-completions" or "anthropic-messages")`,
		);
	});

	test("a provider name with / or ~ is escaped in the pointer that finds the model's line", async () => {
		await using world = new TempWorld();
		const path = writeModels(world, '{ "providers": {\n  "ok": { "baseUrl": "http://x/v1", "api": "openai-completions", "models": [{ "id": "a" }] },\n  "my/lab~x": { "baseUrl": "http://x/v1",\n    "models": [{ "id": "m1" }] } } }');
		expect(errorOf(() => registry(world)).message).toBe(
			`${path}:4:16: model "m1" of provider "my~1lab~0x" has no "api": set "api" on the provider or the model ("openai-completions" or "anthropic-messages")`,
		);
	});

	test("an empty file is an empty config", async () => {
		await using world = new TempWorld();
		writeModels(world, "\n");
		expect(registry(world).getAll().length).toBeGreaterThan(10);
	});
});

describe("registerProvider", () => {
	test("models replace the provider's models; unregister restores the built-in ones", async () => {
		await using world = new TempWorld();
		const reg = registry(world);
		const before = reg.getAll().filter((m) => m.provider === "openai").map((m) => m.id);
		reg.registerProvider("openai", { baseUrl: "https://corp.example/v1", apiKey: "CORP_KEY", models: [{ id: "corp-gpt", contextWindow: 64000 }] });
		expect(reg.getAll().filter((m) => m.provider === "openai").map((m) => m.id)).toEqual(["corp-gpt"]);
		expect(reg.find("openai", "corp-gpt")!.baseUrl).toBe("https://corp.example/v1");
		reg.unregisterProvider("openai");
		expect(reg.getAll().filter((m) => m.provider === "openai").map((m) => m.id)).toEqual(before);
		expect(reg.find("openai", "gpt-6.1-sol")!.baseUrl).toBe("https://api.openai.com/v1");
	});

	test("changes land on the registry's copies: unregistering brings back the catalogue's models as they were", async () => {
		await using world = new TempWorld();
		const reg = registry(world);
		const before = structuredClone(reg.getAll().filter((m) => m.provider === "anthropic"));
		reg.registerProvider("anthropic", { baseUrl: "http://127.0.0.1:9/proxy", compat: { extra: 1 } });
		const changed = reg.find("anthropic", "claude-opus-5-5")!;
		expect(changed.compat).toMatchObject({ extra: 1 });
		changed.cost.input = 999;
		reg.unregisterProvider("anthropic");
		expect(reg.getAll().filter((m) => m.provider === "anthropic")).toEqual(before);
	});

	test("baseUrl alone re-points existing models", async () => {
		await using world = new TempWorld();
		const reg = registry(world);
		reg.registerProvider("anthropic", { baseUrl: "http://127.0.0.1:9/proxy" });
		expect(reg.find("anthropic", "claude-opus-5-5")!.baseUrl).toBe("http://127.0.0.1:9/proxy");
	});

	test("an invalid config throws a message naming the provider and the field", async () => {
		await using world = new TempWorld();
		const reg = registry(world);
		expect(() => reg.registerProvider("x", { baseUrl: "http://x", api: "openai-completions", models: [{ id: "m", maxTokens: -1 }] })).toThrow(
			'registerProvider("x"): models[0].maxTokens must be >= 1',
		);
		expect(() => reg.registerProvider("y", { api: "openai-completions", models: [{ id: "m" }] })).toThrow('registerProvider("y"): model "m" of provider "y" has no "baseUrl"');
	});

	test("streamSimple serves a custom api id through registry.stream", async () => {
		await using world = new TempWorld();
		const reg = registry(world);
		const seen: { model: string; apiKey?: string }[] = [];
		const { createAssistantMessageEventStream } = await import("../../../src/core/providers/event-stream.ts");
		reg.registerProvider("echo", {
			baseUrl: "echo://",
			api: "echo-api",
			apiKey: "echo-key",
			models: [{ id: "echo-1" }],
			streamSimple: (model: Model, context, options): AssistantMessageEventStream => {
				seen.push({ model: model.id, apiKey: options?.apiKey });
				const stream = createAssistantMessageEventStream();
				const message = { role: "assistant" as const, content: [{ type: "text" as const, text: "echo" }], api: model.api, provider: model.provider, model: model.id, usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop" as const, timestamp: 1 };
				stream.push({ type: "done", reason: "stop", message });
				return stream;
			},
		});
		const result = await reg.complete(reg.find("echo", "echo-1")!, { messages: [] });
		expect(result.content).toEqual([{ type: "text", text: "echo" }]);
		expect(seen).toEqual([{ model: "echo-1", apiKey: "echo-key" }]);
		reg.unregisterProvider("echo");
		expect(reg.find("echo", "echo-1")).toBeUndefined();
	});
});

describe("registry.stream without a key", () => {
	test("a provider without a key fails before any request, saying how to set one", async () => {
		await using world = new TempWorld();
		const reg = registry(world);
		const message = await reg.complete(reg.find("deepseek", "deepseek-chat")!, { messages: [] });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe(`No API key for provider "deepseek": set DEEPSEEK_API_KEY, add it to ${join(world.agentDir, "auth.json")}, or pass --api-key`);
	});
});
