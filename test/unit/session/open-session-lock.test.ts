// When a session takes its writer lock (`<file>.lock`): a new session at its first write, since no
// other process can know its file yet (so a start makes no lock file); a session read from disk
// when it is opened, so a second writer is refused before it starts.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { openSession } from "../../../src/core/sdk.ts";
import { assistant, tempDir, user } from "./fixtures.ts";

describe("openSession and the writer lock", () => {
	test("a new session makes no lock file when opened; its first write takes the lock, close gives it back", async () => {
		using tmp = tempDir();
		const dir = join(tmp.path, "sessions");
		mkdirSync(dir);
		const session = await openSession(tmp.path, { kind: "new" }, dir);
		const file = session.getSessionFile()!;
		expect(readdirSync(dir)).toEqual([]);
		session.appendMessage(user("hi"));
		expect(readdirSync(dir)).toEqual([]);
		session.appendMessage(assistant("hello"));
		expect(existsSync(file)).toBe(true);
		expect(JSON.parse(readFileSync(`${file}.lock`, "utf8"))).toMatchObject({ pid: process.pid });
		session.close();
		expect(existsSync(`${file}.lock`)).toBe(false);
	});

	test("a session on disk takes the lock when it is opened, before any write (a second writer is refused at once: test/e2e/session-lock.test.ts)", async () => {
		using tmp = tempDir();
		const dir = join(tmp.path, "sessions");
		const first = await openSession(tmp.path, { kind: "new" }, dir);
		first.appendMessage(user("hi"));
		first.appendMessage(assistant("hello"));
		const file = first.getSessionFile()!;
		first.close();
		const opened = await openSession(tmp.path, { kind: "open", target: file }, dir);
		expect(JSON.parse(readFileSync(`${file}.lock`, "utf8"))).toMatchObject({ pid: process.pid });
		opened.close();
		expect(existsSync(`${file}.lock`)).toBe(false);
	});
});
