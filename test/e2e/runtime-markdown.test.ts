// Markdown transformers reach the mode that draws Markdown (issue 13): the interactive mode shows
// assistant and user text as an extension's registerMarkdownTransformer rewrote it, only for the
// message types it asked for; the session keeps the original text.
import { expect, test } from "bun:test";
import { Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld, sessionMessages } from "../support/world.ts";

test("registerMarkdownTransformer rewrites what the TUI draws for its message types; the session keeps the original", async () => {
	await using world = await mockWorld();
	const ext = world.write(
		"project/md.ts",
		`export default function (pi) {
	pi.registerMarkdownTransformer((md, ctx) => md.replaceAll("teh", "the") + (ctx.isStreaming ? "" : " [fixed:" + ctx.messageType + "]"), { messageTypes: ["assistant"] });
}
`,
	);
	world.mock.script({ text: "teh answer" });
	await using term = new Terminal(world, ["-ne", "-e", ext, "--model", MODEL.openai]);
	await term.ready();
	term.submit("teh question");
	const screen = (await term.waitForAbove("the answer [fixed:assistant]")).above;
	// User text is not among the transformer's types: drawn as typed.
	expect(screen).toContain("teh question");
	expect(screen).not.toContain("teh answer");
	term.keys("C-d");
	await term.waitFor("EXIT=0");
	const assistant = sessionMessages(world.onlySessionFile()).find((m) => m.role === "assistant");
	expect(assistant.content).toEqual([{ type: "text", text: "teh answer" }]);
}, 30_000);
