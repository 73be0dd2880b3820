// The trust gate covers every project input and names the file that asked for each (issue 12,
// defect 10): settings that list only skills or prompt templates, settings with other keys, and a
// package.json inside .agent/extensions whose entry points outside the folder.
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { TempWorld } from "../support/agent.ts";
import { NO_MODEL } from "../support/messages.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";

const FIX = `folder not trusted (pass --approve or run "agent trust").`;

describe("non-interactive: the Skipped line names every gated input and the file that asked", () => {
	test("settings that list only skills and prompt templates are skipped with a line naming settings.json", async () => {
		await using world = new TempWorld();
		const settings = world.write("project/.agent/settings.json", JSON.stringify({ skills: ["../skills"], prompts: ["../prompts"] }));
		world.write("project/skills/deploy/SKILL.md", "---\nname: deploy\ndescription: Deploy it\n---\nRun the deploy.\n");
		world.write("project/prompts/fix.md", "Fix $1.");
		const r = await world.run(["-p", "hi"]);
		expect(r.stderr).toBe(`Skipped project skills and prompt templates in ${settings}: ${FIX}\n${NO_MODEL}`);
	});

	test("settings with other keys are named as project settings; the project's folders and its settings get one line each", async () => {
		await using world = new TempWorld();
		const settings = world.write("project/.agent/settings.json", JSON.stringify({ compaction: { enabled: false }, extensions: ["../tools/x.ts"] }));
		world.write("project/tools/x.ts", "export default () => {};\n");
		world.write("project/.agent/skills/local/SKILL.md", "---\nname: local\ndescription: d\n---\n");
		const r = await world.run(["-p", "hi"]);
		expect(r.stderr).toBe(
			[
				`Skipped 1 project extension and settings in ${settings}: ${FIX}`,
				`Skipped project skills in ${join(world.cwd, ".agent")}: ${FIX}`,
				NO_MODEL,
			].join("\n"),
		);
	});

	test("a manifest entry that points outside .agent/extensions is named by its package.json, not a settings.json that does not exist", async () => {
		await using world = new TempWorld();
		const manifest = world.write("project/.agent/extensions/pkg/package.json", JSON.stringify({ agent: { extensions: ["../../../outside.ts"] } }));
		world.write("project/outside.ts", "export default () => {};\n");
		world.write("project/.agent/extensions/inside.ts", "export default () => {};\n");
		const r = await world.run(["-p", "hi"]);
		expect(r.stderr).toBe(
			[`Skipped 1 project extension in ${join(world.cwd, ".agent/extensions")}: ${FIX}`, `Skipped 1 project extension in ${manifest}: ${FIX}`, NO_MODEL].join("\n"),
		);
	});
});

describe.skipIf(!hasTmux)("interactive: the trust prompt lists them too", () => {
	test("a project whose settings list only skills asks, naming settings.json as what asked", async () => {
		await using world = new TempWorld();
		world.write("project/.agent/settings.json", JSON.stringify({ skills: ["../team-skills"] }));
		world.write("project/team-skills/review/SKILL.md", "---\nname: review\ndescription: Review code\n---\nReview.\n");
		await using term = new Terminal(world);
		const screen = await term.waitFor("Don't trust");
		expect(screen).toContain(
			["◆  Trust project folder?", `│  ${world.cwd}`, "│", "│  Project skills and prompt templates the model would follow:", "│    team-skills (from .agent/settings.json)", "│  ○ Trust this folder"].join("\n"),
		);
		term.keys("Enter");
		await term.waitFor("Warning: No model is configured");
		term.keys("C-d");
		expect(await term.waitFor("EXIT=")).toEndWith("EXIT=0");
	}, 30_000);
});
