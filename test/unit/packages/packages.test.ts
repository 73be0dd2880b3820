// Package sources (npm, git shorthand and URLs, local paths), what a package folder contributes
// (conventions, manifest globs and exclusions, the settings filter), selection and settings writes.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { packageSettings, selectPackages, updatePackageSettings, versionMismatch } from "../../../src/core/packages/configured.ts";
import { applyFilter, bundledHostPackages, resolvePackageResources } from "../../../src/core/packages/manifest.ts";
import { installedPath, isRemoteSource, parseSource, sourceIdentity, sourceLabel } from "../../../src/core/packages/source.ts";
import { SettingsError } from "../../../src/core/resources/settings.ts";

const root = mkdtempSync(join(realpathSync(tmpdir()), "agent-packages-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
function tree(files: Record<string, string>): string {
	const dir = join(root, `t${++n}`);
	mkdirSync(dir, { recursive: true });
	for (const [path, content] of Object.entries(files)) {
		mkdirSync(dirname(join(dir, path)), { recursive: true });
		writeFileSync(join(dir, path), content);
	}
	return dir;
}

const rel = (dir: string, files: string[]) => files.map((f) => f.slice(dir.length + 1));

describe("sources", () => {
	test("npm: name, version, pinned", () => {
		expect(parseSource("npm:@demo/tools@1.2.0")).toEqual({ type: "npm", spec: "@demo/tools@1.2.0", name: "@demo/tools", version: "1.2.0", pinned: true });
		expect(parseSource("npm:tools@^1")).toEqual({ type: "npm", spec: "tools@^1", name: "tools", version: "^1", pinned: false });
		expect(parseSource("npm:@demo/tools")).toEqual({ type: "npm", spec: "@demo/tools", name: "@demo/tools", pinned: false });
		expect(() => parseSource("npm:Not A Name")).toThrow('"Not A Name" is not an npm package name');
	});

	test("git: shorthand, scp-style, https and http URLs with refs", () => {
		expect(parseSource("git:github.com/x/tools@v1")).toEqual({ type: "git", repo: "https://github.com/x/tools", host: "github.com", path: "x/tools", ref: "v1" });
		expect(parseSource("git:git@github.com:x/tools.git@main")).toEqual({ type: "git", repo: "git@github.com:x/tools.git", host: "github.com", path: "x/tools", ref: "main" });
		expect(parseSource("https://github.com/x/tools.git")).toEqual({ type: "git", repo: "https://github.com/x/tools.git", host: "github.com", path: "x/tools" });
		expect(parseSource("http://127.0.0.1:4873/demo/tools.git@abc123")).toEqual({ type: "git", repo: "http://127.0.0.1:4873/demo/tools.git", host: "127.0.0.1_4873", path: "demo/tools", ref: "abc123" });
		expect(sourceLabel(parseSource("http://127.0.0.1:4873/demo/tools.git"))).toBe("git:127.0.0.1:4873/demo/tools");
		expect(() => parseSource("git:nohost")).toThrow("expected git:<host>/<owner>/<repo>");
	});

	test("local paths; which strings are remote", () => {
		expect(parseSource("./tools")).toEqual({ type: "local", path: "./tools" });
		expect(isRemoteSource("npm:x")).toBe(true);
		expect(isRemoteSource("git:github.com/x/y")).toBe(true);
		expect(isRemoteSource("https://github.com/x/y")).toBe(true);
		expect(isRemoteSource("./guard.ts")).toBe(false);
		expect(isRemoteSource("/abs/ext")).toBe(false);
	});

	test("the first-character shortcut gives the same answers as the regexes alone", () => {
		const byRegex = (s: string) => s.startsWith("npm:") || s.startsWith("git:") || /^(https?|ssh|git|file):\/\//.test(s) || /^git@[^:]+:/.test(s);
		const values = [
			"/abs/ext.ts", "./guard.ts", "../up/ext", ".hidden", "~/ext.ts", "~", "", "ext.ts", "C:\\ext\\a.ts", "C:/ext/a.ts",
			"npm:x", "npm:@x/y@1.2.0", "git:github.com/x/y@v1", "git@github.com:x/y.git", "git://host/x/y", "https://github.com/x/y",
			"http://127.0.0.1:4873/x.git", "ssh://git@host/x/y", "file:///tmp/repo", "/npm:x", "./git:x", "~/https://x",
		];
		for (const value of values) expect(isRemoteSource(value)).toBe(byRegex(value));
		for (const value of ["/abs/ext.ts", "./guard.ts", "~/ext.ts"]) expect(isRemoteSource(value)).toBe(false);
	});

	test("identity ignores version and ref; install paths per scope", () => {
		expect(sourceIdentity(parseSource("npm:@demo/tools@1.0.0"), "/x")).toBe(sourceIdentity(parseSource("npm:@demo/tools"), "/y"));
		expect(sourceIdentity(parseSource("git:github.com/x/tools@v1"), "/x")).toBe(sourceIdentity(parseSource("https://github.com/x/tools"), "/x"));
		expect(sourceIdentity(parseSource("./a"), "/base")).toBe("local:/base/a");
		const npm = parseSource("npm:@demo/tools") as Extract<ReturnType<typeof parseSource>, { type: "npm" }>;
		expect(installedPath(npm, "project", "/repo")).toBe("/repo/.agent/packages/npm/node_modules/@demo/tools");
		const git = parseSource("git:github.com/x/tools@v1") as Extract<ReturnType<typeof parseSource>, { type: "git" }>;
		expect(installedPath(git, "project", "/repo")).toBe("/repo/.agent/packages/git/github.com/x/tools");
		expect(installedPath(git, "temporary", "/repo")).toMatch(/\/tmp\/packages\/git\/github\.com\/x\/tools@[0-9a-f]{8}$/);
	});
});

describe("package resources", () => {
	test("conventional folders: extensions one level deep, skill folders, prompt and theme files", () => {
		const dir = tree({
			"package.json": JSON.stringify({ name: "p" }),
			"extensions/a.ts": "",
			"extensions/b.d.ts": "",
			"extensions/sub/index.ts": "",
			"skills/review/SKILL.md": "x",
			"skills/loose.md": "x",
			"prompts/fix.md": "x",
			"prompts/notes.txt": "x",
			"themes/dark.json": "{}",
		});
		const { resources } = resolvePackageResources(dir);
		expect(rel(dir, resources.extensions)).toEqual(["extensions/a.ts", "extensions/sub/index.ts"]);
		expect(rel(dir, resources.skills)).toEqual(["skills/loose.md", "skills/review/SKILL.md"]);
		expect(rel(dir, resources.prompts)).toEqual(["prompts/fix.md"]);
		expect(rel(dir, resources.themes)).toEqual(["themes/dark.json"]);
	});

	test("the manifest (agent, else pi) lists paths, globs and exclusions; kinds it does not name use their folder", () => {
		const dir = tree({
			"package.json": JSON.stringify({ pi: { extensions: ["./src/main.ts", "./src/extra/*.ts", "!src/extra/legacy.ts"], prompts: ["./res/prompts"] } }),
			"src/main.ts": "",
			"src/extra/one.ts": "",
			"src/extra/legacy.ts": "",
			"res/prompts/a.md": "",
			"skills/s/SKILL.md": "",
		});
		const { resources, warnings } = resolvePackageResources(dir);
		expect(rel(dir, resources.extensions)).toEqual(["src/main.ts", "src/extra/one.ts"]);
		expect(rel(dir, resources.prompts)).toEqual(["res/prompts/a.md"]);
		expect(rel(dir, resources.skills)).toEqual(["skills/s/SKILL.md"]);
		expect(warnings).toEqual([]);
		const agentWins = tree({ "package.json": JSON.stringify({ agent: { extensions: ["a.ts"] }, pi: { extensions: ["b.ts"] } }), "a.ts": "", "b.ts": "" });
		expect(rel(agentWins, resolvePackageResources(agentWins).resources.extensions)).toEqual(["a.ts"]);
		const missing = tree({ "package.json": JSON.stringify({ agent: { extensions: ["./nope.ts"] } }) });
		expect(resolvePackageResources(missing).warnings).toEqual(['"./nope.ts" listed under extensions in package.json does not exist']);
	});

	test("a folder with neither manifest nor conventional folders is one extension through its index.ts", () => {
		const dir = tree({ "index.ts": "" });
		expect(rel(dir, resolvePackageResources(dir).resources.extensions)).toEqual(["index.ts"]);
	});

	test("the settings filter narrows: omitted = all, [] = none, globs, !glob, +path and -path", () => {
		const dir = tree({ "extensions/a.ts": "", "extensions/b.ts": "", "extensions/legacy.ts": "", "skills/x/SKILL.md": "", "skills/y/SKILL.md": "" });
		const all = resolvePackageResources(dir).resources;
		const pick = (patterns: string[]) => rel(dir, applyFilter(dir, all.extensions, patterns));
		expect(pick(["extensions/*.ts", "!extensions/legacy.ts"])).toEqual(["extensions/a.ts", "extensions/b.ts"]);
		expect(pick(["-extensions/b.ts"])).toEqual(["extensions/a.ts", "extensions/legacy.ts"]);
		expect(pick(["extensions/a.ts", "+extensions/legacy.ts"])).toEqual(["extensions/a.ts", "extensions/legacy.ts"]);
		expect(pick(["+extensions/nope.ts"])).toEqual(["extensions/a.ts", "extensions/b.ts", "extensions/legacy.ts"]);
		const filtered = resolvePackageResources(dir, { extensions: [], skills: ["skills/y"] }).resources;
		expect(filtered.extensions).toEqual([]);
		expect(rel(dir, filtered.skills)).toEqual(["skills/y/SKILL.md"]);
	});

	test("host-provided packages in dependencies or bundled are named", () => {
		expect(bundledHostPackages({ dependencies: { typebox: "^1", lodash: "4" } }, ["typebox", "@scope/coding-agent"])).toEqual(["typebox"]);
		expect(bundledHostPackages({ bundledDependencies: ["@scope/coding-agent"] }, ["typebox", "@scope/coding-agent"])).toEqual(["@scope/coding-agent"]);
		expect(bundledHostPackages({ dependencies: { lodash: "4" } }, ["typebox"])).toEqual([]);
	});
});

describe("selection and settings", () => {
	const file = (path: string, data: Record<string, unknown>) => ({ path, dir: dirname(path), data });

	test("project wins over user for one identity; -e wins over both; bad sources are problems, not failures", () => {
		const user = file("/home/u/.agent/settings.json", { packages: ["npm:@demo/a@1.0.0", "npm:@demo/b", "npm:Bad Name"] });
		const project = file("/repo/.agent/settings.json", { packages: [{ source: "npm:@demo/a@2.0.0", skills: [] }] });
		const { packages, problems } = selectPackages({ project, user }, ["npm:@demo/b@3.0.0"], "/repo");
		expect(packages.map((p) => [p.source, p.scope, p.filter])).toEqual([
			["npm:@demo/a@2.0.0", "project", { skills: [] }],
			["npm:@demo/b@3.0.0", "temporary", undefined],
		]);
		expect(problems).toEqual([{ settingsPath: "/home/u/.agent/settings.json", source: "npm:Bad Name", message: expect.stringContaining("is not an npm package name") }]);
	});

	test("a packages setting of the wrong shape names the file", () => {
		expect(() => packageSettings(file("/s.json", { packages: "npm:x" }))).toThrow(SettingsError);
		expect(() => packageSettings(file("/s.json", { packages: [{ source: "npm:x", extensions: "a.ts" }] }))).toThrow('"extensions" of package "npm:x" in /s.json must be an array');
	});

	test("an installed version that no longer satisfies the configured range needs an install", () => {
		const [pkg] = selectPackages({ user: file("/h/settings.json", { packages: ["npm:x@^2.0.0"] }) }, [], "/r").packages;
		expect(versionMismatch(pkg!, "1.5.0")).toBe(true);
		expect(versionMismatch(pkg!, "2.3.0")).toBe(false);
	});

	test("writing packages keeps every other key and never overwrites a malformed file", () => {
		const dir = tree({ "settings.json": JSON.stringify({ quietStartup: true, packages: ["npm:a"] }), "bad.json": "{ nope" });
		updatePackageSettings(join(dir, "settings.json"), (list) => [...list, "npm:b"]);
		expect(JSON.parse(readFileSync(join(dir, "settings.json"), "utf8"))).toEqual({ quietStartup: true, packages: ["npm:a", "npm:b"] });
		updatePackageSettings(join(dir, "settings.json"), () => []);
		expect(JSON.parse(readFileSync(join(dir, "settings.json"), "utf8"))).toEqual({ quietStartup: true });
		expect(() => updatePackageSettings(join(dir, "bad.json"), (l) => l)).toThrow(SettingsError);
		expect(readFileSync(join(dir, "bad.json"), "utf8")).toBe("{ nope");
	});
});

describe("trust", () => {
	test("an untrusted project's packages are gated inputs: listed by source (local ones by folder), skipped in one line", async () => {
		const { collectGatedInputs, skipLines } = await import("../../../src/core/resources/gated-inputs.ts");
		const dir = tree({ ".agent/settings.json": JSON.stringify({ packages: ["npm:@demo/a", { source: "../tools" }] }) });
		const settings = join(dir, ".agent/settings.json");
		const gated = collectGatedInputs(dir, []);
		expect(gated).toEqual([
			{ kind: "package", path: "npm:@demo/a", declaredBy: settings },
			{ kind: "package", path: join(dir, "tools"), declaredBy: settings },
		]);
		expect(skipLines(gated)).toEqual([`Skipped 2 project packages in ${settings}: folder not trusted (pass --approve or run "agent trust").`]);
	});

	test("a project without .agent has no gated inputs; with one, each kind is found", async () => {
		const { collectGatedInputs } = await import("../../../src/core/resources/gated-inputs.ts");
		expect(collectGatedInputs(tree({ "AGENTS.md": "# notes" }), [])).toEqual([]);
		const dir = tree({ ".agent/skills/s/SKILL.md": "---\nname: s\ndescription: d\n---\n", ".agent/settings.json": JSON.stringify({ theme: "dark" }) });
		expect(collectGatedInputs(dir, []).map((g) => g.kind)).toEqual(["skills", "settings"]);
	});

	test("-ne without -e discovers nothing and reads no settings; -ne with -e finds only that file", async () => {
		const { discoverForRun } = await import("../../../src/core/resources/resource-loader.ts");
		const dir = tree({ ".agent/extensions/a.ts": "export default () => {};", ".agent/settings.json": JSON.stringify({ packages: ["npm:@demo/a"], extensions: ["x.ts"] }), "b.ts": "export default () => {};" });
		for (const trusted of [true, false]) {
			expect(discoverForRun({ cwd: dir, noExtensions: true }, trusted)).toEqual({ entries: [], untrustedProject: [], untrustedPackages: [], warnings: [] });
			const withE = discoverForRun({ cwd: dir, noExtensions: true, extensionPaths: ["./b.ts"] }, trusted);
			expect(withE.entries.map((e) => e.path)).toEqual(["./b.ts"]);
			expect(withE.untrustedProject).toEqual([]);
			expect(withE.untrustedPackages).toEqual([]);
		}
	});
});
