// A conversation in the interactive REPL against the mock LLM, in a real terminal (tmux): a
// streamed answer with a tool call and markdown, ctrl+o on the last result, Escape aborting a run,
// steering and follow-ups while it streams, and `!cmd` / `!!cmd` in and out of the context.
import { describe, expect, test } from "bun:test";
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
			{ text: "Let me look.", toolCalls: [{ name: "bash", arguments: { command: "printf 'one\\ntwo\\nthree\\n'" } }] },
			{ text: "# Result\n\nIt printed **three** lines:\n\n- one\n- two\n\n```sh\nprintf done\n```\nThat is all." },
		);
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
		await term.waitFor("\n›");
		term.submit("run it");
		await term.waitForEnd(
			[
				"› run it",
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
				" • one",
				" • two",
				"",
				" ┌─ sh",
				" │ printf done",
				" └─",
				" That is all.",
				"",
				"›",
			].join("\n"),
		);
		expect(readMessages(world.mock.requests[1]!).at(-1)).toMatchObject({ role: "toolResult", text: "one\ntwo\nthree" });
		term.keys("C-o");
		await term.waitForEnd("   ⎿ one\n     two\n     three\n\n›");
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
		await term.waitFor("\n›");
		term.submit("go");
		// Parallel calls: each call is printed with its result, in the order they finish.
		const screen = await term.waitFor("Done.");
		expect(screen).toContain("\n shouting hi\n   => HI\n");
		expect(screen).toContain('\n whisper {"text":"QUIET"}\n   ⎿ quiet\n');
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("Escape aborts a streaming run; the next prompt works", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "I will think about this for a very long time", hang: true }, { text: "Fresh answer." });
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
		await term.waitFor("\n›");
		term.submit("slow please");
		// The unfinished line shows as it streams, before any newline arrives.
		await term.waitFor(/\n I will\S*/);
		term.keys("Escape");
		await term.waitForEnd(" Aborted.\n\n›");
		term.submit("again");
		await term.waitForEnd("› again\n\n Fresh answer.\n\n›");
		expect(world.mock.requests.length).toBe(2);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("Enter while streaming steers, Alt+Enter queues a follow-up", async () => {
		await using world = await mockWorld();
		let release!: () => void;
		const released = new Promise<void>((resolve) => (release = resolve));
		world.mock.script(
			async () => {
				await released;
				return { text: "First answer." };
			},
			{ text: "Steered answer." },
			{ text: "Follow-up answer." },
		);
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
		await term.waitFor("\n›");
		term.submit("start");
		await term.waitFor("(esc to interrupt)");
		term.submit("also this");
		term.type("and later that");
		term.keys("M-Enter");
		const queued = await term.waitFor("↳ follow-up: and later that");
		expect(queued).toContain(" ↳ steer: also this\n ↳ follow-up: and later that\n");
		release();
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
		await term.waitFor("\n›");
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
		await term.waitFor("\n›");
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
		expect(await term.waitFor("○ first question")).toContain("◆  Fork from which message?\n│  ● second question\n│  ○ first question");
		term.keys("Enter");
		await term.waitForEnd(" Forked into a new session. The message is back in the input: edit it and press Enter.\n\n› first question\n\n Answer one.\n\n› second question");
		term.keys("C-u");
		term.submit("/new");
		await term.waitFor(" New session started.");
		term.submit("/resume");
		expect(await term.waitFor("● Demo")).toContain("◆  Resume a session\n│  ● Demo (");
		term.keys("Enter");
		await term.waitForEnd(" Resumed Demo\n\n› first question\n\n Answer one.\n\n› second question\n\n Answer two.\n\n›");
		term.submit("/tree");
		expect(await term.waitFor("Answer two. ← current")).toContain(
			"◆  Session tree: move to\n│  ○ user: first question\n│  ○ assistant: Answer one.\n│  ○ user: second question\n│  ● assistant: Answer two. ← current",
		);
		term.keys("Up", "Enter");
		// Moving to a user message goes to just before it, with its text back in the input.
		await term.waitForEnd(" Moved to user: second question\n\n› first question\n\n Answer one.\n\n› second question");
		term.keys("C-u", "C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
