// pi 1.6's example games and overlay checks in the TUI, through the compiled binary in tmux:
// overlay-qa-tests (animation, anchors, stacking, non-capturing panels, hide and show),
// space-invaders (the game, pause into the session, resume) and tic-tac-toe (a board the model
// plays on through its tool) and doom-overlay (the WebAssembly game in an overlay, where a WAD is
// installed) — each behaving as it does in pi 1.6.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { readMessages } from "../support/mock-llm.ts";
import { example } from "../support/pi-examples/copy.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld } from "../support/world.ts";

const TIMEOUT = 45_000;

/** The number after `label` on the screen, or -1. */
function counter(screen: string, label: string): number {
	const m = new RegExp(`${label} (\\d+)`).exec(screen);
	return m ? Number(m[1]) : -1;
}

describe.skipIf(!hasTmux)("pi 1.6 example games and overlays in the TUI", () => {
	test("overlay-qa-tests.ts: an animated overlay, anchors, a stack of three, a passive panel, hide and show", async () => {
		await using world = await mockWorld();
		await using term = new Terminal(world, ["-ne", "-e", example(world, "overlay-qa-tests.ts")]);
		await term.ready();

		// ~30 frames a second inside a centred, bordered overlay; Escape closes it.
		term.submit("/overlay-animation");
		const first = await term.waitUntil("the animation", (_p, screen) => counter(screen, "Frame:") >= 0 && screen.includes("│ Animation Demo (~30 FPS)"));
		const start = counter(term.screen(), "Frame:");
		await term.waitUntil("later frames", (_p, screen) => counter(screen, "Frame:") > start + 5);
		expect(first.above + first.below).toContain("Press Esc to close");
		term.keys("Escape");
		await term.waitUntil("the animation to close", (_p, screen) => !screen.includes("Animation Demo"));

		// Space moves the overlay to the next anchor; Enter confirms it.
		term.submit("/overlay-anchors");
		await term.waitUntil("the top-left overlay", (_p, screen) => /^╭─+ Anchor Test ─+╮\n│ +│/.test(term.screen()) && screen.includes("Current: top-left"));
		term.keys("Space");
		await term.waitUntil("the next anchor", (_p, screen) => screen.includes("Current: top-center"));
		// Centred across the 120 columns: 40 wide, 40 columns in.
		expect(term.screen().split("\n")[0]).toMatch(/^.{40}╭─+ Anchor Test ─+╮/);
		term.keys("Enter");
		await term.waitForAbove(" Selected: top-center");

		// Three overlays stacked, the newest on top; each Enter closes the one on top. The three
		// back-to-back notices are one status line in the end, as in pi.
		term.submit("/overlay-stack");
		await term.waitUntil("three overlays", (_p, screen) => screen.includes("│ Overlay #3") && screen.includes("Layer: front (blue border)"));
		term.keys("Enter");
		await term.waitUntil("two left", (_p, screen) => !screen.includes("│ Overlay #3") && screen.includes("│ Overlay #2"));
		term.keys("Enter");
		term.keys("Enter");
		const stacked = await term.waitForAbove(" Closed in order: Overlay 1, Overlay 2, Overlay 3");
		expect(stacked.above).not.toContain("Showing overlay 3 (front)...");

		// A non-capturing timer panel beside a capturing one: typing goes to the capturing one.
		term.submit("/overlay-passive");
		await term.waitUntil("both panels", (_p, screen) => screen.includes("nonCapturing: true") && screen.includes("Non-Capturing Demo"));
		term.type("abc");
		await term.waitUntil("the typed text in the capturing panel", (_p, screen) => screen.includes("> abc") && screen.includes("inputs=3"));
		term.keys("Escape");
		await term.waitUntil("both closed", (_p, screen) => !screen.includes("nonCapturing: true") && !screen.includes("Non-Capturing Demo"));

		// `t` hides the overlay through its handle for a second; it comes back counting.
		term.submit("/overlay-toggle");
		await term.waitUntil("the toggle demo", (_p, screen) => screen.includes("Toggle count: 0"));
		term.type("t");
		await term.waitUntil("the overlay hidden", (_p, screen) => !screen.includes("Toggle Demo"));
		await term.waitUntil("the overlay back", (_p, screen) => screen.includes("Toggle count: 1"));
		term.keys("Escape");
		await term.waitUntil("the toggle demo closed", (_p, screen) => !screen.includes("Toggle Demo"));
		await term.ready();
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("space-invaders.ts: the board in the editor's place, Escape pauses into the session, /invaders resumes, q quits", async () => {
		await using world = await mockWorld();
		await using term = new Terminal(world, ["-ne", "-e", example(world, "space-invaders.ts")]);
		await term.ready();
		term.submit("/invaders");
		await term.waitUntil("the board", (_p, screen) => screen.includes("│SPACE INVADERS │ Score: 0 │ Hi: 0 │ Lv: 1 │ ♥♥♥") && screen.includes("═▲═"));
		const column = (screen: string) => screen.split("\n").find((l) => l.includes("═▲═"))!.indexOf("═▲═");
		const before = column(term.screen());
		term.keys("Right", "Right", "Right");
		await term.waitUntil("the ship moving right", (_p, screen) => column(screen) > before);
		// Escape pauses: the game goes away (saved in the session) and the editor is back.
		term.keys("Escape");
		await term.ready();
		expect(term.screen()).not.toContain("SPACE INVADERS");
		term.submit("/invaders");
		await term.waitUntil("the paused game", (_p, screen) => screen.includes("PAUSED Press any key to continue, Q to quit"));
		term.type("q");
		await term.ready();
		expect(term.screen()).not.toContain("SPACE INVADERS");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("tic-tac-toe.ts: X played with Enter, the model's O through its tool, the session named in the footer", async () => {
		await using world = await mockWorld();
		// The agent's cursor starts top-left: one `play` puts O there.
		world.mock.script({ toolCalls: [{ name: "tic_tac_toe", arguments: { action: "play" }, id: "call_play" }] }, { text: "Your move, X." });
		await using term = new Terminal(world, ["-ne", "-e", example(world, "tic-tac-toe.ts"), "--model", MODEL.openai]);
		await term.ready();
		term.submit("/tic-tac-toe");
		await term.waitUntil("the board", (_p, screen) => screen.includes("Turn: X (You)  |  O (Agent)") && screen.includes("←↑↓→ move  |  ENTER play  |  ESC quit"));
		await term.waitUntil("the session name in the footer", (_p, screen) => screen.includes(" • Tic-Tac-Toe\n"));
		// Enter plays X under the cursor (the centre); the model answers with O top-left.
		term.keys("Enter");
		const played = await term.waitUntil("the model's move", (_p, screen) => screen.includes("Placed O at (0,0). Cursor reset to (0,0). Your turn, X!") && screen.includes("Your move, X."));
		const board = term.screen();
		const rows = board.split("\n").filter((l) => l.includes("│"));
		expect(rows.some((l) => l.includes("╳"))).toBe(true);
		expect(rows.some((l) => l.includes("◯"))).toBe(true);
		expect(played.above).toContain(" tic_tac_toe play");
		// What the model was told: the custom move message with the board.
		const told = readMessages(world.mock.requests[0]!).map((m) => m.text).join("\n");
		expect(told).toContain("Player X played at (row=1, col=1). It is now Player O's turn.");
		term.keys("Escape");
		await term.ready();
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});

/** An IWAD on this machine (doom-overlay downloads one otherwise; tests never touch the network). */
const WAD = [process.env.DOOM_WAD, "/usr/share/games/doom/freedoom1.wad", "/usr/share/games/doom/doom1.wad"].find((p) => p && existsSync(p));

describe.skipIf(!hasTmux)("pi 1.6's doom-overlay in the TUI", () => {
	test("doom-overlay/: its WebAssembly engine loads from the example's folder; a WAD it cannot use is an error line, not a crash", async () => {
		await using world = await mockWorld();
		const bad = world.write("bad.wad", "IWAD\0\0\0\0\x0c\0\0\0");
		await using term = new Terminal(world, ["-ne", "-e", example(world, "doom-overlay")]);
		await term.ready();
		term.submit(`/doom-overlay ${bad}`);
		const failed = await term.waitUntil("the error", (p) => p.above.includes(" Error: Failed to load DOOM: "));
		expect(failed.above).toContain(` Loading DOOM from ${bad}...`);
		// The TUI goes on.
		term.type("still here");
		await term.waitForEditor("still here");
		term.keys("C-u", "C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test.skipIf(!WAD)("doom-overlay/: the game runs in a centred overlay 75% wide, takes keys, Q pauses it away and /doom-overlay resumes", async () => {
		await using world = await mockWorld();
		await using term = new Terminal(world, ["-ne", "-e", example(world, "doom-overlay")], { env: { NO_COLOR: undefined, COLORTERM: "truecolor" } });
		await term.ready();
		term.submit(`/doom-overlay ${WAD}`);
		const footer = "DOOM | Q=Pause | WASD=Move | Shift+WASD=Run | Space=Use | F=Fire | 1-7=Weapons";
		await term.waitUntil("the game", (_p, screen) => screen.includes(footer), 30_000);
		// 75% of 120 columns, centred: the half-block frame starts 15 columns in.
		const rows = term.screen().split("\n").filter((l) => l.includes("▀"));
		expect(rows.length).toBeGreaterThan(20);
		expect(rows.every((l) => l.indexOf("▀") <= 15)).toBe(true);
		expect(rows.some((l) => l.indexOf("▀") === 15)).toBe(true);
		expect(term.colouredScreen()).toMatch(/\x1b\[38;2;\d+;\d+;\d+m.*▀/);
		// Escape opens the game's menu: the frame changes.
		const before = term.colouredScreen();
		term.keys("Escape");
		await term.waitUntil("a new frame", () => term.colouredScreen() !== before);
		term.type("q");
		await term.waitUntil("the overlay gone", (_p, screen) => !screen.includes(footer));
		await term.ready();
		term.submit(`/doom-overlay ${WAD}`);
		await term.waitUntil("the resumed game", (_p, screen) => screen.includes(footer), 30_000);
		term.type("q");
		await term.waitUntil("the overlay gone again", (_p, screen) => !screen.includes(footer));
		// The engine was kept: the second time it said so (under the overlay while it was up).
		const after = await term.ready();
		expect(after.above).toEndWith(" Resuming DOOM...");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, 90_000);
});
