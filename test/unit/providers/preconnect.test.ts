// A run about to prompt opens its model's connection early (fetch.preconnect): only for a built-in
// protocol that will send the request, with the provider's key configured, over http(s), and not through a proxy.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { ModelRegistry } from "../../../src/core/providers/registry.ts";
import { registerApiStream, registerProviderStream, unregisterApiStreams } from "../../../src/core/providers/stream.ts";
import { TempWorld } from "../../support/agent.ts";

const calls: string[] = [];
const open = (url: string) => void calls.push(url);

beforeEach(() => {
	calls.length = 0;
});
afterEach(() => unregisterApiStreams("preconnect-test"));

function registry(world: TempWorld, env: Record<string, string | undefined>, providers: Record<string, unknown> = {}): ModelRegistry {
	world.write("home/.agent/models.json", JSON.stringify({ providers }));
	return ModelRegistry.create({ agentDir: world.agentDir, env });
}

const local = { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "k", models: [{ id: "m" }] };

describe("preconnect", () => {
	test("a built-in protocol with its key configured: the base URL's connection is opened", async () => {
		await using world = new TempWorld();
		const reg = registry(world, { ANTHROPIC_API_KEY: "a" }, { local });
		reg.preconnect(reg.find("local", "m")!, open);
		reg.preconnect(reg.find("anthropic", "claude-sonnet-5-5")!, open);
		// A keyless provider needs no key.
		reg.preconnect(reg.find("ollama", "gpt-oss:20b")!, open);
		expect(calls).toEqual(["http://127.0.0.1:9/v1", "https://api.anthropic.com", "http://localhost:11434/v1"]);
	});

	test("no key, a proxy, a provider or protocol served by an extension's stream, a URL that is not http(s): nothing is opened", async () => {
		await using world = new TempWorld();
		const reg = registry(world, {}, { local, other: { ...local, baseUrl: "unix:///tmp/socket" } });
		reg.preconnect(reg.getAll().find((m) => m.provider === "openai")!, open);
		reg.preconnect(reg.find("other", "m")!, open);
		for (const proxy of ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"]) {
			const proxied = registry(world, { [proxy]: "http://proxy:3128" }, { local });
			proxied.preconnect(proxied.find("local", "m")!, open);
		}
		registerProviderStream("local", () => undefined as never, "preconnect-test");
		reg.preconnect(reg.find("local", "m")!, open);
		unregisterApiStreams("preconnect-test");
		registerApiStream("openai-completions", () => undefined as never, "preconnect-test");
		reg.preconnect(reg.find("local", "m")!, open);
		expect(calls).toEqual([]);
		// The check can fail: with the extension's stream gone, the same model is preconnected.
		unregisterApiStreams("preconnect-test");
		reg.preconnect(reg.find("local", "m")!, open);
		expect(calls).toEqual(["http://127.0.0.1:9/v1"]);
	});
});
