// Reload through a command calling ctx.reload() in the compiled binary (SPEC §5): session_shutdown
// and session_start {reason: "reload"}, stale old pi/ctx, old bus listeners gone, edited files and
// helpers taking effect, new files found, and load errors after start-up reported while the
// session goes on.
import { describe, expect, test } from "bun:test";
import { PRELUDE, readLog, STALE, writeExtension } from "../support/runtime.ts";
import { MODEL, mockWorld } from "../support/world.ts";

describe("ctx.reload()", () => {
	test("edited file and helper take effect; old pi and ctx are stale; old bus listeners are gone; reason reload", async () => {
		await using world = await mockWorld();
		world.write("project/helper.ts", `export const version = "helper v1";\n`);
		const main = (v: string) => `import { writeFileSync } from "node:fs";
import { version } from "./helper.ts";
export default function (pi) {
	log("factory", "${v}", version);
	pi.events.on("ping", (data) => log("ping heard by ${v}", data));
	pi.on("session_start", (e) => log("start ${v}", e.reason));
	pi.on("session_shutdown", (e) => log("shutdown ${v}", e.reason));
	pi.registerCommand("upgrade", {
		handler: async (_a, ctx) => {
			writeFileSync(process.env.MAIN_FILE, process.env.MAIN_V2);
			writeFileSync(process.env.HELPER_FILE, 'export const version = "helper v2";\\n');
			await ctx.reload();
			for (const probe of [() => ctx.cwd, () => ctx.ui, () => pi.getActiveTools(), () => pi.events.emit("ping", 0)]) {
				try { probe(); log("alive?"); } catch (error) { log(error.message === ${JSON.stringify(STALE)} ? "stale" : error.message); }
			}
		},
	});
	pi.registerCommand("ping", { handler: async () => pi.events.emit("ping", "${v}") });
}
`;
		const ext = writeExtension(world, "main", main("v1"));
		const r = await world.run(["-ne", "-e", ext, "--model", MODEL.openai, "-p", "/ping", "/upgrade", "/ping"], {
			env: {
				EXT_LOG: `${world.root}/ext-log.jsonl`,
				MAIN_FILE: `${world.cwd}/main.ts`,
				MAIN_V2: PRELUDE + main("v2"),
				HELPER_FILE: `${world.cwd}/helper.ts`,
			},
		});
		expect(r).toMatchObject({ stdout: "", stderr: "", code: 0 });
		expect(readLog(world)).toEqual([
			["factory", "v1", "helper v1"],
			["start v1", "startup"],
			["ping heard by v1", "v1"],
			["shutdown v1", "reload"],
			["factory", "v2", "helper v2"],
			["start v2", "reload"],
			"stale",
			"stale",
			"stale",
			"stale",
			["ping heard by v2", "v2"],
			["shutdown v2", "quit"],
		]);
	});

	test("a new file is found on reload; a broken one is reported and the session goes on with what loaded", async () => {
		await using world = await mockWorld();
		world.write(
			"home/.agent/extensions/reloader.ts",
			`${PRELUDE}import { writeFileSync } from "node:fs";
export default function (pi) {
	pi.on("session_start", (e) => log("reloader start", e.reason));
	pi.registerCommand("grow", {
		handler: async (_a, ctx) => {
			writeFileSync(process.env.NEW_FILE, process.env.NEW_SOURCE);
			writeFileSync(process.env.BROKEN_FILE, "export default function ( {\\n");
			await ctx.reload();
		},
	});
}
`,
		);
		const newFile = `${world.agentDir}/extensions/added.ts`;
		const brokenFile = `${world.agentDir}/extensions/broken.ts`;
		world.mock.script({ text: "still here" });
		const r = await world.run(["--model", MODEL.openai, "-p", "/grow", "/added", "hello"], {
			env: {
				EXT_LOG: `${world.root}/ext-log.jsonl`,
				NEW_FILE: newFile,
				NEW_SOURCE: `${PRELUDE}export default (pi) => { log("added loaded"); pi.registerCommand("added", { handler: async () => log("added ran") }); };\n`,
				BROKEN_FILE: brokenFile,
			},
		});
		expect(r.stderr).toMatch(new RegExp(`^Extension error \\(${brokenFile}\\): Failed to load extension "${brokenFile}": Syntax error at ${brokenFile}:1:\\d+: .+\\n$`));
		expect(r).toMatchObject({ stdout: "still here\n", code: 0 });
		expect(readLog(world)).toEqual([["reloader start", "startup"], "added loaded", ["reloader start", "reload"], "added ran"]);
		expect(world.mock.requests.length).toBe(1);
	});

	test("tools come back: an extension override of a built-in is dropped when the reloaded file stops registering it", async () => {
		await using world = await mockWorld();
		const source = (override: boolean) => `${PRELUDE}import { Type } from "typebox";
import { writeFileSync } from "node:fs";
export default function (pi) {
	${override ? `pi.registerTool({ name: "read", label: "R", description: "overridden read", parameters: Type.Object({}), execute: async () => ({ content: [], details: {} }) });` : ""}
	pi.registerTool({ name: "extra", label: "E", description: "extra tool", parameters: Type.Object({}), execute: async () => ({ content: [], details: {} }) });
	pi.registerCommand("swap", { handler: async (_a, ctx) => { writeFileSync(process.env.SELF, process.env.NEXT); await ctx.reload(); } });
}
`;
		world.write("project/swap.ts", source(true));
		world.mock.script({ text: "a" }, { text: "b" });
		const r = await world.run(["-ne", "-e", "./swap.ts", "--model", MODEL.openai, "--tools", "read,extra", "-p", "one", "/swap", "two"], {
			env: { EXT_LOG: `${world.root}/ext-log.jsonl`, SELF: `${world.cwd}/swap.ts`, NEXT: source(false) },
		});
		expect(r.code).toBe(0);
		const [before, after] = world.mock.requests.map((q) => q.body.tools.map((t: any) => `${t.function.name}: ${t.function.description.split("\n")[0]}`));
		expect(before).toEqual(["read: overridden read", "extra: extra tool"]);
		expect(after![0]).toMatch(/^read: Read /);
		expect(after!.slice(1)).toEqual(["extra: extra tool"]);
	});
});
