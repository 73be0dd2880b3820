// What survives trouble: a writer killed with SIGKILL loses nothing it had appended, and a failed
// write (read-only directory, full disk mid-line) keeps the in-memory session and the old bytes.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { SessionWriteError } from "../../../src/core/session/session-errors.ts";
import { nodeSessionFileOps, type SessionFileOps } from "../../../src/core/session/session-file.ts";
import { SessionManager } from "../../../src/core/session/session-manager.ts";
import { assistant, tempDir, user } from "./fixtures.ts";

const managerModule = resolve(import.meta.dir, "../../../src/core/session/session-manager.ts");

async function readLinesUntil(stream: ReadableStream<Uint8Array>, enough: (lines: string[]) => boolean): Promise<string[]> {
	const reader = stream.getReader();
	const decoder = new TextDecoder();
	let text = "";
	try {
		for (;;) {
			const { value, done } = await reader.read();
			if (done) break;
			text += decoder.decode(value, { stream: true });
			const complete = text.slice(0, text.lastIndexOf("\n") + 1).split("\n").filter(Boolean);
			if (enough(complete)) return complete;
		}
	} finally {
		reader.releaseLock();
	}
	throw new Error(`child ended early; it printed:\n${text}`);
}

describe("kill safety", () => {
	test("a writer killed with SIGKILL mid-run loses no entry it had appended", async () => {
		using tmp = tempDir();
		const script = join(tmp.path, "writer.ts");
		writeFileSync(
			script,
			`import { SessionManager } from ${JSON.stringify(managerModule)};
const sm = SessionManager.create("/p", ${JSON.stringify(join(tmp.path, "sessions"))});
sm.appendMessage({ role: "user", content: "go", timestamp: 1 });
sm.appendMessage({ role: "assistant", content: [{ type: "text", text: "ok" }], api: "x", provider: "x", model: "x", usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } }, stopReason: "stop", timestamp: 2 });
console.log("file " + sm.getSessionFile());
for (let i = 0; ; i++) {
	const id = sm.appendCustomEntry("tick", { i, pad: "x".repeat(i % 500) });
	console.log(id);
	await Bun.sleep(1);
}
`,
		);
		const child = Bun.spawn([process.execPath, script], { stdout: "pipe", stderr: "pipe" });
		try {
			const lines = await readLinesUntil(child.stdout, (l) => l.length >= 60);
			child.kill("SIGKILL");
			await child.exited;
			expect(child.signalCode).toBe("SIGKILL");

			const file = lines[0]!.slice("file ".length);
			const acknowledged = lines.slice(1);
			const sm = SessionManager.open(file);
			// The kill may land inside a write: at most the very last line can be torn.
			expect(sm.getWarnings().every((w) => w.message.endsWith("cut off mid-write"))).toBe(true);
			const ids = new Set(sm.getEntries().map((e) => e.id));
			expect(acknowledged.filter((id) => !ids.has(id))).toEqual([]);
			expect(sm.getBranch()).toHaveLength(sm.getEntries().length);

			const after = sm.appendMessage(user("resumed"));
			const reopened = SessionManager.open(file);
			expect(reopened.getWarnings()).toEqual(sm.getWarnings());
			expect(reopened.getLeafEntry()!.id).toBe(after);
		} finally {
			if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
		}
	});
});

describe("write failures", () => {
	test("a read-only session directory: clear errors, the in-memory session goes on, the file is untouched", async () => {
		using tmp = tempDir();
		chmodSync(tmp.path, 0o755);
		const dir = join(tmp.path, "sessions");
		const sm = SessionManager.create("/p", dir);
		sm.appendMessage(user("q"));
		sm.appendMessage(assistant("a"));
		const file = sm.getSessionFile()!;
		const before = readFileSync(file);
		chmodSync(file, 0o444);
		chmodSync(dir, 0o555);

		const script = join(tmp.path, "appender.ts");
		writeFileSync(
			script,
			`import { SessionManager } from ${JSON.stringify(managerModule)};
const sm = SessionManager.open(${JSON.stringify(file)});
const errors: string[] = [];
sm.setWriteErrorHandler((e) => errors.push(e.message));
sm.appendMessage({ role: "user", content: "more", timestamp: 3 });
sm.appendCustomEntry("state", { n: 1 });
let thrown = "";
sm.setWriteErrorHandler(undefined);
try { sm.appendMessage({ role: "user", content: "again", timestamp: 4 }); } catch (e) { thrown = (e as Error).name; }
console.log(JSON.stringify({ errors, thrown, entries: sm.getEntries().length, roles: sm.buildSessionContext().messages.map((m) => m.role) }));
`,
		);
		chmodSync(script, 0o644);
		// root ignores file modes, so the child runs as nobody there.
		const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
		const { spawnSync } = await import("node:child_process");
		const run = spawnSync(process.execPath, [script], { encoding: "utf8", env: { PATH: process.env.PATH, HOME: tmp.path }, ...asNobody });
		expect(run.stderr).toBe("");
		const out = JSON.parse(run.stdout) as { errors: string[]; thrown: string; entries: number; roles: string[] };
		// One warning for the run of failures, not one per entry; an append never throws.
		expect(out.errors).toEqual([
			`Could not save the session to ${file}: permission denied (EACCES). What was already saved is unchanged; the run goes on, and what is not saved yet (1 entry so far) is written as soon as saving works again.`,
		]);
		expect(out.thrown).toBe("");
		expect(out.entries).toBe(5);
		expect(out.roles).toEqual(["user", "assistant", "user", "user"]);
		expect(readFileSync(file).equals(before)).toBe(true);
		chmodSync(dir, 0o755);
	});

	test("a directory that cannot be created reports the error and keeps the session in memory", () => {
		using tmp = tempDir();
		const blocker = join(tmp.path, "not-a-dir");
		writeFileSync(blocker, "keep me");
		const sm = SessionManager.create("/p", join(blocker, "sessions"));
		const errors: SessionWriteError[] = [];
		sm.setWriteErrorHandler((e) => errors.push(e));
		sm.appendMessage(user("q"));
		sm.appendMessage(assistant("a"));
		expect(errors.map((e) => [e.name, e.path, e.unsaved, (e.cause as NodeJS.ErrnoException).code])).toEqual([
			["SessionWriteError", sm.getSessionFile()!, 3, "ENOTDIR"],
		]);
		expect(errors[0]!.hints).toEqual(["Free disk space or fix the permissions of the session file and its folder."]);
		expect(sm.buildSessionContext().messages).toEqual([user("q"), assistant("a")]);
		expect(readFileSync(blocker, "utf8")).toBe("keep me");
	});

	test("a disk that fills mid-line: the torn bytes stay, the retry starts a fresh line, nothing is lost or doubled", () => {
		using tmp = tempDir();
		let full = false;
		const ops: SessionFileOps = {
			...nodeSessionFileOps,
			appendFile(path, text) {
				if (!full) return nodeSessionFileOps.appendFile(path, text);
				nodeSessionFileOps.appendFile(path, text.slice(0, Math.floor(text.length / 2)));
				throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
			},
		};
		const sm = SessionManager.create("/p", tmp.path, ops);
		sm.appendMessage(user("q"));
		sm.appendMessage(assistant("a"));
		const file = sm.getSessionFile()!;
		const before = readFileSync(file);
		const errors: string[] = [];
		sm.setWriteErrorHandler((e) => errors.push(e.message));

		full = true;
		const lost1 = sm.appendMessage(user("written while full"));
		const lost2 = sm.appendCustomEntry("state", { n: 2 });
		expect(errors).toHaveLength(1);
		expect(sm.unsavedWrites()?.unsaved).toBe(2);
		expect(readFileSync(file).subarray(0, before.length).equals(before)).toBe(true);

		full = false;
		const ok = sm.appendMessage(assistant("space again"));
		expect(errors).toHaveLength(1);
		expect(sm.unsavedWrites()).toBeUndefined();
		const reopened = SessionManager.open(file);
		expect(reopened.getWarnings().map((w) => [w.line, w.message.slice(file.length + 1)])).toEqual([
			[4, "4: skipped a line that is not valid JSON"],
			[5, "5: skipped a line that is not valid JSON"],
		]);
		expect(reopened.getEntries().map((e) => e.id)).toEqual([...sm.getEntries().slice(0, 2).map((e) => e.id), lost1, lost2, ok]);
		expect(reopened.buildSessionContext().messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
	});
});

test("the session directory is created with its parents on the first write", () => {
	using tmp = tempDir();
	const dir = join(tmp.path, "a", "b", "c");
	mkdirSync(join(tmp.path, "a"));
	const sm = SessionManager.create("/p", dir);
	sm.appendMessage(user("q"));
	sm.appendMessage(assistant("a"));
	expect(readFileSync(sm.getSessionFile()!, "utf8").split("\n")).toHaveLength(4);
});
