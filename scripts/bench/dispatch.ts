// Dispatch: what an observe event costs per handler (1, 10 and 100 handlers), and what a loop hook
// costs when no extension listens, measured in-process from source. Floor: the same handlers called
// directly in a loop inside an async function. The runner gets a real host's context factory, so the
// ctx built per dispatch is counted. Goal (issue 5): ≤ 1 µs per handler over the floor.
//   bun scripts/bench/dispatch.ts [--runs 7] [--json]
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadExtensions } from "../../src/core/extensions/loader.ts";
import { createLoopHooks } from "../../src/core/extensions/loop-hooks.ts";
import { ExtensionRunner, type EventHandler } from "../../src/core/extensions/runner.ts";
import { ModelRegistry } from "../../src/core/providers/registry.ts";
import { createAgentSession } from "../../src/core/sdk.ts";
import type { AgentMessage } from "../../src/core/agent/messages.ts";
import { type Bench, benchMain, goal, loadAverage, median, result, type Table } from "./lib.ts";

const ITERATIONS = 20_000;

/** A host to build contexts with, in a throwaway folder (no model, no extensions, in-memory session). */
async function realContextFactory(): Promise<{ create: () => unknown; dispose: () => void }> {
	const dir = mkdtempSync(join(realpathSync(tmpdir()), "agent-bench-dispatch-"));
	const loaded = await loadExtensions([], { cwd: dir });
	const { host } = await createAgentSession({
		cwd: dir,
		registry: ModelRegistry.create({ agentDir: join(dir, ".agent"), env: {} }),
		allowNoModel: true,
		noContextFiles: true,
		session: { kind: "memory" },
		extensions: { loaded, entries: [], projectTrusted: false },
		onExtensionError: () => {},
	});
	return { create: () => host.createContext(), dispose: () => rmSync(dir, { recursive: true, force: true }) };
}

type Body = () => Promise<unknown> | unknown;

/** Nanoseconds per iteration of `body`, one timed batch. */
async function batch(body: Body): Promise<number> {
	const started = Bun.nanoseconds();
	for (let i = 0; i < ITERATIONS; i++) await body();
	return (Bun.nanoseconds() - started) / ITERATIONS;
}

/**
 * Median over RUNS of each body's time per iteration. Every body is warmed up first, and the runs
 * go round all bodies in turn, so JIT tiers and machine load hit them alike.
 */
async function measureAll(bodies: Body[], runs: number): Promise<number[]> {
	for (const body of bodies) await batch(body);
	const samples: number[][] = bodies.map(() => []);
	for (let run = 0; run < runs; run++) for (const [i, body] of bodies.entries()) samples[i]!.push(await batch(body));
	return samples.map(median);
}

let sink = 0;
const handler: EventHandler = (event) => {
	sink += event.turnIndex;
};

export const bench: Bench = async (o) => {
	const startLoad = loadAverage();
	const { create, dispose } = await realContextFactory();
	const rows: { name: string; handlers: number; dispatchNs: number; floorNs: number; perHandlerNs: number | null }[] = [];
	try {
		const counts = [1, 10, 100];
		const bodies: Body[] = [];
		for (const n of counts) {
			const handlers = Array.from({ length: n }, () => handler);
			const runner = new ExtensionRunner([{ path: "/bench.ts", handlers: new Map([["turn_start", handlers]]) }], create, () => {});
			const payload = { turnIndex: 1, timestamp: 0 };
			const ctx = create();
			bodies.push(() => runner.emit("turn_start", payload));
			bodies.push(async () => {
				const event = { type: "turn_start", ...payload };
				for (const h of handlers) h(event, ctx);
			});
		}
		// No listener for the event: what the loop pays per hook call (SPEC §6: check before building payloads).
		const idle = new ExtensionRunner([{ path: "/bench.ts", handlers: new Map([["agent_start", [handler]]]) }], create, () => {});
		const hooks = createLoopHooks(idle, { messages: () => [], preview: () => [], problem: () => undefined, applyDrafts: async () => false, hasQueuedMessages: () => false });
		const messages: AgentMessage[] = [{ role: "user", content: "hi", timestamp: 0 }];
		bodies.push(() => hooks.transformContext!(messages));
		bodies.push(() => idle.emit("turn_start", { turnIndex: 1, timestamp: 0 }));
		bodies.push(async () => messages);
		const ns = await measureAll(bodies, o.runs);
		for (const [i, n] of counts.entries()) {
			const dispatchNs = ns[2 * i]!;
			const floorNs = ns[2 * i + 1]!;
			rows.push({ name: `observe, ${n} handler${n === 1 ? "" : "s"}`, handlers: n, dispatchNs, floorNs, perHandlerNs: (dispatchNs - floorNs) / n });
		}
		const emptyAsyncNs = ns.at(-1)!;
		rows.push({ name: "no handlers: context hook", handlers: 0, dispatchNs: ns.at(-3)!, floorNs: emptyAsyncNs, perHandlerNs: null });
		rows.push({ name: "no handlers: observe emit", handlers: 0, dispatchNs: ns.at(-2)!, floorNs: emptyAsyncNs, perHandlerNs: null });
	} finally {
		dispose();
	}
	const us = (x: number) => `${(x / 1000).toFixed(2)} µs`;
	const table: Table = {
		title: `median of ${o.runs} batches × ${ITERATIONS} dispatches`,
		header: ["case", "dispatch", "floor", "over the floor"],
		rows: rows.map((r) => [r.name, us(r.dispatchNs), us(r.floorNs), r.perHandlerNs === null ? `${us(r.dispatchNs - r.floorNs)} per call` : `${us(r.perHandlerNs)} per handler`]),
		notes: ["floor: the same handlers called in a loop in an async function; with no handlers: an empty async call."],
	};
	if (sink < 0) console.log(sink);
	const worst = Math.max(...rows.filter((r) => r.perHandlerNs !== null).map((r) => r.perHandlerNs!));
	return result("dispatch", "In-process event dispatch through a real host's runner, from source.", o, startLoad, [table], [goal("observe dispatch over the floor, per handler (worst case)", worst / 1000, 1, "µs")]);
};

if (import.meta.main) await benchMain(bench, { runs: 7, agent: false });
