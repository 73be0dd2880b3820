// Images in the interactive TUI: ctrl+v puts a clipboard image in the input as the path of a
// temporary file (pi 1.6's way: the model reads it) or pastes the clipboard's text; a tool result's
// image, and one sent with a prompt, is drawn with pi-tui's Image component — Kitty graphics in a terminal that has them, a
// placeholder naming type and size where it cannot (tmux). The clipboard is a stand-in `xclip` on
// PATH, a real program answering as xclip does.
import { describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentBinary } from "../support/agent.ts";
import { readMessages } from "../support/mock-llm.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld, type MockWorld } from "../support/world.ts";

const TIMEOUT = 30_000;
/** A 2×3 red PNG. */
const PNG = Buffer.from(
	"iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEklEQVR4nGP4z8AARAwMDAwMACXoA/2e7SoTAAAAAElFTkSuQmCC",
	"base64",
);

/** A fake xclip that offers `targets` and answers `-o` with `file` (or, for text, `text`). */
function fakeXclip(world: MockWorld, targets: string, output: { file?: string; text?: string }): string {
	const script = [
		"#!/bin/sh",
		'case "$*" in',
		`  *TARGETS*) printf '${targets}' ;;`,
		`  *image/png*) cat '${output.file ?? "/dev/null"}' ;;`,
		`  *) printf '%s' '${output.text ?? ""}' ;;`,
		"esac",
	].join("\n");
	const bin = world.write("bin/xclip", `${script}\n`);
	chmodSync(bin, 0o755);
	return `${join(world.root, "bin")}:${process.env.PATH}`;
}

/** The turn that reads the file whose path the user's message holds, then an answer. */
function readThePastedFile(world: MockWorld): void {
	world.mock.script(
		(request) => {
			const text = readMessages(request).find((m) => m.role === "user")?.text ?? "";
			const path = /\S*agent-clipboard-[\w-]+\.png/.exec(text)?.[0] ?? "missing";
			return { text: "Looking.", toolCalls: [{ name: "read", arguments: { path } }] };
		},
		{ text: "A small red picture." },
	);
}

describe.skipIf(!hasTmux)("interactive images", () => {
	test("ctrl+v pastes a clipboard image as a temporary file's path; the model reads it; the result shows a placeholder in tmux", async () => {
		await using world = await mockWorld();
		const png = join(world.root, "clip.png");
		writeFileSync(png, PNG);
		const PATH = fakeXclip(world, "TARGETS\\nimage/png\\n", { file: png });
		readThePastedFile(world);
		await using term = new Terminal(world, ["-ne", "--model", MODEL.openai], { env: { PATH, DISPLAY: ":0" } });
		await term.ready();
		term.type("what is in ");
		term.keys("C-v");
		const pasted = await term.waitUntil("the pasted path", (p) => /agent-clipboard-[\w-]+\.png/.test(p.editor));
		const path = /\S*agent-clipboard-[\w-]+\.png/.exec(pasted.editor)![0];
		expect(pasted.editor).toStartWith("what is in /");
		expect(path.startsWith(join(world.root, "tmp"))).toBe(true);
		expect(readFileSync(path).equals(PNG)).toBe(true);
		term.keys("Enter");
		const done = await term.waitForAbove(" A small red picture.");
		expect(done.above).toContain("   ⎿ Read image");
		expect(done.above).toContain("     [Image: [image/png] 2x3]");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("an image sent with the prompt (@pic.png) is drawn under the message, and again when the session is resumed", async () => {
		await using world = await mockWorld();
		writeFileSync(join(world.cwd, "pic.png"), PNG);
		world.mock.script({ text: "Nice picture." });
		{
			await using term = new Terminal(world, ["-ne", "--model", MODEL.openai, "@pic.png", "what is this"]);
			const done = await term.waitForAbove(" Nice picture.");
			expect(done.above).toContain(' › <file name="pic.png">(image attached)</file>\n\n   what is this\n   [Image: [image/png] 2x3]\n\n Nice picture.');
			expect(done.above).not.toContain("[image]");
			term.keys("C-d");
			await term.waitFor("EXIT=0");
		}
		await using again = new Terminal(world, ["-ne", "-c"]);
		await again.waitToPass("the resumed conversation", (p) => {
			expect(p.above).toContain("   [Image: [image/png] 2x3]\n\n Nice picture.");
			expect(p.below).not.toBe("");
		});
		again.keys("C-d");
		await again.waitFor("EXIT=0");
	}, TIMEOUT);

	test("ctrl+v with text on the clipboard pastes the text; with no clipboard program it says so", async () => {
		await using world = await mockWorld();
		const PATH = fakeXclip(world, "UTF8_STRING\\nTEXT\\n", { text: "copied words" });
		{
			await using term = new Terminal(world, ["-ne", "--model", MODEL.openai], { env: { PATH, DISPLAY: ":0" } });
			await term.ready();
			term.keys("C-v");
			await term.waitForEditor("copied words");
			term.keys("C-c");
			await term.waitForEditor("");
			term.keys("C-d");
			await term.waitFor("EXIT=0");
		}
		await using bare = new Terminal(world, ["-ne", "--model", MODEL.openai], { env: { DISPLAY: undefined, WAYLAND_DISPLAY: undefined } });
		await bare.ready();
		bare.keys("C-v");
		await bare.waitForAbove("No clipboard program found (wl-paste, xclip, pngpaste or pbpaste): paste with the terminal instead.");
		bare.keys("C-d");
		await bare.waitFor("EXIT=0");
	}, TIMEOUT);
});

test("a terminal with Kitty graphics gets the result's image drawn, not a placeholder", async () => {
	await using world = await mockWorld();
	writeFileSync(join(world.cwd, "red.png"), PNG);
	world.mock.script({ text: "Opening it.", toolCalls: [{ name: "read", arguments: { path: "red.png" } }] }, { text: "SEEN-IT" });
	let seen = "";
	const decoder = new TextDecoder();
	const proc = Bun.spawn([agentBinary(), "-ne", "--model", MODEL.openai], {
		cwd: world.cwd,
		env: world.environment({ TERM: "xterm-256color", PI_IMAGE_PROTOCOL: "kitty", NO_COLOR: undefined }),
		terminal: { cols: 100, rows: 30, data: (_t, data) => void (seen += decoder.decode(data, { stream: true })) },
	});
	const until = async (what: string, check: () => boolean) => {
		const deadline = Date.now() + 15_000;
		while (!check()) {
			if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`no ${what}; output:\n${JSON.stringify(seen.slice(-3000))}`);
			await Bun.sleep(20);
		}
	};
	try {
		await until("first frame", () => seen.includes("───"));
		proc.terminal!.write("look at it\r");
		await until("answer", () => seen.includes("SEEN-IT"));
		// Kitty's graphics protocol: an APC `_G` transmitting PNG data (f=100), never the text placeholder.
		expect(seen).toMatch(/\x1b_G[^\x1b]*f=100/);
		expect(seen).not.toContain("[Image: [image/png]");
		proc.terminal!.write("\x04");
		expect(await proc.exited).toBe(0);
	} finally {
		if (proc.exitCode === null) proc.kill("SIGKILL");
		proc.terminal?.close();
	}
}, TIMEOUT);
