// Context files, skills and prompt templates through the binary against the mock LLM: what reaches
// the system prompt and the user message, trust gating, resources_discover, getCommands() order,
// conflicts in --verbose and `agent list`.
import { describe, expect, test } from "bun:test";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { readMessages, type RecordedRequest } from "../support/mock-llm.ts";
import { MODEL, mockWorld, type MockWorld } from "../support/world.ts";

const skill = (name: string, description: string, body: string) => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

function chats(world: MockWorld): RecordedRequest[] {
	return world.mock.requests.filter((r) => r.protocol !== "none");
}

function systemOf(request: RecordedRequest): string {
	return readMessages(request).find((m) => m.role === "system")?.text ?? "";
}

function lastUser(request: RecordedRequest): string {
	return readMessages(request).filter((m) => m.role === "user").at(-1)?.text ?? "";
}

describe("context files", () => {
	test("~/.agent/AGENTS.md, then each folder from the repo root down to cwd, reach the system prompt; -nc leaves them out", async () => {
		await using world = await mockWorld();
		mkdirSync(join(world.root, ".git"));
		world.write("home/.agent/AGENTS.md", "User-wide rule.\n");
		world.write("AGENTS.md", "Repo rule.\n");
		world.write("project/CLAUDE.md", "Project rule.\n");
		world.mock.script({ text: "ok" }, { text: "ok" });
		const r = await world.run(["-p", "hi", "--model", MODEL.openai, "--verbose"]);
		expect(r.code).toBe(0);
		const system = systemOf(chats(world)[0]!);
		const files = [join(world.agentDir, "AGENTS.md"), join(world.root, "AGENTS.md"), join(world.cwd, "CLAUDE.md")];
		expect(system).toContain(
			`# Project context\n\nInstructions from context files; nearer folders come later and take precedence.\n\n## ${files[0]}\n\nUser-wide rule.\n\n## ${files[1]}\n\nRepo rule.\n\n## ${files[2]}\n\nProject rule.`,
		);
		expect(r.stderr).toBe(` agent v0.1.0\n\n[Context]\n  ~/.agent/AGENTS.md\n  ${files[1]}\n  ${files[2]}\n\n`);

		const off = await world.run(["-p", "hi", "--model", MODEL.openai, "-nc"]);
		expect(off.code).toBe(0);
		expect(systemOf(chats(world)[1]!)).not.toContain("# Project context");
	});
});

describe("skills", () => {
	test("listed in the system prompt by name and description, read on demand with the read tool", async () => {
		await using world = await mockWorld();
		const file = world.write("home/.agent/skills/release/SKILL.md", skill("release", "Cut a release of this project", "1. Bump the version.\n2. Tag it."));
		world.mock.script({ toolCalls: [{ name: "read", arguments: { path: file } }] }, { text: "Released." });
		const r = await world.run(["-p", "cut a release", "--model", MODEL.openai]);
		expect(r).toEqual({ stdout: "Released.\n", stderr: "", code: 0 });
		const [first, second] = chats(world);
		expect(systemOf(first!)).toContain(`<available_skills>\n  <skill name="release" location="${file}">Cut a release of this project</skill>\n</available_skills>`);
		const result = readMessages(second!).find((m) => m.role === "toolResult")!;
		expect(result.text).toContain("5\t1. Bump the version.\n6\t2. Tag it.");
	});

	test("/skill:<name> args sends the skill with the arguments; -ns drops discovered skills but keeps --skill", async () => {
		await using world = await mockWorld();
		const file = world.write("home/.agent/skills/release/SKILL.md", skill("release", "Cut a release", "Bump, tag, push."));
		const extra = world.write("tmp/other/SKILL.md", skill("other", "Another skill", "Other body."));
		world.mock.script({ text: "ok" }, { text: "ok" });
		expect((await world.run(["-p", "/skill:release v2.0", "--model", MODEL.openai])).code).toBe(0);
		expect(lastUser(chats(world)[0]!)).toBe(`<skill name="release" path="${file}">\nPaths in this skill are relative to ${join(world.agentDir, "skills/release")}.\n\nBump, tag, push.\n</skill>\n\nv2.0`);

		expect((await world.run(["-p", "/skill:release", "-ns", "--skill", extra, "--model", MODEL.openai])).code).toBe(0);
		const request = chats(world)[1]!;
		expect(lastUser(request)).toBe("/skill:release");
		expect(systemOf(request)).toContain(`<skill name="other" location="${extra}">Another skill</skill>`);
		expect(systemOf(request)).not.toContain('name="release"');
	});

	test("project skills and templates load only in a trusted folder; otherwise one line says so", async () => {
		await using world = await mockWorld();
		world.write("project/.agent/skills/local/SKILL.md", skill("local", "A project skill", "Local."));
		world.write("project/.agent/prompts/hello.md", "Say hello to $1.");
		world.mock.script({ text: "ok" }, { text: "ok" });
		const skipped = await world.run(["-p", "/hello Ann", "--model", MODEL.openai]);
		expect(skipped.stderr).toBe(`Skipped project skills and prompt templates in ${join(world.cwd, ".agent")}: folder not trusted (pass --approve or run "agent trust").\n`);
		expect(lastUser(chats(world)[0]!)).toBe("/hello Ann");
		expect(systemOf(chats(world)[0]!)).not.toContain("A project skill");

		const approved = await world.run(["-p", "/hello Ann", "--model", MODEL.openai, "-a"]);
		expect(approved.stderr).toBe("");
		expect(lastUser(chats(world)[1]!)).toBe("Say hello to Ann.");
		expect(systemOf(chats(world)[1]!)).toContain(`<skill name="local" location="${join(world.cwd, ".agent/skills/local/SKILL.md")}">A project skill</skill>`);
	});
});

describe("prompt templates", () => {
	test("/name args expands $1, $2 and $@ (quotes group words); --prompt-template adds files; -np drops discovered ones", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/prompts/fix.md", "---\ndescription: Fix an issue\n---\nFix issue $1 in $2. Context: $@");
		const extra = world.write("tmp/review.md", "Review $ARGUMENTS carefully.");
		world.mock.script({ text: "ok" }, { text: "ok" }, { text: "ok" });
		expect((await world.run(["-p", '/fix 42 "src/a b.ts"', "--model", MODEL.openai])).code).toBe(0);
		expect(lastUser(chats(world)[0]!)).toBe("Fix issue 42 in src/a b.ts. Context: 42 src/a b.ts");
		expect((await world.run(["-p", "/review the parser", "--prompt-template", extra, "--model", MODEL.openai])).code).toBe(0);
		expect(lastUser(chats(world)[1]!)).toBe("Review the parser carefully.");
		expect((await world.run(["-p", "/fix 42", "-np", "--model", MODEL.openai])).code).toBe(0);
		expect(lastUser(chats(world)[2]!)).toBe("/fix 42");
	});
});

const DISCOVER = (dir: string) => `import type { ExtensionAPI } from "@scope/coding-agent";
export default function (pi: ExtensionAPI) {
	pi.on("resources_discover", (event) => {
		console.error("discover " + event.reason);
		return { skillPaths: ["skills"], promptPaths: [${JSON.stringify(join(dir, "prompts"))}] };
	});
	pi.registerCommand("cmds", {
		description: "list commands",
		handler: async () => {
			console.error(JSON.stringify(pi.getCommands().map((c) => [c.name, c.source, c.sourceInfo.source])));
		},
	});
}
`;

describe("resources_discover", () => {
	test("an extension adds a skill and a template; getCommands() lists extension commands, templates, skills", async () => {
		await using world = await mockWorld();
		const dir = join(world.root, "ext");
		world.write("ext/skills/ext-skill/SKILL.md", skill("ext-skill", "Skill from an extension", "Extension skill body."));
		world.write("ext/prompts/greet.md", "---\ndescription: Greet\n---\nGreet $1.");
		world.write("home/.agent/skills/mine/SKILL.md", skill("mine", "Mine", "Mine."));
		const ext = world.write("ext/discover.ts", DISCOVER(dir));
		world.mock.script({ text: "ok" }, { text: "ok" });
		const r = await world.run(["-e", ext, "-p", "/greet Bob", "/skill:ext-skill now", "/cmds", "--model", MODEL.openai]);
		expect(r.code).toBe(0);
		expect(r.stderr).toBe(
			`discover startup\n${JSON.stringify([
				["cmds", "extension", "cli"],
				["greet", "prompt", "extension:discover"],
				["skill:mine", "skill", "local"],
				["skill:ext-skill", "skill", "extension:discover"],
			])}\n`,
		);
		const [first, second] = chats(world);
		expect(lastUser(first!)).toBe("Greet Bob.");
		expect(systemOf(first!)).toContain(`<skill name="ext-skill" location="${join(dir, "skills/ext-skill/SKILL.md")}">Skill from an extension</skill>`);
		expect(lastUser(second!)).toContain("Extension skill body.\n</skill>\n\nnow");
	});

	test("ctx.reload() reads skills from disk again and asks resources_discover with reason reload", async () => {
		await using world = await mockWorld();
		world.write("ext/skills/ext-skill/SKILL.md", skill("ext-skill", "Skill from an extension", "Extension skill body."));
		const later = join(world.agentDir, "skills/later/SKILL.md");
		const ext = world.write(
			"ext/reload.ts",
			`import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
export default function (pi) {
	pi.on("resources_discover", (event) => {
		console.error("discover " + event.reason);
		return { skillPaths: ["skills"] };
	});
	pi.registerCommand("re", {
		description: "add a skill, reload",
		handler: async (_args, ctx) => {
			mkdirSync(dirname(${JSON.stringify(later)}), { recursive: true });
			writeFileSync(${JSON.stringify(later)}, "---\\ndescription: Added later\\n---\\nLater body.\\n");
			await ctx.reload();
		},
	});
}
`,
		);
		world.mock.script({ text: "ok" }, { text: "ok" });
		const r = await world.run(["-e", ext, "-p", "/skill:ext-skill", "/re", "/skill:later go", "--model", MODEL.openai]);
		expect(r).toEqual({ stdout: "ok\n", stderr: "discover startup\ndiscover reload\n", code: 0 });
		const [, second] = chats(world);
		expect(lastUser(second!)).toContain("Later body.\n</skill>\n\ngo");
		expect(systemOf(second!)).toContain('<skill name="ext-skill"');
		expect(systemOf(second!)).toContain(`<skill name="later" location="${later}">Added later</skill>`);
	});
});

describe("conflicts", () => {
	test("the same skill or template name twice: the first wins, --verbose and agent list say which", async () => {
		await using world = await mockWorld();
		const winner = world.write("tmp/skills/dup/SKILL.md", skill("dup", "first", "First."));
		const loser = world.write("home/.agent/skills/dup/SKILL.md", skill("dup", "second", "Second."));
		world.write("home/.agent/prompts/p.md", "user p");
		const cli = world.write("tmp/p.md", "cli p");
		world.mock.script({ text: "ok" });
		const r = await world.run(["-p", "hi", "--skill", join(world.root, "tmp/skills"), "--prompt-template", cli, "--model", MODEL.openai, "--verbose"]);
		expect(r.stderr).toBe(
			[
				" agent v0.1.0",
				"",
				"[Skills]",
				"  path",
				`    ${winner}`,
				"",
				"[Prompts]",
				"  path",
				`    /p  ${cli}`,
				"",
				"[Skill conflicts]",
				'  "dup" collision:',
				`    ✓ ${winner}`,
				"    ✗ ~/.agent/skills/dup/SKILL.md (skipped)",
				"",
				"[Prompt conflicts]",
				'  "p" collision:',
				`    ✓ ${cli}`,
				"    ✗ ~/.agent/prompts/p.md (skipped)",
				"",
				"",
			].join("\n"),
		);
		expect(loser).toBe(join(world.agentDir, "skills/dup/SKILL.md"));

		const project = world.write("project/.agent/skills/dup/SKILL.md", skill("dup", "project", "Project."));
		const list = await world.run(["list", "-a"]);
		expect(list.stdout).toBe(
			[
				"No extensions found. Put .ts files in .agent/extensions/ (this project) or ~/.agent/extensions/ (all projects), or pass -e <path>.",
				"",
				"skills",
				`  dup  ${project} (project)`,
				"prompt templates",
				"  /p  ~/.agent/prompts/p.md (user)",
				"skill conflicts",
				'  "dup" collision:',
				`    ✓ ${project}`,
				"    ✗ ~/.agent/skills/dup/SKILL.md (skipped)",
				"",
			].join("\n"),
		);
		// Untrusted, the project's skill is not there to conflict.
		const json = JSON.parse((await world.run(["list", "--json"])).stdout);
		expect(json.skills).toEqual([{ name: "dup", description: "second", path: loser, scope: "user" }]);
		expect(json.skillConflicts).toEqual([]);
	});
});
