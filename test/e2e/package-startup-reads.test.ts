// What a start reads of its installed packages, seen from outside the binary with strace (skipped
// where there is none, or where it may not trace): each package's package.json is opened once for its
// version and manifest together, and a conventional folder it does not have (skills/, prompts/,
// themes/) is looked up with a stat, never opened to be listed.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { agentBinary, runAgent, TempWorld } from "../support/agent.ts";

const strace = Bun.which("strace");
const traced = strace !== null && Bun.spawnSync([strace, "-qq", "-e", "trace=none", "true"]).exitCode === 0;

const NAMES = ["pkg-a", "pkg-b", "pkg-c"];

/** Three npm packages as `agent install` leaves them (one extension each), and settings naming them. */
function writeInstalled(world: TempWorld): string[] {
	const dirs = NAMES.map((name) => join(world.agentDir, "packages/npm/node_modules", name));
	for (const [i, dir] of dirs.entries()) {
		world.write(join(dir, "package.json"), JSON.stringify({ name: NAMES[i], version: "1.0.0" }));
		world.write(join(dir, "extensions/index.ts"), `export default function (pi) { pi.registerCommand("c${i}", { handler: async () => {} }); }\n`);
	}
	world.write(join(world.agentDir, "extensions/noop.ts"), `export default function (pi) { pi.registerCommand("noop", { handler: async (_a, ctx) => ctx.ui.notify("ok", "info") }); }\n`);
	world.write(join(world.agentDir, "settings.json"), JSON.stringify({ packages: NAMES.map((n) => `npm:${n}`) }));
	return dirs;
}

describe("start-up with installed packages", () => {
	test.skipIf(!traced)("each package.json is opened once; folders a package does not have are not opened", async () => {
		await using world = new TempWorld();
		const dirs = writeInstalled(world);
		const log = join(world.root, "strace.txt");
		const r = await runAgent(["-f", "-qq", "-e", "trace=open,openat", "-o", log, agentBinary(), "--no-session", "-p", "/noop"], {
			binary: strace!,
			cwd: world.cwd,
			env: world.environment({ AGENT_OFFLINE: "1" }),
		});
		expect(r).toEqual({ stdout: "", stderr: "Info: ok\n", code: 0 });
		const opened = readFileSync(log, "utf8")
			.split("\n")
			.map((line) => /open(?:at)?\((?:AT_FDCWD, )?"([^"]+)"/.exec(line)?.[1])
			.filter((path): path is string => path !== undefined);
		for (const dir of dirs) {
			expect({ dir, manifestOpens: opened.filter((p) => p === join(dir, "package.json")).length }).toEqual({ dir, manifestOpens: 1 });
			for (const kind of ["skills", "prompts", "themes"]) expect(opened).not.toContain(join(dir, kind));
		}
	});
});
