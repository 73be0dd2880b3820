// ctx.modelRegistry.complete (pi 1.6's, used by its handoff, qna and summarize examples): one request
// with the session's keys, its final message returned; `cacheRetention: "none"` sends Anthropic no
// cache markers, the default marks the system prompt and the newest user turn; `reasoningEffort`
// (pi-ai's per-API name) sets the reasoning level unless `reasoning` does.
import { expect, test } from "bun:test";
import { runWith, writeExtension } from "../support/runtime.ts";
import { mockWorld } from "../support/world.ts";

test("modelRegistry.complete returns the model's answer; cacheRetention none drops cache_control", async () => {
	await using world = await mockWorld();
	const ext = writeExtension(
		world,
		"ask",
		`export default function (pi) {
	pi.registerCommand("ask", {
		handler: async (_args, ctx) => {
			const model = ctx.modelRegistry.find("mock-anthropic", "mock-model");
			const context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: [{ type: "text", text: "q" }], timestamp: Date.now() }] };
			for (const options of [{ cacheRetention: "none" }, {}]) {
				const answer = await ctx.modelRegistry.complete(model, context, options);
				log([answer.stopReason, answer.content.filter((c) => c.type === "text").map((c) => c.text).join("")]);
			}
		},
	});
}
`,
	);
	world.mock.script({ text: "first" }, { text: "second" });
	const r = await runWith(world, [ext], ["/ask"], { mode: "print" });
	expect(r.stderr).toBe("");
	expect(r.code).toBe(0);
	expect(r.log).toEqual([
		["stop", "first"],
		["stop", "second"],
	]);
	const [none, normal] = world.mock.requests.map((request) => JSON.stringify(request.body));
	expect(world.mock.requests.map((request) => [request.path, request.headers.authorization])).toEqual([
		["/v1/messages", "Bearer test-key"],
		["/v1/messages", "Bearer test-key"],
	]);
	expect(none).not.toContain("cache_control");
	expect(normal).toContain("cache_control");
});

test("modelRegistry.complete takes pi-ai's reasoningEffort as the request's reasoning level", async () => {
	await using world = await mockWorld();
	const ext = writeExtension(
		world,
		"think",
		`export default function (pi) {
	pi.registerCommand("think", {
		handler: async (_args, ctx) => {
			const model = ctx.modelRegistry.find("mock", "mock-reasoner");
			const context = { messages: [{ role: "user", content: "q", timestamp: Date.now() }] };
			for (const options of [{ reasoningEffort: "high" }, { reasoningEffort: "high", reasoning: "low" }, {}]) {
				log((await ctx.modelRegistry.complete(model, context, options)).stopReason);
			}
		},
	});
}
`,
	);
	world.mock.script({ text: "a" }, { text: "b" }, { text: "c" });
	const r = await runWith(world, [ext], ["/think"], { mode: "print" });
	expect(r.stderr).toBe("");
	expect(r.log).toEqual(["stop", "stop", "stop"]);
	expect(world.mock.requests.map((request) => request.body.reasoning_effort)).toEqual(["high", "low", undefined]);
});
