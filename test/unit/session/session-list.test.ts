// Finding sessions: --continue picks the newest of this cwd, listings, --session/--fork id
// prefixes (unique, ambiguous, none), and forking with parentSession.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { SessionLookupError } from "../../../src/core/session/session-errors.ts";
import { defaultSessionDir } from "../../../src/core/session/session-file.ts";
import { resolveSessionArg } from "../../../src/core/session/session-list.ts";
import { SessionManager } from "../../../src/core/session/session-manager.ts";
import { assistant, readLines, tempDir, user } from "./fixtures.ts";

/** A hand-written session file with a chosen id and modification time (seconds since epoch). */
function writeSession(dir: string, id: string, cwd: string, mtime: number, texts: string[] = ["hello"], name?: string): string {
	mkdirSync(dir, { recursive: true });
	const path = join(dir, `2024-01-01T00-00-00-000Z_${id}.jsonl`);
	const lines: object[] = [{ type: "session", version: 3, id, timestamp: "2024-01-01T00:00:00.000Z", cwd }];
	let parentId: string | null = null;
	texts.forEach((text, i) => {
		const entryId = (i + 1).toString(16).padStart(8, "0");
		lines.push({ type: "message", id: entryId, parentId, timestamp: "2024-01-01T00:00:01.000Z", message: i % 2 ? assistant(text) : user(text) });
		parentId = entryId;
	});
	if (name) lines.push({ type: "session_info", id: "ffffffff", parentId, timestamp: "2024-01-01T00:00:02.000Z", name });
	writeFileSync(path, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
	utimesSync(path, mtime, mtime);
	return path;
}

describe("continueRecent", () => {
	test("opens the most recently modified session of this cwd", () => {
		using tmp = tempDir();
		const dir = join(tmp.path, "flat");
		writeSession(dir, "aaaaaaaa-0000-7000-8000-000000000001", "/p", 3000);
		const newest = writeSession(dir, "bbbbbbbb-0000-7000-8000-000000000002", "/p", 5000);
		writeSession(dir, "cccccccc-0000-7000-8000-000000000003", "/p", 4000);
		// Same directory, another project, even newer: not ours.
		writeSession(dir, "dddddddd-0000-7000-8000-000000000004", "/elsewhere", 9000);

		const sm = SessionManager.continueRecent("/p", dir);
		expect(sm.getSessionFile()).toBe(newest);
		expect(sm.getSessionId()).toBe("bbbbbbbb-0000-7000-8000-000000000002");
		expect(sm.buildSessionContext().messages).toEqual([user("hello")]);
	});

	test("starts a new session when the cwd has none", () => {
		using tmp = tempDir();
		const root = join(tmp.path, "sessions");
		writeSession(defaultSessionDir("/other", root), "aaaaaaaa-0000-7000-8000-000000000001", "/other", 1000);
		const sm = SessionManager.continueRecent("/p", defaultSessionDir("/p", root));
		expect(sm.getEntries()).toEqual([]);
		expect(sm.getSessionDir()).toBe(join(root, "--p--"));
	});
});

describe("list and listAll", () => {
	test("list gives this cwd's sessions newest first with their summary fields", async () => {
		using tmp = tempDir();
		const root = join(tmp.path, "sessions");
		const dir = defaultSessionDir("/p", root);
		const older = writeSession(dir, "aaaaaaaa-0000-7000-8000-000000000001", "/p", 1000, ["first question", "answer", "second"], "Named");
		const newer = writeSession(dir, "bbbbbbbb-0000-7000-8000-000000000002", "/p", 2000, []);
		writeSession(defaultSessionDir("/q", root), "cccccccc-0000-7000-8000-000000000003", "/q", 3000);

		const infos = await SessionManager.list("/p", dir);
		expect(infos).toEqual([
			{
				path: newer,
				id: "bbbbbbbb-0000-7000-8000-000000000002",
				cwd: "/p",
				name: undefined,
				parentSessionPath: undefined,
				created: new Date("2024-01-01T00:00:00.000Z"),
				modified: new Date(2000_000),
				messageCount: 0,
				firstMessage: "(no messages)",
				allMessagesText: "",
			},
			{
				path: older,
				id: "aaaaaaaa-0000-7000-8000-000000000001",
				cwd: "/p",
				name: "Named",
				parentSessionPath: undefined,
				created: new Date("2024-01-01T00:00:00.000Z"),
				modified: new Date(1000_000),
				messageCount: 3,
				firstMessage: "first question",
				allMessagesText: "first question answer second",
			},
		]);
		expect((await SessionManager.listAll(root)).map((i) => i.cwd)).toEqual(["/q", "/p", "/p"]);
	});
});

describe("resolveSessionArg", () => {
	function world(tmpPath: string) {
		const root = join(tmpPath, "sessions");
		const dir = defaultSessionDir("/p", root);
		const a = writeSession(dir, "0190aaaa-1111-7000-8000-000000000001", "/p", 1000, ["alpha"]);
		const b = writeSession(dir, "0190aaaa-2222-7000-8000-000000000002", "/p", 2000, ["beta"]);
		const c = writeSession(dir, "0190bbbb-3333-7000-8000-000000000003", "/p", 3000, ["gamma"]);
		const other = writeSession(defaultSessionDir("/q", root), "0190cccc-4444-7000-8000-000000000004", "/q", 4000, ["other project"]);
		return { root, dir, a, b, c, other };
	}

	test("a unique prefix of this project's session, or the full id", async () => {
		using tmp = tempDir();
		const w = world(tmp.path);
		expect(await resolveSessionArg("0190bb", "/p", { sessionsRoot: w.root })).toMatchObject({ kind: "local", path: w.c });
		expect(await resolveSessionArg("0190AAAA-2222", "/p", { sessionsRoot: w.root })).toMatchObject({ kind: "local", path: w.b });
		expect(await resolveSessionArg("0190aaaa-1111-7000-8000-000000000001", "/p", { sessionsRoot: w.root })).toMatchObject({ kind: "local", path: w.a });
	});

	test("another project's session is found as global", async () => {
		using tmp = tempDir();
		const w = world(tmp.path);
		const resolved = await resolveSessionArg("0190cc", "/p", { sessionsRoot: w.root });
		expect(resolved).toMatchObject({ kind: "global", path: w.other, info: { cwd: "/q" } });
	});

	test("an ambiguous prefix lists the candidates", async () => {
		using tmp = tempDir();
		const w = world(tmp.path);
		const error = await resolveSessionArg("0190aa", "/p", { sessionsRoot: w.root }).catch((e: unknown) => e);
		expect(error).toBeInstanceOf(SessionLookupError);
		const e = error as SessionLookupError;
		expect(e.message).toBe('Session id prefix "0190aa" matches 2 sessions; give more characters of the id:');
		expect(e.candidates).toEqual([w.b, w.a]);
		expect(e.hints).toEqual([
			"  0190aaaa-2222-7000-8000-000000000002  1970-01-01T00:33:20.000Z  /p  beta",
			"  0190aaaa-1111-7000-8000-000000000001  1970-01-01T00:16:40.000Z  /p  alpha",
		]);
	});

	test("no match says where it looked", async () => {
		using tmp = tempDir();
		const w = world(tmp.path);
		const error = (await resolveSessionArg("ffff", "/p", { sessionsRoot: w.root }).catch((e: unknown) => e)) as SessionLookupError;
		expect(error).toBeInstanceOf(SessionLookupError);
		expect(error.message).toBe(`No session id starts with "ffff". Looked in ${w.dir} (this project) and under ${w.root} (all projects).`);
		expect(error.hints).toEqual(["Run with --resume to list this project's sessions, or pass the path of a session file."]);
	});

	test("anything with a slash or .jsonl is a path, resolved against cwd", async () => {
		expect(await resolveSessionArg("sub/x.jsonl", "/p")).toEqual({ kind: "path", path: "/p/sub/x.jsonl" });
		expect(await resolveSessionArg("x.jsonl", "/p")).toEqual({ kind: "path", path: "/p/x.jsonl" });
		expect(await resolveSessionArg("/abs/y", "/p")).toEqual({ kind: "path", path: "/abs/y" });
	});
});

describe("forkFrom", () => {
	test("copies every entry into a new session whose header names the parent", () => {
		using tmp = tempDir();
		const source = SessionManager.create("/p", join(tmp.path, "p"));
		source.appendMessage(user("q"));
		source.appendMessage(assistant("a"));
		source.appendLabelChange(source.getLeafId()!, "kept");
		const sourceFile = source.getSessionFile()!;
		const sourceBytes = readFileSync(sourceFile, "utf8");

		const fork = SessionManager.forkFrom(sourceFile, "/q", join(tmp.path, "q"));
		expect(fork.getSessionId()).not.toBe(source.getSessionId());
		expect(fork.getCwd()).toBe("/q");
		expect(fork.getHeader()).toMatchObject({ type: "session", version: 3, cwd: "/q", parentSession: sourceFile });
		expect(fork.getEntries()).toEqual(source.getEntries());
		expect(fork.getLabel(source.getEntries()[1]!.id)).toBe("kept");
		const next = fork.appendMessage(user("continuing in /q"));

		const lines = readLines(fork.getSessionFile()!);
		expect(lines[0]).toEqual({ ...fork.getHeader() });
		expect(lines.slice(1).map((l) => l.id)).toEqual([...source.getEntries().map((e) => e.id), next]);
		expect(readFileSync(sourceFile, "utf8")).toBe(sourceBytes);
		expect(() => SessionManager.forkFrom(join(tmp.path, "missing.jsonl"), "/q")).toThrow(`Cannot fork ${join(tmp.path, "missing.jsonl")}: the file does not exist.`);
	});
});
