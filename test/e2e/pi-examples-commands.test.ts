// pi 1.6's example extensions that drive the model selection, the session tree and themes, copied
// from the npm package into the test's temp folder and run in our TUI through tmux: model-status
// (model_select → notify and footer status, from /model and ctrl+p), preset (a custom() selector,
// its --preset flag and ctrl+shift+u shortcut changing model, thinking and tools), bookmark (labels
// that /tree shows) and mac-system-theme (setTheme following the system's appearance).
import { describe, expect, test } from "bun:test";
import { chmodSync, cpSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { TempWorld } from "../support/agent.ts";
import { readToolNames } from "../support/mock-llm.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld } from "../support/world.ts";

const TIMEOUT = 45_000;
const EXAMPLES = resolve(import.meta.dir, "../../node_modules/@earendil-works/pi-coding-agent/examples/extensions");

function example(world: TempWorld, name: string): string {
	const to = join(world.root, "examples", basename(name));
	cpSync(join(EXAMPLES, name), to, { recursive: true });
	return to;
}

/** The last footer line (usage left, model right). */
function footerModel(below: string): string {
	return below.trimEnd().split("\n").filter((l) => /[↑↓]\d/.test(l)).at(-1)!.trim().split(/\s{2,}/).at(-1)!;
}

describe.skipIf(!hasTmux)("pi 1.6 example extensions: models, presets, tree labels, themes", () => {
	test("model-status.ts: /model and ctrl+p each notify the change and set the footer status", async () => {
		await using world = await mockWorld();
		await using term = new Terminal(world, ["-ne", "-e", example(world, "model-status.ts"), "--model", MODEL.openai, "--models", "mock/mock-model,mock/mock-reasoner"]);
		await term.ready();
		term.submit("/model mock-reasoner");
		await term.waitToPass("the status", (p) => {
			expect(p.below).toContain("🤖 mock-reasoner");
			expect(p.above).toContain(" Model: mock/mock-reasoner");
			// Its console.log goes into the transcript, not across the screen.
			expect(p.above).toContain(" [model_select] mock/mock-model → mock/mock-reasoner (set)");
		});
		term.keys("C-p");
		const cycled = await term.waitUntil("the cycled status", (p) => p.below.includes("🤖 mock-model") && p.above.includes("(cycle)"));
		expect(cycled.above).toContain(" [model_select] mock/mock-reasoner → mock/mock-model (cycle)");
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("preset.ts: --preset at start, the /preset selector, ctrl+shift+u cycling: model, thinking, tools and status follow", async () => {
		await using world = await mockWorld();
		world.write(
			"home/.agent/presets.json",
			JSON.stringify({
				deep: { provider: "mock", model: "mock-reasoner", thinkingLevel: "high", tools: ["read"], instructions: "DEEP MODE." },
				plain: { provider: "mock", model: "mock-model", tools: ["read", "bash"] },
			}),
		);
		const preset = example(world, "preset.ts");
		await using term = new Terminal(world, ["-ne", "-e", preset, "--model", MODEL.openai, "--preset", "deep"]);
		await term.waitToPass("the preset", (p) => {
			expect(p.below).toContain("preset:deep");
			expect(p.above).toContain(' Preset "deep" activated');
			expect(footerModel(p.below)).toBe("mock/mock-reasoner • high");
		});
		world.mock.script({ text: "Deeply." });
		term.submit("think");
		await term.waitFor("Deeply.");
		const request = world.mock.lastRequest();
		expect(readToolNames(request)).toEqual(["read"]);
		expect(JSON.stringify(request.body)).toContain("DEEP MODE.");
		// The selector is the extension's own custom() component in the editor's place.
		term.submit("/preset");
		await term.waitUntil("the selector", (p) => p.editor.includes("Select Preset") && p.editor.includes("plain"));
		term.keys("Down", "Enter");
		await term.waitToPass("the plain preset", (p) => {
			expect(p.below).toContain("preset:plain");
			expect(p.above).toContain(' Preset "plain" activated');
			expect(footerModel(p.below)).toBe("mock/mock-model");
		});
		// ctrl+shift+u (CSI 117;6u) cycles: after "plain" (sorted: none, deep, plain) comes none, the state from before.
		term.keys("-H", "1b", "5b", "31", "31", "37", "3b", "36", "75");
		// The notice and the status gone from the footer (a capture mid-redraw may still have it).
		await term.waitToPass("the preset cleared", (p) => {
			expect(p.above).toEndWith(" Preset cleared, defaults restored");
			expect(p.below).not.toContain("preset:");
		});
		term.keys("-H", "1b", "5b", "31", "31", "37", "3b", "36", "75");
		await term.waitToPass("the deep preset again", (p) => {
			expect(p.below).toContain("preset:deep");
			expect(footerModel(p.below)).toBe("mock/mock-reasoner • high");
		});
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("bookmark.ts: /bookmark labels the last answer and /tree shows the label; /unbookmark removes it", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "Worth keeping." });
		await using term = new Terminal(world, ["-ne", "-e", example(world, "bookmark.ts"), "--model", MODEL.openai]);
		await term.ready();
		term.submit("remember this");
		await term.waitFor("Worth keeping.");
		term.submit("/bookmark milestone");
		await term.waitForAbove(" Bookmarked as: milestone");
		term.submit("/tree");
		await term.waitToPass("the tree", (p) => {
			expect(p.editor).toContain("Session tree");
			expect(p.editor).toContain("• [milestone] assistant: Worth keeping.");
		});
		term.keys("Escape");
		await term.waitUntil("the editor back", (p) => !p.editor.includes("Session tree"));
		term.submit("/unbookmark");
		await term.waitForAbove(" Removed bookmark: milestone");
		term.submit("/tree");
		// The whole tree (down to the answer), then no label on it.
		const after = await term.waitUntil("the tree again", (p) => p.editor.includes("Session tree") && p.editor.includes("assistant: Worth keeping."));
		expect(after.editor).not.toContain("[milestone]");
		// Escape and ctrl+d sent together would read as alt+ctrl+d: wait for the editor first.
		term.keys("Escape");
		await term.waitUntil("the editor back", (p) => !p.editor.includes("Session tree"));
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("mac-system-theme.ts: the theme follows what osascript says, switching while it runs", async () => {
		await using world = await mockWorld();
		const mode = join(world.root, "dark-mode");
		writeFileSync(mode, "true\n");
		const osascript = world.write("bin/osascript", `#!/bin/sh\ncat ${JSON.stringify(mode)}\n`);
		chmodSync(osascript, 0o755);
		await using term = new Terminal(world, ["-ne", "-e", example(world, "mac-system-theme.ts")], {
			env: { NO_COLOR: undefined, COLORTERM: "truecolor", PATH: `${join(world.root, "bin")}:${process.env.PATH}` },
		});
		await term.ready();
		// The editor's border is the theme's borderMuted: dark's, then light's once the "system" turns light.
		await term.waitUntil("the dark theme", () => term.colouredScreen().includes("\x1b[38;2;77;84;96m───"));
		writeFileSync(mode, "false\n");
		await term.waitUntil("the light theme", () => term.colouredScreen().includes("\x1b[38;2;184;190;200m───"));
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
