// pi 1.6's example extensions that ask through dialogs and show their own panels, copied from the
// npm package and driven in our TUI through tmux: rpc-demo (select, confirm, input, editor, widget,
// status, title, prefill — drawn as pi draws them), qna and handoff (a BorderedLoader while the
// model answers, the editor dialog, a new session that starts on a clean screen), summarize (a
// Markdown panel), tools (a SettingsList turning tools off) and todo (its /todos panel).
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readMessages, readToolNames } from "../support/mock-llm.ts";
import { heldTurn } from "../support/held-turn.ts";
import { example } from "../support/pi-examples/copy.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld, type MockWorld } from "../support/world.ts";

const TIMEOUT = 45_000;

/** The last `lines` lines of the screen (the dialog or panel in the editor's place, and the footer). */
function bottom(screen: string, lines: number): string {
	return screen.split("\n").slice(-lines).join("\n");
}

/** Add an `openai` provider on the mock with the model summarize.ts asks for by name. */
function addOpenAi(world: MockWorld): void {
	const file = join(world.agentDir, "models.json");
	const config = JSON.parse(readFileSync(file, "utf8"));
	config.providers.openai = { baseUrl: world.mock.openaiBaseUrl, api: "openai-completions", apiKey: "test-key", models: [{ id: "gpt-5.2", contextWindow: 100000, maxTokens: 4096 }] };
	world.write("home/.agent/models.json", JSON.stringify(config));
}

describe.skipIf(!hasTmux)("pi 1.6 example dialogs and panels in the TUI", () => {
	test("rpc-demo.ts: widget, status and title at start; select, input, editor and confirm drawn as pi's; prefill", async () => {
		await using world = await mockWorld();
		world.mock.script({ toolCalls: [{ name: "bash", arguments: { command: "rm -rf build" } }] }, { text: "Cleaned." });
		await using term = new Terminal(world, ["-ne", "-e", example(world, "rpc-demo.ts"), "--model", MODEL.openai]);
		const start = await term.waitUntil("the widget and status", (p) => p.above.endsWith(" --- RPC Extension UI Demo ---\n Loaded and ready.") && p.below.endsWith("\nTurns: 0"));
		expect(start.editor).toBe("");
		expect(term.paneFormat("#{pane_title}")).toBe("pi RPC Demo");

		// A dangerous command: the tool_call handler asks with select() in the editor's place.
		term.submit("clean up");
		await term.waitToPass("the select", (_p, screen) => {
			expect(screen).toMatch(/\n─+\n\n Dangerous command: rm -rf build\n\n → Allow\n   Block\n\n ↑↓ navigate {2}enter select {2}escape\/ctrl\+c cancel\n\n─+\n/);
			expect(screen).toMatch(/\nTurn 1 running\.\.\.$/);
		});
		term.keys("Enter");
		await term.waitToPass("the command allowed", (p) => {
			expect(p.above).toEndWith(" Command allowed\n\n Cleaned.\n\n --- RPC Extension UI Demo ---\n Loaded and ready.");
			expect(p.below).toEndWith("\nTurn 2 done");
		});

		// input(): pi's frame, no placeholder text in the TUI.
		term.submit("/rpc-input");
		await term.waitUntil("the input", (_p, screen) => screen.includes("\n Enter a value\n\n>\n\n enter submit  escape/ctrl+c cancel\n"));
		expect(term.screen()).not.toContain("type something...");
		term.submit("hello");
		await term.waitUntil("the answer", (p) => p.above.includes(" You entered: hello"));

		// editor(): its own bordered editor with the prefill, pi's hints.
		term.submit("/rpc-editor");
		await term.waitUntil("the editor dialog", (_p, screen) =>
			/\n Edit some text\n\n─+\nLine 1\nLine 2\nLine 3\n─+\n\n enter submit {2}shift\+enter\/ctrl\+j newline {2}escape\/ctrl\+c cancel {2}ctrl\+g external editor\n/.test(screen),
		);
		term.keys("C-j");
		term.type("Line 4");
		term.keys("Enter");
		await term.waitUntil("the lines counted", (p) => p.above.includes(" Editor submitted (4 lines)"));

		// /new asks through confirm(): the message under the title, Yes first; No keeps the session and its widget.
		term.submit("/new");
		await term.waitUntil("the confirm", (_p, screen) => screen.includes("\n Clear session?\n All messages will be lost.\n\n → Yes\n   No\n\n ↑↓ navigate  enter select  escape/ctrl+c cancel\n"));
		term.keys("Down", "Enter");
		const kept = await term.waitForAbove(" Clear cancelled\n\n --- RPC Extension UI Demo ---\n Loaded and ready.");
		expect(kept.above).toContain(" Cleaned.");
		expect(kept.above).not.toContain("New session");

		term.submit("/rpc-prefill");
		await term.waitForEditor("This text was set by the rpc-demo extension.");
		// Yes starts a new session: the screen shows it empty, the demo's widget again, title for "new".
		term.keys("C-u");
		term.submit("/new");
		await term.waitUntil("the confirm again", (_p, screen) => screen.includes(" → Yes\n   No"));
		term.keys("Enter");
		// The extensions were loaded afresh for the new session: the counter starts again.
		await term.waitToPass("the new session", (p) => {
			expect(p.above).toEndWith(" --- RPC Extension UI Demo ---\n Loaded and ready.");
			expect(p.above).not.toContain("Cleaned.");
			expect(p.below).toEndWith("\nTurns: 0");
		});
		expect(term.paneFormat("#{pane_title}")).toBe("pi RPC Demo (new session)");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("qna.ts and handoff.ts: a loader while the model answers, the answer in the editor, a handoff into a new session", async () => {
		await using world = await mockWorld();
		const questions = heldTurn("Q: Which database?\nA: ");
		const handoff = heldTurn("Continue: write tests for the Pratt parser.");
		world.mock.script({ text: "Use a Pratt parser. Which database do you want?" }, questions.turn, { text: "Postgres it is." }, handoff.turn, { text: "On it." });
		await using term = new Terminal(world, ["-ne", "-e", example(world, "qna.ts"), "-e", example(world, "handoff.ts"), "--model", MODEL.openai]);
		await term.ready();
		term.submit("plan the parser");
		await term.waitForAbove(" Use a Pratt parser. Which database do you want?");

		// /qna: a BorderedLoader in the editor's place until the model has answered.
		term.submit("/qna");
		await term.waitUntil("the loader", (_p, screen) => /\n\n [⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] Extracting questions using mock-model\.\.\.\n\n escape\/ctrl\+c cancel\n\n─+\n/.test(screen));
		questions.release();
		await term.waitToPass("the questions in the editor", (p) => {
			expect(p.editor).toBe("Q: Which database?\nA:");
			expect(p.above).toEndWith(" Questions loaded. Edit and submit when ready.");
		});
		expect(readMessages(world.mock.requests[1]!).map((m) => m.text).join("\n")).toContain("Use a Pratt parser. Which database do you want?");
		term.type("Postgres");
		term.keys("Enter");
		await term.waitForAbove(" › Q: Which database?\n   A: Postgres\n\n Postgres it is.");

		// /handoff: the loader, then the prompt in pi's editor dialog, then a new session with it in the editor.
		term.submit("/handoff write the tests");
		await term.waitUntil("the handoff loader", (_p, screen) => screen.includes(" Generating handoff prompt...\n\n escape/ctrl+c cancel"));
		handoff.release();
		await term.waitUntil("the editor dialog", (_p, screen) => /\n Edit handoff prompt\n\n─+\nContinue: write tests for the Pratt parser\.\n─+\n\n enter submit/.test(screen));
		term.keys("Enter");
		const fresh = await term.waitUntil("the new session", (p) => p.editor === "Continue: write tests for the Pratt parser." && p.above.endsWith(" Handoff ready. Submit when ready."));
		// The old conversation is gone from the screen, as in pi.
		expect(fresh.above).not.toContain("Pratt parser. Which database");
		expect(fresh.above).not.toContain("Postgres");
		term.keys("Enter");
		await term.waitForAbove(" › Continue: write tests for the Pratt parser.\n\n On it.");
		// The new session's file names the old one as its parent.
		const [first, second] = world.sessionFiles();
		expect(JSON.parse(readFileSync(second!, "utf8").split("\n")[0]!).parentSession).toBe(first);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("summarize.ts: the model's summary as Markdown in a bordered panel; Enter closes it", async () => {
		await using world = await mockWorld();
		addOpenAi(world);
		world.mock.script({ text: "The parser is done." }, { text: "## Summary\n\n- **Parser** finished\n- Tests pending" });
		await using term = new Terminal(world, ["-ne", "-e", example(world, "summarize.ts"), "--model", MODEL.openai]);
		await term.ready();
		term.submit("finish the parser");
		await term.waitForAbove(" The parser is done.");
		term.submit("/summarize");
		const panel = await term.waitUntil("the summary panel", (_p, screen) => screen.includes(" Conversation Summary") && screen.includes("Press Enter or Esc to close"));
		const screen = term.screen();
		expect(screen).toMatch(/\n─+\n Conversation Summary\n\n Summary\n\n - Parser finished\n - Tests pending\n\n Press Enter or Esc to close\n─+\n/);
		expect(panel.above).toContain(" Preparing summary...");
		// It asked the model it names (openai/gpt-5.2) with the conversation in the prompt.
		expect(world.mock.lastRequest().body.model).toBe("gpt-5.2");
		expect(JSON.stringify(world.mock.lastRequest().body)).toContain("finish the parser");
		term.keys("Enter");
		await term.waitUntil("the panel closed", (_p, s) => !s.includes("Conversation Summary"));
		await term.ready();
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("tools.ts: /tools lists every tool in a SettingsList; turning bash off takes it from the model, and it stays off after /reload", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "One." }, { text: "Two." });
		await using term = new Terminal(world, ["-ne", "-e", example(world, "tools.ts"), "--model", MODEL.openai]);
		await term.ready();
		term.submit("/tools");
		await term.waitToPass("the settings list", (_p, screen) => {
			expect(screen).toContain("Tool Configuration");
			expect(screen).toMatch(/→ read +enabled/);
			expect(screen).toMatch(/\n {2}bash +enabled\n/);
		});
		term.keys("Down");
		await term.waitUntil("bash selected", (_p, screen) => /→ bash +enabled/.test(screen));
		term.keys("Space");
		await term.waitUntil("bash disabled", (_p, screen) => /→ bash +disabled/.test(screen));
		term.keys("Escape");
		await term.waitUntil("the list closed", (_p, screen) => !screen.includes("Tool Configuration"));
		term.submit("which tools?");
		await term.waitForAbove(" One.");
		expect(readToolNames(world.mock.lastRequest())).not.toContain("bash");
		expect(readToolNames(world.mock.lastRequest())).toContain("read");
		// The choice is a session entry: a reload restores it from the branch.
		term.submit("/reload");
		await term.waitUntil("the reload", (p) => p.above.includes("Reloaded"));
		term.submit("and now?");
		await term.waitForAbove(" Two.");
		expect(readToolNames(world.mock.lastRequest())).not.toContain("bash");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("todo.ts: the model's todo tool calls drawn by its renderers; /todos shows the list in the editor's place", async () => {
		await using world = await mockWorld();
		world.mock.script(
			{ toolCalls: [{ name: "todo", arguments: { action: "add", text: "write tests" }, id: "call_a" }, { name: "todo", arguments: { action: "add", text: "ship" }, id: "call_b" }] },
			{ toolCalls: [{ name: "todo", arguments: { action: "toggle", id: 1 }, id: "call_c" }] },
			{ text: "Planned." },
		);
		await using term = new Terminal(world, ["-ne", "-e", example(world, "todo.ts"), "--model", MODEL.openai]);
		await term.ready();
		term.submit("plan it");
		const done = await term.waitForAbove(" Planned.");
		expect(done.above).toContain(" todo add \"write tests\"\n ✓ Added #1 write tests\n\n todo add \"ship\"\n ✓ Added #2 ship\n\n todo toggle #1\n ✓ Todo #1 completed");
		term.submit("/todos");
		// In the editor's place, between the conversation and the footer.
		await term.waitToPass("the todo list", (_p, screen) =>
			expect(screen).toMatch(/ Planned\.\n\n\n─── Todos ─+\n\n {2}1\/2 completed\n\n {2}✓ #1 write tests\n {2}○ #2 ship\n\n {2}Press Escape to close\n\n\//),
		);
		term.keys("Escape");
		await term.waitUntil("the list closed", (_p, s) => !s.includes("1/2 completed"));
		await term.ready();
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
