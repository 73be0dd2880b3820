// Sessions through the compiled binary: where a run is saved, --continue, --session, --fork,
// --no-session, --resume, and a session file whose last line was cut off mid-write.
import { describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync } from "node:fs";
import { basename, dirname } from "node:path";
import { readMessages } from "../support/mock-llm.ts";
import { MODEL, type MockWorld, mockWorld, type Protocol, readSessionLines, sessionMessages } from "../support/world.ts";

const PROTOCOLS: Protocol[] = ["openai", "anthropic"];

/** Role and text of each message the newest request carried, without the system prompt. */
function seen(world: MockWorld): string[] {
	return readMessages(world.mock.lastRequest())
		.filter((m) => m.role !== "system")
		.map((m) => `${m.role}: ${m.text}`);
}

/** Role and text of each message saved in a session file. */
function saved(file: string): string[] {
	return sessionMessages(file).map((m) => {
		const text = typeof m.content === "string" ? m.content : m.content.map((c: any) => c.text ?? "").join("");
		return `${m.role}: ${text}`;
	});
}

for (const protocol of PROTOCOLS) {
	const model = ["-ne", "--model", MODEL[protocol]];

	describe(`sessions (${protocol})`, () => {
		test("a run is saved under ~/.agent/sessions/--<cwd>--/ with the header, model and messages", async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "Saved." });
			expect((await world.run([...model, "-p", "remember me"])).code).toBe(0);
			const file = world.onlySessionFile();
			expect(basename(dirname(file))).toBe(`--${world.cwd.slice(1).replaceAll("/", "-")}--`);
			const [header, ...entries] = readSessionLines(file);
			expect(header).toMatchObject({ type: "session", version: 3, cwd: world.cwd });
			expect(basename(file)).toEndWith(`_${header.id}.jsonl`);
			const provider = protocol === "openai" ? "mock" : "mock-anthropic";
			expect(entries.map((e) => e.type)).toEqual(["model_change", "thinking_level_change", "message", "message"]);
			expect(entries[0]).toMatchObject({ provider, modelId: "mock-model" });
			expect(saved(file)).toEqual(["user: remember me", "assistant: Saved."]);
		});

		test("--continue resumes the newest session: the request carries the earlier messages", async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "First answer." }, { text: "Second answer." });
			expect((await world.run([...model, "-p", "first question"])).code).toBe(0);
			const r = await world.run(["-ne", "--continue", "-p", "second question"]);
			expect(r).toEqual({ stdout: "Second answer.\n", stderr: "", code: 0 });
			// The model came back from the session: no --model was given the second time.
			expect(world.mock.lastRequest().protocol).toBe(protocol);
			expect(seen(world)).toEqual(["user: first question", "assistant: First answer.", "user: second question"]);
			expect(saved(world.onlySessionFile())).toEqual(["user: first question", "assistant: First answer.", "user: second question", "assistant: Second answer."]);
		});

		test("--fork copies a session into a new file that names its parent; the original is unchanged", async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "Original." }, { text: "Forked." });
			await world.run([...model, "-p", "start"]);
			const original = world.onlySessionFile();
			const before = readFileSync(original, "utf8");
			const id = readSessionLines(original)[0].id as string;
			const r = await world.run([...model, "--fork", id.slice(0, 13), "-p", "branch off"]);
			expect(r).toEqual({ stdout: "Forked.\n", stderr: "", code: 0 });
			expect(seen(world)).toEqual(["user: start", "assistant: Original.", "user: branch off"]);
			expect(readFileSync(original, "utf8")).toBe(before);
			const fork = world.sessionFiles().find((f) => f !== original)!;
			const header = readSessionLines(fork)[0];
			expect(header.parentSession).toBe(original);
			expect(header.id).not.toBe(id);
			expect(saved(fork)).toEqual(["user: start", "assistant: Original.", "user: branch off", "assistant: Forked."]);
		});
	});
}

describe("sessions", () => {
	const model = ["-ne", "--model", MODEL.openai];

	test("--session <id prefix> opens that session, not the newest", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "A1" }, { text: "B1" }, { text: "A2" });
		await world.run([...model, "-p", "session A"]);
		const [a] = world.sessionFiles();
		await world.run([...model, "-p", "session B"]);
		const idA = readSessionLines(a!)[0].id as string;
		const idB = readSessionLines(world.sessionFiles().find((f) => f !== a)!)[0].id as string;
		// The shortest prefix of A's id that B's does not share.
		let n = 1;
		while (idB.startsWith(idA.slice(0, n))) n++;
		const r = await world.run([...model, "--session", idA.slice(0, n), "-p", "back to A"]);
		expect(r).toEqual({ stdout: "A2\n", stderr: "", code: 0 });
		expect(seen(world)).toEqual(["user: session A", "assistant: A1", "user: back to A"]);
		expect(saved(a!)).toEqual(["user: session A", "assistant: A1", "user: back to A", "assistant: A2"]);
	});

	test("--session <path> opens that file", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "one" }, { text: "two" });
		await world.run([...model, "-p", "hi"]);
		const file = world.onlySessionFile();
		const r = await world.run([...model, "--session", file, "-p", "again"]);
		expect(r.code).toBe(0);
		expect(saved(file)).toEqual(["user: hi", "assistant: one", "user: again", "assistant: two"]);
	});

	test("--session with a prefix that matches nothing exits 1 and says where it looked", async () => {
		await using world = await mockWorld();
		const r = await world.run([...model, "--session", "ffffffff", "-p", "hi"]);
		expect(r).toEqual({
			stdout: "",
			stderr:
				`Error: No session id starts with "ffffffff". Looked in ~/.agent/sessions/--${world.cwd.slice(1).replaceAll("/", "-")}-- (this project) and under ~/.agent/sessions (all projects).\n` +
				"Run with --resume to list this project's sessions, or pass the path of a session file.\n",
			code: 1,
		});
		expect(world.mock.requests).toHaveLength(0);
	});

	test("--no-session writes no file, in print and json mode", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "Not saved." }, { text: "Not saved either." });
		expect(await world.run([...model, "--no-session", "-p", "hi"])).toEqual({ stdout: "Not saved.\n", stderr: "", code: 0 });
		const r = await world.run([...model, "--no-session", "--mode", "json", "hi"]);
		expect(r.code).toBe(0);
		// The header line is written all the same.
		expect(JSON.parse(r.stdout.split("\n")[0]!)).toMatchObject({ type: "session", version: 3, cwd: world.cwd });
		expect(world.sessionFiles()).toEqual([]);
	});

	test("--resume outside the REPL lists this folder's sessions", async () => {
		await using world = await mockWorld();
		expect(await world.run(["--resume"])).toEqual({ stdout: `No sessions for ${world.cwd} yet.\n`, stderr: "", code: 0 });
		world.mock.script({ text: "ok" });
		await world.run([...model, "-p", "list me please"]);
		const id = readSessionLines(world.onlySessionFile())[0].id as string;
		const r = await world.run(["--resume"]);
		expect(r.code).toBe(0);
		const [line, blank, hint] = r.stdout.split("\n");
		expect(line).toStartWith(id.slice(0, 8));
		expect(line).toEndWith("  2 msgs  list me please");
		expect([blank, hint]).toEqual(["", "Resume one with: agent --session <id>"]);
	});

	test("--resume shows each session's shortest unique id prefix, and --session takes it", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "first" }, { text: "second" });
		await world.run([...model, "-p", "one"]);
		await world.run([...model, "-p", "two"]);
		const r = await world.run(["--resume"]);
		const prefixes = r.stdout.split("\n").slice(0, 2).map((l) => l.split(" ")[0]!);
		expect(prefixes.length).toBe(2);
		expect(prefixes[0]!.length).toBeGreaterThanOrEqual(8);
		expect(prefixes[0]!.startsWith(prefixes[1]!) || prefixes[1]!.startsWith(prefixes[0]!)).toBe(false);
		world.mock.script({ text: "a" }, { text: "b" });
		for (const prefix of prefixes) {
			const opened = await world.run([...model, "--session", prefix, "-p", "again"]);
			expect(opened.code).toBe(0);
		}
	});

	test("a torn last line: a warning names file and line, the run works, earlier bytes are never rewritten", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "Before the tear." }, { text: "After the tear." }, { text: "Still fine." });
		await world.run([...model, "-p", "one"]);
		const file = world.onlySessionFile();
		appendFileSync(file, '{"type":"message","id":"deadbeef","parentId":');
		const torn = readFileSync(file);
		const tornLine = torn.toString().split("\n").length;

		const r = await world.run([...model, "--continue", "-p", "two"]);
		expect(r).toEqual({ stdout: "After the tear.\n", stderr: `Warning: ${file}:${tornLine}: skipped the last line: it was cut off mid-write\n`, code: 0 });
		expect(seen(world)).toEqual(["user: one", "assistant: Before the tear.", "user: two"]);
		const after = readFileSync(file);
		expect(after.subarray(0, torn.length).equals(torn)).toBe(true);
		// New entries start on a fresh line, so they parse.
		expect(after.toString().slice(torn.length, torn.length + 1)).toBe("\n");

		// The torn line stays where it was; later runs skip it as a bad line in the middle.
		const r3 = await world.run([...model, "--continue", "-p", "three"]);
		expect(r3).toEqual({ stdout: "Still fine.\n", stderr: `Warning: ${file}:${tornLine}: skipped a line that is not valid JSON\n`, code: 0 });
		expect(seen(world)).toEqual(["user: one", "assistant: Before the tear.", "user: two", "assistant: After the tear.", "user: three"]);
		expect(readFileSync(file).subarray(0, torn.length).equals(torn)).toBe(true);
	});
});
