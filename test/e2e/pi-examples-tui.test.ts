// pi 1.6's own example extensions that need a full-screen UI, loaded from the npm package by path
// (copied into the test's temp folder; pi-tui and the framework come from the binary) and driven
// in the TUI through tmux: overlays, a game, a modal editor, header, footer, border status,
// widgets, a timed dialog, message and entry renderers — each behaving as it does in pi 1.6.
import { describe, expect, test } from "bun:test";
import { example } from "../support/pi-examples/copy.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld } from "../support/world.ts";

const TIMEOUT = 30_000;

describe.skipIf(!hasTmux)("pi 1.6 example extensions in the TUI", () => {
	test("overlay-test.ts: a floating overlay with inline inputs takes keys and resolves", async () => {
		await using world = await mockWorld();
		await using term = new Terminal(world, ["-ne", "-e", example(world, "overlay-test.ts")]);
		await term.ready();
		term.submit("/overlay-test");
		await term.waitUntil("the overlay", (_p, screen) => screen.includes("🧪 Overlay Test") && screen.includes("▶ Search:"));
		expect(term.screen()).toMatch(/╭─{68}╮/);
		term.type("ab");
		await term.waitUntil("the typed query", (_p, screen) => screen.includes("▶ Search: ab"));
		term.keys("Enter");
		await term.waitForAbove(' Search: "ab"');
		expect(term.screen()).not.toContain("Overlay Test");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("snake.ts: the game takes the editor's place, runs on a timer, and q gives the editor back", async () => {
		await using world = await mockWorld();
		await using term = new Terminal(world, ["-ne", "-e", example(world, "snake.ts")]);
		await term.ready();
		term.submit("/snake");
		await term.waitUntil("the board", (_p, screen) => screen.includes("SNAKE │ Score: 0") && screen.includes("▓▓▓▓██"));
		term.type("q");
		await term.ready();
		expect(term.screen()).not.toContain("SNAKE");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("modal-editor.ts: a vim-like editor replaces ours: normal mode edits, insert mode types, Enter still submits", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "Got it." });
		await using term = new Terminal(world, ["-ne", "-e", example(world, "modal-editor.ts"), "--model", MODEL.openai]);
		// Its bottom border names the mode.
		await term.waitUntil("the modal editor", (_p, screen) => /\n─+ INSERT\n/.test(screen));
		term.type("hello");
		term.keys("Escape");
		await term.waitUntil("normal mode", (_p, screen) => /\nhello\n─+ NORMAL\n/.test(screen));
		term.type("0");
		term.type("x");
		await term.waitUntil("x deleting a character", (_p, screen) => /\nello\n─+ NORMAL\n/.test(screen));
		term.type("i");
		term.type("J");
		await term.waitUntil("insert mode", (_p, screen) => /\nJello\n─+ INSERT\n/.test(screen));
		term.keys("Enter");
		await term.waitUntil("the answer", (_p, screen) => screen.includes(" › Jello\n\n Got it."));
		// ctrl+d on the empty input still exits: the app's keys were copied onto the custom editor.
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("custom-header.ts and custom-footer.ts: the factories replace ours; /footer brings ours back", async () => {
		await using world = await mockWorld();
		await using term = new Terminal(world, ["-ne", "-e", example(world, "custom-header.ts"), "-e", example(world, "custom-footer.ts"), "--model", MODEL.openai]);
		// The first frame comes before session_start (as in pi); the extension's header follows it.
		const start = await term.waitToPass("the custom header", (p) => {
			expect(p.above).toContain("   shitty coding agent v0.1.0");
			// The start-up sections stay under a custom header, as in pi.
			expect(p.above).toContain("[Extensions]\n  custom-footer.ts, custom-header.ts");
		});
		expect(start.above).not.toContain(" agent v0.1.0\n escape interrupt");
		term.submit("/footer");
		await term.waitToPass("the custom footer", (p) => {
			expect(p.below).toMatch(/^↑0 ↓0 \$0\.000 +mock-model$/);
			expect(p.above).toEndWith(" Custom footer enabled");
		});
		term.submit("/footer");
		await term.waitUntil("our footer", (p) => p.below.includes("mock/mock-model") && p.below.startsWith(world.cwd.replace(world.home, "~")));
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("border-status-editor.ts and widget-placement.ts: status in the editor's border, widgets above and below", async () => {
		await using world = await mockWorld();
		await using term = new Terminal(world, ["-ne", "-e", example(world, "border-status-editor.ts"), "-e", example(world, "widget-placement.ts"), "--model", MODEL.openai]);
		await term.waitToPass("the border status and the widgets", (_p, screen) => {
			expect(screen).toMatch(/\n─ mock\/mock-model · off ─+ ctx 0%\/100k · .*project ─\n/);
			expect(screen).toContain("\n Above editor widget\n");
			expect(screen).toContain("\n Below editor widget");
		});
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("timed-confirm.ts: the countdown runs in pi's Yes/No selector and Enter answers it; a signal closes it; Escape dismisses a select", async () => {
		await using world = await mockWorld();
		await using term = new Terminal(world, ["-ne", "-e", example(world, "timed-confirm.ts")]);
		await term.ready();
		term.submit("/timed");
		await term.waitToPass("the countdown", (_p, screen) => {
			expect(screen).toMatch(/\n Timed Confirmation\n This dialog will auto-cancel in 5 seconds\. Confirm\? \([1-5]s\)\n/);
			expect(screen).toContain("\n → Yes\n   No\n\n ↑↓ navigate  enter select  escape/ctrl+c cancel\n");
		});
		term.keys("Enter");
		await term.waitForAbove(" Confirmed by user!");
		// An AbortSignal closes the dialog: no countdown in the title, the example's own timer aborts it.
		term.submit("/timed-signal");
		await term.waitUntil("the signal dialog", (_p, screen) => screen.includes("\n Timed Confirmation\n This dialog will auto-cancel in 5 seconds. Confirm?\n\n → Yes"));
		await term.waitUntil("the abort", (p) => p.above.endsWith(" Warning: Dialog timed out (auto-cancelled)") && !term.screen().includes("→ Yes"));
		// Escape dismisses a select: undefined.
		term.submit("/timed-select");
		await term.waitUntil("the select", (_p, screen) => /\n Pick an option \((?:10|[1-9])s\)\n\n → Option A\n {3}Option B\n {3}Option C\n/.test(screen));
		term.keys("j");
		await term.waitUntil("j moving down", (_p, screen) => screen.includes("\n   Option A\n → Option B\n"));
		term.keys("Escape");
		await term.waitForAbove(" Selection cancelled or timed out");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("message-renderer.ts and entry-renderer.ts: their components draw in the transcript, expanded with ctrl+o", async () => {
		await using world = await mockWorld();
		await using term = new Terminal(world, ["-ne", "-e", example(world, "message-renderer.ts"), "-e", example(world, "entry-renderer.ts")]);
		await term.ready();
		term.submit("/status warn disk almost full");
		await term.waitUntil("the status message", (p) => p.above.includes("[WARN] disk almost full"));
		term.submit("/status-card deployed");
		await term.waitUntil("the status card", (p) => p.above.includes("[status] deployed"));
		term.keys("C-o");
		await term.waitUntil("expanded renderers", (p) => /\[WARN\] disk almost full\n\s+at \d/.test(p.above));
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
