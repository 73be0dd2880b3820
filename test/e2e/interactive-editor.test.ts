// The editor and what it completes, in a real terminal (tmux): ctrl+j for a second line (one
// message of two lines), an extension command's argument completion (getArgumentCompletions), an
// extension's completion provider stacked on ours (addAutocompleteProvider), a Markdown transformer
// rewriting how an answer reads (not what the model said), and /thinking with its completion,
// shift+tab and the footer.
import { describe, expect, test } from "bun:test";
import { readMessages } from "../support/mock-llm.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld } from "../support/world.ts";

const TIMEOUT = 30_000;

const EXTENSION = `export default function (pi) {
	pi.registerCommand("deploy", {
		description: "Deploy somewhere",
		getArgumentCompletions: (prefix) =>
			["staging", "production"].filter((v) => v.startsWith(prefix)).map((v) => ({ value: v, label: v, description: "to " + v })),
		handler: async (args, ctx) => ctx.ui.notify("deploying to " + args),
	});
	pi.on("session_start", (_event, ctx) => {
		ctx.ui.addAutocompleteProvider((current) => ({
			triggerCharacters: ["#", ...(current.triggerCharacters ?? [])],
			async getSuggestions(lines, line, col, options) {
				const token = /#\\w*$/.exec(lines[line].slice(0, col));
				if (!token) return current.getSuggestions(lines, line, col, options);
				const items = [{ value: "#1234", label: "#1234", description: "Fix the parser" }, { value: "#1300", label: "#1300", description: "Docs" }];
				return { items: items.filter((i) => i.value.startsWith(token[0])), prefix: token[0] };
			},
			applyCompletion: (...args) => current.applyCompletion(...args),
			shouldTriggerFileCompletion: (...args) => current.shouldTriggerFileCompletion?.(...args) ?? false,
		}));
	});
	pi.registerMarkdownTransformer((md) => md.replaceAll(":tick:", "✔"), { messageTypes: ["assistant"] });
}
`;

describe.skipIf(!hasTmux)("interactive editor", () => {
	test("ctrl+j starts a second line and the two go out as one message", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "Got both." });
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
		await term.ready();
		term.type("first line");
		term.keys("C-j");
		term.type("second line");
		await term.waitForEditor("first line\nsecond line");
		term.keys("Enter");
		const done = await term.waitForAbove(" Got both.");
		expect(done.above).toContain(" › first line\n   second line\n\n Got both.");
		expect(readMessages(world.mock.requests[0]!).filter((m) => m.role === "user").map((m) => m.text)).toEqual(["first line\nsecond line"]);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("ctrl+c clears the input; on an empty input it asks for a second press, which exits", async () => {
		await using world = await mockWorld();
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai]);
		await term.ready();
		term.type("half a thought");
		await term.waitForEditor("half a thought");
		term.keys("C-c");
		await term.waitForEditor("");
		term.keys("C-c");
		await term.waitForAbove(" Press ctrl+c again to exit");
		term.keys("C-c");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("argument completion, a stacked completion provider and a Markdown transformer from an extension", async () => {
		await using world = await mockWorld();
		const ext = world.write("tmp/complete.ts", EXTENSION);
		world.mock.script({ text: "All good :tick:" });
		await using term = new Terminal(world, ["-ne", "-e", ext, "--model", MODEL.openai]);
		await term.ready();
		term.type("/deploy ");
		await term.waitToPass("the argument menu", (p) => {
			expect(p.below).toMatch(/→ staging +to staging/);
			expect(p.below).toContain("production");
		});
		term.type("pro");
		await term.waitUntil("one argument left", (p) => p.below.includes("production") && !p.below.includes("staging"));
		term.keys("Tab");
		await term.waitForEditor("/deploy production");
		term.keys("Enter");
		await term.waitForAbove(" deploying to production");
		// The extension's provider answers for #…; ours still completes the rest.
		term.type("look at #12");
		await term.waitUntil("the issue menu", (p) => p.below.includes("#1234") && p.below.includes("Fix the parser") && !p.below.includes("#1300"));
		term.keys("Tab");
		await term.waitForEditor("look at #1234");
		term.keys("Enter");
		const answer = await term.waitForAbove(" All good ✔");
		expect(answer.above).toContain(" › look at #1234\n\n All good ✔");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("/thinking completes levels and sets one (clamped to what the model has); shift+tab steps to the next it has; the footer shows it", async () => {
		await using world = await mockWorld();
		await using term = new Terminal(world, ["-ne", "--model", "mock/mock-reasoner"]);
		await term.ready();
		term.type("/thinking h");
		await term.waitUntil("the level menu", (p) => /→ high/.test(p.below));
		term.keys("Tab");
		await term.waitForEditor("/thinking high");
		term.keys("Enter");
		await term.waitToPass("the level set", (p) => {
			expect(p.above).toEndWith(" Thinking level: high");
			expect(p.below).toMatch(/mock\/mock-reasoner • high\s*$/m);
		});
		// mock-reasoner maps neither xhigh nor max: after high comes off, and max is clamped to high.
		term.keys("BTab");
		await term.waitToPass("the next level", (p) => {
			expect(p.below).toMatch(/mock\/mock-reasoner • off\s*$/m);
			expect(p.above).toContain("Thinking level: off");
		});
		term.type("/thinking ma");
		await term.waitUntil("the max entry", (p) => /→ max/.test(p.below));
		term.keys("Tab");
		await term.waitForEditor("/thinking max");
		term.keys("Enter");
		await term.waitToPass("max clamped", (p) => {
			expect(p.above).toEndWith(" Thinking level: high (this model has no max)");
			expect(p.below).toMatch(/mock\/mock-reasoner • high\s*$/m);
		});
		term.submit("/thinking nonsense");
		await term.waitForAbove(' Error: Unknown thinking level "nonsense". Use one of: off, minimal, low, medium, high, xhigh, max.');
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
