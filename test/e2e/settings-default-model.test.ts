// Settings `defaultProvider`, `defaultModel` and `defaultThinkingLevel` through the binary: they pick
// the start-up model and thinking level; flags win; the project's file wins only in a trusted folder;
// a resumed session keeps its own model; a bad value names the file and the key.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { MODEL, mockWorld, type MockWorld } from "../support/world.ts";

const T = 30_000;

/** One print-mode run; what it sent (which wire protocol and model, the reasoning fields) and said. */
async function ask(world: MockWorld, args: string[]): Promise<{ protocol: string; model: string; body: Record<string, any>; stderr: string }> {
	world.mock.script({ text: "ok" });
	const r = await world.run(["-ne", "--no-session", ...args, "-p", "hi"]);
	expect(r.code).toBe(0);
	const req = world.mock.lastRequest();
	return { protocol: req.protocol, model: req.body.model, body: req.body, stderr: r.stderr };
}

const userSettings = (world: MockWorld, data: object) => world.write("home/.agent/settings.json", JSON.stringify(data));
const projectSettings = (world: MockWorld, data: object) => world.write("project/.agent/settings.json", JSON.stringify(data));

test("defaultProvider + defaultModel and defaultThinkingLevel choose the start-up model and level", async () => {
	await using world = await mockWorld();
	// Without settings: the first provider with a key, thinking off.
	const plain = await ask(world, []);
	expect([plain.protocol, plain.model, plain.body.reasoning_effort]).toEqual(["openai", "mock-model", undefined]);

	userSettings(world, { defaultProvider: "mock-anthropic", defaultModel: "mock-model", defaultThinkingLevel: "low" });
	const chosen = await ask(world, []);
	expect([chosen.protocol, chosen.model, chosen.stderr]).toEqual(["anthropic", "mock-model", ""]);
	expect(chosen.body.thinking?.type).toBe("enabled");

	// `defaultModel` alone as provider/id; the level is clamped to the model (mock-reasoner has no xhigh/max).
	userSettings(world, { defaultModel: "mock/mock-reasoner", defaultThinkingLevel: "max" });
	const reasoner = await ask(world, []);
	expect([reasoner.protocol, reasoner.model, reasoner.body.reasoning_effort]).toEqual(["openai", "mock-reasoner", "high"]);

	// `defaultProvider` alone: that provider's default model.
	userSettings(world, { defaultProvider: "mock-anthropic" });
	expect((await ask(world, [])).protocol).toBe("anthropic");
}, T);

test("flags win over settings", async () => {
	await using world = await mockWorld();
	userSettings(world, { defaultModel: "mock/mock-reasoner", defaultThinkingLevel: "high" });
	const flagged = await ask(world, ["--model", MODEL.anthropic]);
	expect([flagged.protocol, flagged.model, flagged.body.thinking?.budget_tokens]).toEqual(["anthropic", "mock-model", 3072]);
	expect((await ask(world, ["--provider", "mock-anthropic"])).protocol).toBe("anthropic");
	expect((await ask(world, ["--thinking", "low"])).body.reasoning_effort).toBe("low");
	expect((await ask(world, ["--model", "mock/mock-reasoner:medium"])).body.reasoning_effort).toBe("medium");
}, T);

test("project settings win over user settings in a trusted folder and are ignored in an untrusted one", async () => {
	await using world = await mockWorld();
	userSettings(world, { defaultModel: "mock/mock-reasoner", defaultThinkingLevel: "low" });
	projectSettings(world, { defaultModel: MODEL.anthropic, defaultThinkingLevel: "off" });
	const untrusted = await ask(world, []);
	expect([untrusted.protocol, untrusted.model, untrusted.body.reasoning_effort]).toEqual(["openai", "mock-reasoner", "low"]);

	expect((await world.run(["trust"])).code).toBe(0);
	const trusted = await ask(world, []);
	expect([trusted.protocol, trusted.body.thinking]).toEqual(["anthropic", undefined]);
	// Key by key: the project's level with the user's model.
	projectSettings(world, { defaultThinkingLevel: "medium" });
	const mixed = await ask(world, []);
	expect([mixed.model, mixed.body.reasoning_effort]).toEqual(["mock-reasoner", "medium"]);
}, T);

test("a resumed session keeps its model and level; settings choose only for a new one", async () => {
	await using world = await mockWorld();
	world.mock.script({ text: "one" });
	expect((await world.run(["-ne", "--model", MODEL.anthropic, "-p", "one"])).code).toBe(0);
	userSettings(world, { defaultModel: "mock/mock-reasoner", defaultThinkingLevel: "high" });
	world.mock.script({ text: "two" });
	expect((await world.run(["-ne", "-c", "-p", "two"])).code).toBe(0);
	const resumed = world.mock.lastRequest();
	expect([resumed.protocol, resumed.body.thinking]).toEqual(["anthropic", undefined]);
	// A new session takes the settings.
	const fresh = await ask(world, []);
	expect([fresh.model, fresh.body.reasoning_effort]).toEqual(["mock-reasoner", "high"]);
}, T);

test("a default that cannot be used falls back with a one-line warning naming the setting and the file", async () => {
	await using world = await mockWorld();
	const file = join(world.agentDir, "settings.json");
	userSettings(world, { defaultModel: "nowhere/nothing-like-this" });
	const unknown = await ask(world, []);
	expect(unknown.model).toBe("mock-model");
	expect(unknown.stderr.trim().split("\n")).toHaveLength(1);
	expect(unknown.stderr).toContain(`"defaultModel" in ${file}`);
	expect(unknown.stderr).toContain('No model matches "nowhere/nothing-like-this"');

	userSettings(world, { defaultProvider: "no-such-provider" });
	const provider = await ask(world, []);
	expect(provider.protocol).toBe("openai");
	expect(provider.stderr).toContain(`"defaultProvider" in ${file}`);
	expect(provider.stderr).toContain('Unknown provider "no-such-provider"');
}, T);

test("a bad value is reported with the file and the key", async () => {
	await using world = await mockWorld();
	const file = join(world.agentDir, "settings.json");
	for (const [data, key, words] of [
		[{ defaultThinkingLevel: "hard" }, "defaultThinkingLevel", '"off", "minimal", "low", "medium", "high", "xhigh", "max", not "hard"'],
		[{ defaultModel: 42 }, "defaultModel", "a non-empty string, not 42"],
		[{ defaultProvider: ["mock"] }, "defaultProvider", 'a non-empty string, not ["mock"]'],
	] as const) {
		userSettings(world, data);
		const r = await world.run(["-ne", "--no-session", "-p", "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain(`"${key}" in ${file} must be`);
		expect(r.stderr).toContain(words);
		expect(r.stderr).not.toContain("    at ");
	}
}, T);
