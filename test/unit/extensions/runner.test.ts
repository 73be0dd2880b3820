// The dispatch kinds: order, snapshots, error reporting, chain folding, first-wins, aggregate.
import { describe, expect, test } from "bun:test";
import { ExtensionRunner, type EventHandler, type ExtensionErrorReport } from "../../../src/core/extensions/runner.ts";

function make(exts: Record<string, Record<string, EventHandler[]>>) {
	const errors: ExtensionErrorReport[] = [];
	const sources = Object.entries(exts).map(([path, h]) => ({ path, handlers: new Map(Object.entries(h)) }));
	const runner = new ExtensionRunner(sources, () => ({ ctx: true }), (e) => errors.push(e));
	return { runner, errors, sources };
}

describe("ExtensionRunner", () => {
	test("observe: load order then registration order; a throw is reported and the next runs", async () => {
		const calls: string[] = [];
		const { runner, errors } = make({
			"/a.ts": { agent_start: [() => calls.push("a1"), () => { throw new Error("bad a2"); }, () => calls.push("a3")] },
			"/b.ts": { agent_start: [(e, ctx) => calls.push(`b1 ${e.type} ${ctx.ctx}`)] },
		});
		await runner.emit("agent_start", {});
		expect(calls).toEqual(["a1", "a3", "b1 agent_start true"]);
		expect(errors.map((e) => [e.extensionPath, e.event, e.error])).toEqual([["/a.ts", "agent_start", "bad a2"]]);
		expect(errors[0]!.stack).toContain("bad a2");
	});

	test("has() is false with no handlers and the context is never built", async () => {
		let built = 0;
		const runner = new ExtensionRunner([{ path: "/a.ts", handlers: new Map() }], () => built++, () => {});
		expect(runner.has("context")).toBe(false);
		await runner.emit("turn_start", {});
		expect(built).toBe(0);
	});

	test("a dispatch runs on the snapshot taken when it starts", async () => {
		const calls: string[] = [];
		const list: EventHandler[] = [];
		list.push(() => {
			calls.push("first");
			list.push(() => calls.push("added"));
		});
		const { runner } = make({ "/a.ts": { turn_start: list } });
		await runner.emit("turn_start", {});
		expect(calls).toEqual(["first"]);
		await runner.emit("turn_start", {});
		expect(calls).toEqual(["first", "first", "added"]);
	});

	test("chain: each handler sees the previous result", async () => {
		const seen: number[] = [];
		const { runner } = make({
			"/a.ts": { before_provider_request: [(e) => { seen.push(e.payload.n); return { n: e.payload.n + 1 }; }] },
			"/b.ts": { before_provider_request: [(e) => { seen.push(e.payload.n); return undefined; }, (e) => ({ n: e.payload.n * 10 })] },
		});
		const out = await runner.chain("before_provider_request", { payload: { n: 1 } }, (p, r) => ({ ...p, payload: r }));
		expect(seen).toEqual([1, 2]);
		expect(out.payload).toEqual({ n: 20 });
	});

	test("first: the first decisive result stops; rethrow propagates after reporting", async () => {
		const calls: string[] = [];
		const { runner, errors } = make({
			"/a.ts": { tool_call: [() => { calls.push("a"); return { block: false }; }] },
			"/b.ts": { tool_call: [() => { calls.push("b"); return { block: true, reason: "no" }; }, () => calls.push("c")] },
		});
		const r = await runner.first<{ block: boolean }>("tool_call", {}, (res) => (res.block ? "stop" : "ignore"));
		expect(r).toEqual({ block: true, reason: "no" } as any);
		expect(calls).toEqual(["a", "b"]);
		const t = make({ "/t.ts": { tool_call: [() => { throw new Error("crash"); }] } });
		await expect(t.runner.first("tool_call", {}, () => "stop", { rethrow: true })).rejects.toThrow("crash");
		expect(t.errors.map((e) => e.error)).toEqual(["crash"]);
		expect(errors).toEqual([]);
	});

	test("aggregate: all results collected; the payload can be chained through onResult", async () => {
		const seen: string[] = [];
		const { runner } = make({
			"/a.ts": { before_agent_start: [(e) => { seen.push(e.systemPrompt); return { systemPrompt: `${e.systemPrompt}+a`, message: "m1" }; }] },
			"/b.ts": { before_agent_start: [(e) => { seen.push(e.systemPrompt); return { message: "m2" }; }] },
		});
		const out = await runner.collect<{ systemPrompt?: string; message?: string }>("before_agent_start", { systemPrompt: "base" }, (r, _p, payload) => {
			if (r.systemPrompt) payload.systemPrompt = r.systemPrompt;
		});
		expect(seen).toEqual(["base", "base+a"]);
		expect(out.map((o) => o.result.message)).toEqual(["m1", "m2"]);
	});
});
