// Skills, prompt templates, frontmatter and the resource set: discovery rules, precedence and
// conflicts, trust gating, argument substitution, command infos and start-up sections.
import { afterAll, afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseFrontmatter, parsePlainLines } from "../../../src/core/resources/frontmatter.ts";
import { expandTemplate, loadPromptTemplates, parseCommandArgs, substituteArgs } from "../../../src/core/resources/prompt-templates.ts";
import { ResourceSet } from "../../../src/core/resources/resource-set.ts";
import { loadSkills, skillPrompt } from "../../../src/core/resources/skills.ts";
import { resourceConflictSections, resourceSections, sectionLines } from "../../../src/modes/interactive/resource-sections.ts";

const root = mkdtempSync(join(realpathSync(tmpdir()), "agent-resources-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
/** A fresh folder with `files` written into it. */
function tree(files: Record<string, string>): string {
	const dir = join(root, `t${++n}`);
	for (const [path, content] of Object.entries(files)) {
		mkdirSync(dirname(join(dir, path)), { recursive: true });
		writeFileSync(join(dir, path), content);
	}
	mkdirSync(dir, { recursive: true });
	return dir;
}

const skill = (name: string, description: string, body = "Do the thing.") => `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`;

describe("parseFrontmatter", () => {
	test("YAML block and trimmed body; none, empty and CRLF files", () => {
		expect(parseFrontmatter("---\nname: x\ndescription: >\n  two\n  lines\nlist: [a, b]\n---\n\nBody\n")).toEqual({
			frontmatter: { name: "x", description: "two lines\n", list: ["a", "b"] },
			body: "Body",
		});
		expect(parseFrontmatter("no block\n")).toEqual({ frontmatter: {}, body: "no block\n" });
		expect(parseFrontmatter("---\n---\nbody")).toEqual({ frontmatter: {}, body: "body" });
		expect(parseFrontmatter("---\r\na: 1\r\n---\r\nb\r\n")).toEqual({ frontmatter: { a: 1 }, body: "b" });
		expect(parseFrontmatter("---\nnot closed\n")).toEqual({ frontmatter: {}, body: "---\nnot closed\n" });
	});

	test("the plain key: value fast path agrees with YAML wherever it answers, and leaves the rest to YAML", () => {
		const samples = [
			"name: review\ndescription: Review a diff, carefully.\n",
			"name: x\ndisable-model-invocation: true\nother: false\nnothing: null\n",
			"description: Use it when asked (not otherwise); see docs/a.md\n\nname: a-b_c.d\n",
			"description: a: b\n",
			"description: 'quoted'\n",
			"description: text # comment\n",
			"count: 42\n",
			"flag: yes\n",
			"list:\n  - a\n",
			"description: >\n  folded\n",
			"a: 1\na: 2\n",
			"description: -starts with dash\n",
		];
		const answered = samples.filter((yaml) => {
			const fast = parsePlainLines(yaml);
			if (fast !== undefined) expect(fast).toEqual(Bun.YAML.parse(yaml) as Record<string, unknown>);
			return fast !== undefined;
		});
		expect(answered).toEqual(samples.slice(0, 3));
	});

	test("bad YAML and non-mappings are errors that say so", () => {
		expect(() => parseFrontmatter("---\na: [1, 2\n---\n")).toThrow(/^invalid YAML frontmatter: /);
		expect(() => parseFrontmatter("---\n- a\n- b\n---\n")).toThrow("frontmatter must be a YAML mapping (key: value lines)");
	});
});

describe("skills", () => {
	test("a folder with SKILL.md is one skill; loose .md files at the top; nested folders; dot and node_modules skipped", () => {
		const dir = tree({
			"review/SKILL.md": skill("review", "Review a diff"),
			"review/nested/SKILL.md": skill("hidden", "never found: below a skill"),
			"team/deploy/SKILL.md": skill("deploy", "Deploy the app"),
			"quick.md": "---\ndescription: A loose skill\n---\nQuick.\n",
			".hidden/SKILL.md": skill("dot", "skipped"),
			"node_modules/x/SKILL.md": skill("dep", "skipped"),
			"team/notes.md": "not a skill: loose files count only at the top",
		});
		const { skills, diagnostics } = loadSkills([{ path: dir, scope: "user", origin: "the user folder" }]);
		expect(skills.map((s) => [s.name, s.description, s.filePath.slice(dir.length + 1)])).toEqual([
			["quick", "A loose skill", "quick.md"],
			["review", "Review a diff", "review/SKILL.md"],
			["deploy", "Deploy the app", "team/deploy/SKILL.md"],
		]);
		expect(skills[1]!.baseDir).toBe(join(dir, "review"));
		expect(diagnostics).toEqual([]);
	});

	test("name falls back to the folder; missing description, bad names and bad YAML are warnings; missing named paths too", () => {
		const dir = tree({
			"by-folder/SKILL.md": "---\ndescription: named after its folder\n---\n",
			"nodesc/SKILL.md": "---\nname: nodesc\n---\n",
			"spaced/SKILL.md": "---\nname: has space\ndescription: d\n---\n",
			"broken/SKILL.md": "---\nname: [unclosed\n---\n",
		});
		const { skills, diagnostics } = loadSkills([
			{ path: dir, scope: "user", origin: "the user folder" },
			{ path: join(dir, "absent"), scope: "path", origin: "--skill" },
			{ path: join(dir, "absent-default"), scope: "user", origin: "the user folder", optional: true },
		]);
		expect(skills.map((s) => s.name)).toEqual(["by-folder"]);
		expect(diagnostics.map((d) => (d.type === "warning" ? [d.path.slice(dir.length + 1), d.message] : d))).toEqual([
			["broken/SKILL.md", expect.stringMatching(/^invalid YAML frontmatter: .*; skill skipped$/)],
			["nodesc/SKILL.md", `"description" is missing from the frontmatter; skill skipped`],
			["spaced/SKILL.md", `name "has space" may hold only letters, digits, ".", "_" and "-"; skill skipped`],
			["absent", "path does not exist (named by --skill)"],
		]);
	});

	test("first of a name wins and the other is a collision; the same file twice is not", () => {
		const a = tree({ "review/SKILL.md": skill("review", "project review") });
		const b = tree({ "review/SKILL.md": skill("review", "user review") });
		const { skills, diagnostics } = loadSkills([
			{ path: a, scope: "project", origin: "the project folder" },
			{ path: join(a, "review/SKILL.md"), scope: "path", origin: "--skill" },
			{ path: b, scope: "user", origin: "the user folder" },
		]);
		expect(skills.map((s) => [s.name, s.description, s.scope])).toEqual([["review", "project review", "project"]]);
		expect(diagnostics).toEqual([{ type: "collision", name: "review", winnerPath: join(a, "review/SKILL.md"), loserPath: join(b, "review/SKILL.md") }]);
	});

	test("/skill:name sends the body in a <skill> block, then the arguments", () => {
		const dir = tree({ "review/SKILL.md": skill("review", "d", "Check ./checklist.md first.") });
		const [s] = loadSkills([{ path: dir, scope: "user", origin: "x" }]).skills;
		const file = join(dir, "review/SKILL.md");
		expect(skillPrompt(s!, " src/a.ts ")).toBe(
			`<skill name="review" path="${file}">\nPaths in this skill are relative to ${join(dir, "review")}.\n\nCheck ./checklist.md first.\n</skill>\n\nsrc/a.ts`,
		);
		rmSync(file);
		expect(() => skillPrompt(s!, "")).toThrow(`Cannot read skill "review" from ${file}: `);
	});
});

describe("prompt templates", () => {
	test("*.md files of a folder (not nested); description from frontmatter or the first line; argument-hint", () => {
		const dir = tree({
			"fix.md": "---\ndescription: Fix an issue\nargument-hint: <issue>\n---\nFix issue $1.\n",
			"long.md": `\n${"x".repeat(70)}\nmore`,
			"sub/nested.md": "not loaded",
			"notes.txt": "not a template",
		});
		const { templates, diagnostics } = loadPromptTemplates([{ path: dir, scope: "project", origin: "the project folder" }]);
		expect(templates.map((t) => [t.name, t.description, t.argumentHint, t.content])).toEqual([
			["fix", "Fix an issue", "<issue>", "Fix issue $1."],
			["long", `${"x".repeat(60)}…`, undefined, `${"x".repeat(70)}\nmore`],
		]);
		expect(diagnostics).toEqual([]);
		const txt = loadPromptTemplates([{ path: join(dir, "notes.txt"), scope: "path", origin: "--prompt-template" }]);
		expect(txt.diagnostics).toEqual([{ type: "warning", path: join(dir, "notes.txt"), message: "a prompt template must be a .md file (named by --prompt-template)" }]);
	});

	test("arguments: quotes, positional, all, slices; one pass, so arguments are never re-expanded", () => {
		expect(parseCommandArgs(`a "b c" 'd e' "" f`)).toEqual(["a", "b c", "d e", "", "f"]);
		expect(substituteArgs("1=$1 2=$2 3=$3 all=$@ ARGS=$ARGUMENTS from2=${@:2} one=${@:2:1}", ["x", "y z", "w"])).toBe(
			"1=x 2=y z 3=w all=x y z w ARGS=x y z w from2=y z w one=y z",
		);
		expect(substituteArgs("$1 and $2", ["$2", "ok"])).toBe("$2 and ok");
		expect(substituteArgs("[$4]", ["a"])).toBe("[]");
	});

	test("a template without placeholders gets the arguments appended", () => {
		const t = { name: "t", description: "", content: "Review the code.", filePath: "/t.md", scope: "user" as const, origin: "x" };
		expect(expandTemplate(t, "src/a.ts")).toBe("Review the code.\n\nsrc/a.ts");
		expect(expandTemplate(t, "")).toBe("Review the code.");
		expect(expandTemplate({ ...t, content: "Fix $1 ($@)" }, `"a b" c`)).toBe("Fix a b (a b c)");
	});
});

describe("ResourceSet", () => {
	let agentDir: string;
	const saved = process.env.AGENT_DIR;
	beforeEach(() => {
		agentDir = tree({
			"skills/review/SKILL.md": skill("review", "user review"),
			"skills/lint/SKILL.md": skill("lint", "user lint"),
			"prompts/fix.md": "---\ndescription: user fix\n---\nFix $1",
			"AGENTS.md": "user rules",
		});
		process.env.AGENT_DIR = agentDir;
	});
	afterEach(() => {
		if (saved === undefined) delete process.env.AGENT_DIR;
		else process.env.AGENT_DIR = saved;
	});

	function project(): string {
		return tree({
			".git/HEAD": "ref",
			".agent/skills/review/SKILL.md": skill("review", "project review"),
			".agent/prompts/fix.md": "---\ndescription: project fix\n---\nProject fix $@",
			".agent/settings.json": JSON.stringify({ skills: ["../extra-skills"], enableSkillCommands: true }),
			"extra-skills/extra/SKILL.md": skill("extra", "from project settings"),
			"AGENTS.md": "project rules",
		});
	}

	test("untrusted: project skills, prompts and settings are left out", () => {
		const cwd = project();
		const set = new ResourceSet({ cwd, projectTrusted: false }).reload();
		expect(set.skills.map((s) => [s.name, s.description])).toEqual([
			["lint", "user lint"],
			["review", "user review"],
		]);
		expect(set.prompts.map((p) => p.description)).toEqual(["user fix"]);
		expect(set.contextFiles.map((f) => f.path)).toEqual([join(agentDir, "AGENTS.md"), join(cwd, "AGENTS.md")]);
		expect(set.skillDiagnostics).toEqual([]);
	});

	test("trusted: flags, then project (settings, folder), then user; the losers are reported", () => {
		const cwd = project();
		const flagged = tree({ "lint/SKILL.md": skill("lint", "flag lint") });
		const set = new ResourceSet({ cwd, projectTrusted: true, skillPaths: [flagged] }).reload();
		expect(set.skills.map((s) => [s.name, s.description, s.scope])).toEqual([
			["lint", "flag lint", "path"],
			["extra", "from project settings", "project"],
			["review", "project review", "project"],
		]);
		expect(set.skillDiagnostics).toEqual([
			{ type: "collision", name: "lint", winnerPath: join(flagged, "lint/SKILL.md"), loserPath: join(agentDir, "skills/lint/SKILL.md") },
			{ type: "collision", name: "review", winnerPath: join(cwd, ".agent/skills/review/SKILL.md"), loserPath: join(agentDir, "skills/review/SKILL.md") },
		]);
		expect(set.prompts.map((p) => p.description)).toEqual(["project fix"]);
		expect(set.expand("/fix a b")).toBe("Project fix a b");
		expect(set.expand("/skill:extra now")).toContain("\n</skill>\n\nnow");
		expect(set.expand("/unknown x")).toBeUndefined();
		expect(set.expand("plain text")).toBeUndefined();
	});

	test("-ns / -np keep only explicit paths; -nc drops context files", () => {
		const cwd = project();
		const flagged = tree({ "only/SKILL.md": skill("only", "flagged"), "p/only.md": "Only" });
		const set = new ResourceSet({ cwd, projectTrusted: true, noSkills: true, skillPaths: [flagged], noPromptTemplates: true, promptPaths: [join(flagged, "p")], noContextFiles: true }).reload();
		expect(set.skills.map((s) => s.name)).toEqual(["only"]);
		expect(set.prompts.map((p) => p.name)).toEqual(["only"]);
		expect(set.contextFiles).toEqual([]);
	});

	test("extension paths come last, relative to the extension's folder, labelled extension:<name>", () => {
		const cwd = project();
		const ext = tree({ "skills/ext-skill/SKILL.md": skill("ext-skill", "from an extension"), "prompts/review.md": "Ext review", "my-ext.ts": "" });
		const set = new ResourceSet({ cwd, projectTrusted: false }).reload();
		set.setExtensionPaths([{ path: "skills", extensionPath: join(ext, "my-ext.ts") }], [{ path: join(ext, "prompts"), extensionPath: join(ext, "my-ext.ts") }]);
		expect(set.skills.map((s) => [s.name, s.scope, s.origin])).toEqual([
			["lint", "user", "the user folder"],
			["review", "user", "the user folder"],
			["ext-skill", "extension", "extension:my-ext"],
		]);
		expect(set.commandInfos()).toEqual([
			{ name: "fix", description: "user fix", source: "prompt", sourceInfo: { path: join(agentDir, "prompts/fix.md"), source: "local", scope: "user", origin: "top-level" } },
			{ name: "review", description: "Ext review", source: "prompt", sourceInfo: { path: join(ext, "prompts/review.md"), source: "extension:my-ext", scope: "temporary", origin: "top-level" } },
			{ name: "skill:lint", description: "user lint", source: "skill", sourceInfo: { path: join(agentDir, "skills/lint/SKILL.md"), source: "local", scope: "user", origin: "top-level" } },
			{ name: "skill:review", description: "user review", source: "skill", sourceInfo: { path: join(agentDir, "skills/review/SKILL.md"), source: "local", scope: "user", origin: "top-level" } },
			{
				name: "skill:ext-skill",
				description: "from an extension",
				source: "skill",
				sourceInfo: { path: join(ext, "skills/ext-skill/SKILL.md"), source: "extension:my-ext", scope: "temporary", origin: "top-level" },
			},
		]);
	});

	test("enableSkillCommands: false removes /skill: commands, not the skills", () => {
		writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ enableSkillCommands: false }));
		const set = new ResourceSet({ cwd: tree({}), projectTrusted: false }).reload();
		expect(set.skillSummaries().map((s) => s.name)).toEqual(["lint", "review"]);
		expect(set.commandInfos().map((c) => c.name)).toEqual(["fix"]);
		expect(set.expand("/skill:lint")).toBeUndefined();
		writeFileSync(join(agentDir, "settings.json"), JSON.stringify({ enableSkillCommands: "no" }));
		expect(() => set.reload()).toThrow(`"enableSkillCommands" in ${join(agentDir, "settings.json")} must be true or false.`);
	});

	test("start-up sections: compact and expanded, and conflicts", () => {
		const cwd = project();
		const set = new ResourceSet({ cwd, projectTrusted: true }).reload();
		expect(sectionLines(resourceSections(set, false))).toEqual([
			"",
			"[Context]",
			`  ${join(agentDir, "AGENTS.md")}, AGENTS.md`,
			"",
			"[Skills]",
			"  extra, lint, review",
			"",
			"[Prompts]",
			"  /fix",
		]);
		expect(resourceSections(set, true).find((s) => s.title === "Skills")!.lines).toEqual([
			"  project",
			`    ${join(cwd, ".agent/skills/review/SKILL.md")}`,
			`    ${join(cwd, "extra-skills/extra/SKILL.md")}`,
			"  user",
			`    ${join(agentDir, "skills/lint/SKILL.md")}`,
		]);
		expect(sectionLines(resourceConflictSections(set))).toEqual([
			"",
			"[Skill conflicts]",
			'  "review" collision:',
			`    ✓ ${join(cwd, ".agent/skills/review/SKILL.md")}`,
			`    ✗ ${join(agentDir, "skills/review/SKILL.md")} (skipped)`,
			"",
			"[Prompt conflicts]",
			'  "fix" collision:',
			`    ✓ ${join(cwd, ".agent/prompts/fix.md")}`,
			`    ✗ ${join(agentDir, "prompts/fix.md")} (skipped)`,
		]);
	});
});
