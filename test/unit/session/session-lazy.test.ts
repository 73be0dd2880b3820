// Opening a session reads each message line's head only; its message is read (and checked) when
// first used. What the user sees must not change: a damaged line on the branch is reported, with
// file and line, before the context or the branch is used, and the tree is the one the loader
// would have built; a damaged line off the branch is reported when the tree or that entry is read.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentMessage } from "../../../src/core/agent/messages.ts";
import { AgentSession } from "../../../src/core/agent-session.ts";
import type { SessionLoadWarning, SessionTreeNode } from "../../../src/core/session/session-entries.ts";
import { nodeSessionFileOps } from "../../../src/core/session/session-file.ts";
import { SessionManager } from "../../../src/core/session/session-manager.ts";
import { assistant, tempDir, user } from "./fixtures.ts";

const T = "2026-01-01T00:00:00.000Z";
const HEADER = JSON.stringify({ type: "session", version: 3, id: "0190a000-0000-7000-8000-000000000000", timestamp: T, cwd: "/p" });
const noLock = { ...nodeSessionFileOps, lock: undefined };

function line(id: string, parentId: string | null, message: unknown): string {
	return JSON.stringify({ type: "message", id, parentId, timestamp: T, message });
}

/** A file of `lines` after the header; returns its path. */
function sessionFile(dir: string, lines: string[]): string {
	const file = join(dir, "s.jsonl");
	writeFileSync(file, `${[HEADER, ...lines].join("\n")}\n`);
	return file;
}

/**
 * root: u1 → a1 → u2 → a2(bad shape) → u3 → a3 (the leaf), and a branch off a1: u4(bad JSON) → a4.
 * Lines 1-based with the header as line 1.
 */
function damagedTree(dir: string): string {
	return sessionFile(dir, [
		line("00000001", null, user("one")),
		line("00000002", "00000001", assistant("first")),
		line("00000003", "00000002", user("two")),
		line("00000004", "00000003", { ...assistant("x"), content: "a string" }),
		// A canonical head and ending, broken inside: only reading it shows the damage.
		`{"type":"message","id":"00000005","parentId":"00000002","timestamp":"${T}","message":{"role":"user","content":[}}`,
		line("00000006", "00000005", assistant("off the branch")),
		line("00000007", "00000004", user("three")),
		line("00000008", "00000007", assistant("third")),
	]);
}

const ids = (nodes: SessionTreeNode[]): unknown[] => nodes.map((n) => [n.entry.id, ids(n.children)]);
const texts = (messages: AgentMessage[]) => messages.map((m) => (m.role === "user" ? m.content : m.role === "assistant" ? (m.content[0] as { text: string }).text : m.role));

describe("a session's messages are read when first used", () => {
	test("the tree, branch, context and warnings are the loader's (forkFrom reads every line at once)", () => {
		using tmp = tempDir();
		const file = damagedTree(tmp.path);
		const eager = SessionManager.forkFrom(file, "/p", tmp.path, noLock);
		const lazy = SessionManager.open(file, tmp.path, undefined, noLock);
		const told: SessionLoadWarning[] = [];
		lazy.setWarningHandler((w) => told.push(w));
		expect(lazy.buildSessionContext()).toEqual(eager.buildSessionContext());
		expect(texts(lazy.buildSessionContext().messages)).toEqual(["one", "first", "two", "three", "third"]);
		expect(lazy.getBranch().map((e) => e.id)).toEqual(eager.getBranch().map((e) => e.id));
		expect(ids(lazy.getTree())).toEqual(ids(eager.getTree()));
		expect(lazy.getEntries()).toEqual(eager.getEntries());
		expect(lazy.getLeafId()).toBe(eager.getLeafId());
		// The same words; the ones found after open are told as they are found.
		expect(lazy.getWarnings().map((w) => w.message).sort()).toEqual(eager.getWarnings().map((w) => w.message).sort());
		expect(told.map((w) => w.message)).toEqual([
			`${file}:5: skipped a "message" entry of an unexpected shape: message.content must be an array of content blocks`,
			`${file}:6: skipped a line that is not valid JSON`,
		]);
	});

	test("a damaged line off the branch is not reported by the context; /tree (getTree) reports it, once", () => {
		using tmp = tempDir();
		const file = damagedTree(tmp.path);
		const sm = SessionManager.open(file, tmp.path, undefined, noLock);
		expect(sm.getWarnings()).toEqual([]);
		sm.buildSessionContext();
		expect(sm.getWarnings().map((w) => w.line)).toEqual([5]);
		const told: number[] = [];
		sm.setWarningHandler((w) => told.push(w.line));
		// Found before the handler was set: told when it is.
		expect(told).toEqual([5]);
		sm.getTree();
		sm.getTree();
		expect(told).toEqual([5, 6]);
		expect(sm.getEntry("00000005")).toBeUndefined();
		// A line that is not JSON names no children: the entry after it is a root of its own, as when loading.
		expect(sm.getTree().map((n) => n.entry.id)).toEqual(["00000001", "00000006"]);
	});

	test("an entry read through getEntries() that turns out damaged is reported, leaves the tree, and reads as a hidden message", () => {
		using tmp = tempDir();
		const file = damagedTree(tmp.path);
		const sm = SessionManager.open(file, tmp.path, undefined, noLock);
		const entries = sm.getEntries();
		expect(entries).toHaveLength(8);
		const bad = entries.find((e) => e.id === "00000004")!;
		expect(bad.type === "message" && bad.message).toMatchObject({ role: "custom", display: false });
		expect(sm.getWarnings().map((w) => w.line)).toEqual([5]);
		expect(sm.getEntries()).toHaveLength(7);
		expect(sm.getEntry("00000007")!.parentId).toBe("00000003");
		// Not in the context either.
		expect(texts(sm.buildSessionContext().messages)).toEqual(["one", "first", "two", "three", "third"]);
	});

	test("a damaged last line: the leaf falls back to the file's previous entry, as when loading", () => {
		using tmp = tempDir();
		const file = sessionFile(tmp.path, [
			line("00000001", null, user("one")),
			line("00000002", "00000001", assistant("first")),
			line("00000003", "00000001", user("other branch")),
			line("00000004", "00000002", { role: "assistant", content: null }),
		]);
		const eager = SessionManager.forkFrom(file, "/p", tmp.path, noLock);
		const lazy = SessionManager.open(file, tmp.path, undefined, noLock);
		expect(lazy.getLeafId()).toBe("00000004");
		expect(lazy.contextSettings().model).toBeNull();
		expect(lazy.getLeafId()).toBe("00000003");
		expect(lazy.getLeafId()).toBe(eager.getLeafId());
		expect(lazy.buildSessionContext()).toEqual(eager.buildSessionContext());
	});

	test("several damaged lines at the end: the leaf falls back past all of them, and the context is the loader's", () => {
		using tmp = tempDir();
		const bad = { ...assistant("x"), content: "a string" };
		const file = sessionFile(tmp.path, [
			line("00000001", null, user("one")),
			line("00000002", "00000001", assistant("first")),
			line("00000003", null, user("another root")),
			line("00000004", "00000003", bad),
			line("00000005", "00000001", bad),
			line("00000006", "ffffffff", bad),
		]);
		const eager = SessionManager.forkFrom(file, "/p", tmp.path, noLock);
		const lazy = SessionManager.open(file, tmp.path, undefined, noLock);
		expect(texts(lazy.buildSessionContext().messages)).toEqual(["another root"]);
		expect(lazy.buildSessionContext()).toEqual(eager.buildSessionContext());
		expect(lazy.getLeafId()).toBe("00000003");
		expect(SessionManager.open(file, tmp.path, undefined, noLock).getBranch().map((e) => e.id)).toEqual(["00000003"]);
		const resumed = SessionManager.open(file, tmp.path, undefined, noLock);
		expect(texts(resumed.deferredContext().build())).toEqual(["another root"]);
	});

	test("a last line cut off mid-write is reported as torn at open, even when it ends like a whole line", () => {
		using tmp = tempDir();
		const file = join(tmp.path, "s.jsonl");
		const torn = `{"type":"message","id":"00000002","parentId":"00000001","timestamp":"${T}","message":{"role":"user","content":[{"type":"text","text":"a"}}}`;
		writeFileSync(file, `${HEADER}\n${line("00000001", null, user("one"))}\n${torn}`);
		const sm = SessionManager.open(file, tmp.path, undefined, noLock);
		expect(sm.getWarnings().map((w) => w.message)).toEqual([`${file}:3: skipped the last line: it was cut off mid-write`]);
	});

	test("an AgentSession resumed lazily builds its messages on first use; its last answer needs only the end of the branch", () => {
		using tmp = tempDir();
		const lines = [line("00000001", null, user("q0"))];
		for (let i = 2; i <= 200; i++) lines.push(line(i.toString(16).padStart(8, "0"), (i - 1).toString(16).padStart(8, "0"), i % 2 === 0 ? assistant(`a${i}`) : user(`q${i}`)));
		const file = sessionFile(tmp.path, lines);
		const sm = SessionManager.open(file, tmp.path, undefined, noLock);
		const settings = sm.contextSettings();
		expect(settings).toEqual({ model: { provider: "mock", modelId: "mock-1" }, thinkingLevel: "off", hasMessages: true });
		const session = new AgentSession({
			cwd: tmp.path,
			model: undefined,
			thinkingLevel: "off",
			models: {} as never,
			session: sm,
			tools: [],
			activeTools: [],
			messages: sm.deferredContext(),
			systemPrompt: { cwd: tmp.path },
		});
		expect((session.lastAssistant()?.content[0] as { text: string }).text).toBe("a200");
		expect(session.lastAssistantText()).toBe("a200");
		// Only the last message was read.
		expect((sm as unknown as { deferred: { pending: number } }).deferred.pending).toBe(199);
		expect(session.messages).toHaveLength(200);
		expect(session.messages).toEqual(SessionManager.forkFrom(file, "/p", tmp.path, noLock).buildSessionContext().messages);
	});
});
