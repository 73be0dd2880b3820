// The interactive `Trust project folder?` prompt in a real terminal (tmux), through the binary:
// what a person sees, what each answer saves, and that Ctrl+C exits 130 with no project code run.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { agentBinary, TempWorld } from "../support/agent.ts";

const hasTmux = Bun.which("tmux") !== null;

/** One tmux server per test on a private socket; `await using` kills that server only. */
class Terminal implements AsyncDisposable {
	private readonly socket = `agent-test-${process.pid}-${Math.random().toString(36).slice(2)}`;

	constructor(world: TempWorld, argv: string[] = []) {
		const env = Object.entries(world.environment({ TERM: "xterm-256color" }))
			.map(([k, v]) => `${k}=${shellQuote(v)}`)
			.join(" ");
		const command = `env -i ${env} ${shellQuote(agentBinary())} ${argv.map(shellQuote).join(" ")}; echo EXIT=$?; sleep 60`;
		this.tmux(["new-session", "-d", "-x", "120", "-y", "40", "-c", world.cwd, command]);
	}

	private tmux(args: string[]): string {
		const r = Bun.spawnSync(["tmux", "-L", this.socket, ...args], { stdout: "pipe", stderr: "pipe" });
		return r.stdout.toString();
	}

	screen(): string {
		return this.tmux(["capture-pane", "-p"])
			.split("\n")
			.map((l) => l.trimEnd())
			.join("\n")
			.trim();
	}

	keys(...keys: string[]): void {
		this.tmux(["send-keys", ...keys]);
	}

	/** Wait until the screen contains `text` (fails with the screen after 15 s). */
	async waitFor(text: string): Promise<string> {
		for (let i = 0; i < 300; i++) {
			const s = this.screen();
			if (s.includes(text)) return s;
			await Bun.sleep(50);
		}
		throw new Error(`timed out waiting for ${JSON.stringify(text)}; screen:\n${this.screen()}`);
	}

	async [Symbol.asyncDispose](): Promise<void> {
		this.tmux(["kill-server"]);
	}
}

function shellQuote(s: string): string {
	return `'${s.replace(/'/g, "'\\''")}'`;
}

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
		const after = await term.waitFor("EXIT=");
		expect(after).toEndWith("loaded project code\nloaded user code\nError: Interactive mode is not implemented yet; use -p for now.\nEXIT=1");
		expect(existsSync(join(world.cwd, "ran.txt"))).toBe(true);
		expect(await savedTrust(world)).toEqual({ [world.cwd]: { trusted: true, decidedAt: expect.any(String) } as never });
	});

	test("Ctrl+C exits 130 having run no project code and saved nothing", async () => {
		await using world = promptWorld();
		await using term = new Terminal(world);
		await term.waitFor("Don't trust");
		term.keys("C-c");
		const after = await term.waitFor("EXIT=");
		expect(after).toEndWith("Error: Cancelled: no project code was run.\nEXIT=130");
		expect(existsSync(join(world.cwd, "ran.txt"))).toBe(false);
		expect(await savedTrust(world)).toBeUndefined();
	});

	test("Trust the parent folder saves the parent", async () => {
		await using world = promptWorld();
		await using term = new Terminal(world);
		await term.waitFor("Don't trust");
		term.keys("Up", "Enter");
		await term.waitFor("EXIT=1");
		expect(existsSync(join(world.cwd, "ran.txt"))).toBe(true);
		expect(Object.keys((await savedTrust(world))!)).toEqual([dirname(world.cwd)]);
	});

	test("Don't trust is saved: no project code, and the next start does not ask again", async () => {
		await using world = promptWorld();
		{
			await using term = new Terminal(world);
			await term.waitFor("Don't trust");
			term.keys("Enter");
			const after = await term.waitFor("EXIT=");
			expect(after).toEndWith("Error: Interactive mode is not implemented yet; use -p for now.\nEXIT=1");
		}
		expect(existsSync(join(world.cwd, "ran.txt"))).toBe(false);
		expect((await savedTrust(world))![world.cwd]!.trusted).toBe(false);
		await using again = new Terminal(world);
		const screen = await again.waitFor("EXIT=");
		expect(screen).not.toContain("Trust project folder?");
		expect(screen).toContain(`Skipped 2 project extensions in ${join(world.cwd, ".agent/extensions")}: folder not trusted`);
	});

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
		await term.waitFor("EXIT=");
		expect((await savedTrust(world))![world.cwd]!.trusted).toBe(true);
	});

	test("-p never prompts, even in a terminal", async () => {
		await using world = promptWorld();
		await using term = new Terminal(world, ["-p", "hi"]);
		const screen = await term.waitFor("EXIT=");
		expect(screen).not.toContain("Trust project folder?");
		expect(screen).toContain("Skipped 2 project extensions");
	});
});
