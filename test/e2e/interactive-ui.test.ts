// ctx.ui in the TUI, through the compiled binary in tmux: dialogs with countdowns and prompt
// events, status and widgets (lines and component factories), custom() inline and as an overlay,
// header/footer factories, a replacement editor, message and entry renderers, console.log.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { TempWorld } from "../support/agent.ts";
import { heldTurn } from "../support/held-turn.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";

const TIMEOUT = 30_000;

describe.skipIf(!hasTmux)("interactive extension UI", () => {
	test("select and confirm dialogs, countdown, status, widgets above and below, prompt events", async () => {
		await using world = new TempWorld();
		const log = join(world.root, "events.log");
		const ext = world.write(
			"ui-ext.ts",
			`import { appendFileSync } from "node:fs";
export default function (pi) {
	const log = (line) => appendFileSync(${JSON.stringify(log)}, line + "\\n");
	pi.on("ui_prompt_start", (e) => log("start " + e.method + " " + e.title));
	pi.on("ui_prompt_end", (e) => log("end " + e.method + " " + e.cancelled));
	pi.on("session_start", async (_e, ctx) => {
		ctx.ui.setStatus("mode", "status: ready");
		ctx.ui.setWidget("top", ["widget above"]);
		ctx.ui.setWidget("bottom", ["widget below"], { placement: "belowEditor" });
	});
	pi.registerCommand("pick", {
		description: "Pick a colour",
		handler: async (_a, ctx) => {
			const colour = await ctx.ui.select("Pick a colour", ["red", "green", "blue"]);
			const sure = await ctx.ui.confirm("Really?", "Use " + colour + "?");
			ctx.ui.notify("picked " + colour + ", sure: " + sure);
		},
	});
	pi.registerCommand("hurry", {
		description: "A dialog that times out",
		handler: async (_a, ctx) => {
			const answer = await ctx.ui.select("Pick fast", ["a", "b"], { timeout: 4000 });
			ctx.ui.notify("timed out with " + answer, "error");
		},
	});
}
`,
		);
		await using term = new Terminal(world, ["-ne", "-e", ext]);
		await term.waitToPass("the widgets", (p) => {
			expect(p.below).toStartWith(" widget below\n");
			expect(p.above).toEndWith(" widget above");
			// Status texts go under the footer's figures.
			expect(p.below).toEndWith("\nstatus: ready");
		});
		term.submit("/pick");
		// Drawn as pi draws it: the title, the options with → before the chosen one, the key hints.
		await term.waitToPass("the select dialog", (p) => expect(p.editor).toContain("\n Pick a colour\n\n → red\n   green\n   blue\n\n ↑↓ navigate  enter select  escape/ctrl+c cancel\n"));
		term.keys("Down", "Enter");
		await term.waitToPass("the confirm dialog", (p) => expect(p.editor).toContain("\n Really?\n Use green?\n\n → Yes\n   No\n"));
		term.keys("Enter");
		await term.waitForAbove(" picked green, sure: true\n\n widget above");
		term.submit("/hurry");
		// The seconds left count down in the title.
		await term.waitUntil("the countdown", (p) => /Pick fast \([123]s\)/.test(p.editor));
		await term.waitForAbove(" Error: timed out with undefined\n\n widget above");
		expect((await Bun.file(log).text()).split("\n")).toEqual([
			"start select Pick a colour",
			"end select false",
			"start confirm Really?",
			"end confirm false",
			"start select Pick fast",
			"end select true",
			"",
		]);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("custom() as an overlay takes keys and resolves with done(); inline custom() takes the editor's place", async () => {
		await using world = new TempWorld();
		const ext = world.write(
			"counter.ts",
			`import { matchesKey, truncateToWidth } from "@mariozechner/pi-tui";
class Counter {
	constructor(theme, done, label) { this.theme = theme; this.done = done; this.label = label; this.n = 0; }
	handleInput(data) {
		if (data === "+") this.n++;
		else if (matchesKey(data, "enter")) this.done(this.n);
		else if (matchesKey(data, "escape")) this.done(undefined);
	}
	render(width) { return [truncateToWidth(this.theme.bold(this.label + ": " + this.n), width)]; }
	invalidate() {}
}
export default function (pi) {
	pi.registerCommand("count", {
		description: "Count in an overlay",
		handler: async (_a, ctx) => {
			const n = await ctx.ui.custom((tui, theme, _kb, done) => new Counter(theme, done, "overlay count"), { overlay: true, overlayOptions: { anchor: "center", width: 30 } });
			ctx.ui.notify("overlay gave " + n);
		},
	});
	pi.registerCommand("inline", {
		description: "Count in place of the editor",
		handler: async (_a, ctx) => {
			const n = await ctx.ui.custom((tui, theme, _kb, done) => new Counter(theme, done, "inline count"));
			ctx.ui.notify("inline gave " + n + ", editor has: " + ctx.ui.getEditorText());
		},
	});
}
`,
		);
		await using term = new Terminal(world, ["-ne", "-e", ext]);
		await term.ready();
		term.submit("/count");
		await term.waitUntil("the overlay", (_p, screen) => screen.includes("overlay count: 0"));
		term.type("+++");
		await term.waitUntil("three", (_p, screen) => screen.includes("overlay count: 3"));
		term.keys("Enter");
		const after = await term.waitToPass("the overlay's result", (p) => {
			expect(p.above).toEndWith(" overlay gave 3");
			expect(p.editor).toBe("");
			expect(p.below).not.toBe("");
		});
		expect(after.above + after.editor + after.below).not.toContain("overlay count");
		term.type("draft");
		term.keys("C-u");
		term.submit("/inline");
		await term.waitUntil("the inline component", (_p, screen) => screen.includes("\ninline count: 0\n/"));
		term.type("++");
		await term.waitUntil("two", (_p, screen) => screen.includes("inline count: 2"));
		term.keys("Enter");
		await term.waitForAbove(" inline gave 2, editor has:");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("custom(): an async factory, overlayOptions as a function asked when shown, onHandle; tools expanded; the editor factory", async () => {
		await using world = new TempWorld();
		const ext = world.write(
			"more.ts",
			`import { CustomEditor } from "@earendil-works/pi-coding-agent";
export default function (pi) {
	pi.registerCommand("panel", {
		description: "An overlay placed by a function",
		handler: async (_a, ctx) => {
			let asked = 0;
			let hidden;
			const result = await ctx.ui.custom(
				async (tui, theme, kb, done) => {
					await new Promise((r) => setTimeout(r, 20));
					return { render: (w) => ["PANEL " + w + " wide, asked " + asked], invalidate() {}, handleInput: (d) => done("closed with " + JSON.stringify(d)) };
				},
				{ overlay: true, overlayOptions: () => (asked++, { anchor: "top-right", width: 30 }), onHandle: (h) => (hidden = h.isHidden()) },
			);
			ctx.ui.notify(result + ", handle hidden: " + hidden);
		},
	});
	pi.registerCommand("expand", {
		description: "Toggle tool output",
		handler: async (_a, ctx) => {
			ctx.ui.setToolsExpanded(!ctx.ui.getToolsExpanded());
			ctx.ui.notify("expanded: " + ctx.ui.getToolsExpanded());
		},
	});
	pi.registerCommand("editor", {
		description: "Swap the editor",
		handler: async (_a, ctx) => {
			const factory = (tui, theme, kb) => new CustomEditor(tui, theme, kb);
			ctx.ui.setEditorComponent(factory);
			const same = ctx.ui.getEditorComponent() === factory;
			ctx.ui.setEditorComponent(undefined);
			ctx.ui.notify("same factory: " + same + ", after reset: " + ctx.ui.getEditorComponent());
		},
	});
}
`,
		);
		await using term = new Terminal(world, ["-ne", "-e", ext], { width: 100 });
		await term.ready();
		term.submit("/panel");
		// Top right, 30 wide: the function was asked once, when the overlay was shown.
		await term.waitUntil("the panel", (_p, screen) => /^.{70}PANEL 30 wide, asked 1/.test(screen.split("\n")[0] ?? ""));
		term.type("x");
		await term.waitForAbove(' closed with "x", handle hidden: false');
		term.submit("/expand");
		await term.waitForAbove(" expanded: true");
		term.submit("/expand");
		await term.waitForAbove(" expanded: false");
		term.submit("/editor");
		await term.waitForAbove(" same factory: true, after reset: undefined");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("setHeader and setFooter factories replace ours and undefined brings them back; a widget factory renders", async () => {
		await using world = new TempWorld();
		const ext = world.write(
			"frame.ts",
			`export default function (pi) {
	let on = false;
	pi.registerCommand("frame", {
		description: "Swap header and footer",
		handler: async (_a, ctx) => {
			on = !on;
			ctx.ui.setHeader(on ? (tui, theme) => ({ render: (w) => [theme.bold("MY HEADER")], invalidate() {} }) : undefined);
			ctx.ui.setFooter(on ? (tui, theme, data) => ({ render: (w) => ["MY FOOTER branch=" + data.getGitBranch() + " status=" + data.getExtensionStatuses().get("s")], invalidate() {} }) : undefined);
			ctx.ui.setStatus("s", "on");
			ctx.ui.setWidget("w", on ? (tui, theme) => ({ render: (w) => ["widget width " + w], invalidate() {}, dispose() {} }) : undefined);
		},
	});
}
`,
		);
		await using term = new Terminal(world, ["-ne", "-e", ext], { width: 100 });
		await term.ready();
		term.submit("/frame");
		const on = await term.waitUntil("the custom frame", (p) => p.below === "MY FOOTER branch=null status=on");
		expect(on.above).toStartWith("MY HEADER\n");
		expect(on.above).not.toContain("agent v");
		expect(on.above).toEndWith("\n widget width 100".trimStart().replace(/^/, ""));
		term.submit("/frame");
		const off = await term.waitUntil("our frame", (p) => p.above.startsWith(" agent v") && p.below.endsWith("\non"));
		expect(off.above).not.toContain("widget width");
		expect(off.above).not.toContain("MY HEADER");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("setEditorComponent: a custom editor replaces ours and keeps submit, history and completion", async () => {
		await using world = new TempWorld();
		const ext = world.write(
			"shouty.ts",
			`import { CustomEditor } from "@earendil-works/pi-coding-agent";
class ShoutyEditor extends CustomEditor {
	handleInput(data) {
		// Lower-case letters go in upper case; everything else is the normal editor.
		if (data.length === 1 && data >= "a" && data <= "z") return super.handleInput(data.toUpperCase());
		super.handleInput(data);
	}
	render(width) { return ["SHOUTY EDITOR", ...super.render(width)]; }
}
export default function (pi) {
	pi.registerCommand("shout", {
		description: "Use the shouty editor",
		handler: async (_a, ctx) => ctx.ui.setEditorComponent((tui, theme, keybindings) => new ShoutyEditor(tui, theme, keybindings)),
	});
	pi.registerCommand("echo", { description: "Echo", handler: async (args, ctx) => ctx.ui.notify("echo " + args) });
}
`,
		);
		await using term = new Terminal(world, ["-ne", "-e", ext]);
		await term.ready();
		term.submit("/shout");
		await term.waitUntil("the shouty editor", (p) => p.above.endsWith("SHOUTY EDITOR"));
		term.type("/ec");
		// Completion still works in the new editor (and the menu is under it).
		await term.waitForBelow("→ echo");
		term.keys("Tab");
		term.type("hi");
		await term.waitForEditor("/echo HI");
		term.keys("Enter");
		await term.waitForAbove(" echo HI\n\nSHOUTY EDITOR");
		// History: Up brings the last message back (the cursor at its start, as pi-tui's editor does).
		term.keys("Up");
		await term.waitForEditor("/echo HI");
		term.keys("C-k", "C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("message and entry renderers draw; console.log joins the transcript; ctx.shutdown() exits", async () => {
		await using world = new TempWorld();
		const ext = world.write(
			"messages.ts",
			`import { Box, Text } from "@mariozechner/pi-tui";
export default function (pi) {
	pi.registerMessageRenderer("boxed", (message, { expanded }, theme) => {
		const box = new Box(2, 0);
		box.addChild(new Text(theme.bold("Status: ") + message.content + (expanded ? " (expanded)" : ""), 0, 0));
		return box;
	});
	pi.registerMessageRenderer("broken", () => { throw new Error("renderer bug"); });
	pi.registerEntryRenderer("card", (entry, { expanded }, theme) => new Text("[card] " + entry.data.title + (expanded ? " (all)" : ""), 0, 0));
	pi.registerCommand("status", {
		description: "Send custom messages",
		handler: async () => {
			pi.sendMessage({ customType: "boxed", content: "all good", display: true });
			pi.sendMessage({ customType: "broken", content: "still readable", display: true });
			pi.sendMessage({ customType: "plain", content: "no renderer", display: true });
			pi.sendMessage({ customType: "hidden", content: "not shown", display: false });
			pi.appendEntry("card", { title: "a card" });
			pi.appendEntry("nobody-draws-this", { title: "invisible" });
			console.log("printed by an extension");
		},
	});
	pi.registerCommand("bye", { description: "Leave", handler: async (_a, ctx) => ctx.shutdown() });
	pi.on("session_shutdown", (e) => console.log("shutdown: " + e.reason));
}
`,
		);
		await using term = new Terminal(world, ["-ne", "-e", ext]);
		await term.ready();
		term.submit("/status");
		const shown = await term.waitForAbove(" [card] a card");
		expect(shown.above).toContain("\n\n   Status: all good\n\n [broken]\n still readable\n\n [plain]\n no renderer\n\n [card] a card");
		// console.log went into the transcript (it ran before the messages were delivered).
		expect(shown.above).toContain("\n\n printed by an extension\n\n");
		expect(shown.above).not.toContain("not shown");
		expect(shown.above).not.toContain("invisible");
		term.keys("C-o");
		await term.waitUntil("expanded renderers", (p) => p.above.includes("Status: all good (expanded)") && p.above.includes("[card] a card (all)"));
		term.submit("/bye");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});

describe.skipIf(!hasTmux)("interactive extension UI: input and the working line", () => {
	test("onTerminalInput sees keys first and may take them; pasteToEditor, setEditorText; working message and hidden-thinking label", async () => {
		const { mockWorld, MODEL } = await import("../support/world.ts");
		await using world = await mockWorld();
		const held = heldTurn({ thinking: "secret plan", text: "Done thinking." });
		world.mock.script(held.turn);
		const ext = world.write(
			"input.ts",
			`export default function (pi) {
	pi.on("session_start", (_e, ctx) => {
		// F2 is ours: it never reaches the editor.
		ctx.ui.onTerminalInput((data) => (data === "\\x1bOQ" ? (ctx.ui.setEditorText("set by F2"), true) : undefined));
		ctx.ui.setHiddenThinkingLabel("Pondering");
	});
	pi.registerCommand("paste", { description: "Paste", handler: async (_a, ctx) => ctx.ui.pasteToEditor("pasted\\ntwo lines") });
	pi.on("agent_start", (_e, ctx) => ctx.ui.setWorkingMessage("Crunching numbers"));
}
`,
		);
		await using term = new Terminal(world, ["-ne", "-e", ext, "--model", MODEL.openai]);
		await term.ready();
		term.keys("F2");
		await term.waitForEditor("set by F2");
		term.keys("C-u");
		term.submit("/paste");
		await term.waitForEditor("pasted\ntwo lines");
		term.keys("C-u", "BSpace", "C-u");
		term.submit("think");
		// pi draws the working status in the editor's top border.
		await term.waitUntil("the working message", (_p, screen) => /\n── \S+ Crunching numbers ─+\n/.test(screen));
		held.release();
		const done = await term.waitForAbove(" Done thinking.");
		expect(done.above).toContain(" ∴ Pondering (1 line, ctrl+o to expand)");
		expect(done.above).not.toContain("secret plan");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
