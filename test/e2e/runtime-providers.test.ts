// pi 1.6 parity for providers and models (issue 13): registerProvider after bind re-points the
// active model, the one-argument registerProvider(provider) form, a malformed config as a load
// error, pi 1.6's registerVirtualModel (pi's own jev-router example, state on the session branch),
// unregisterVirtualModel, pi.getSettings() and ctx.scopedModels as { model, thinkingLevel }.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { startMockLlm } from "../support/mock-llm.ts";
import { runWith, writeExtension } from "../support/runtime.ts";
import { mockWorld, readSessionLines, type MockWorld } from "../support/world.ts";

const EXAMPLES = resolve(import.meta.dir, "../../node_modules/@earendil-works/pi-coding-agent/examples/extensions");

/** models.json with the mock providers plus `extra`. */
function addProviders(world: MockWorld, extra: Record<string, unknown>): void {
	const path = "home/.agent/models.json";
	const json = JSON.parse(readFileSync(`${world.root}/${path}`, "utf8"));
	Object.assign(json.providers, extra);
	world.write(path, JSON.stringify(json));
}

describe("registerProvider", () => {
	test("re-registering the active model's provider after bind (a proxy's key and headers) is what the request uses", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"proxy",
			`export default function (pi) {
	pi.on("session_start", () => pi.registerProvider("mock", { apiKey: "proxy-key", headers: { "x-proxy": "on" } }));
}
`,
		);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [ext], ["hi"], { mode: "print" });
		expect(r).toMatchObject({ code: 0, stdout: "ok\n", stderr: "" });
		const request = world.mock.requests[0]!;
		expect(request.headers.authorization).toBe("Bearer proxy-key");
		expect(request.headers["x-proxy"]).toBe("on");
		// Only what it named changed: still the mock's model and endpoint.
		expect(request.body.model).toBe("mock-model");
	});

	test("re-pointing the active model's provider at a proxy after bind (baseUrl) sends the request there", async () => {
		await using world = await mockWorld();
		await using proxy = await startMockLlm();
		const ext = writeExtension(world, "repoint", `export default function (pi) { pi.on("session_start", () => pi.registerProvider("mock", { baseUrl: process.env.PROXY_URL })); }\n`);
		proxy.script({ text: "via the proxy" });
		const r = await runWith(world, [ext], ["hi"], { mode: "print", env: { PROXY_URL: proxy.openaiBaseUrl } });
		expect(r).toMatchObject({ code: 0, stdout: "via the proxy\n", stderr: "" });
		expect(world.mock.requests.length).toBe(0);
		expect(proxy.requests.map((q) => [q.path, q.body.model])).toEqual([["/v1/chat/completions", "mock-model"]]);
	});

	test("the one-argument form: a pi-ai Provider object with getModels, streamSimple and auth serves --model", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"native",
			`import { openAICompletionsApi } from "@earendil-works/pi-ai";
export default function (pi) {
	const api = openAICompletionsApi();
	pi.registerProvider({
		id: "native",
		name: "Native",
		auth: { apiKey: { resolve: async ({ ctx }) => ({ auth: { apiKey: await ctx.env("NATIVE_KEY") } }) } },
		getModels: () => [{ id: "n1", name: "N1", api: "openai-completions", provider: "native", baseUrl: process.env.MOCK_URL,
			reasoning: false, input: ["text"], cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }, contextWindow: 1000, maxTokens: 100 }],
		streamSimple: (model, context, options) => {
			log({ system: context.messages?.[0]?.role ?? typeof context.systemPrompt, key: options?.apiKey });
			return api.streamSimple(model, context, options);
		},
	});
}
`,
		);
		world.mock.script({ text: "native ok" });
		const r = await runWith(world, [ext], ["hi"], { mode: "print", model: "native/n1", env: { MOCK_URL: world.mock.openaiBaseUrl, NATIVE_KEY: "nk-1" } });
		expect(r).toMatchObject({ code: 0, stdout: "native ok\n", stderr: "" });
		expect(world.mock.requests[0]!.body.model).toBe("n1");
		expect(world.mock.requests[0]!.headers.authorization).toBe("Bearer nk-1");
		expect(r.log).toEqual([{ system: "system", key: "nk-1" }]);
	});

	test("a malformed provider config is a load error naming the extension file, never an internal error", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "badprov", `export default function (pi) { pi.registerProvider("broken", { baseUrl: 42, models: "none" }); }\n`);
		const r = await runWith(world, [ext], ["hi"], { mode: "print" });
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("badprov.ts");
		expect(r.stderr).toContain('registerProvider("broken")');
		expect(r.stderr).not.toContain("Internal error");
		expect(r.stderr).not.toMatch(/\n\s+at /);
		expect(world.mock.requests.length).toBe(0);
	});
});

describe("registerVirtualModel (pi 1.6's shape)", () => {
	const codex = { "openai-codex": { baseUrl: "", api: "openai-completions", apiKey: "test-key", models: [{ id: "gpt-5.6-sol" }, { id: "gpt-5.6-terra" }, { id: "gpt-5.6-luna" }] } };

	test("pi's jev-router: plans on terra, implements on luna after the first write, its state on the session branch; -c carries on with luna", async () => {
		await using world = await mockWorld();
		addProviders(world, { "openai-codex": { ...codex["openai-codex"], baseUrl: world.mock.openaiBaseUrl } });
		world.write("project/jev-router.ts", readFileSync(`${EXAMPLES}/jev-router.ts`, "utf8"));
		world.mock.script({ toolCalls: [{ name: "write", arguments: { path: "x.txt", content: "x\n" }, id: "call_1" }] }, { text: "done" }, { text: "again" });
		const r = await world.run(["-ne", "-e", "./jev-router.ts", "--model", "jev/auto", "-p", "fix it"]);
		expect(r).toEqual({ code: 0, stdout: "done\n", stderr: "" });
		expect(world.mock.requests.map((q) => q.body.model)).toEqual(["gpt-5.6-terra", "gpt-5.6-luna"]);
		const states = () =>
			readSessionLines(world.onlySessionFile())
				.filter((e) => e.type === "custom")
				.map((e) => [e.customType, e.data]);
		expect(states()).toEqual([
			["pi.virtual-model-state", { provider: "jev", modelId: "auto", state: { phase: "planning", model: "gpt-5.6-terra" } }],
			["pi.virtual-model-state", { provider: "jev", modelId: "auto", state: { phase: "implementation", model: "gpt-5.6-luna" } }],
		]);
		const model = readSessionLines(world.onlySessionFile()).find((e) => e.type === "model_change");
		expect(model).toMatchObject({ provider: "jev", modelId: "auto" });
		// The state is read back from the branch: the next prompt goes straight to luna, no new state.
		const again = await world.run(["-ne", "-e", "./jev-router.ts", "-c", "-p", "more"]);
		expect(again).toEqual({ code: 0, stdout: "again\n", stderr: "" });
		expect(world.mock.requests[2]!.body.model).toBe("gpt-5.6-luna");
		expect(states().length).toBe(2);
	});

	test("route() picks the level, unregisterVirtualModel removes it, a route to nothing is a clear error", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"router",
			`export default function (pi) {
	pi.registerVirtualModel({
		provider: "mock", id: "auto", name: "Auto", thinkingLevels: ["low", "high"],
		route(request, ctx) {
			log({ reason: request.reason, level: request.thinkingLevel, model: request.model.id });
			if (process.env.ROUTE_NOWHERE) return undefined;
			return { model: ctx.modelRegistry.find("mock", "mock-reasoner"), thinkingLevel: "low" };
		},
	});
	pi.registerCommand("drop", { handler: async (_a, ctx) => { pi.unregisterVirtualModel("mock", "auto"); log(ctx.modelRegistry.find("mock", "auto") === undefined); } });
}
`,
		);
		world.mock.script({ text: "routed" });
		const r = await runWith(world, [ext], ["hi", "/drop"], { mode: "print", model: "mock/auto:high" });
		expect(r).toMatchObject({ code: 0, stdout: "routed\n", stderr: "" });
		expect(world.mock.requests[0]!.body.model).toBe("mock-reasoner");
		expect(world.mock.requests[0]!.body.reasoning_effort).toBe("low");
		expect(r.log).toEqual([{ reason: "user", level: "high", model: "auto" }, true]);
		const bad = await runWith(world, [ext], ["hi"], { mode: "print", model: "mock/auto", env: { ROUTE_NOWHERE: "1" } });
		expect(bad.code).toBe(1);
		expect(bad.stderr).toContain("Virtual model mock/auto could not route the request: route() must return { model, thinkingLevel }");
	});
});

describe("--list-models", () => {
	test("lists the providers and virtual models extensions register", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"listed",
			`export default function (pi) {
	pi.registerProvider("myprov", { baseUrl: "http://127.0.0.1:9/v1", api: "openai-completions", apiKey: "k", models: [{ id: "m1", contextWindow: 8000, maxTokens: 1000 }] });
	pi.registerVirtualModel({ provider: "router", id: "auto", contextWindow: 64000, maxTokens: 2000, thinkingLevels: ["low", "high"], route: (r, ctx) => ({ model: ctx.modelRegistry.find("mock", "mock-model") }) });
}
`,
		);
		const r = await world.run(["-ne", "-e", ext, "--list-models"]);
		expect(r.code).toBe(0);
		const rows = r.stdout.split("\n").map((l) => l.trim().split(/\s+/));
		expect(rows).toContainEqual(["myprov", "m1", "8K", "1K", "no", "no"]);
		expect(rows).toContainEqual(["router", "auto", "64K", "2K", "yes", "yes"]);
		expect(rows).toContainEqual(["mock", "mock-model", "100K", "4K", "no", "no"]);
	});
});

describe("settings and scoped models", () => {
	test("pi.getSettings() is a copy of the settings in force; ctx.scopedModels are { model, thinkingLevel }", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/settings.json", JSON.stringify({ quietStartup: true, compaction: { reserveTokens: 1234 } }));
		const ext = writeExtension(
			world,
			"settings",
			`export default function (pi) {
	pi.on("session_start", (_e, ctx) => {
		const s = pi.getSettings();
		s.quietStartup = false;
		log({ quiet: pi.getSettings().quietStartup, reserve: s.compaction.reserveTokens, scoped: ctx.scopedModels.map((m) => [m.model.provider + "/" + m.model.id, m.thinkingLevel ?? null]) });
	});
}
`,
		);
		world.mock.script({ text: "ok" });
		const r = await runWith(world, [ext], ["hi"], { mode: "print", args: ["--models", "mock/mock-reasoner:high,mock-anthropic/mock-model"] });
		expect(r).toMatchObject({ code: 0, stdout: "ok\n" });
		expect(r.log).toEqual([{ quiet: true, reserve: 1234, scoped: [["mock/mock-reasoner", "high"], ["mock-anthropic/mock-model", null]] }]);
	});
});
