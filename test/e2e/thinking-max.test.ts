// pi 1.6's "max" thinking level through the binary: --help names it, --thinking max reaches the
// request on a model that maps it (OpenAI reasoning_effort, Anthropic adaptive effort) and is clamped
// to the nearest level on one that does not, the RPC level commands offer it only where the model has
// it, and pi's preset.ts applies a "max" preset.
import { expect, test } from "bun:test";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { RpcAgent } from "../support/rpc.ts";
import { mockWorld, type MockWorld } from "../support/world.ts";

const T = 30_000;
const EXTENDED = { xhigh: "xhigh", max: "max" };
const PRESET = join(import.meta.dir, "../../node_modules/@earendil-works/pi-coding-agent/examples/extensions/preset.ts");

/** The mock providers with models that map the extended levels: "deep" (both), "wide" (xhigh only), "claude" (adaptive). */
function withExtendedModels(world: MockWorld): void {
	world.write(
		"home/.agent/models.json",
		JSON.stringify({
			providers: {
				mock: {
					baseUrl: world.mock.openaiBaseUrl,
					api: "openai-completions",
					apiKey: "k",
					models: [
						{ id: "mock-reasoner", maxTokens: 4096, reasoning: true },
						{ id: "deep", maxTokens: 4096, reasoning: true, thinkingLevelMap: EXTENDED },
						{ id: "wide", maxTokens: 4096, reasoning: true, thinkingLevelMap: { xhigh: "xhigh" } },
					],
				},
				"mock-anthropic": {
					baseUrl: world.mock.anthropicBaseUrl,
					api: "anthropic-messages",
					apiKey: "k",
					models: [
						{ id: "mock-model", maxTokens: 4096, reasoning: true },
						{ id: "claude", maxTokens: 4096, reasoning: true, thinkingLevelMap: EXTENDED, compat: { thinkingFormat: "adaptive" } },
					],
				},
			},
		}),
	);
}

/** The request a print-mode run sent; `stderr` is what the run must have said there. */
async function ask(world: MockWorld, args: string[], stderr = ""): Promise<Record<string, any>> {
	world.mock.script({ text: "ok" });
	const r = await world.run(["-ne", "--no-session", ...args, "-p", "think"]);
	expect(r.stderr).toBe(stderr);
	expect(r.code).toBe(0);
	return world.mock.lastRequest().body;
}

test("--help lists max among the thinking levels", async () => {
	await using world = await mockWorld();
	const r = await world.run(["--help"]);
	expect(r.code).toBe(0);
	expect(r.stdout).toContain("Thinking level: off, minimal, low, medium, high, xhigh, max");
});

test("--thinking max: sent as max where the model maps it, else the nearest level it has", async () => {
	await using world = await mockWorld();
	withExtendedModels(world);
	expect((await ask(world, ["--model", "mock/deep", "--thinking", "max"])).reasoning_effort).toBe("max");
	expect((await ask(world, ["--model", "mock/deep:max"])).reasoning_effort).toBe("max");
	// Down to xhigh where that is the top, to high where neither extended level exists.
	expect((await ask(world, ["--model", "mock/wide", "--thinking", "max"])).reasoning_effort).toBe("xhigh");
	expect((await ask(world, ["--model", "mock/mock-reasoner", "--thinking", "max"])).reasoning_effort).toBe("high");
	const adaptive = await ask(world, ["--model", "mock-anthropic/claude", "--thinking", "max"]);
	expect({ thinking: adaptive.thinking, output_config: adaptive.output_config }).toEqual({ thinking: { type: "adaptive" }, output_config: { effort: "max" } });
	// A budget model: max thinks as high does (16384, cut to leave 1024 of max_tokens 4096 for the answer).
	expect((await ask(world, ["--model", "mock-anthropic/mock-model", "--thinking", "max"])).thinking).toEqual({ type: "enabled", budget_tokens: 3072 });
}, T);

test("rpc: levels offered per model, max set and cycled where it exists, clamped where it does not", async () => {
	await using world = await mockWorld();
	withExtendedModels(world);
	await using rpc = new RpcAgent(world, ["-ne", "--model", "mock/deep", "--no-session"]);
	const levels = async () => (await rpc.request({ type: "get_available_thinking_levels" })).data.levels;
	const level = async () => (await rpc.request({ type: "get_state" })).data.thinkingLevel;
	expect(await levels()).toEqual(["off", "minimal", "low", "medium", "high", "xhigh", "max"]);
	expect((await rpc.request({ type: "set_thinking_level", level: "max" })).success).toBe(true);
	expect(await level()).toBe("max");
	expect((await rpc.request({ type: "cycle_thinking_level" })).data).toEqual({ level: "off" });
	await rpc.request({ type: "set_thinking_level", level: "xhigh" });
	expect((await rpc.request({ type: "cycle_thinking_level" })).data).toEqual({ level: "max" });
	world.mock.script({ text: "ok" });
	const from = rpc.records.length;
	await rpc.request({ type: "prompt", message: "think" });
	await rpc.event("agent_end", from);
	expect(world.mock.lastRequest().body.reasoning_effort).toBe("max");

	await rpc.request({ type: "set_model", provider: "mock", modelId: "wide" });
	expect(await levels()).toEqual(["off", "minimal", "low", "medium", "high", "xhigh"]);
	expect(await level()).toBe("xhigh");
	await rpc.request({ type: "set_model", provider: "mock", modelId: "mock-reasoner" });
	expect(await levels()).toEqual(["off", "minimal", "low", "medium", "high"]);
	await rpc.request({ type: "set_thinking_level", level: "max" });
	expect(await level()).toBe("high");
	expect(await rpc.end()).toBe(0);
}, T);

test("pi's preset.ts: a preset with thinkingLevel max applies it (and is clamped on a model without it)", async () => {
	await using world = await mockWorld();
	withExtendedModels(world);
	world.write(
		"home/.agent/presets.json",
		JSON.stringify({
			deepest: { provider: "mock", model: "deep", thinkingLevel: "max" },
			older: { provider: "mock", model: "mock-reasoner", thinkingLevel: "max" },
		}),
	);
	const preset = join(world.root, "preset.ts");
	cpSync(PRESET, preset);
	expect((await ask(world, ["-e", preset, "--model", "mock/mock-reasoner", "--preset", "deepest"], 'Info: Preset "deepest" activated\n')).reasoning_effort).toBe("max");
	const older = await ask(world, ["-e", preset, "--model", "mock/deep", "--preset", "older"], 'Info: Preset "older" activated\n');
	expect([older.model, older.reasoning_effort]).toEqual(["mock-reasoner", "high"]);
}, T);
