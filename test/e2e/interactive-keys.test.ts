// Keys of the interactive TUI beyond typing, in a real terminal (tmux): ↑ brings back the prompts of a
// resumed session, ctrl+t shows and collapses thinking, alt+up takes queued messages back into the
// input, ctrl+x copies the last answer, and ~/.agent/keybindings.json rebinds actions (pi 1.6's format), with a warning for what in
// it is wrong.
import { describe, expect, test } from "bun:test";
import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { heldTurn } from "../support/held-turn.ts";
import { readMessages } from "../support/mock-llm.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld } from "../support/world.ts";

const TIMEOUT = 30_000;

describe.skipIf(!hasTmux)("interactive keys", () => {
	test("↑ after --session brings back the resumed session's prompts, newest first; /resume seeds them too", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "One." }, { text: "Two." }, { text: "Other." });
		let id: string;
		{
			await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
			await term.ready();
			term.submit("first prompt");
			await term.waitForAbove(" One.");
			term.submit("second prompt");
			await term.waitForAbove(" Two.");
			term.keys("C-d");
			id = /To resume this session: agent --session (\S+)\nEXIT=0/.exec(await term.waitFor("EXIT=0"))![1]!;
		}
		{
			// --session <id> opens on the conversation, and its prompts are the history.
			await using again = new Terminal(world, ["-ne", "--session", id]);
			await again.waitToPass("the conversation", (p) => {
				expect(p.above).toContain(" › first prompt\n\n One.\n\n › second prompt\n\n Two.");
				expect(p.below).not.toBe("");
			});
			again.keys("Up");
			await again.waitForEditor("second prompt");
			again.keys("Up");
			await again.waitForEditor("first prompt");
			again.keys("Down", "Down");
			const empty = await again.waitUntil("an empty editor again", (p) => !p.editor.includes("prompt"));
			expect(empty.editor).not.toContain("first prompt");
			again.keys("C-d");
			await again.waitFor("EXIT=0");
		}
		// A new session knows no prompts; after /resume picks the old one, ↑ has them.
		await using fresh = new Terminal(world, ["-ne", "--model", MODEL.openai]);
		await fresh.ready();
		fresh.submit("/resume");
		await fresh.waitFor("→ first prompt");
		fresh.keys("Enter");
		await fresh.waitForAbove(" Two.");
		fresh.keys("Up");
		await fresh.waitForEditor("second prompt");
		fresh.keys("C-c");
		await fresh.waitForEditor("");
		fresh.keys("C-d");
		await fresh.waitFor("EXIT=0");
	}, TIMEOUT);

	test("ctrl+t shows thinking in full and collapses it again", async () => {
		await using world = await mockWorld();
		world.mock.script({ thinking: "Step one.\nStep two.", text: "Done thinking." });
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
		await term.ready();
		term.submit("think");
		const collapsed = await term.waitForAbove(" Done thinking.");
		expect(collapsed.above).toContain(" ∴ Thinking (2 lines, ctrl+o to expand)");
		term.keys("C-t");
		const shown = await term.waitForAbove("Thinking: shown in full");
		expect(shown.above).toContain(" › think\n\n Step one.\n Step two.\n\n Done thinking.");
		term.keys("C-t");
		const again = await term.waitForAbove("Thinking: collapsed");
		expect(again.above).toContain(" ∴ Thinking (2 lines, ctrl+o to expand)");
		expect(again.above).not.toContain("Step one.");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("alt+up takes the queued messages back into the input; they are not sent", async () => {
		await using world = await mockWorld();
		const first = heldTurn("First answer.");
		world.mock.script(first.turn, { text: "Later answer." });
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
		await term.ready();
		term.keys("M-Up");
		await term.waitForAbove("No queued messages.");
		term.submit("start");
		await term.waitFor(/\n── \S+ Working ─+\n/);
		term.submit("steer one");
		term.type("follow two");
		term.keys("M-Enter");
		await term.waitFor("↳ follow-up: follow two");
		term.type("typed");
		term.keys("M-Up");
		const back = await term.waitToPass("the queue back in the input", (p) => {
			expect(p.editor.trimEnd()).toBe("steer one\n\nfollow two\n\ntyped");
			expect(p.above).toContain("2 queued messages back in the input.");
		});
		expect(back.above).not.toContain("↳ steer:");
		first.release();
		await term.waitUntil("the first answer", (p) => p.above.includes(" First answer."));
		expect(world.mock.requests).toHaveLength(1);
		term.keys("C-c");
		await term.waitForEditor("");
		expect(readMessages(world.mock.requests[0]!).filter((m) => m.role === "user").map((m) => m.text)).toEqual(["start"]);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("ctrl+x copies the last answer, as /copy does", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "Copy this answer." });
		const copied = join(world.root, "copied.txt");
		chmodSync(world.write("bin/xclip", `#!/bin/sh\ncat > ${JSON.stringify(copied)}\n`), 0o755);
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai], { env: { DISPLAY: ":99", PATH: `${join(world.root, "bin")}:${process.env.PATH}` } });
		await term.ready();
		term.submit("answer me");
		await term.waitForAbove(" Copy this answer.");
		term.keys("C-x");
		await term.waitForAbove(" Copied the last answer (1 line) to the clipboard with xclip.");
		expect(readFileSync(copied, "utf8")).toBe("Copy this answer.");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("keybindings.json rebinds an action and unbinds another; /hotkeys shows it; a wrong entry is a warning naming the file", async () => {
		await using world = await mockWorld();
		world.mock.script({ thinking: "Hidden plan.", text: "Answer." });
		world.write(
			"home/.agent/keybindings.json",
			JSON.stringify({ "app.session.new": "alt+n", "app.thinking.toggle": [], "app.nope": "ctrl+x", "app.session.tree": "ctrl+shift+banana" }),
		);
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
		await term.waitToPass("the warnings", (p) => {
			expect(p.above).toContain('~/.agent/keybindings.json: "app.nope" is not an action; /hotkeys lists them.');
			expect(p.above).toContain('~/.agent/keybindings.json: "app.session.tree": "ctrl+shift+banana" is not a key');
			expect(p.below).not.toBe("");
		});
		term.submit("think");
		await term.waitForAbove(" Answer.");
		// ctrl+t is unbound: thinking stays collapsed.
		term.keys("C-t");
		term.submit("/hotkeys");
		const keys = await term.waitUntil("the hotkeys", (p) => p.above.includes("Keyboard shortcuts") && p.above.includes("Page down"));
		expect(keys.above).toMatch(/ alt\+n +Start a new session/);
		expect(keys.above).not.toMatch(/ ctrl\+t +Show or hide thinking/);
		expect(keys.above).not.toContain("Hidden plan.");
		term.keys("M-n");
		await term.waitForAbove("New session started.");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
