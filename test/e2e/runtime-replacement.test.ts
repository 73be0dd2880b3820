// Session replacement as pi 1.6 does it (issue 13): newSession, fork and switchSession run the
// factories again on the modules already evaluated (pi: moduleLoads 1, factoryRuns 2); ctx.reload()
// still evaluates the entry and its helpers again.
import { expect, test } from "bun:test";
import { runWith, writeExtension } from "../support/runtime.ts";
import { mockWorld } from "../support/world.ts";

test("newSession, fork and switchSession re-run the factory without evaluating the module again; reload evaluates it again", async () => {
	await using world = await mockWorld();
	world.write("project/helper.ts", `export const helperLoads = ((globalThis as any).__helperLoads = ((globalThis as any).__helperLoads ?? 0) + 1);\n`);
	const ext = writeExtension(
		world,
		"counted",
		`import { helperLoads } from "./helper.ts";
const g = globalThis as any;
g.__moduleLoads = (g.__moduleLoads ?? 0) + 1;
export default function (pi) {
	g.__factoryRuns = (g.__factoryRuns ?? 0) + 1;
	pi.on("session_start", (e) => log([e.reason, g.__moduleLoads, g.__factoryRuns, helperLoads]));
	pi.registerCommand("fresh", { handler: async (_a, ctx) => { await ctx.newSession(); } });
	pi.registerCommand("branch", { handler: async (_a, ctx) => { const first = ctx.sessionManager.getEntries().find((e) => e.type === "message"); await ctx.fork(first.id); } });
	pi.registerCommand("back", { handler: async (_a, ctx) => { await ctx.switchSession(process.env.FIRST_SESSION ?? ctx.sessionManager.getSessionFile()); } });
	pi.registerCommand("again", { handler: async (_a, ctx) => { await ctx.reload(); } });
}
`,
	);
	world.mock.script({ text: "one" }, { text: "two" });
	const r = await runWith(world, [ext], ["hi", "/fresh", "hello", "/branch", "/back", "/again"], { mode: "print" });
	expect(r.stderr).toBe("");
	expect(r.code).toBe(0);
	expect(r.log).toEqual([
		["startup", 1, 1, 1],
		["new", 1, 2, 1],
		["fork", 1, 3, 1],
		["resume", 1, 4, 1],
		["reload", 2, 5, 2],
	]);
});
