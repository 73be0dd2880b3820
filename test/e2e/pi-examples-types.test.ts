// pi 1.6's UI examples type-check against what `agent types` writes, with no node_modules in reach:
// ctx.ui, its factories (custom, setWidget, setHeader, setFooter, setEditorComponent), the theme,
// the footer data and the renderers are typed as pi declares them, and so are pi-ai's and
// pi-agent-core's message types, modelRegistry.complete and JsonAgentSessionEvent, and ThinkingLevel
// with pi's "max" (preset).
import { expect, test } from "bun:test";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { TempWorld } from "../support/agent.ts";
import { EXAMPLES } from "../support/pi-examples/copy.ts";
import { typeCheck } from "../support/typecheck.ts";

const CHECKED = [
	"border-status-editor.ts",
	"built-in-tool-renderer.ts",
	"custom-footer.ts",
	"custom-header.ts",
	"debug-provider.ts",
	"doom-overlay",
	"entry-renderer.ts",
	"github-issue-autocomplete.ts",
	"handoff.ts",
	"interactive-shell.ts",
	"message-renderer.ts",
	"minimal-mode.ts",
	"modal-editor.ts",
	"overlay-qa-tests.ts",
	"overlay-test.ts",
	"plan-mode",
	"preset.ts",
	"qna.ts",
	"question.ts",
	"questionnaire.ts",
	"rainbow-editor.ts",
	"rpc-demo.ts",
	"snake.ts",
	"space-invaders.ts",
	"structured-output.ts",
	"subagent",
	"summarize.ts",
	"tic-tac-toe.ts",
	"todo.ts",
	"tool-override.ts",
	"tools.ts",
	"truncated-tool.ts",
	"widget-placement.ts",
];

test(`${CHECKED.length} of pi's examples type-check with only "agent types" output`, async () => {
	await using world = new TempWorld();
	const dir = join(world.cwd, "examples");
	for (const name of CHECKED) cpSync(join(EXAMPLES, name), join(dir, name), { recursive: true });
	expect((await world.run(["types", dir])).code).toBe(0);
	expect(await typeCheck(dir)).toEqual({ code: 0, output: "" });
}, 240_000);
