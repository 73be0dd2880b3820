// The TUI helpers of the framework package (pi 1.6's names) through the binary: they work in any
// mode once an extension uses one (components render, CustomEditor can be extended, highlightCode
// colours, renderDiff numbers lines), pi's own interactive components load and say they are not
// supported, and an extension that uses none of them never makes a print-mode run load the TUI.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { readLog, runWith, writeExtension } from "../support/runtime.ts";
import { MODEL, mockWorld } from "../support/world.ts";

const repoRoot = resolve(import.meta.dir, "../..");

/** Sources the run loaded, from AGENT_DEBUG_CHUNKS=1 and the build's chunk map. */
function loadedSources(stderr: string): string[] {
	const map = JSON.parse(readFileSync(join(repoRoot, "dist", "agent.chunks.json"), "utf8")) as { chunks: Record<string, string[]>; entry: string };
	const line = stderr.split("\n").find((l) => l.startsWith("Loaded chunks: ")) ?? "";
	return [map.entry, ...line.slice("Loaded chunks: ".length).split(" ").filter(Boolean)].flatMap((name) => map.chunks[name] ?? []);
}

describe("TUI helpers of @scope/coding-agent", () => {
	test("work when used, in print mode too; pi's interactive components load and throw 'not supported' when used", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "ok" });
		const ext = writeExtension(
			world,
			"helpers",
			`import { CustomEditor, DynamicBorder, getMarkdownTheme, getSelectListTheme, getSettingsListTheme, highlightCode, getLanguageFromPath, keyHint, keyText, rawKeyHint, renderDiff, truncateToVisualLines, ToolExecutionComponent, Theme, BorderedLoader } from "@earendil-works/pi-coding-agent";
import { Editor } from "@earendil-works/pi-tui";
class Mine extends CustomEditor {}
export default function (pi) {
	pi.on("session_start", () => {
		let unsupported = "";
		try { new ToolExecutionComponent(); } catch (e) { unsupported = e.message; }
		log({
			border: new DynamicBorder((s) => "[" + s + "]").render(4),
			extendsEditor: Object.getPrototypeOf(Mine.prototype) === CustomEditor.prototype && CustomEditor.prototype instanceof Editor,
			markdown: typeof getMarkdownTheme().heading, select: typeof getSelectListTheme().selectedText, settings: typeof getSettingsListTheme().cursor,
			language: getLanguageFromPath("src/a.ts"),
			code: highlightCode("const x = 1;", "ts").length,
			keys: [keyText("app.tools.expand"), keyHint("app.interrupt", "to stop").includes("escape"), rawKeyHint("↑↓", "move").includes("move")],
			diff: renderDiff("--- a/f\\n+++ b/f\\n@@ -1,1 +1,1 @@\\n-old\\n+new\\n").split("\\n").length,
			visual: truncateToVisualLines("one two three four", 2, 5).skippedCount,
			classes: [typeof Theme, typeof BorderedLoader],
			unsupported,
		});
	});
}
`,
		);
		const r = await runWith(world, [ext], ["hi"], { mode: "print" });
		expect(r.code).toBe(0);
		expect(readLog(world)).toEqual([
			{
				border: ["[────]"],
				extendsEditor: true,
				markdown: "function",
				select: "function",
				settings: "string",
				language: "typescript",
				code: 1,
				keys: ["ctrl+o", true, true],
				diff: 2,
				visual: 2,
				classes: ["function", "function"],
				unsupported: "not supported by agent: ToolExecutionComponent",
			},
		]);
	});

	test("an extension that imports only defineTool never makes a print-mode run load pi-tui", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "ok" }, { text: "ok" });
		world.write("project/plain.ts", `import { defineTool } from "@earendil-works/pi-coding-agent";\nexport default function (pi) { void defineTool; }\n`);
		world.write("project/fancy.ts", `import { DynamicBorder } from "@earendil-works/pi-coding-agent";\nexport default function (pi) { pi.on("session_start", () => void new DynamicBorder().render(3)); }\n`);
		expect(existsSync(join(repoRoot, "dist", "agent.chunks.json"))).toBe(true);
		const tui = /^node_modules\/@earendil-works\/pi-tui\//;
		const plain = await world.run(["-ne", "-e", "./plain.ts", "--no-session", "--model", MODEL.openai, "-p", "hi"], { env: { AGENT_DEBUG_CHUNKS: "1" } });
		expect(plain.code).toBe(0);
		expect(loadedSources(plain.stderr).some((s) => tui.test(s))).toBe(false);
		// The check can fail: an extension that uses a helper does load it.
		const fancy = await world.run(["-ne", "-e", "./fancy.ts", "--no-session", "--model", MODEL.openai, "-p", "hi"], { env: { AGENT_DEBUG_CHUNKS: "1" } });
		expect(fancy.code).toBe(0);
		expect(loadedSources(fancy.stderr).some((s) => tui.test(s))).toBe(true);
	});
});
