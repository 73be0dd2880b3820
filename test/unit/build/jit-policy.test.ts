// The binary starts with a scaled-up JIT policy (scripts/build.ts); model requests (a print or json
// run's turns) leave it in place, and endStartup (the TUI, RPC) sets the normal one, once. Checked in
// a process of its own: the policy is per process.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "jit-policy-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const src = join(import.meta.dir, "../../../src");

test("model requests leave the start-up JIT policy; endStartup sets the normal one, once", () => {
	const script = join(dir, "run.ts");
	writeFileSync(
		script,
		`const calls: number[] = [];
const set = Bun.unsafe.setJITPolicy;
Bun.unsafe.setJITPolicy = (n: number) => { calls.push(n); set(n); };
const { ModelRegistry } = await import(${JSON.stringify(join(src, "core/providers/registry.ts"))});
const { endStartup, startupEnded } = await import(${JSON.stringify(join(src, "core/jit-policy.ts"))});
const registry = ModelRegistry.create({ agentDir: ${JSON.stringify(dir)}, env: {} });
const before = [startupEnded(), calls.length];
const model = { ...registry.getAll()[0], api: "no-such-api" };
const first = await registry.stream(model, { messages: [] }).result();
await registry.stream(model, { messages: [] }).result();
const afterRequests = [startupEnded(), calls.length];
endStartup();
endStartup();
console.log(JSON.stringify({ before, afterRequests, after: startupEnded(), calls, stop: first.stopReason }));
`,
	);
	const run = Bun.spawnSync([process.execPath, script], { env: { PATH: process.env.PATH, HOME: dir } });
	expect(run.stderr.toString()).toBe("");
	expect(JSON.parse(run.stdout.toString())).toEqual({ before: [false, 0], afterRequests: [false, 0], after: true, calls: [1], stop: "error" });
});
