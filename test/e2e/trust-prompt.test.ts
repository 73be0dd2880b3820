// The interactive `Trust project folder?` prompt in a real terminal (tmux), through the binary:
// what a person sees, what each answer saves, and that Ctrl+C exits 130 with no project code run.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { TempWorld } from "../support/agent.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";

/** Each test starts the TUI in tmux and waits on the screen; bun's default is 5 s. */
const TIMEOUT = 30_000;

function promptWorld(): TempWorld {
	const world = new TempWorld();
	// Proof of execution: the project extension writes a file when (and only when) it runs.
	const proof = 'import { writeFileSync } from "node:fs";\nexport default function () { writeFileSync(process.cwd() + "/ran.txt", "yes"); console.error("loaded project code"); }\n';
	world.write("project/.agent/extensions/guard.ts", proof);
	world.write("project/.agent/extensions/tools/index.ts", "export default () => {};\n");
	world.write("home/.agent/extensions/mine.ts", 'export default () => { console.error("loaded user code"); };\n');
	return world;
}

async function savedTrust(world: TempWorld): Promise<Record<string, { trusted: boolean }> | undefined> {
	const file = Bun.file(join(world.agentDir, "trust.json"));
	return (await file.exists()) ? (await file.json()).folders : undefined;
}

describe.skipIf(!hasTmux)("interactive trust prompt", () => {
	test("shows the folder and the files; Trust this folder saves it and loads project code", async () => {
		await using world = promptWorld();
		await using term = new Terminal(world);
		const screen = await term.waitFor("Don't trust");
		expect(screen).toContain(
			[
				"◆  Trust project folder?",
				`│  ${world.cwd}`,
				"│",
				"│  Project code that would run (2 files):",
				"│    .agent/extensions/guard.ts",
				"│    .agent/extensions/tools/index.ts",
				"│  ○ Trust this folder",
				`│  ○ Trust the parent folder (${world.root})`,
				"│  ● Don't trust (skip project extensions; ask no more)",
			].join("\n"),
		);
		// The untrusted first pass already ran the user extension, never the project one.
		expect(screen).toStartWith("loaded user code");
		expect(existsSync(join(world.cwd, "ran.txt"))).toBe(false);
		term.keys("Up", "Up", "Enter");
		// The second pass loads project code first, then the TUI starts with both listed.
		const ready = await term.waitFor("Warning: No model is configured");
		expect(ready).toContain("loaded project code\nloaded user code\n agent v");
		expect(ready).toContain("[Extensions]\n  guard.ts, mine.ts, tools\n");
		term.keys("C-d");
		expect(await term.waitFor("EXIT=")).toEndWith("EXIT=0");
		expect(existsSync(join(world.cwd, "ran.txt"))).toBe(true);
		expect(await savedTrust(world)).toEqual({ [world.cwd]: { trusted: true, decidedAt: expect.any(String) } as never });
	}, TIMEOUT);

	test("Ctrl+C exits 130 having run no project code and saved nothing", async () => {
		await using world = promptWorld();
		await using term = new Terminal(world);
		await term.waitFor("Don't trust");
		term.keys("C-c");
		const after = await term.waitFor("EXIT=");
		expect(after).toEndWith("Error: Cancelled: no project code was run.\nEXIT=130");
		expect(existsSync(join(world.cwd, "ran.txt"))).toBe(false);
		expect(await savedTrust(world)).toBeUndefined();
	}, TIMEOUT);

	test("Trust the parent folder saves the parent", async () => {
		await using world = promptWorld();
		await using term = new Terminal(world);
		await term.waitFor("Don't trust");
		term.keys("Up", "Enter");
		await term.waitFor("[Extensions]");
		expect(existsSync(join(world.cwd, "ran.txt"))).toBe(true);
		expect(Object.keys((await savedTrust(world))!)).toEqual([dirname(world.cwd)]);
	}, TIMEOUT);

	test("Don't trust is saved: no project code, and the next start does not ask again", async () => {
		await using world = promptWorld();
		{
			await using term = new Terminal(world);
			await term.waitFor("Don't trust");
			term.keys("Enter");
			const ready = await term.waitFor("Warning: No model is configured");
			expect(ready).toContain("[Extensions]\n  mine.ts\n");
			term.keys("C-d");
			expect(await term.waitFor("EXIT=")).toEndWith("EXIT=0");
		}
		expect(existsSync(join(world.cwd, "ran.txt"))).toBe(false);
		expect((await savedTrust(world))![world.cwd]!.trusted).toBe(false);
		await using again = new Terminal(world);
		const { above } = await again.waitToPass("the start-up list", (p) => {
			expect(p.above).toContain("[Extensions]");
			expect(p.above).toContain(`Skipped 2 project extensions in ${join(world.cwd, ".agent/extensions")}: folder not trusted`);
		});
		expect(above).not.toContain("Trust project folder?");
	}, TIMEOUT);

	test("a project with only skills and prompt templates asks too, listing those folders", async () => {
		await using world = new TempWorld();
		world.write("project/.agent/skills/local/SKILL.md", "---\nname: local\ndescription: d\n---\n");
		world.write("project/.agent/prompts/p.md", "p");
		await using term = new Terminal(world);
		const screen = await term.waitFor("Don't trust");
		expect(screen).toContain(
			["◆  Trust project folder?", `│  ${world.cwd}`, "│", "│  Project skills and prompt templates the model would follow:", "│    .agent/skills", "│    .agent/prompts", "│  ○ Trust this folder"].join("\n"),
		);
		term.keys("Up", "Up", "Enter");
		// Trusted: the TUI starts and lists them.
		await term.waitToPass("the TUI with them listed", (p) => {
			expect(p.above).toContain("[Skills]\n  local\n\n[Prompts]\n  /p\n");
			expect(p.below).not.toBe("");
		});
		term.keys("C-d");
		await term.waitFor("EXIT=0");
		expect((await savedTrust(world))![world.cwd]!.trusted).toBe(true);
	}, TIMEOUT);

	test("-p never prompts, even in a terminal", async () => {
		await using world = promptWorld();
		await using term = new Terminal(world, ["-p", "hi"]);
		const screen = await term.waitFor("EXIT=");
		expect(screen).not.toContain("Trust project folder?");
		expect(screen).toContain("Skipped 2 project extensions");
	}, TIMEOUT);
});
