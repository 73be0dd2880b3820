// The footer in a real terminal (tmux): the folder and its git branch, following a checkout made
// with `!cmd`; the session's name once /name gives one; tokens, cost and context after an answer.
import { describe, expect, test } from "bun:test";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld } from "../support/world.ts";

const TIMEOUT = 30_000;
const hasGit = Bun.which("git") !== null;

describe.skipIf(!hasTmux || !hasGit)("interactive footer", () => {
	test("folder and git branch (a checkout shows at once), the session name, tokens and context", async () => {
		await using world = await mockWorld();
		const git = Bun.spawnSync(["git", "init", "-q", "-b", "feature-x"], { cwd: world.cwd });
		expect(git.exitCode).toBe(0);
		world.mock.script({ text: "Counted.", usage: { input: 1200, output: 34 } });
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
		await term.waitToPass("the footer", (p) => expect(p.below).toMatch(/^\/tmp\/\S+\/project \(feature-x\)\n↑0 ↓0 \$0\.000 \S+%\/100k +mock\/mock-model/m));
		term.submit("!git checkout -q -b second");
		await term.waitUntil("the new branch", (p) => p.below.includes("project (second)\n"));
		term.submit("/name Footer demo");
		await term.waitUntil("the session name", (p) => p.below.includes("project (second) • Footer demo\n"));
		term.submit("count");
		await term.waitForAbove(" Counted.");
		const after = await term.waitUntil("the usage", (p) => /↑1\.2k ↓34 \$0\.000 \S+%\/100k +mock\/mock-model/.test(p.below));
		expect(after.below).toContain("project (second) • Footer demo\n");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
