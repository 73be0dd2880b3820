// A conversation in the interactive TUI against the mock LLM, in a real terminal (tmux): a
// streamed answer with a tool call and markdown, ctrl+o expanding in place, tool renderers, Escape
// aborting a run, steering and follow-ups while it streams, `!cmd` / `!!cmd` in and out of the
// context, and the session commands.
import { describe, expect, test } from "bun:test";
import { heldTurn } from "../support/held-turn.ts";
import { readMessages } from "../support/mock-llm.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld } from "../support/world.ts";

const TIMEOUT = 30_000;

/** The user messages the model saw in request `i`. */
function userTexts(world: Awaited<ReturnType<typeof mockWorld>>, i: number): string[] {
	return readMessages(world.mock.requests[i]!)
		.filter((m) => m.role === "user")
		.map((m) => m.text);
}

describe.skipIf(!hasTmux)("interactive conversation", () => {
	test("a streamed answer with a tool call: one line per call, collapsed result, markdown, ctrl+o expands", async () => {
		await using world = await mockWorld();
		world.mock.script(
			{ thinking: "Plan it.\nThen run it.", text: "Let me look.", toolCalls: [{ name: "bash", arguments: { command: "printf 'one\\ntwo\\nthree\\n'" } }] },
			{ text: "# Result\n\nIt printed **three** lines:\n\n- one\n- two\n\n```sh\nprintf done\n```\nThat is all." },
		);
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
		await term.ready();
		term.submit("run it");
		await term.waitToPass("the whole answer", (p) =>
			expect(p.above).toEndWith(
				[
				" › run it",
				"",
				" ∴ Thinking (2 lines, ctrl+o to expand)",
				"",
				" Let me look.",
				"",
				" bash  printf 'one\\ntwo\\nthree\\n'",
				"   ⎿ three (3 lines, ctrl+o to expand)",
				"",
				" Result",
				"",
				" It printed three lines:",
				"",
				" - one",
				" - two",
				"",
				" ```sh",
				"   printf done",
				" ```",
				"",
				" That is all.",
				].join("\n"),
			),
		);
		expect(readMessages(world.mock.requests[1]!).at(-1)).toMatchObject({ role: "toolResult", text: "one\ntwo\nthree" });
		// ctrl+o expands thinking and the result where they are.
		term.keys("C-o");
		const expanded = await term.waitUntil("the expanded result", (p) => p.above.includes("   ⎿ one\n     two\n     three\n"));
		expect(expanded.above).toContain(" › run it\n\n Plan it.\n Then run it.\n\n Let me look.");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("an extension tool's renderCall / renderResult replace the default lines; a throwing renderer falls back", async () => {
		await using world = await mockWorld();
		const ext = world.write(
			"shout.ts",
			`import { Text } from "@mariozechner/pi-tui";
import { Type } from "typebox";
export default function (pi) {
	pi.registerTool({
		name: "shout",
		label: "Shout",
		description: "Upper-case a text",
		parameters: Type.Object({ text: Type.String() }),
		execute: async (_id, { text }) => ({ content: [{ type: "text", text: text.toUpperCase() }], details: {} }),
		renderCall: (args, theme) => new Text(theme.bold("shouting ") + args.text),
		renderResult: (result, { expanded }) => new Text("=> " + result.content[0].text + (expanded ? " (all of it)" : "")),
	});
	pi.registerTool({
		name: "whisper",
		label: "Whisper",
		description: "Lower-case a text",
		parameters: Type.Object({ text: Type.String() }),
		execute: async (_id, { text }) => ({ content: [{ type: "text", text: text.toLowerCase() }], details: {} }),
		renderCall: () => { throw new Error("renderer bug"); },
	});
}
`,
		);
		world.mock.script({ toolCalls: [{ name: "shout", arguments: { text: "hi" } }, { name: "whisper", arguments: { text: "QUIET" } }] }, { text: "Done." });
		await using term = new Terminal(world, ["-ne", "-e", ext, "--model", MODEL.openai]);
		await term.ready();
		term.submit("go");
		// Each call is drawn where the model made it, its result under it, in a padded box; pi-tui's
		// Text has a padding of its own (one column, one line) unless told otherwise.
		const screen = (await term.waitForAbove(" Done.")).above;
		expect(screen).toContain("\n › go\n\n\n  shouting hi\n\n\n  => HI\n\n\n");
		expect(screen).toContain('\n whisper {"text":"QUIET"}\n   ⎿ quiet\n');
		term.keys("C-o");
		await term.waitUntil("the expanded renderer", (p) => p.above.includes("\n  => HI (all of it)\n"));
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("Escape aborts a streaming run; the next prompt works", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "I will think about this for a very long time", hang: true }, { text: "Fresh answer." });
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
		await term.ready();
		term.submit("slow please");
		// The unfinished line shows as it streams, before any newline arrives.
		await term.waitFor(/\n I will\S*/);
		term.keys("Escape");
		await term.waitForAbove(" Aborted.");
		term.submit("again");
		await term.waitForAbove(" › again\n\n Fresh answer.");
		expect(world.mock.requests.length).toBe(2);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("Enter while streaming steers, Alt+Enter queues a follow-up", async () => {
		await using world = await mockWorld();
		const first = heldTurn("First answer.");
		world.mock.script(first.turn, { text: "Steered answer." }, { text: "Follow-up answer." });
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
		await term.ready();
		term.submit("start");
		await term.waitFor(/\n── \S+ Working ─+\n/);
		term.submit("also this");
		term.type("and later that");
		term.keys("M-Enter");
		const queued = await term.waitFor("↳ follow-up: and later that");
		expect(queued).toContain(" ↳ steer: also this\n ↳ follow-up: and later that\n");
		first.release();
		await term.waitFor("Follow-up answer.");
		expect(userTexts(world, 1)).toEqual(["start", "also this"]);
		expect(userTexts(world, 2)).toEqual(["start", "also this", "and later that"]);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("!cmd output joins the context, !!cmd output does not", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "Noted." });
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
		await term.ready();
		term.submit("!echo visible-output");
		await term.waitFor("   visible-output");
		term.submit("!!echo hidden-output");
		await term.waitFor("   hidden-output");
		term.submit("what ran?");
		await term.waitFor("Noted.");
		const seen = userTexts(world, 0);
		expect(seen).toEqual(["Ran `echo visible-output` (exit code 0)\n```\nvisible-output\n\n```", "what ran?"]);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("session commands: /name, /session, /fork back into the input, /new, /resume, /tree", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "Answer one." }, { text: "Answer two." });
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
		await term.ready();
		term.submit("first question");
		await term.waitFor("Answer one.");
		term.submit("second question");
		await term.waitFor("Answer two.");
		term.submit("/name Demo");
		await term.waitFor(" Session name: Demo");
		term.submit("/session");
		const stats = await term.waitFor("   Cost");
		expect(stats).toContain("   Name      Demo\n   Model     mock/mock-model · thinking off\n   Messages  2 user, 2 assistant, 0 tool calls, 4 in all\n");
		term.submit("/fork");
		await term.waitToPass("the fork picker", (p) => expect(p.editor).toContain(" Fork from which message?\n\n→ second question\n  first question"));
		term.keys("Enter");
		await term.waitToPass("the fork", (p) => {
			expect(p.above).toEndWith(" Forked into a new session. The message is back in the input: edit it and press Enter.\n\n › first question\n\n Answer one.");
			expect(p.editor).toBe("second question");
		});
		term.keys("C-u");
		term.submit("/new");
		await term.waitForAbove(" New session started.");
		term.submit("/resume");
		await term.waitToPass("the resume picker", (p) => {
			expect(p.editor).toContain("Resume a session");
			expect(p.editor).toMatch(/ → Demo: first question +\d+s ago · 4 messages · [\d.]+ KB/);
		});
		term.keys("Enter");
		await term.waitForAbove(" Resumed Demo\n\n › first question\n\n Answer one.\n\n › second question\n\n Answer two.");
		term.submit("/tree");
		const tree = await term.waitUntil("the tree picker", (p) => p.editor.includes("Answer two. ← current"));
		expect(tree.editor).toContain("   • user: first question\n   • assistant: Answer one.\n   • user: second question\n → • assistant: Answer two. ← current");
		term.keys("Up", "Enter");
		// Leaving the branch: pi's question whether to summarise it first.
		await term.waitUntil("the summary question", (p) => p.editor.includes("Summarize branch?"));
		term.keys("Enter");
		// Moving to a user message goes to just before it, with its text back in the input.
		await term.waitToPass("the move", (p) => {
			expect(p.above).toEndWith(" Moved to user: second question\n\n › first question\n\n Answer one.");
			expect(p.editor).toBe("second question");
		});
		term.keys("C-u", "C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});

describe.skipIf(!hasTmux)("interactive screen", () => {
	test("a pasted stack trace is one message; a long paste collapses to a marker and is sent whole", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "Seen one." }, { text: "Seen two." });
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
		await term.ready();
		const trace = "TypeError: x is undefined\n    at parse (src/a.ts:3:9)\n    at main (src/b.ts:7:1)";
		term.paste(trace);
		await term.waitForEditor("TypeError: x is undefined\n    at parse (src/a.ts:3:9)\n    at main (src/b.ts:7:1)");
		term.keys("Enter");
		await term.waitForAbove(" Seen one.");
		expect(world.mock.requests.length).toBe(1);
		expect(userTexts(world, 0)).toEqual([trace]);
		const long = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n");
		term.paste(long);
		await term.waitForEditor("[paste #1 +30 lines]");
		term.keys("Enter");
		await term.waitForAbove(" Seen two.");
		expect(userTexts(world, 1).at(-1)).toBe(long);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("a 60-column window wraps words; tables are drawn with box characters; the footer shows model and tokens", async () => {
		await using world = await mockWorld();
		const paragraph = "The parser reads each token once and keeps a small stack of open brackets so that errors point at the right place.";
		world.mock.script({ text: `${paragraph}\n\n| Name | Value |\n| --- | --- |\n| alpha | 1 |\n| beta | 22 |`, usage: { input: 1234, output: 56 } });
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai], { width: 60 });
		await term.ready();
		term.submit("explain");
		// The table's last line and the usage in the footer (given when the answer ends): the whole frame.
		const screen = await term.waitToPass("the table and the usage", (p) => {
			expect(p.above).toEndWith("└───────┴───────┘");
			expect(p.below).toMatch(/\n↑1\.2k ↓56 /);
		});
		const lines = screen.above.split("\n");
		expect(lines.every((l) => l.length <= 60)).toBe(true);
		// Words are kept whole: the paragraph reads the same once the lines are joined again.
		const start = lines.findIndex((l) => l.startsWith(" The parser"));
		const wrapped = lines.slice(start, lines.indexOf("", start));
		expect(wrapped.length).toBeGreaterThan(1);
		expect(wrapped.map((l) => l.trim()).join(" ")).toBe(paragraph);
		expect(screen.above).toEndWith([" ┌───────┬───────┐", " │ Name  │ Value │", " ├───────┼───────┤", " │ alpha │ 1     │", " ├───────┼───────┤", " │ beta  │ 22    │", " └───────┴───────┘"].join("\n"));
		// The footer: where, then tokens in and out, cost and context used, and the model.
		const footer = screen.below.split("\n");
		expect(footer[0]).toBe(world.cwd.replace(world.home, "~"));
		expect(footer[1]).toMatch(/^↑1\.2k ↓56 \$0\.000 [\d.]+%\/100k +mock\/mock-model$/);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("code blocks are highlighted by language; an edit's result is a coloured diff", async () => {
		await using world = await mockWorld();
		world.write("project/greet.ts", "export const greeting = 'hello';\n");
		world.mock.script(
			{ text: "```ts\nconst answer: number = 42;\n```" },
			{ toolCalls: [{ name: "edit", arguments: { path: "greet.ts", edits: [{ oldText: "'hello'", newText: "'goodbye'" }] } }] },
			{ text: "Changed." },
		);
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai], { env: { NO_COLOR: undefined } });
		await term.ready();
		term.submit("show code");
		await term.waitFor("const answer");
		// The highlighted line (its colours may come a frame after its text).
		let coloured = "";
		await term.waitUntil("the highlighted code", () => /\x1b\[38;[25];[\d;]+m42\x1b\[39m/.test((coloured = term.colouredScreen())));
		// `const` and `42` each get a colour of their own (highlight.js keyword and number scopes).
		const keyword = /\x1b\[38;[25];[\d;]+mconst\x1b\[39m/.exec(coloured);
		const number = /\x1b\[38;[25];[\d;]+m42\x1b\[39m/.exec(coloured);
		expect(keyword).not.toBeNull();
		expect(number).not.toBeNull();
		expect(keyword![0].replace("const", "")).not.toBe(number![0].replace("42", ""));
		term.submit("change it");
		await term.waitFor("Changed.");
		const diff = term.colouredScreen();
		// Removed and added lines in two colours, the changed word in inverse.
		const removed = /(\x1b\[38;[25];[\d;]+m)-1 export const greeting = '\x1b\[7mhello/.exec(diff);
		const added = /(\x1b\[38;[25];[\d;]+m)\+1 export const greeting = '\x1b\[7mgoodbye/.exec(diff);
		expect(removed).not.toBeNull();
		expect(added).not.toBeNull();
		expect(removed![1]).not.toBe(added![1]);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("@ completes files fuzzily; -c shows the conversation so far; exit says how to resume", async () => {
		await using world = await mockWorld();
		world.write("project/src/parser.ts", "export {};\n");
		world.write("project/src/printer.ts", "export {};\n");
		world.mock.script({ text: "Read it." }, { text: "Still here." });
		let id: string;
		{
			await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
			await term.ready();
			term.type("look at @pars");
			const menu = await term.waitForBelow("→ parser.ts");
			expect(menu.below).toContain("src/parser.ts");
			term.keys("Tab");
			await term.waitForEditor("look at @src/parser.ts");
			term.keys("Enter");
			await term.waitForAbove(" Read it.");
			term.keys("C-d");
			const end = await term.waitFor("EXIT=0");
			id = /To resume this session: agent --session (\S+)\nEXIT=0/.exec(end)![1]!;
		}
		await using again = new Terminal(world, ["-ne", "-c"]);
		await again.waitToPass("the conversation so far", (p) => {
			expect(p.above).toContain(" › look at @src/parser.ts\n\n Read it.");
			expect(p.below).toContain("mock/mock-model");
		});
		again.submit("and now?");
		await again.waitForAbove(" › and now?\n\n Still here.");
		again.keys("C-d");
		expect(await again.waitFor("EXIT=0")).toContain(`To resume this session: agent --session ${id}\nEXIT=0`);
	}, TIMEOUT);

	test("TERM=dumb or a piped stdout falls back to print mode, saying so in one line", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "Plain answer." }, { text: "Piped answer." });
		{
			await using term = new Terminal(world, ["-ne", "--model", MODEL.openai, "say it"], { env: { TERM: "dumb" } });
			const out = await term.waitFor("EXIT=");
			expect(out).toBe("Note: TERM=dumb cannot show the interactive screen: running in print mode.\nPlain answer.\nEXIT=0");
		}
		await using piped = new Terminal(world, ["-ne", "--model", MODEL.openai, "say it"], { pipeStdout: true });
		expect(await piped.waitFor("EXIT=")).toBe("Note: stdout is not a terminal: running in print mode.\nPiped answer.\nEXIT=0");
	}, TIMEOUT);
});
