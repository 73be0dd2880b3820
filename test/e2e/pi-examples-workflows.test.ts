// pi 1.6's example extensions that add a workflow around the editor and the agent, copied from the
// npm package and run in our TUI through tmux: github-issue-autocomplete (`#` completes issues that
// `gh` lists), plan-mode (read-only planning, a select after the plan, a progress widget and status
// while it runs) and subagent (a tool that runs this binary again as a sub-agent and draws its work).
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readMessages, readToolNames } from "../support/mock-llm.ts";
import { example } from "../support/pi-examples/copy.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld } from "../support/world.ts";

const TIMEOUT = 45_000;

describe.skipIf(!hasTmux)("pi 1.6 example workflows in the TUI", () => {
	test("github-issue-autocomplete.ts: # lists the repo's open issues from gh, typing filters them, Tab puts one in", async () => {
		await using world = await mockWorld();
		Bun.spawnSync(["sh", "-c", "git init -q -b main && git remote add origin git@github.com:acme/widgets.git"], { cwd: world.cwd });
		// gh need not be installed (nor GitHub reachable): a stand-in that logs its arguments and answers as gh does.
		const log = join(world.root, "gh.log");
		const issues = JSON.stringify([
			{ number: 12, title: "Crash on start", state: "OPEN" },
			{ number: 7, title: "Docs typo in README", state: "OPEN" },
		]);
		const gh = world.write("bin/gh", `#!/bin/sh\necho "$@" >> ${JSON.stringify(log)}\necho '${issues}'\n`);
		chmodSync(gh, 0o755);
		await using term = new Terminal(world, ["-ne", "-e", example(world, "github-issue-autocomplete.ts")], { env: { PATH: `${join(world.root, "bin")}:${process.env.PATH}` } });
		await term.ready();
		// session_start installs the provider after asking git for the remote; it asks gh right before
		// it does, so once gh has been asked, "#" is completed (typing earlier would race the handler).
		await term.waitUntil("the extension to ask gh", () => existsSync(log));
		term.type("fix #");
		const menu = await term.waitUntil("the issues", (p) => p.below.includes("#12") && p.below.includes("#7"));
		expect(menu.below).toMatch(/#12 +\[open\] Crash on start/);
		expect(menu.below).toMatch(/#7 +\[open\] Docs typo in README/);
		term.type("docs");
		await term.waitUntil("the filtered list", (p) => p.below.includes("#7") && !p.below.includes("#12"));
		term.keys("Tab");
		await term.waitForEditor("fix #7");
		expect(readFileSync(log, "utf8")).toBe("issue list --repo acme/widgets --state open --limit 100 --json number,title,state\n");
		term.keys("C-u", "C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("plan-mode/: --plan explores read-only, the plan's steps are offered, executing tracks them in a widget and the status", async () => {
		await using world = await mockWorld();
		world.mock.script(
			{ text: "Plan:\n1. Read the parser module\n2. Extract the tokenizer\n3. Add tokenizer tests" },
			{ text: "Read it, it is small. [DONE:1]" },
		);
		await using term = new Terminal(world, ["-ne", "-e", example(world, "plan-mode"), "--model", MODEL.openai, "--plan"]);
		const start = await term.waitUntil("the plan status", (p) => p.below.endsWith("\n⏸ plan"));
		expect(start.editor).toBe("");
		term.submit("refactor the parser");
		await term.waitUntil("the question", (_p, screen) => screen.includes("\n Plan mode - what next?\n\n → Execute the plan (track progress)\n   Stay in plan mode\n   Refine the plan\n"));
		// Planning was read-only: no edit or write for the model.
		const planning = readToolNames(world.mock.requests[0]!);
		expect(planning).toContain("read");
		expect(planning).not.toContain("edit");
		expect(planning).not.toContain("write");
		term.keys("Enter");
		// The model works on step 1 and says it is done: the widget ticks it, the status counts it.
		// (Its step cleaner shortens "Read the parser module" to "Parser module", in pi too.)
		await term.waitToPass("one step done", (p) => {
			expect(p.below).toEndWith("\n📋 1/3");
			expect(p.above).toEndWith(" Read it, it is small. [DONE:1]\n\n ☑ Parser module\n ☐ Extract the tokenizer\n ☐ Tokenizer tests");
			expect(p.above).toContain(" Plan Steps (3):\n\n 1. ☐ Parser module\n 2. ☐ Extract the tokenizer\n 3. ☐ Tokenizer tests");
		});
		const executing = readMessages(world.mock.requests[1]!).map((m) => m.text).join("\n");
		expect(executing).toContain("Execute the plan.");
		expect(readToolNames(world.mock.requests[1]!)).toContain("edit");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("subagent/: the subagent tool runs this binary as a scout in JSON mode and draws what it did", async () => {
		await using world = await mockWorld();
		world.write(
			"home/.agent/agents/scout.md",
			"---\nname: scout\ndescription: Fast recon\ntools: read, ls\nmodel: mock/mock-model\n---\n\nYou are a scout. Report briefly.\n",
		);
		world.mock.script(
			{ toolCalls: [{ name: "subagent", arguments: { agent: "scout", task: "Where is the parser?" }, id: "call_sub" }] },
			// The scout's own request (a separate process, same mock).
			{ text: "The parser is in src/parser.ts." },
			{ text: "The scout found it." },
		);
		await using term = new Terminal(world, ["-ne", "-e", example(world, "subagent"), "--model", MODEL.openai]);
		await term.ready();
		term.submit("find the parser");
		const done = await term.waitForAbove(" The scout found it.");
		expect(done.above).toContain(" subagent scout [user]\n   Where is the parser?\n ✓ scout (user)\n The parser is in src/parser.ts.\n 1 turn ↑10 ↓5 ctx:15 mock/mock-model\n\n The scout found it.");
		term.keys("C-o");
		await term.waitToPass("the expanded result", (p) =>
			expect(p.above).toContain(" ─── Task ───\n Where is the parser?\n\n ─── Output ───\n\n The parser is in src/parser.ts."),
		);
		// The scout got the task with its own system prompt and only its tools.
		const scout = world.mock.requests[1]!;
		expect(readMessages(scout).map((m) => m.text).join("\n")).toContain("Task: Where is the parser?");
		expect(JSON.stringify(scout.body)).toContain("You are a scout. Report briefly.");
		expect(readToolNames(scout).sort()).toEqual(["ls", "read"]);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
