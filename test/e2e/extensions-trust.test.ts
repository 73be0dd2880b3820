// Trust through the binary, non-interactive (SPEC §4): the skip line, -a, -na, `agent trust`,
// `--revoke`, the nearest decided ancestor, trust-gated settings and the project_trust event.
import { describe, expect, test } from "bun:test";
import { realpathSync } from "node:fs";
import { join } from "node:path";
import { TempWorld } from "../support/agent.ts";
import { NO_MODEL } from "../support/messages.ts";

const SAY = (word: string) => `export default function () { console.error("loaded ${word}"); }\n`;

function projectWorld(): TempWorld {
	const world = new TempWorld();
	world.write("project/.agent/extensions/a.ts", SAY("a"));
	world.write("project/.agent/extensions/b/index.ts", SAY("b"));
	world.write("home/.agent/extensions/u.ts", SAY("u"));
	return world;
}

async function trustFile(world: TempWorld): Promise<Record<string, { trusted: boolean }>> {
	return (await Bun.file(join(world.agentDir, "trust.json")).json()).folders;
}

describe("non-interactive", () => {
	test("an undecided folder: project extensions skipped with one line; user ones load", async () => {
		await using world = projectWorld();
		const r = await world.run(["-p", "hi"]);
		const dir = join(world.cwd, ".agent/extensions");
		expect(r).toEqual({
			stdout: "",
			stderr: `loaded u\nSkipped 2 project extensions in ${dir}: folder not trusted (pass --approve or run "agent trust").\n${NO_MODEL}`,
			code: 1,
		});
		expect(await Bun.file(join(world.agentDir, "trust.json")).exists()).toBe(false);
	});

	test("piped stdin without -p is non-interactive too; one project extension is singular", async () => {
		await using world = new TempWorld();
		world.write("project/.agent/extensions/only.ts", SAY("only"));
		const r = await world.run([], { stdin: "hello" });
		expect(r.stderr).toBe(`Skipped 1 project extension in ${join(world.cwd, ".agent/extensions")}: folder not trusted (pass --approve or run "agent trust").\n${NO_MODEL}`);
	});

	test("-a loads project extensions for this run only, first; -na ignores them silently", async () => {
		await using world = projectWorld();
		expect((await world.run(["-a", "-p", "hi"])).stderr).toBe(`loaded a\nloaded b\nloaded u\n${NO_MODEL}`);
		expect(await Bun.file(join(world.agentDir, "trust.json")).exists()).toBe(false);
		expect((await world.run(["-na", "-p", "hi"])).stderr).toBe(`loaded u\n${NO_MODEL}`);
	});

	test("agent trust records the folder; agent trust --revoke records a no; -na wins over trust", async () => {
		await using world = projectWorld();
		const t = await world.run(["trust"]);
		expect(t).toEqual({
			stdout: `Trusted: ${world.cwd}. Its .agent/ extensions and settings will load, and those of folders inside it (saved in ~/.agent/trust.json).\n`,
			stderr: "",
			code: 0,
		});
		expect(await trustFile(world)).toEqual({ [world.cwd]: { trusted: true, decidedAt: expect.any(String) } as never });
		expect((await world.run(["-p", "hi"])).stderr).toBe(`loaded a\nloaded b\nloaded u\n${NO_MODEL}`);
		expect((await world.run(["-na", "-p", "hi"])).stderr).toBe(`loaded u\n${NO_MODEL}`);
		const revoke = await world.run(["trust", "--revoke", "."]);
		expect(revoke.stdout).toBe(`No longer trusted: ${world.cwd}. Its .agent/ extensions and settings will not load (saved in ~/.agent/trust.json).\n`);
		expect((await trustFile(world))[world.cwd]!.trusted).toBe(false);
		expect((await world.run(["-p", "hi"])).stderr).toContain("Skipped 2 project extensions");
	});

	test("the nearest decided ancestor applies, keyed by real path", async () => {
		await using world = new TempWorld();
		const sub = join(world.cwd, "pkg/app");
		world.write("project/pkg/app/.agent/extensions/x.ts", SAY("x"));
		expect((await world.run(["trust", world.root])).code).toBe(0);
		expect((await world.run(["-p", "hi"], { cwd: sub })).stderr).toBe(`loaded x\n${NO_MODEL}`);
		expect((await world.run(["trust", "--revoke", "pkg"])).code).toBe(0);
		expect((await world.run(["-p", "hi"], { cwd: sub })).stderr).toStartWith("Skipped 1 project extension");
		expect(Object.keys(await trustFile(world))).toEqual([realpathSync(world.root), join(realpathSync(world.cwd), "pkg")]);
	});

	test("agent trust of a missing folder fails", async () => {
		await using world = new TempWorld();
		const r = await world.run(["trust", "nope"]);
		expect(r).toEqual({ stdout: "", stderr: `Error: Not a folder: ${join(world.cwd, "nope")}. Usage: agent trust [--revoke] [dir]\n`, code: 1 });
	});

	test("project settings are trust-gated: their extensions load, and a broken file matters, only when trusted", async () => {
		await using world = new TempWorld();
		world.write("project/.agent/settings.json", JSON.stringify({ extensions: ["../tools/s.ts"] }));
		world.write("project/tools/s.ts", SAY("s"));
		const skipped = await world.run(["-p", "hi"]);
		expect(skipped.stderr).toBe(`Skipped 1 project extension in ${join(world.cwd, ".agent/settings.json")}: folder not trusted (pass --approve or run "agent trust").\n${NO_MODEL}`);
		expect((await world.run(["-a", "-p", "hi"])).stderr).toBe(`loaded s\n${NO_MODEL}`);
		world.write("project/.agent/settings.json", "{ nope");
		// Untrusted, a broken file is not read for what it says: it is only named as skipped.
		expect((await world.run(["-p", "hi"])).stderr).toBe(
			`Skipped project settings in ${join(world.cwd, ".agent/settings.json")}: folder not trusted (pass --approve or run "agent trust").\n${NO_MODEL}`,
		);
		expect((await world.run(["-a", "-p", "hi"])).stderr).toStartWith(`Error: ${join(world.cwd, ".agent/settings.json")}:1:3: invalid JSON`);
	});

	test("a malformed trust.json is an error, never overwritten", async () => {
		await using world = projectWorld();
		const path = world.write("home/.agent/trust.json", "{ broken");
		const r = await world.run(["-p", "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toBe(`Error: ~/.agent/trust.json:1:3: invalid JSON: expected a property name in double quotes\nFix the file and run again (it was not changed), or move it aside to start without it.\n`);
		expect((await world.run(["trust"])).code).toBe(1);
		expect(await Bun.file(path).text()).toBe("{ broken");
	});
});

describe("project_trust event", () => {
	const ANSWER = (trusted: string, remember: boolean) => `export default function (pi) {
	pi.on("project_trust", (event, ctx) => {
		console.error("asked", event.type, event.trusted, event.cwd === process.cwd(), ctx.isProjectTrusted());
		return { trusted: "${trusted}", remember: ${remember} };
	});
}
`;

	test("a user extension's decisive answer wins; remember saves it", async () => {
		await using world = new TempWorld();
		world.write("project/.agent/extensions/p.ts", SAY("p"));
		world.write("home/.agent/extensions/gate.ts", ANSWER("yes", true));
		const r = await world.run(["-p", "hi"]);
		expect(r.stderr).toBe(`asked project_trust undecided true false\nloaded p\n${NO_MODEL}`);
		expect((await trustFile(world))[realpathSync(world.cwd)]!.trusted).toBe(true);
	});

	test("an explicit extension answering no (not remembered) skips with the line", async () => {
		await using world = new TempWorld();
		world.write("project/.agent/extensions/p.ts", SAY("p"));
		world.write("project/gate.ts", ANSWER("no", false));
		const r = await world.run(["-e", "./gate.ts", "-p", "hi"]);
		expect(r.stderr).toBe(
			`asked project_trust undecided true false\nSkipped 1 project extension in ${join(world.cwd, ".agent/extensions")}: folder not trusted (pass --approve or run "agent trust").\n${NO_MODEL}`,
		);
		expect(await Bun.file(join(world.agentDir, "trust.json")).exists()).toBe(false);
	});
});
