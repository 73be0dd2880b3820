// pi 1.6's example extensions that draw tools and entries their own way, copied from the npm
// package and run in our TUI through tmux: built-in-tool-renderer (read, bash, edit and write drawn
// compactly, the details with ctrl+o), tool-override (an audited read that blocks .env, drawn by the
// built-in renderer), truncated-tool (an `rg` tool whose output is cut and saved to a file),
// structured-output (a tool that ends the turn, drawn as headline, summary and items) and
// debug-provider (raw provider events kept as an entry that ctrl+o opens).
import { describe, expect, test } from "bun:test";
import { chmodSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { example } from "../support/pi-examples/copy.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld } from "../support/world.ts";

const TIMEOUT = 45_000;

describe.skipIf(!hasTmux)("pi 1.6 example renderers in the TUI", () => {
	test("built-in-tool-renderer.ts: read, bash, edit and write as one line each; ctrl+o shows the lines, the output and the diff", async () => {
		await using world = await mockWorld();
		world.write("project/notes.txt", "one\ntwo\nthree\n");
		world.mock.script(
			{ toolCalls: [{ name: "read", arguments: { path: "notes.txt" }, id: "call_r" }, { name: "bash", arguments: { command: "echo hi" }, id: "call_b" }] },
			{
				toolCalls: [
					{ name: "edit", arguments: { path: "notes.txt", edits: [{ oldText: "two", newText: "TWO\nand a half" }] }, id: "call_e" },
					{ name: "write", arguments: { path: "new.txt", content: "a\nb\n" }, id: "call_w" },
				],
			},
			{ text: "Done." },
		);
		await using term = new Terminal(world, ["-ne", "-e", example(world, "built-in-tool-renderer.ts"), "--model", MODEL.openai]);
		await term.ready();
		term.submit("go");
		const collapsed = await term.waitForAbove(" Done.");
		expect(collapsed.above).toContain(" read notes.txt\n 3 lines\n\n $ echo hi\n done (1 lines)\n\n edit notes.txt\n +2 / -1\n\n write new.txt (3 lines)\n Written\n\n Done.");
		// The tools still did their work (the originals run underneath).
		expect(readFileSync(join(world.cwd, "notes.txt"), "utf8")).toBe("one\nTWO\nand a half\nthree\n");
		expect(readFileSync(join(world.cwd, "new.txt"), "utf8")).toBe("a\nb\n");
		term.keys("C-o");
		await term.waitToPass("the details", (p) => {
			expect(p.above).toMatch(/ 3 lines\n.*one\n.*two\n.*three\n/);
			expect(p.above).toContain(" done (1 lines)\n hi\n");
			expect(p.above).toContain(" +2 / -1\n --- a/notes.txt");
			expect(p.above).toContain(" -two\n +TWO\n +and a half\n");
		});
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("tool-override.ts: the audited read reads and logs, blocks .env, and is drawn by the built-in renderer", async () => {
		await using world = await mockWorld();
		world.write("project/config.txt", "port=8080\n");
		world.write("project/.env", "SECRET=1\n");
		world.mock.script(
			{ toolCalls: [{ name: "read", arguments: { path: "config.txt" }, id: "call_ok" }] },
			{ toolCalls: [{ name: "read", arguments: { path: ".env" }, id: "call_env" }] },
			{ text: "The port is 8080; .env is off limits." },
		);
		await using term = new Terminal(world, ["-ne", "-e", example(world, "tool-override.ts"), "--model", MODEL.openai]);
		await term.ready();
		term.submit("read the config");
		const done = await term.waitForAbove(" The port is 8080; .env is off limits.");
		// No renderers of its own: the built-in read's, collapsed until ctrl+o.
		expect(done.above).toContain(" read config.txt\n   ⎿ 1 line (ctrl+o to expand)\n\n read .env\n   ⎿ 1 line (ctrl+o to expand)");
		term.keys("C-o");
		const expanded = await term.waitToPass("the results", (p) => {
			expect(p.above).toContain("port=8080");
			expect(p.above).toContain('Access denied: ".env" matches a blocked pattern (sensitive file).');
		});
		expect(expanded.above).not.toContain("SECRET");
		const log = readFileSync(join(world.agentDir, "read-access.log"), "utf8");
		expect(log).toMatch(/\] ALLOWED: .*\/project\/config\.txt\n/);
		expect(log).toMatch(/\] BLOCKED: .*\/project\/\.env \(matches blocked pattern\)\n/);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("truncated-tool.ts: rg's 3,000 matches cut to 2,000 lines with the rest in a file; the renderer says so", async () => {
		await using world = await mockWorld();
		world.write("project/big.txt", Array.from({ length: 3000 }, (_, i) => `needle ${i + 1}`).join("\n") + "\n");
		// ripgrep itself need not be installed: a stand-in with its output format (path:line:text).
		const rg = world.write("bin/rg", '#!/bin/sh\nwhile [ "$#" -gt 2 ]; do shift; done\nexec grep -rn -- "$1" "$2"\n');
		chmodSync(rg, 0o755);
		world.mock.script({ toolCalls: [{ name: "rg", arguments: { pattern: "needle", path: "big.txt" }, id: "call_rg" }] }, { text: "Lots of needles." });
		await using term = new Terminal(world, ["-ne", "-e", example(world, "truncated-tool.ts"), "--model", MODEL.openai], {
			env: { PATH: `${join(world.root, "bin")}:${process.env.PATH}` },
		});
		await term.ready();
		term.submit("find needles");
		const done = await term.waitForAbove(" Lots of needles.");
		expect(done.above).toContain(' rg "needle" in big.txt\n 3000 matches (truncated)\n');
		const sent = JSON.stringify(world.mock.lastRequest().body);
		const saved = /Full output saved to: ([^\]]+)\]/.exec(sent)?.[1];
		expect(sent).toContain("[Output truncated: showing 2000 of 3000 lines");
		expect(readFileSync(saved!, "utf8").split("\n").filter(Boolean).length).toBe(3000);
		term.keys("C-o");
		// Wait for the end of the expanded result: a capture taken mid-redraw has the first lines only.
		const expanded = await term.waitUntil("the expanded result", (p) => p.above.includes(` Full output: ${saved}`));
		expect(expanded.above).toContain(" 1:needle 1\n");
		expect(expanded.above).toContain(" 20:needle 20\n ... (use read tool to see full output)\n");
		expect(expanded.above).toContain(` Full output: ${saved}`);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("structured-output.ts: the tool ends the turn (no request after it) and draws headline, summary and items", async () => {
		await using world = await mockWorld();
		world.mock.script({
			toolCalls: [{ name: "structured_output", arguments: { headline: "Release plan", summary: "Ship 1.2 on Friday.", actionItems: ["Tag the release", "Write the notes"] }, id: "call_s" }],
		});
		await using term = new Terminal(world, ["-ne", "-e", example(world, "structured-output.ts"), "--model", MODEL.openai]);
		await term.ready();
		term.submit("plan the release as structured output");
		const done = await term.waitUntil("the structured result", (p) => p.above.includes("2. Write the notes") && p.below !== "");
		expect(done.above).toContain(" Release plan\n Ship 1.2 on Friday.\n\n 1. Tag the release\n 2. Write the notes");
		await term.ready();
		// terminate: true — the model was asked once, not again after the tool.
		expect(world.mock.requests.length).toBe(1);
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);

	test("debug-provider.ts: /debug-provider captures the raw stream events of a turn into an entry; ctrl+o shows them", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "Captured." });
		await using term = new Terminal(world, ["-ne", "-e", example(world, "debug-provider.ts"), "--model", MODEL.openai]);
		await term.ready();
		term.submit("/debug-provider on");
		await term.waitToPass("capture on", (p) => {
			expect(p.above).toEndWith(" Provider event capture enabled");
			expect(p.below).toEndWith("\nprovider debug");
		});
		term.submit("hello");
		const entry = await term.waitUntil("the entry", (p) => /\[provider debug\] mock\/mock-model \(openai-completions\) · \d+ events \(ctrl\+o to view events\)/.test(p.above));
		expect(entry.above).toContain(" Captured.");
		term.keys("C-o");
		// The whole expanded frame: a capture mid-redraw may hold the first event only.
		const expanded = await term.waitUntil("the events", (p) => p.above.includes('"object": "chat.completion.chunk"') && /"content": "Cap"/.test(p.above));
		expect(expanded.above).toMatch(/"content": "Cap"/);
		expect(expanded.above).not.toContain("to view events");
		// Off: no entry for the next turn.
		term.submit("/debug-provider off");
		await term.waitForAbove(" Provider event capture disabled");
		const session = readFileSync(world.onlySessionFile(), "utf8");
		expect(session).toContain('"customType":"debug-provider-events"');
		term.keys("C-d");
		await term.waitFor("EXIT=0");
	}, TIMEOUT);
});
