// --model / --provider / --thinking / --api-key to a model, the default when none is named, the
// message when none is configured, and the --list-models table.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { UserError } from "../../../src/core/errors.ts";
import { BUILTIN_ENV_KEYS, builtinProviders } from "../../../src/core/providers/catalogue.ts";
import { NO_MODEL_CONFIGURED, NoModelConfiguredError, selectModelIfAny } from "../../../src/core/providers/model-resolver.ts";
import { createAgentSession } from "../../../src/core/sdk.ts";
import { ModelRegistry } from "../../../src/core/providers/registry.ts";
import { TempWorld } from "../../support/agent.ts";
import { errorOf } from "../../support/error-of.ts";

function id(resolved: { model: { provider: string; id: string } }): string {
	return `${resolved.model.provider}/${resolved.model.id}`;
}

describe("resolveModel", () => {
	test("provider/id, bare id, a thinking suffix, and ids that contain a colon", async () => {
		await using world = new TempWorld();
		const reg = ModelRegistry.create({ agentDir: world.agentDir, env: {} });
		expect(id(reg.resolveModel("anthropic/claude-opus-5-5"))).toBe("anthropic/claude-opus-5-5");
		expect(id(reg.resolveModel("gpt-6-luna"))).toBe("openai/gpt-6-luna");
		expect(reg.resolveModel("openai/gpt-6-astra:high")).toMatchObject({ model: { id: "gpt-6-astra" }, thinkingLevel: "high" });
		expect(reg.resolveModel("ollama/qwen3-coder:30b")).toMatchObject({ model: { id: "qwen3-coder:30b" } });
		expect(reg.resolveModel("ollama/gpt-oss:20b:low")).toMatchObject({ model: { id: "gpt-oss:20b" }, thinkingLevel: "low" });
	});

	test("an id with a slash that names another provider's model still finds it", async () => {
		await using world = new TempWorld();
		const reg = ModelRegistry.create({ agentDir: world.agentDir, env: {} });
		expect(id(reg.resolveModel("anthropic/claude-sonnet-5.5"))).toBe("openrouter/anthropic/claude-sonnet-5.5");
		expect(id(reg.resolveModel("anthropic/claude-sonnet-5.5", { provider: "openrouter" }))).toBe("openrouter/anthropic/claude-sonnet-5.5");
	});

	test("a partial id matches, preferring providers with a key", async () => {
		await using world = new TempWorld();
		const withOpenRouter = ModelRegistry.create({ agentDir: world.agentDir, env: { OPENROUTER_API_KEY: "or" } });
		expect(id(withOpenRouter.resolveModel("sonnet 5.5"))).toBe("openrouter/anthropic/claude-sonnet-5.5");
		const withAnthropic = ModelRegistry.create({ agentDir: world.agentDir, env: { ANTHROPIC_API_KEY: "a" } });
		expect(id(withAnthropic.resolveModel("sonnet"))).toBe("anthropic/claude-sonnet-5-5");
		expect(id(withAnthropic.resolveModel("haiku"))).toBe("anthropic/claude-haiku-5-5");
	});

	test("a thinking level is clamped to what the model supports", async () => {
		await using world = new TempWorld();
		const reg = ModelRegistry.create({ agentDir: world.agentDir, env: {} });
		expect(reg.resolveModel("llama-3.3-70b-versatile:high").thinkingLevel).toBe("off");
		expect(reg.resolveModel("gpt-oss-120b:xhigh").thinkingLevel).toBe("high");
		expect(reg.resolveModel("claude-opus-5-5:xhigh").thinkingLevel).toBe("xhigh");
		// pi 1.6's "max": adaptive Claude and GPT-6 map it; elsewhere it is the highest level there is.
		expect(reg.resolveModel("claude-opus-5-5:max").thinkingLevel).toBe("max");
		expect(reg.resolveModel("gpt-6.1-sol:max").thinkingLevel).toBe("max");
		expect(reg.resolveModel("gpt-oss-120b:max").thinkingLevel).toBe("high");
	});

	test("an unknown id of a named provider is used with default limits and a warning", async () => {
		await using world = new TempWorld();
		const reg = ModelRegistry.create({ agentDir: world.agentDir, env: {} });
		const resolved = reg.resolveModel("ollama/llama3.2");
		expect(resolved.model).toMatchObject({ id: "llama3.2", provider: "ollama", api: "openai-completions", baseUrl: "http://localhost:11434/v1", contextWindow: 128000, maxTokens: 16384 });
		expect(resolved.warning).toBe(
			`Model "llama3.2" is not in the model list of "ollama"; using it with default limits (context 128000, max output 16384). Add it to ${join(world.agentDir, "models.json")} to set them.`,
		);
	});

	test("nothing matching, and an unknown provider, are user errors with the next step", async () => {
		await using world = new TempWorld();
		const reg = ModelRegistry.create({ agentDir: world.agentDir, env: {} });
		const none = errorOf(() => reg.resolveModel("zzz-nothing"));
		expect(none).toBeInstanceOf(UserError);
		expect(none.message).toBe('No model matches "zzz-nothing".');
		expect(none.hints).toEqual(['Run "agent --list-models" to see the models you can use, or name the provider: --model <provider>/<id>.']);
		const unknown = errorOf(() => reg.resolveModel("x", { provider: "nope" }));
		expect(unknown.message).toBe('Unknown provider "nope". Known providers: anthropic, openai, openrouter, groq, deepseek, ollama.');
	});
});

describe("selectModel", () => {
	test("with no flags, the first provider with a key in a fixed order gives its default model", async () => {
		await using world = new TempWorld();
		const reg = ModelRegistry.create({ agentDir: world.agentDir, env: { GROQ_API_KEY: "g", DEEPSEEK_API_KEY: "d" } });
		expect(id(reg.selectModel())).toBe("deepseek/deepseek-chat");
		const both = ModelRegistry.create({ agentDir: world.agentDir, env: { OPENAI_API_KEY: "o", ANTHROPIC_API_KEY: "a" } });
		expect(id(both.selectModel())).toBe("anthropic/claude-sonnet-5-5");
		expect(id(both.selectModel({ defaultModel: "openai/gpt-6-luna" }))).toBe("openai/gpt-6-luna");
	});

	test("--provider alone picks that provider's default model; --thinking wins over the suffix", async () => {
		await using world = new TempWorld();
		const reg = ModelRegistry.create({ agentDir: world.agentDir, env: { OPENAI_API_KEY: "o" } });
		expect(id(reg.selectModel({ provider: "openai" }))).toBe("openai/gpt-6.1-sol");
		expect(reg.selectModel({ model: "gpt-6-astra:low", thinking: "high" }).thinkingLevel).toBe("high");
	});

	test("--api-key applies to the selected provider", async () => {
		await using world = new TempWorld();
		const reg = ModelRegistry.create({ agentDir: world.agentDir, env: {} });
		const resolved = reg.selectModel({ model: "groq/openai/gpt-oss-120b", apiKey: "gsk-flag" });
		expect(await reg.getApiKeyAndHeaders(resolved.model)).toEqual({ ok: true, apiKey: "gsk-flag", headers: {} });
		expect(errorOf(() => reg.selectModel({ apiKey: "k" })).message).toBe("--api-key needs --provider or --model to say which provider the key is for.");
	});

	test("a named model without a key says which variable to set", async () => {
		await using world = new TempWorld();
		const reg = ModelRegistry.create({ agentDir: world.agentDir, env: {} });
		expect(errorOf(() => reg.selectModel({ model: "anthropic/claude-sonnet-5-5" })).message).toBe(
			`No API key for provider "anthropic": set ANTHROPIC_API_KEY, add it to ${join(world.agentDir, "auth.json")}, or pass --api-key`,
		);
	});

	test("a local server is chosen by default only when models.json configures it", async () => {
		await using world = new TempWorld();
		expect(errorOf(() => ModelRegistry.create({ agentDir: world.agentDir, env: {} }).selectModel())).toBeInstanceOf(NoModelConfiguredError);
		world.write("home/.agent/models.json", JSON.stringify({ providers: { ollama: { models: [{ id: "devstral" }] } } }));
		expect(id(ModelRegistry.create({ agentDir: world.agentDir, env: {} }).selectModel())).toBe("ollama/devstral");
		expect(id(ModelRegistry.create({ agentDir: world.agentDir, env: {} }).selectModel({ provider: "ollama", model: "gpt-oss" }))).toBe("ollama/gpt-oss:20b");
	});

	test("no model at all, where a start may go on without one: no error is built", async () => {
		await using world = new TempWorld();
		const reg = ModelRegistry.create({ agentDir: world.agentDir, env: {} });
		expect(selectModelIfAny(reg, {})).toBeUndefined();
		// What would fail otherwise still throws; a provider with a key is still chosen.
		expect(errorOf(() => selectModelIfAny(reg, { model: "anthropic/claude-sonnet-5-5" })).message).toStartWith('No API key for provider "anthropic"');
		expect(selectModelIfAny(ModelRegistry.create({ agentDir: world.agentDir, env: { OPENAI_API_KEY: "k" } }), {})?.model.provider).toBe("openai");
		// createAgentSession (the TUI's start) warns with the message's first line and builds the error only when asked for it.
		const created = await createAgentSession({ cwd: world.cwd, registry: reg, allowNoModel: true, noContextFiles: true, noMcp: true, session: { kind: "memory" } });
		expect(created.warnings).toEqual([NO_MODEL_CONFIGURED]);
		expect(Object.getOwnPropertyDescriptor(created, "modelError")?.get).toBeDefined();
		expect(created.modelError).toBeInstanceOf(NoModelConfiguredError);
		expect(created.modelError?.message).toBe(NO_MODEL_CONFIGURED);
		expect(created.modelError).toBe(created.modelError);
		await created.host.shutdown();
	});

	test("no model at all: a message listing every way to configure one", async () => {
		await using world = new TempWorld();
		const error = errorOf(() => ModelRegistry.create({ agentDir: world.agentDir, env: {} }).selectModel());
		expect(error.message).toBe("No model is configured. Set one up in any of these ways:");
		expect(error.hints).toEqual([
			"  - an API key in the environment: ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY, GROQ_API_KEY or DEEPSEEK_API_KEY",
			`  - a key in ${join(world.agentDir, "auth.json")}: { "anthropic": { "type": "api_key", "key": "sk-ant-..." } }`,
			`  - a provider in ${join(world.agentDir, "models.json")}, such as a local server (Ollama, llama.cpp, vLLM, LM Studio):`,
			'      { "providers": { "local": { "baseUrl": "http://localhost:8080/v1", "api": "openai-completions", "models": [{ "id": "my-model" }] } } }',
			"  - on the command line: agent --model anthropic/claude-sonnet-5-5 --api-key sk-ant-...",
			"    or, with Ollama running: agent --model ollama/<model>",
			'Then "agent --list-models" shows the models you can use.',
		]);
		// The message reads the key table, not the catalogue: every built-in provider with a key is in it, in order.
		expect(Object.values(BUILTIN_ENV_KEYS)).toEqual(builtinProviders().flatMap((p) => (p.envKey ? [p.envKey] : [])));
	});
});

describe("listModels", () => {
	test("a table of available models, sorted, with a search", async () => {
		await using world = new TempWorld();
		const reg = ModelRegistry.create({ agentDir: world.agentDir, env: { DEEPSEEK_API_KEY: "d" } });
		expect(reg.listModels()).toBe(
			[
				"provider  model              context  max-out  thinking  images",
				"deepseek  deepseek-chat      128K     8K       no        no",
				"deepseek  deepseek-reasoner  128K     66K      yes       no",
				"ollama    gpt-oss:20b        131K     33K      yes       no",
				"ollama    qwen3-coder:30b    262K     66K      no        no",
				"",
			].join("\n"),
		);
		expect(reg.listModels("reasoner")).toBe(
			["provider  model              context  max-out  thinking  images", "deepseek  deepseek-reasoner  128K     66K      yes       no", ""].join("\n"),
		);
		expect(reg.listModels("nothing-like-this")).toBe('No models match "nothing-like-this".\n');
	});

	test("large windows read as M", async () => {
		await using world = new TempWorld();
		const reg = ModelRegistry.create({ agentDir: world.agentDir, env: { OPENAI_API_KEY: "o" } });
		expect(reg.listModels("luna")).toBe(["provider  model       context  max-out  thinking  images", "openai    gpt-6-luna  1.05M    128K     yes       yes", ""].join("\n"));
	});
});
