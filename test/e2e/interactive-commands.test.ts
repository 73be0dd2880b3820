// The built-in command UIs in a real terminal (tmux) through the compiled binary, against the
// mock LLM: the /model picker and --models cycling, the /tree navigator (branches, search,
// labels, moving with and without a branch summary), the /resume picker and -r, /copy (a native
// clipboard tool, or OSC 52 into tmux's buffer), /hotkeys, /export, /compact, /extensions, /help.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld, readSessionLines } from "../support/world.ts";

const TIMEOUT = 45_000;

/** shift+ctrl+p as a terminal with the kitty keyboard protocol sends it (CSI 112;6u). */
const SHIFT_CTRL_P = ["-H", "1b", "5b", "31", "31", "32", "3b", "36", "75"];

/** The last footer line (usage left, model right). */
function footerModel(below: string): string {
	return below.trimEnd().split("\n").at(-1)!.trim().split(/\s{2,}/).at(-1)!;
}

describe.skipIf(!hasTmux)("interactive built-in commands", () => {
	test("/model: type to filter, Enter picks, the footer follows; --models scope: ctrl+p / shift+ctrl+p cycle, tab shows all", async () => {
		await using world = await mockWorld();
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai, "--models", "mock/mock-model,mock-anthropic/mock-model"]);
		await term.ready();
		term.submit("/model");
		// The scope first: the two scoped models, the current one ticked.
		const picker = await term.waitToPass("the model picker", (p) => {
			expect(p.editor).toContain("Select a model");
			expect(p.editor).toContain(" Scope: all | scoped  tab switch");
			expect(p.editor).toContain(" → ✓ mock-model [mock]\n     mock-model [mock-anthropic]");
		});
		expect(picker.editor).not.toContain("mock-reasoner");
		term.keys("Tab");
		await term.waitUntil("every model", (p) => p.editor.includes("mock-reasoner [mock]"));
		term.type("reas");
		await term.waitToPass("the filtered list", (p) => {
			expect(p.editor).toContain(" › reas");
			expect(p.editor).not.toContain("[mock-anthropic]");
			expect(p.editor).toContain(" →   mock-reasoner [mock]");
		});
		term.keys("Enter");
		await term.waitToPass("the picked model", (p) => {
			expect(p.above).toEndWith(" Model: mock/mock-reasoner");
			expect(footerModel(p.below)).toBe("mock/mock-reasoner • off");
		});
		// ctrl+p: the next model of the scope (from outside it, the first).
		term.keys("C-p");
		await term.waitUntil("the first scoped model", (p) => footerModel(p.below) === "mock/mock-model");
		term.keys("C-p");
		await term.waitToPass("the second scoped model", (p) => {
			expect(footerModel(p.below)).toBe("mock-anthropic/mock-model • off");
			expect(p.above).toEndWith(" Model: mock-anthropic/mock-model • thinking off (2/2 in the --models scope)");
		});
		term.keys(...SHIFT_CTRL_P);
		await term.waitUntil("back to the first", (p) => footerModel(p.below) === "mock/mock-model");
		// The model a prompt goes to is the one picked.
		world.mock.script({ text: "Hi there." });
		term.submit("hello");
		await term.waitFor("Hi there.");
		expect(world.mock.lastRequest().body.model).toBe("mock-model");
		term.submit("/model nothing-like-this");
		await term.waitForAbove(' Error: No available model matches "nothing-like-this".');
		term.submit("/model mock-reasoner");
		await term.waitForAbove(" Model: mock/mock-reasoner");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("/tree: branches drawn, search, a label set and shown, a move with a branch summary; session_before_tree / session_tree fire", async () => {
		await using world = await mockWorld();
		const log = join(world.root, "tree.log");
		const ext = world.write(
			"tree-events.ts",
			`import { appendFileSync } from "node:fs";
export default function (pi) {
	pi.on("session_before_tree", (e) => { appendFileSync(${JSON.stringify(log)}, "before " + e.preparation.userWantsSummary + " " + e.preparation.entriesToSummarize.length + "\\n"); });
	pi.on("session_tree", (e) => { appendFileSync(${JSON.stringify(log)}, "tree " + (e.summaryEntry ? e.summaryEntry.summary : "-") + "\\n"); });
}
`,
		);
		world.mock.script({ text: "Answer one." }, { text: "Answer two." });
		await using term = new Terminal(world, ["-ne", "-e", ext, "--model", MODEL.openai]);
		await term.ready();
		term.submit("first question");
		await term.waitFor("Answer one.");
		term.submit("second question");
		await term.waitFor("Answer two.");
		term.submit("/tree");
		await term.waitUntil("the tree", (p) => p.editor.includes("Answer two. ← current"));
		// Back to the first user message: its text comes back to edit, no summary.
		term.keys("Up", "Up", "Up", "Enter");
		await term.waitUntil("the summary question", (p) => p.editor.includes("Summarize branch?"));
		term.keys("Enter");
		await term.waitToPass("the move", (p) => {
			expect(p.above).toEndWith(" Moved to user: first question");
			expect(p.editor).toBe("first question");
		});
		term.keys("C-u");
		world.mock.script({ text: "Answer three." });
		term.submit("another question");
		await term.waitFor("Answer three.");
		term.submit("/tree");
		// The branch you are on comes first, the other one beside it.
		await term.waitToPass("the forked tree", (p) =>
			expect(p.editor).toContain(
				[
					"   ├─ • user: another question",
					" → │  • assistant: Answer three. ← current",
					"   └─   user: first question",
					"        assistant: Answer one.",
					"        user: second question",
					"        assistant: Answer two.",
				].join("\n"),
			),
		);
		// Search narrows the rows.
		term.type("two");
		await term.waitToPass("the search", (p) => {
			expect(p.editor).toContain(" › two");
			expect(p.editor).not.toContain("Answer three");
			expect(p.editor).toContain("\n →      assistant: Answer two.\n");
		});
		// shift+l labels the entry; the label shows in the tree and is saved in the session.
		term.keys("L");
		await term.waitUntil("the label input", (p) => p.editor.includes("Label (empty to remove):"));
		term.type("old idea");
		term.keys("Enter");
		await term.waitUntil("the label", (p) => p.editor.includes("[old idea] assistant: Answer two."));
		// Moving there asks about a summary; the model writes it into the branch.
		world.mock.script({ text: "Tried another question; got answer three." });
		term.keys("Enter");
		await term.waitUntil("the summary question", (p) => p.editor.includes("Summarize branch?"));
		term.keys("Down", "Enter");
		const summarised = await term.waitForAbove(" [branch summary] Tried another question; got answer three.");
		expect(summarised.above).toContain(" Moved to assistant: Answer two.\n\n › first question\n\n Answer one.\n\n › second question\n\n Answer two.");
		expect(readFileSync(log, "utf8")).toBe("before false 4\ntree -\nbefore true 3\ntree Tried another question; got answer three.\n");
		// The summary request carried the branch that was left.
		expect(JSON.stringify(world.mock.lastRequest().body)).toContain("another question");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
		const entries = readSessionLines(world.onlySessionFile());
		expect(entries.filter((e) => e.type === "label").map((e) => e.label)).toEqual(["old idea"]);
		expect(entries.filter((e) => e.type === "branch_summary").map((e) => e.summary)).toEqual(["Tried another question; got answer three."]);
	}, TIMEOUT);

	test("/resume and -r: a searchable list of this folder's sessions; picking one shows its conversation", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "Apples are red." }, { text: "Bananas are yellow." });
		for (const question of ["tell me about apples", "tell me about bananas"]) {
			await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
			await term.ready();
			term.submit(question);
			await term.waitFor(question.includes("apples") ? "Apples are red." : "Bananas are yellow.");
			term.keys("C-d");
			await term.waitFor("EXIT=0");
		}
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai, "-r"]);
		// Newest first: first message, age, messages, size.
		await term.waitToPass("the resume picker", (p) => {
			expect(p.editor).toContain("Resume a session");
			expect(p.editor).toMatch(/ → tell me about bananas +\d+s ago · 2 messages · [\d.]+ KB\n   tell me about apples +\d+s ago · 2 messages · [\d.]+ KB/);
		});
		term.type("appl");
		await term.waitUntil("the search", (p) => p.editor.includes(" › appl") && !p.editor.includes("bananas"));
		term.keys("Enter");
		await term.waitForAbove(" Resumed tell me about apples\n\n › tell me about apples\n\n Apples are red.");
		// The conversation goes on in the resumed session.
		world.mock.script({ text: "Green ones too." });
		term.submit("and green?");
		await term.waitFor("Green ones too.");
		expect(JSON.stringify(world.mock.lastRequest().body)).toContain("tell me about apples");
		term.submit("/resume");
		await term.waitUntil("the picker again", (p) => p.editor.includes("Resume a session") && p.editor.includes("bananas"));
		term.keys("Escape");
		await term.waitUntil("the editor back", (p) => !p.editor.includes("Resume a session"));
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("/copy: the last answer through a native clipboard tool, or OSC 52 into tmux's buffer", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "The answer is **42**.\n\nSecond line." }, { text: "Copy me too." });
		const copied = join(world.root, "copied.txt");
		const xclip = world.write("bin/xclip", `#!/bin/sh\ncat > ${JSON.stringify(copied)}\n`);
		chmodSync(xclip, 0o755);
		{
			await using term = new Terminal(world, ["-ne", "--model", MODEL.openai], { env: { DISPLAY: ":99", PATH: `${join(world.root, "bin")}:${process.env.PATH}` } });
			await term.ready();
			term.submit("/copy");
			await term.waitForAbove(" Error: Nothing to copy yet: there is no answer in this conversation.");
			term.submit("question");
			await term.waitFor("Second line.");
			term.submit("/copy");
			await term.waitForAbove(" Copied the last answer (3 lines) to the clipboard with xclip.");
			expect(readFileSync(copied, "utf8")).toBe("The answer is **42**.\n\nSecond line.");
			term.keys("C-d");
			await term.waitFor("EXIT=0");
		}
		// No display, no tool: OSC 52, which tmux (set-clipboard on) turns into a paste buffer.
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
		term.tmuxCommand("set-option", "-g", "set-clipboard", "on");
		await term.ready();
		term.submit("again");
		await term.waitFor("Copy me too.");
		term.submit("/copy");
		await term.waitForAbove(" Copied the last answer (1 line) to the clipboard (through the terminal, OSC 52).");
		await term.waitUntil("the tmux buffer", () => term.tmuxCommand("show-buffer").trimEnd() === "Copy me too.");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("/hotkeys lists the app's keys, the editor's and extension shortcuts", async () => {
		await using world = await mockWorld();
		const ext = world.write("keys.ts", `export default function (pi) {\n\tpi.registerShortcut("ctrl+shift+k", { description: "Knock twice", handler: async (ctx) => ctx.ui.notify("knock") });\n}\n`);
		await using term = new Terminal(world, ["-ne", "-e", ext, "--model", MODEL.openai], { width: 140, height: 80 });
		await term.ready();
		term.submit("/hotkeys");
		const shown = await term.waitForAbove("(keys.ts)");
		expect(shown.above).toContain(" Keyboard shortcuts\n\n App\n   escape");
		expect(shown.above).toMatch(/\n {3}ctrl\+p +Next model in the --models scope\n {3}shift\+ctrl\+p +Previous model in the --models scope\n/);
		expect(shown.above).toMatch(/\n {3}ctrl\+o +Expand or collapse tool output, thinking and the start-up list\n/);
		expect(shown.above).toMatch(/\n Editor\n {3}enter +Submit input\n {3}shift\+enter, ctrl\+j +Insert newline\n/);
		expect(shown.above).toMatch(/\n Extension shortcuts\n {3}ctrl\+shift\+k +\[t\] Knock twice \(keys\.ts\)$/);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("/export writes the session as HTML through the core exporter; /compact, /extensions, /help, /quit", async () => {
		await using world = await mockWorld();
		const ext = world.write("hello.ts", `export default function (pi) {\n\tpi.registerCommand("hello", { description: "Say hello", handler: async (_a, ctx) => ctx.ui.notify("hi") });\n}\n`);
		world.mock.script({ text: "Exported answer with <b>tags</b>." }, { text: "## Goal\nSummary of it all." });
		await using term = new Terminal(world, ["-ne", "-e", ext, "--model", MODEL.openai], { height: 60 });
		await term.ready();
		term.submit("export this");
		await term.waitFor("Exported answer");
		term.submit("/export out/page.html");
		await term.waitForAbove(` Session exported to ${world.cwd}/out/page.html`);
		const html = readFileSync(join(world.cwd, "out/page.html"), "utf8");
		expect(html).toStartWith("<!doctype html>");
		expect(html).toContain("export this");
		expect(html).toContain("Exported answer with &lt;b&gt;tags&lt;/b&gt;.");
		term.submit("/export");
		const done = await term.waitUntil("the second export", (p) => /Session exported to\s+\S+agent-session-\S+\.html$/.test(p.above));
		const path = /Session exported to\s+(\S+\.html)$/.exec(done.above)![1]!;
		expect(path).toStartWith(`${world.cwd}/agent-session-`);
		expect(existsSync(path)).toBe(true);
		term.submit("/compact");
		await term.waitFor(/Compacted \d+ tokens into a summary\./);
		term.submit("/extensions");
		await term.waitForAbove(`[Extensions]\n  path\n    ${ext}`);
		term.submit("/help");
		await term.waitToPass("the help", (_p, help) => {
			expect(help).toMatch(/\n {3}\/hotkeys +Show every key binding, extension shortcuts too\n/);
			expect(help).toMatch(/\n {3}\/copy +Copy the last answer to the clipboard\n/);
			expect(help).toContain("Extension commands");
			expect(help).toMatch(/\n {3}\/hello +\[t\] Say hello\n/);
		});
		term.submit("/quit");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
