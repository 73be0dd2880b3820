// pi 1.6's example extensions that ask, show and run things in the TUI, through the compiled
// binary in tmux: question and questionnaire (a tool's custom() UI answering the model),
// minimal-mode (tool renderers, collapsed and expanded), interactive-shell (`!i` hands the terminal
// to a program and takes it back), rainbow-editor (a CustomEditor subclass), and the status
// examples: working-indicator, status-line, titlebar-spinner, model-status.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readMessages } from "../support/mock-llm.ts";
import { heldTurn } from "../support/held-turn.ts";
import { example } from "../support/pi-examples/copy.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld } from "../support/world.ts";

const TIMEOUT = 45_000;

/** The tool result the model was sent in the request at `index`. */
function toolResultText(world: { mock: { requests: readonly unknown[] } }, index: number): string {
	return readMessages(world.mock.requests[index] as never)
		.filter((m) => m.role === "toolResult")
		.map((m) => m.text)
		.join("\n");
}

describe.skipIf(!hasTmux)("pi 1.6 example tools and statuses in the TUI", () => {
	test("question.ts and questionnaire.ts: the model asks, the answer goes back as the tool result", async () => {
		await using world = await mockWorld();
		world.mock.script(
			{ toolCalls: [{ name: "question", arguments: { question: "Which database should we use?", options: [{ label: "Postgres", description: "relational, battle-tested" }, { label: "SQLite" }] }, id: "call_q" }] },
			{ text: "Going with SQLite." },
			{
				toolCalls: [
					{
						name: "questionnaire",
						arguments: {
							questions: [
								{ id: "lang", label: "Language", prompt: "Which language?", options: [{ value: "ts", label: "TypeScript" }, { value: "go", label: "Go" }] },
								{ id: "tests", label: "Tests", prompt: "Write tests?", options: [{ value: "yes", label: "Yes" }, { value: "no", label: "No" }], allowOther: false },
							],
						},
						id: "call_qq",
					},
				],
			},
			{ text: "Noted." },
		);
		await using term = new Terminal(world, ["-ne", "-e", example(world, "question.ts"), "-e", example(world, "questionnaire.ts"), "--model", MODEL.openai]);
		await term.ready();
		term.submit("pick a db");
		const asked = await term.waitUntil("the question", (_p, screen) => /\n> 1\. Postgres\n +relational, battle-tested\n {2}2\. SQLite\n {2}3\. Type something\.\n/.test(screen));
		expect(asked.above).toContain(" question Which database should we use?\n   Options: 1. Postgres, 2. SQLite, 3. Type something.");
		// The question has the editor's place (and the working status with it, as in pi).
		expect(term.screen()).not.toMatch(/── \S+ Working/);
		term.keys("Down", "Enter");
		await term.waitForAbove(" ✓ 2. SQLite\n\n Going with SQLite.");
		expect(toolResultText(world, 1)).toContain("User selected: 2. SQLite");

		term.submit("ask me");
		await term.waitUntil("the questionnaire", (_p, screen) => screen.includes("□ Language   □ Tests   ✓ Submit") && screen.includes("> 1. TypeScript"));
		term.keys("Down", "Enter");
		await term.waitUntil("the second question", (_p, screen) => screen.includes("Write tests?"));
		term.keys("Enter");
		await term.waitUntil("the summary", (_p, screen) => screen.includes("Ready to submit") && screen.includes("Language: Go") && screen.includes("Tests: Yes"));
		term.keys("Enter");
		await term.waitForAbove(" ✓ lang: 2. Go\n ✓ tests: 1. Yes\n\n Noted.");
		const answers = toolResultText(world, 3);
		expect(answers).toContain("Go");
		expect(answers).toContain("Yes");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("minimal-mode.ts: built-in tools drawn as one line each, their output with ctrl+o", async () => {
		await using world = await mockWorld();
		world.write("project/notes.txt", "line one\nline two\n");
		world.mock.script(
			{
				toolCalls: [
					{ name: "bash", arguments: { command: "printf 'alpha\\nbeta\\n'" }, id: "call_b" },
					{ name: "read", arguments: { path: "notes.txt" }, id: "call_r" },
				],
			},
			{ text: "Done." },
		);
		await using term = new Terminal(world, ["-ne", "-e", example(world, "minimal-mode.ts"), "--model", MODEL.openai]);
		await term.ready();
		term.submit("run it");
		const collapsed = await term.waitForAbove(" Done.");
		expect(collapsed.above).toContain(" $ printf 'alpha\\nbeta\\n'\n\n read notes.txt\n\n Done.");
		expect(collapsed.above).not.toContain("alpha\n");
		term.keys("C-o");
		// Wait for the whole frame: a capture in the middle of a redraw can hold the output without the editor under it.
		const expanded = await term.waitUntil("the output", (p) => p.above.includes(" alpha\n beta") && p.above.endsWith(" Tool output: expanded"));
		expect(expanded.above).toContain("line two");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("interactive-shell.ts: !i gives the terminal to a program, the TUI comes back after it", async () => {
		await using world = await mockWorld();
		await using term = new Terminal(world, ["-ne", "-e", example(world, "interactive-shell.ts")], { env: { SHELL: "/bin/sh" } });
		await term.ready();
		term.submit(`!i sh -c 'printf "Your name? "; read n; echo "hello $n" > out.txt'`);
		// The TUI stopped and the screen was cleared: the program's prompt is all there is.
		await term.waitUntil("the program's prompt", (_p) => term.screen().startsWith("Your name?"));
		term.submit("Ann");
		const back = await term.waitForAbove("   (interactive command completed successfully)");
		expect(back.above.split("$ i sh -c").length).toBe(2);
		expect(readFileSync(join(world.cwd, "out.txt"), "utf8")).toBe("hello Ann\n");
		// The editor takes keys again.
		term.type("still here");
		await term.waitForEditor("still here");
		term.keys("C-u", "C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("rainbow-editor.ts: the subclassed editor colours 'ultrathink' and still submits", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "Thinking hard." });
		await using term = new Terminal(world, ["-ne", "-e", example(world, "rainbow-editor.ts"), "--model", MODEL.openai]);
		await term.ready();
		term.type("please ultrathink");
		await term.waitForEditor("please ultrathink");
		// Each letter in its own 24-bit colour (coral first).
		await term.waitUntil("the rainbow", () => /please \x1b\[38;2;\d+;\d+;\d+mu\x1b\[38;2;\d+;\d+;\d+ml/.test(term.colouredScreen()));
		term.keys("Enter");
		await term.waitForAbove(" Thinking hard.");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("working-indicator.ts, status-line.ts, titlebar-spinner.ts: the spinner in the editor's border, statuses by key, the window title", async () => {
		await using world = await mockWorld();
		const first = heldTurn("First.");
		const second = heldTurn("Second.");
		world.mock.script(first.turn, second.turn);
		const exts = ["working-indicator.ts", "status-line.ts", "titlebar-spinner.ts"].flatMap((name) => ["-e", example(world, name)]);
		await using term = new Terminal(world, ["-ne", ...exts, "--model", MODEL.openai]);
		// Statuses sorted by key (status-demo, working-indicator), one space apart, as pi's footer.
		await term.waitUntil("the statuses", (p) => p.below.endsWith("\nReady Indicator: custom spinner"));
		expect(term.paneFormat("#{pane_title}")).toBe("agent - project");
		term.submit("go");
		// The custom spinner (pastel frames) turns in the editor's top border.
		await term.waitUntil("the spinner in the border", (_p, screen) => /\n── \S Working ─+\n/.test(screen));
		await term.waitUntil("the turn status", (p) => p.below.endsWith("\n● Turn 1... Indicator: custom spinner"));
		await term.waitUntil("a spinning title", () => /^[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] π - project$/.test(term.paneFormat("#{pane_title}")));
		expect(term.colouredScreen()).toMatch(/── (?:\x1b\[[0-9;]*m)*\x1b\[38;2;\d+;\d+;\d+m[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
		first.release();
		await term.waitForAbove(" First.");
		await term.waitUntil("the turn done", (p) => p.below.endsWith("\n✓ Turn 1 complete Indicator: custom spinner"));
		await term.waitUntil("the title at rest", () => term.paneFormat("#{pane_title}") === "π - project");

		// A static dot, then no indicator at all: the message alone.
		term.submit("/working-indicator dot");
		await term.waitForAbove(" Working indicator set to: static dot");
		term.submit("/working-indicator none");
		await term.waitForAbove(" Working indicator set to: hidden");
		term.submit("again");
		await term.waitUntil("the message alone in the border", (_p, screen) => /\n── Working ─+\n/.test(screen));
		second.release();
		await term.waitForAbove(" Second.");
		await term.waitUntil("the border at rest", (p) => !/── Working/.test(term.screen()) && p.editor === "");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("model-status.ts: model_select puts the model in the footer and says so", async () => {
		await using world = await mockWorld();
		await using term = new Terminal(world, ["-ne", "-e", example(world, "model-status.ts"), "--model", MODEL.openai]);
		await term.ready();
		term.submit("/model mock/mock-reasoner");
		await term.waitToPass("the model status", (p) => {
			expect(p.below).toEndWith("\n🤖 mock-reasoner");
			expect(p.above).toContain(" Model: mock/mock-reasoner");
			// What it console.logs joins the transcript instead of tearing the screen.
			expect(p.above).toContain(" [model_select] mock/mock-model → mock/mock-reasoner (set)");
			expect(p.below).toContain("mock/mock-reasoner");
		});
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
