// Packages through the binary with no npm on PATH: install from a registry and a git remote on
// 127.0.0.1, load the package's extension, skill and prompt template, update, remove; `-e npm:`
// for one run; untrusted project packages neither installed nor loaded; failures at start-up.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readMessages, readToolNames, type RecordedRequest } from "../support/mock-llm.ts";
import { startGitRemote, type GitRemote } from "../support/git-remote.ts";
import { startRegistry, type TestRegistry } from "../support/registry.ts";
import { RpcAgent } from "../support/rpc.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld, type MockWorld } from "../support/world.ts";
import { TempWorld } from "../support/agent.ts";

/** A package folder with one extension (using its dependency), one skill and one prompt template. */
function writePackage(world: TempWorld, dir: string, version: string, greeting: string, extra: Record<string, unknown> = {}): string {
	const root = join(world.root, "src", dir);
	world.write(
		join(root, "package.json"),
		JSON.stringify({ name: "@demo/hello", version, dependencies: { "tiny-dep": "^1.0.0" }, peerDependencies: { "@scope/coding-agent": "*", typebox: "*" }, ...extra }, null, 2),
	);
	world.write(
		join(root, "extensions/hello.ts"),
		`import type { ExtensionAPI } from "@scope/coding-agent";
import { Type } from "typebox";
import { shout } from "tiny-dep";
export default function (pi: ExtensionAPI) {
	pi.registerCommand("hello", { description: "Greet", handler: async (_args, ctx) => ctx.ui.notify(shout("${greeting}"), "info") });
	pi.registerTool({
		name: "pkg_tool",
		label: "Package tool",
		description: "A tool from a package",
		parameters: Type.Object({}),
		execute: async () => ({ content: [{ type: "text", text: "${greeting}" }], details: {} }),
	});
}
`,
	);
	world.write(join(root, "skills/greet/SKILL.md"), `---\nname: greet\ndescription: Greet someone warmly\n---\nSay ${greeting}.\n`);
	world.write(join(root, "prompts/hi.md"), `---\ndescription: Say hi\n---\nSay hi to $1 (${greeting}).\n`);
	return root;
}

function writeDependency(world: TempWorld): string {
	const root = join(world.root, "src", "tiny-dep");
	world.write(join(root, "package.json"), JSON.stringify({ name: "tiny-dep", version: "1.0.0", main: "index.js", scripts: { postinstall: 'echo ran > "$SCRIPT_MARK"' } }));
	world.write(join(root, "index.js"), "exports.shout = (s) => s.toUpperCase();\n");
	return root;
}

/** PATH with git and nothing else: no npm, no node, no bun. */
function bareBin(world: TempWorld, withGit = true): string {
	const bin = join(world.root, "bin");
	mkdirSync(bin, { recursive: true });
	if (withGit && !existsSync(join(bin, "git"))) symlinkSync(Bun.which("git")!, join(bin, "git"));
	return bin;
}

function envFor(world: TempWorld, registry: TestRegistry, withGit = true) {
	// An install script that runs leaves this file (there is nothing but shell builtins on PATH).
	return { PATH: bareBin(world, withGit), npm_config_registry: registry.url, SCRIPT_MARK: join(world.root, "postinstall-ran") };
}

function chats(world: MockWorld): RecordedRequest[] {
	return world.mock.requests.filter((r) => r.protocol !== "none");
}

let registry: TestRegistry;
const seed = new TempWorld();

beforeAll(async () => {
	registry = await startRegistry();
	await registry.publish(writeDependency(seed));
	await registry.publish(writePackage(seed, "hello-1", "1.0.0", "hello from one"));
});

afterAll(async () => {
	await registry.close();
	await seed[Symbol.asyncDispose]();
});

describe("npm packages", () => {
	test("install with no npm on PATH, load its extension, skill and prompt, update to a new version, remove", async () => {
		await using world = await mockWorld();
		const env = envFor(world, registry);
		expect(Bun.which("npm", { PATH: env.PATH })).toBeNull();

		const installed = await world.run(["install", "npm:@demo/hello"], { env });
		expect(installed.stderr).toBe("");
		expect(installed.code).toBe(0);
		expect(installed.stdout).toMatch(/^Installed npm:@demo\/hello 1\.0\.0 into ~\/\.agent\/packages\/npm\/node_modules\/@demo\/hello in \d+\.\d s\.\n/);
		expect(installed.stdout).toContain("  extensions: extensions/hello.ts\n  skills: skills/greet/SKILL.md\n  prompts: prompts/hi.md\nAdded to ~/.agent/settings.json.\n");
		expect(JSON.parse(readFileSync(join(world.agentDir, "settings.json"), "utf8"))).toEqual({ packages: ["npm:@demo/hello"] });
		// Lifecycle scripts did not run, and the host packages were neither fetched nor installed.
		expect(existsSync(join(world.root, "postinstall-ran"))).toBe(false);
		expect(registry.requests.some((p) => p.includes("coding-agent") || p.includes("typebox"))).toBe(false);
		expect(existsSync(join(world.agentDir, "packages/npm/node_modules/typebox"))).toBe(false);
		// Nothing in its tree depends on a host package: their stand-ins were not written.
		expect(existsSync(join(world.agentDir, "packages/host"))).toBe(false);

		// A command-only run needs no model; notify goes to stderr.
		const hello = await world.run(["-p", "/hello"], { env });
		expect(hello).toEqual({ stdout: "", stderr: "Info: HELLO FROM ONE\n", code: 0 });

		world.mock.script({ text: "ok" });
		const run = await world.run(["-p", "/hi Ann", "--model", MODEL.openai], { env });
		expect(run).toEqual({ stdout: "ok\n", stderr: "", code: 0 });
		const request = chats(world)[0]!;
		expect(readToolNames(request)).toContain("pkg_tool");
		const system = readMessages(request).find((m) => m.role === "system")!.text;
		expect(system).toContain(`<skill name="greet" location="${join(world.agentDir, "packages/npm/node_modules/@demo/hello/skills/greet/SKILL.md")}">Greet someone warmly</skill>`);
		expect(readMessages(request).at(-1)!.text).toBe("Say hi to Ann (hello from one).");

		const list = await world.run(["list", "--json"], { env });
		expect(list.code).toBe(0);
		const listed = JSON.parse(list.stdout);
		expect(listed.extensions).toEqual([expect.objectContaining({ group: "user", status: "loaded", tools: ["pkg_tool"], commands: ["/hello"] })]);
		expect(listed.packages).toEqual([
			expect.objectContaining({ source: "npm:@demo/hello", scope: "user", status: "installed", version: "1.0.0", extensions: ["extensions/hello.ts"], skills: ["skills/greet/SKILL.md"], prompts: ["prompts/hi.md"] }),
		]);

		await registry.publish(writePackage(world, "hello-2", "1.1.0", "hello from two"));
		const updated = await world.run(["update"], { env });
		expect(updated).toEqual({ stdout: "npm:@demo/hello  1.0.0 → 1.1.0\n", stderr: "", code: 0 });
		expect((await world.run(["-p", "/hello"], { env })).stderr).toBe("Info: HELLO FROM TWO\n");
		expect((await world.run(["update", "npm:@demo/hello"], { env })).stdout).toBe("npm:@demo/hello  up to date (1.1.0)\n");

		const removed = await world.run(["remove", "npm:@demo/hello"], { env });
		expect(removed).toEqual({ stdout: "Removed npm:@demo/hello from ~/.agent/settings.json and deleted ~/.agent/packages/npm/node_modules/@demo/hello.\n", stderr: "", code: 0 });
		expect(existsSync(join(world.agentDir, "packages/npm/node_modules/@demo/hello"))).toBe(false);
		expect(JSON.parse(readFileSync(join(world.agentDir, "settings.json"), "utf8"))).toEqual({});
		world.mock.script({ text: "model saw it" });
		expect((await world.run(["-p", "/hello", "--model", MODEL.openai], { env })).stdout).toBe("model saw it\n");
	});

	test("-e npm:<name> loads a package for one run, cached under ~/.agent/tmp/packages, settings untouched", async () => {
		await using world = new TempWorld();
		const env = envFor(world, registry);
		const r = await world.run(["-e", "npm:@demo/hello@1.0.0", "-p", "/hello"], { env });
		expect(r).toEqual({ stdout: "", stderr: "Installing npm:@demo/hello@1.0.0…\nInfo: HELLO FROM ONE\n", code: 0 });
		expect(existsSync(join(world.agentDir, "tmp/packages/npm/node_modules/@demo/hello/package.json"))).toBe(true);
		expect(existsSync(join(world.agentDir, "settings.json"))).toBe(false);
		// The second run uses the cache: nothing is fetched.
		const before = registry.requests.length;
		expect(await world.run(["-e", "npm:@demo/hello@1.0.0", "-p", "/hello"], { env })).toEqual({ stdout: "", stderr: "Info: HELLO FROM ONE\n", code: 0 });
		expect(registry.requests.length).toBe(before);
		// Without -e it is gone.
		expect((await world.run(["-p", "/hello"], { env })).code).toBe(1);
	});

	test("-e npm:<name> without an exact version is checked against the registry at most once a day", async () => {
		await using world = new TempWorld();
		const env = envFor(world, registry);
		await registry.publish(writePackage(world, "daily-1", "1.0.0", "daily one", { name: "@demo/daily" }));
		const first = await world.run(["-e", "npm:@demo/daily", "-p", "/hello"], { env });
		expect(first).toEqual({ stdout: "", stderr: "Installing npm:@demo/daily…\nInfo: DAILY ONE\n", code: 0 });
		const checks = join(world.agentDir, "tmp/packages/checked.json");
		const dir = join(world.agentDir, "tmp/packages/npm/node_modules/@demo/daily");
		expect(Object.keys(JSON.parse(readFileSync(checks, "utf8")))).toEqual([dir]);

		// A new release within the day: the cached copy runs and the registry is not asked.
		await registry.publish(writePackage(world, "daily-2", "1.1.0", "daily two", { name: "@demo/daily" }));
		let before = registry.requests.length;
		expect(await world.run(["-e", "npm:@demo/daily", "-p", "/hello"], { env })).toEqual({ stdout: "", stderr: "Info: DAILY ONE\n", code: 0 });
		expect(registry.requests.length).toBe(before);

		// A day later (the last check moved back 25 hours) it is checked and updated, once.
		const dayAgo = () => writeFileSync(checks, JSON.stringify({ [dir]: new Date(Date.now() - 25 * 3600_000).toISOString() }));
		dayAgo();
		expect(await world.run(["-e", "npm:@demo/daily", "-p", "/hello"], { env })).toEqual({
			stdout: "",
			stderr: "Updated npm:@demo/daily: 1.0.0 → 1.1.0 (a -e package is checked once a day).\nInfo: DAILY TWO\n",
			code: 0,
		});
		before = registry.requests.length;
		expect(await world.run(["-e", "npm:@demo/daily", "-p", "/hello"], { env })).toEqual({ stdout: "", stderr: "Info: DAILY TWO\n", code: 0 });
		expect(registry.requests.length).toBe(before);

		// Due again but offline: the cached copy, nothing asked, nothing said; a failing registry: one warning.
		dayAgo();
		expect(await world.run(["-e", "npm:@demo/daily", "-p", "/hello"], { env: { ...env, AGENT_OFFLINE: "1" } })).toEqual({ stdout: "", stderr: "Info: DAILY TWO\n", code: 0 });
		expect(registry.requests.length).toBe(before);
		const down = await world.run(["-e", "npm:@demo/daily", "-p", "/hello"], { env: { ...env, npm_config_registry: "http://127.0.0.1:9/" } });
		expect(down.code).toBe(0);
		expect(down.stderr).toMatch(/^Warning: Could not check npm:@demo\/daily for a newer version: npm install failed: .+\. Using the copy cached in ~\/\.agent\/tmp\/packages\/npm\/node_modules\/@demo\/daily\.\nInfo: DAILY TWO\n$/);
	});

	test("/reload tries a package that failed to install at start-up again", async () => {
		await using world = await mockWorld();
		const env = envFor(world, registry);
		world.write("home/.agent/settings.json", JSON.stringify({ packages: ["npm:@demo/late"] }));
		world.write(
			"home/.agent/extensions/again.ts",
			`export default function (pi: any) {
	pi.registerCommand("again", { handler: async (_a: string, ctx: any) => ctx.reload() });
	pi.on("session_start", (event: any, ctx: any) => { if (event.reason === "reload") ctx.ui.notify("reloaded"); });
}\n`,
		);
		const reloaded = (from: number) => rpc.event("extension_ui_request", from, (r) => r.method === "notify" && r.message === "reloaded");
		await using rpc = new RpcAgent(world, ["--no-session", "--model", MODEL.openai], env);
		await rpc.request({ type: "get_state" });
		expect(rpc.stderr).toMatch(/^Installing npm:@demo\/late \(from ~\/\.agent\/settings\.json\)…\nWarning: Package npm:@demo\/late \(~\/\.agent\/settings\.json\) could not be installed: npm install failed: .*404/);

		// Still not published: the reload reports it and goes on with what there is.
		let from = rpc.records.length;
		await rpc.request({ type: "prompt", message: "/again" });
		await reloaded(from);
		const failed = await rpc.event("extension_error", from);
		expect(failed).toMatchObject({ extensionPath: "npm:@demo/late", event: "reload" });
		expect(failed.error).toMatch(/^Package npm:@demo\/late could not be installed: npm install failed: .*404.*\. Its extensions, skills and prompt templates are skipped\.$/);

		await registry.publish(writePackage(world, "late", "1.0.0", "late but here", { name: "@demo/late" }));
		from = rpc.records.length;
		await rpc.request({ type: "prompt", message: "/again" });
		await reloaded(from);
		await rpc.request({ type: "prompt", message: "/hello" });
		await rpc.event("extension_ui_request", from, (r) => r.method === "notify" && r.message === "LATE BUT HERE");
		expect(rpc.all("extension_error", from)).toEqual([]);
		expect(existsSync(join(world.agentDir, "packages/npm/node_modules/@demo/late/extensions/hello.ts"))).toBe(true);
		expect(await rpc.end()).toBe(0);
	});

	test("a local folder: agent install ./dir records it (relative to .agent/ with -l) and loads it in place; the object form narrows; remove leaves the folder", async () => {
		await using world = new TempWorld();
		const env = envFor(world, registry);
		world.write("project/tools/package.json", JSON.stringify({ name: "tools", version: "0.1.0" }));
		world.write("project/tools/extensions/hi.ts", `export default function (pi: any) { pi.registerCommand("tools-hi", { handler: async (_a: string, ctx: any) => ctx.ui.notify("tools here", "info") }); }\n`);
		world.write("project/tools/prompts/ask.md", "---\ndescription: Ask\n---\nAsk $1.\n");
		const dir = join(world.cwd, "tools");
		const installed = await world.run(["install", "./tools"], { env });
		expect(installed.stderr).toBe("");
		expect(installed.code).toBe(0);
		expect(JSON.parse(readFileSync(join(world.agentDir, "settings.json"), "utf8"))).toEqual({ packages: [dir] });
		expect(await world.run(["-p", "/tools-hi"], { env })).toEqual({ stdout: "", stderr: "Info: tools here\n", code: 0 });

		// { source, extensions: [] }: its prompts still load, its extensions do not.
		world.write("home/.agent/settings.json", JSON.stringify({ packages: [{ source: dir, extensions: [] }] }));
		const narrowed = JSON.parse((await world.run(["list", "--json"], { env })).stdout);
		expect(narrowed.packages).toEqual([expect.objectContaining({ source: dir, extensions: [], prompts: ["prompts/ask.md"] })]);
		expect(narrowed.extensions).toEqual([]);

		const removed = await world.run(["remove", "./tools"], { env });
		expect(removed.code).toBe(0);
		expect(JSON.parse(readFileSync(join(world.agentDir, "settings.json"), "utf8"))).toEqual({});
		expect(existsSync(join(dir, "extensions/hi.ts"))).toBe(true);

		expect((await world.run(["install", "-l", "./tools"], { env })).code).toBe(0);
		expect(JSON.parse(readFileSync(join(world.cwd, ".agent/settings.json"), "utf8"))).toEqual({ packages: ["../tools"] });
		expect((await world.run(["-a", "-p", "/tools-hi"], { env })).stderr).toBe("Info: tools here\n");
	});

	test("the registry comes from ~/.npmrc when npm_config_registry is not set", async () => {
		await using world = new TempWorld();
		const { npm_config_registry: url, ...env } = envFor(world, registry);
		world.write("home/.npmrc", `registry=${url}\n`);
		const installed = await world.run(["install", "npm:@demo/hello@1.0.0"], { env });
		expect(installed.stderr).toBe("");
		expect(installed.code).toBe(0);
		expect(await world.run(["-p", "/hello"], { env })).toEqual({ stdout: "", stderr: "Info: HELLO FROM ONE\n", code: 0 });
	});

	test("an untrusted project's packages are neither installed nor loaded; --approve installs them into .agent/packages", async () => {
		await using world = new TempWorld();
		const env = envFor(world, registry);
		world.write("project/.agent/settings.json", JSON.stringify({ packages: ["npm:@demo/hello@1.0.0"] }));
		const before = registry.requests.length;
		const skipped = await world.run(["-p", "/hello"], { env });
		expect(skipped.stderr).toContain(`Skipped 1 project package in ${join(world.cwd, ".agent/settings.json")}: folder not trusted (pass --approve or run "agent trust").\n`);
		expect(skipped.stderr).not.toContain("HELLO");
		expect(registry.requests.length).toBe(before);
		expect(existsSync(join(world.cwd, ".agent/packages"))).toBe(false);
		const list = JSON.parse((await world.run(["list", "--json"], { env })).stdout);
		expect(list.packages).toEqual([expect.objectContaining({ source: "npm:@demo/hello@1.0.0", scope: "project", status: "skipped (untrusted)" })]);

		const approved = await world.run(["-a", "-p", "/hello"], { env });
		expect(approved).toEqual({ stdout: "", stderr: `Installing npm:@demo/hello@1.0.0 (from ${join(world.cwd, ".agent/settings.json")})…\nInfo: HELLO FROM ONE\n`, code: 0 });
		expect(existsSync(join(world.cwd, ".agent/packages/npm/node_modules/@demo/hello/extensions/hello.ts"))).toBe(true);
		expect(readFileSync(join(world.cwd, ".agent/packages/.gitignore"), "utf8")).toBe("*\n");
	});

	test("a package that cannot be installed at start-up: one warning, the rest starts; install and update exit 1 with the reason", async () => {
		await using world = new TempWorld();
		const env = envFor(world, registry);
		world.write("home/.agent/extensions/ok.ts", `export default function (pi: any) { pi.registerCommand("ok", { handler: async (_a: string, ctx: any) => ctx.ui.notify("still here", "info") }); }\n`);
		world.write("home/.agent/settings.json", JSON.stringify({ packages: ["npm:@demo/missing"] }));
		const r = await world.run(["-p", "/ok"], { env });
		expect(r.code).toBe(0);
		expect(r.stderr).toMatch(
			/^Installing npm:@demo\/missing \(from ~\/\.agent\/settings\.json\)…\nWarning: Package npm:@demo\/missing \(~\/\.agent\/settings\.json\) could not be installed: npm install failed: .*404.*\. Its extensions, skills and prompt templates are skipped this run\.\nInfo: still here\n$/,
		);

		const install = await world.run(["install", "npm:@demo/missing"], { env });
		expect(install.code).toBe(1);
		expect(install.stdout).toBe("");
		expect(install.stderr).toMatch(/^Error: Could not install npm:@demo\/missing: npm install failed: .*404/);
		const update = await world.run(["update"], { env });
		expect(update.code).toBe(1);
		expect(update.stdout).toMatch(/^npm:@demo\/missing {2}failed: npm install failed: .*404/);
		expect(update.stderr).toBe("Error: 1 of 1 package could not be updated (see above).\n");

		const offline = await world.run(["-p", "/ok"], { env: { ...env, AGENT_OFFLINE: "1" } });
		expect(offline.stderr).toContain("could not be installed: it is not installed, and offline mode is on.");
		expect(offline.code).toBe(0);
	});

	test("a package listing typebox in dependencies gets the binary's copy, with a warning; --allow-scripts runs install scripts", async () => {
		await using world = new TempWorld();
		const env = envFor(world, registry);
		const src = writePackage(world, "bundler", "2.0.0", "bundled", { name: "@demo/bundler", dependencies: { "tiny-dep": "^1.0.0", typebox: "^1.0.0" } });
		await registry.publish(src);
		const r = await world.run(["install", "npm:@demo/bundler", "--allow-scripts"], { env });
		expect(r.stdout).toContain("Installed npm:@demo/bundler 2.0.0");
		expect(r.code).toBe(0);
		expect(r.stderr).toBe(
			`Warning: npm:@demo/bundler lists typebox in its dependencies; its extensions get the copies inside agent instead. (Package authors: declare it in "peerDependencies" with "*".)\n`,
		);
		expect(existsSync(join(world.root, "postinstall-ran"))).toBe(true);
		// Its typebox resolved to the stand-in, written for this install: never fetched.
		expect(existsSync(join(world.agentDir, "packages/host/typebox/package.json"))).toBe(true);
		expect(registry.requests.some((p) => p.includes("typebox"))).toBe(false);
		expect(await world.run(["-p", "/hello"], { env })).toEqual({ stdout: "", stderr: "Info: BUNDLED\n", code: 0 });
	});
});

describe("git packages", () => {
	let remote: GitRemote;
	beforeAll(async () => {
		remote = await startGitRemote();
	});
	afterAll(async () => {
		await remote.close();
	});

	test("install from a git URL (its dependencies from the registry), load its extension, skill and prompt, update to the new commit, remove", async () => {
		await using world = await mockWorld();
		const env = envFor(world, registry);
		const first = await remote.commit(writePackage(world, "git-1", "1.0.0", "hello from git"), "first");
		const installed = await world.run(["install", remote.url], { env });
		expect(installed.stderr).toBe("");
		expect(installed.code).toBe(0);
		const dir = join(world.agentDir, "packages/git", remote.url.replace(/^http:\/\/127\.0\.0\.1:(\d+)\//, "127.0.0.1_$1/").replace(/\.git$/, ""));
		expect(installed.stdout).toContain(`into ${dir.replace(world.home, "~")}`);
		expect(await world.run(["-p", "/hello"], { env })).toEqual({ stdout: "", stderr: "Info: HELLO FROM GIT\n", code: 0 });
		world.mock.script({ text: "ok" });
		expect(await world.run(["-p", "/hi Bo", "--model", MODEL.openai], { env })).toEqual({ stdout: "ok\n", stderr: "", code: 0 });
		const request = chats(world)[0]!;
		expect(readToolNames(request)).toContain("pkg_tool");
		expect(readMessages(request).find((m) => m.role === "system")!.text).toContain(`<skill name="greet" location="${join(dir, "skills/greet/SKILL.md")}">Greet someone warmly</skill>`);
		expect(readMessages(request).at(-1)!.text).toBe("Say hi to Bo (hello from git).");
		// The checkout stays clean: the host overrides were put back after installing dependencies.
		const status = Bun.spawnSync(["git", "status", "--porcelain"], { cwd: dir }).stdout.toString();
		expect(status).toBe("");

		const second = await remote.commit(writePackage(world, "git-2", "1.1.0", "hello again"), "second");
		const updated = await world.run(["update", remote.url], { env });
		expect(updated).toEqual({ stdout: `${remote.url}  ${first} → ${second}\n`, stderr: "", code: 0 });
		expect((await world.run(["-p", "/hello"], { env })).stderr).toBe("Info: HELLO AGAIN\n");

		const removed = await world.run(["remove", remote.url], { env });
		expect(removed.code).toBe(0);
		expect(existsSync(dir)).toBe(false);
	});

	test("with no git on PATH, a git source fails with a clear message", async () => {
		await using world = new TempWorld();
		const r = await world.run(["install", `git:${remote.url}`], { env: envFor(world, registry, false) });
		expect(r.code).toBe(1);
		expect(r.stderr).toBe(
			`Error: Could not install git:${remote.url}: git is not installed (not found on PATH), and git sources need it. Install git, or use an npm source (npm:<name>), which needs nothing else.\n`,
		);
	});

	test("-e git:<repo> loads a package for one run from a local bare repository, cached under ~/.agent/tmp/packages, settings untouched; @ref pins a commit", async () => {
		await using world = await mockWorld();
		const env = envFor(world, registry);
		await using local = await startGitRemote("demo/once");
		const first = await local.commit(writePackage(world, "once-1", "1.0.0", "once from git"), "first");
		const source = `git:file://${local.bareDir}`;
		const r = await world.run(["-e", source, "-p", "/hello"], { env });
		expect(r).toEqual({ stdout: "", stderr: `Installing ${source}…\nInfo: ONCE FROM GIT\n`, code: 0 });
		const cache = join(world.agentDir, "tmp/packages/git/local");
		const [dir] = readdirSync(cache, { recursive: true, withFileTypes: true })
			.filter((e) => e.isDirectory() && e.name === ".git")
			.map((e) => e.parentPath);
		expect(dir).toBeDefined();
		expect(Bun.spawnSync(["git", "rev-parse", "--short", "HEAD"], { cwd: dir }).stdout.toString().trim()).toBe(first);
		expect(existsSync(join(world.agentDir, "settings.json"))).toBe(false);
		// Its extension, skill and prompt all take part in a run.
		world.mock.script({ text: "ok" });
		expect(await world.run(["-e", source, "-p", "/hi Al", "--model", MODEL.openai], { env })).toEqual({ stdout: "ok\n", stderr: "", code: 0 });
		const request = chats(world).at(-1)!;
		expect(readToolNames(request)).toContain("pkg_tool");
		expect(readMessages(request).find((m) => m.role === "system")!.text).toContain('<skill name="greet" location="');
		expect(readMessages(request).at(-1)!.text).toBe("Say hi to Al (once from git).");
		// A new commit within the day: the cached checkout runs, nothing is fetched (checked once a day).
		await local.commit(writePackage(world, "once-2", "1.1.0", "twice from git"), "second");
		expect(await world.run(["-e", source, "-p", "/hello"], { env })).toEqual({ stdout: "", stderr: "Info: ONCE FROM GIT\n", code: 0 });
		// @ref pins a commit: the first one, though the branch has moved on.
		const pinned = await world.run(["-e", `${source}@${first}`, "-p", "/hello"], { env });
		expect(pinned).toEqual({ stdout: "", stderr: `Installing ${source}@${first}…\nInfo: ONCE FROM GIT\n`, code: 0 });
		// Without -e it is gone, and nothing was written to the settings.
		expect((await world.run(["-p", "/hello"], { env })).code).toBe(1);
		expect(existsSync(join(world.agentDir, "settings.json"))).toBe(false);
		// Five runs and a dozen git commands: more than the default 5 s on a loaded 2-core machine.
	}, 30_000);
});

describe.skipIf(!hasTmux)("the trust prompt", () => {
	test("lists the project's packages; trusting installs and loads them", async () => {
		await using world = new TempWorld();
		world.write("project/.agent/settings.json", JSON.stringify({ packages: ["npm:@demo/hello@1.0.0"] }));
		await using term = new Terminal(world, [], { env: envFor(world, registry) });
		const screen = await term.waitFor("Don't trust");
		expect(screen).toContain(
			["◆  Trust project folder?", `│  ${world.cwd}`, "│", "│  Project packages that would be installed and loaded (1 package):", "│    npm:@demo/hello@1.0.0 (from .agent/settings.json)", "│  ○ Trust this folder"].join("\n"),
		);
		expect(existsSync(join(world.cwd, ".agent/packages"))).toBe(false);
		term.keys("Up", "Up", "Enter");
		await term.waitFor("Warning: No model is configured");
		term.submit("/hello");
		await term.waitForAbove("HELLO FROM ONE");
		term.keys("C-d");
		expect(await term.waitFor("EXIT=")).toEndWith("EXIT=0");
		expect(existsSync(join(world.cwd, ".agent/packages/npm/node_modules/@demo/hello/package.json"))).toBe(true);
	}, 60_000);
});
