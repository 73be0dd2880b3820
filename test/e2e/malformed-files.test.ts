// Every file the agent reads goes through one reader (issue 12, defects 8 and 9): a FIFO never
// hangs start-up (also in an untrusted repository, before the trust prompt), and settings,
// models.json, auth.json, trust.json and sessions agree — a BOM is fine, a symlink loop, a
// directory, a FIFO, a huge file or 100,000-deep nesting is an error naming the file (and line),
// never `Internal error` with a stack.
import { describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TempWorld } from "../support/agent.ts";
import { NO_MODEL } from "../support/messages.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld } from "../support/world.ts";

const FIX = `folder not trusted (pass --approve or run "agent trust").`;
const HINT = "Fix the file and run again (it was not changed), or move it aside to start without it.";
// A run that would hang on a FIFO is cut off well before the test's own timeout, and fails.
const QUICK = { timeoutMs: 15_000 };

function mkfifo(path: string): string {
	mkdirSync(join(path, ".."), { recursive: true });
	if (Bun.spawnSync(["mkfifo", path]).exitCode !== 0) throw new Error(`mkfifo ${path} failed`);
	return path;
}

function expectNoInternalError(stderr: string): void {
	expect(stderr).not.toContain("Internal error");
	expect(stderr).not.toMatch(/\n\s+at /);
}

describe("a FIFO where a file is expected never blocks", () => {
	test("untrusted repo: .agent/settings.json is a FIFO — the run goes on and says what was skipped", async () => {
		await using world = new TempWorld();
		const fifo = mkfifo(join(world.cwd, ".agent/settings.json"));
		const r = await world.run(["-p", "hi"], QUICK);
		expect(r.stderr).toBe(`Skipped project settings in ${fifo}: ${FIX}\n${NO_MODEL}`);
	});

	test("untrusted repo: a package.json inside .agent/extensions is a FIFO — the run goes on", async () => {
		await using world = new TempWorld();
		mkfifo(join(world.cwd, ".agent/extensions/pkg/package.json"));
		world.write("project/.agent/extensions/pkg/index.ts", "export default () => {};\n");
		const r = await world.run(["-p", "hi"], QUICK);
		expect(r.stderr).toBe(`Skipped 1 project extension in ${join(world.cwd, ".agent/extensions")}: ${FIX}\n${NO_MODEL}`);
	});

	test.skipIf(!hasTmux)("untrusted repo, interactive: the trust prompt appears with a FIFO settings.json", async () => {
		await using world = new TempWorld();
		mkfifo(join(world.cwd, ".agent/settings.json"));
		await using term = new Terminal(world);
		const screen = await term.waitFor("Don't trust");
		expect(screen).toContain("│  Project settings that would apply:\n│    .agent/settings.json");
		term.keys("C-c");
		expect(await term.waitFor("EXIT=")).toEndWith("EXIT=130");
	}, 30_000);

	test("AGENTS.md as a FIFO is passed over", async () => {
		await using world = await mockWorld();
		mkfifo(join(world.cwd, "AGENTS.md"));
		world.mock.script({ text: "ok" });
		const r = await world.run(["-ne", "--model", MODEL.openai, "-p", "hi"], QUICK);
		expect(r).toEqual({ stdout: "ok\n", stderr: "", code: 0 });
	});

	for (const name of ["settings.json", "models.json", "auth.json", "trust.json"]) {
		test(`~/.agent/${name} as a FIFO: exit 1 naming the file`, async () => {
			await using world = new TempWorld();
			mkfifo(join(world.agentDir, name));
			// trust.json is read only when the project has something to gate.
			world.write("project/.agent/extensions/x.ts", "export default () => {};\n");
			const r = await world.run(["-p", "hi"], QUICK);
			expect(r.code).toBe(1);
			expect(r.stderr).toContain(`~/.agent/${name}: is a FIFO (named pipe), not a file; it was not read`);
			expectNoInternalError(r.stderr);
		});
	}

	test("--session naming a FIFO: an error naming it", async () => {
		await using world = await mockWorld();
		const fifo = mkfifo(join(world.root, "s.jsonl"));
		const r = await world.run(["-ne", "--model", MODEL.openai, "--session", fifo, "-p", "hi"], QUICK);
		expect(r.code).toBe(1);
		expect(r.stderr).toBe(`Error: ${fifo}: is a FIFO (named pipe), not a file; it was not read\n`);
	});

	test("a FIFO among the sessions does not stop --continue", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "first" }, { text: "second" });
		expect((await world.run(["-ne", "--model", MODEL.openai, "-p", "one"])).code).toBe(0);
		const dir = join(world.onlySessionFile(), "..");
		mkfifo(join(dir, "9999-fifo.jsonl"));
		const r = await world.run(["-ne", "--model", MODEL.openai, "-c", "-p", "two"], QUICK);
		expect(r).toEqual({ stdout: "second\n", stderr: "", code: 0 });
	});
});

describe("the config readers agree", () => {
	const FILES = {
		"settings.json": "{}",
		"models.json": "{}",
		"auth.json": "{}",
		"trust.json": '{"version": 1, "folders": {}}',
	} as const;

	for (const [name, content] of Object.entries(FILES)) {
		test(`${name}: a UTF-8 BOM is accepted`, async () => {
			await using world = new TempWorld();
			world.write(`home/.agent/${name}`, `\uFEFF${content}`);
			world.write("project/.agent/extensions/x.ts", "export default () => {};\n");
			const r = await world.run(["-p", "hi"], QUICK);
			expect(r.stderr).toBe(`Skipped 1 project extension in ${join(world.cwd, ".agent/extensions")}: ${FIX}\n${NO_MODEL}`);
		});

		test(`${name}: a symlink loop is an error naming the file`, async () => {
			await using world = new TempWorld();
			mkdirSync(world.agentDir, { recursive: true });
			symlinkSync(`${name}.other`, join(world.agentDir, name));
			symlinkSync(name, join(world.agentDir, `${name}.other`));
			world.write("project/.agent/extensions/x.ts", "export default () => {};\n");
			const r = await world.run(["-p", "hi"], QUICK);
			expect(r.code).toBe(1);
			expect(r.stderr).toContain(`~/.agent/${name}: cannot be read: a symlink loop (too many levels of symbolic links)`);
			expectNoInternalError(r.stderr);
		});

		test(`${name}: a directory is an error naming the file`, async () => {
			await using world = new TempWorld();
			mkdirSync(join(world.agentDir, name), { recursive: true });
			world.write("project/.agent/extensions/x.ts", "export default () => {};\n");
			const r = await world.run(["-p", "hi"], QUICK);
			expect(r.code).toBe(1);
			expect(r.stderr).toContain(`~/.agent/${name}: is a directory, not a file; it was not read`);
			expectNoInternalError(r.stderr);
		});
	}

	for (const name of ["models.json", "auth.json", "settings.json", "trust.json"]) {
		test(`${name}: 100,000-deep nesting is an error with line and column, not a crash`, async () => {
			await using world = new TempWorld();
			world.write(`home/.agent/${name}`, `{"a":\n${"[".repeat(100_000)}${"]".repeat(100_000)}}`);
			world.write("project/.agent/extensions/x.ts", "export default () => {};\n");
			const r = await world.run(["-p", "hi"], QUICK);
			expect(r.code).toBe(1);
			expect(r.stderr).toContain(`~/.agent/${name}:2:200: nests deeper than 200 levels of arrays and objects`);
			expect(r.stderr).toContain(HINT);
			expectNoInternalError(r.stderr);
		});
	}

	test("a settings file larger than the limit is refused, naming its size", async () => {
		await using world = new TempWorld();
		const path = world.write("home/.agent/settings.json", "");
		truncateSync(path, 20 * 1024 * 1024);
		const r = await world.run(["-p", "hi"], QUICK);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain("~/.agent/settings.json: is too large to read (20.0 MB; the limit is 16.0 MB)");
	});

	test("trust decisions that cannot be saved are an error naming the file, not a stack", async () => {
		await using world = new TempWorld();
		// The agent folder's parent is a file: nothing can be created there, whoever runs the test.
		writeFileSync(join(world.root, "not-a-dir"), "");
		const r = await world.run(["trust"], { env: { AGENT_DIR: join(world.root, "not-a-dir", "agent") } });
		expect(r.code).toBe(1);
		expect(r.stderr).toStartWith(`Error: Cannot save the trust decision in ${join(world.root, "not-a-dir", "agent", "trust.json")}: `);
		expectNoInternalError(r.stderr);
	});
});
