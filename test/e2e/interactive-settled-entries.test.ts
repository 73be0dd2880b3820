// Entries that finished long ago still change on the screen when they change, through the binary
// in tmux: a tool row whose renderer calls invalidate() after the conversation went on, an
// extension message whose component changes its lines on its own, and a status line replaced in
// place. The transcript keeps finished entries' lines cached; these are the signals that redraw them.
import { describe, expect, test } from "bun:test";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld } from "../support/world.ts";

const TIMEOUT = 60_000;

const EXTENSION = `import { Text } from "@mariozechner/pi-tui";
import { Type } from "typebox";
let count = 0;
let progress = 0;
let redrawCounter;
export default function (pi) {
	pi.registerTool({
		name: "counter",
		label: "Counter",
		description: "Start a counter",
		parameters: Type.Object({}),
		execute: async () => ({ content: [{ type: "text", text: "started" }], details: {} }),
		renderCall: () => new Text("counter call", 0, 0),
		renderResult: (_result, _options, _theme, context) => {
			redrawCounter = context.invalidate;
			return new Text("count is " + count, 0, 0);
		},
	});
	// A component that changes its lines on its own; pi draws it every frame.
	pi.registerMessageRenderer("progress", () => ({ render: () => ["progress " + progress + "%"], invalidate() {} }));
	pi.registerCommand("progress", {
		description: "Show a progress message",
		handler: async () => pi.sendMessage({ customType: "progress", content: "", display: true }),
	});
	pi.registerCommand("bump", {
		description: "Change the counter and the progress",
		handler: async (_args, ctx) => {
			count += 1;
			progress = 100;
			redrawCounter?.();
			ctx.ui.notify("bumped " + count, "info");
		},
	});
}
`;

describe.skipIf(!hasTmux)("finished entries that change", () => {
	test("a tool row's invalidate(), a message component's own change and a replaced status line reach the screen", async () => {
		await using world = await mockWorld();
		const ext = world.write("live.ts", EXTENSION);
		world.mock.script({ toolCalls: [{ name: "counter", arguments: {} }] }, { text: "The counter runs." }, { text: "Later answer." });
		await using term = new Terminal(world, ["-ne", "-e", ext, "--model", MODEL.openai]);
		await term.ready();
		term.submit("/progress");
		await term.waitForAbove(" progress 0%");
		term.submit("count");
		await term.waitForAbove(" The counter runs.");
		term.submit("more");
		const before = await term.waitForAbove(" › more\n\n Later answer.");
		expect(before.above).toContain("count is 0");

		// Both entries are well above the latest answer now; the command changes them.
		term.submit("/bump");
		const after = await term.waitForAbove(" bumped 1");
		expect(after.above).toContain("count is 1");
		expect(after.above).not.toContain("count is 0");
		expect(after.above).toContain(" progress 100%");
		expect(after.above).not.toContain("progress 0%");
		expect(after.above.indexOf("count is 1")).toBeLessThan(after.above.indexOf(" Later answer."));

		// notify() right after notify(): the status line is replaced where it is, not added again.
		term.submit("/bump");
		const again = await term.waitForAbove(" bumped 2");
		expect(again.above).not.toContain("bumped 1");
		expect(again.above).toContain("count is 2");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
