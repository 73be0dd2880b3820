// A path through the leading entries of a session that never branched is taken as a slice of the
// entry list, not walked parent by parent. Whatever happens to the tree after open — branching,
// appends, a damaged line found on the way, a file that starts with an orphan — every path must be
// the one the parent links give, and the settings read from the end of the branch the full walk's.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { buildContextFromPath } from "../../../src/core/session/session-context.ts";
import { nodeSessionFileOps } from "../../../src/core/session/session-file.ts";
import { SessionManager } from "../../../src/core/session/session-manager.ts";
import { assistant, tempDir, user } from "./fixtures.ts";

const T = "2026-01-01T00:00:00.000Z";
const HEADER = JSON.stringify({ type: "session", version: 3, id: "0190a000-0000-7000-8000-000000000000", timestamp: T, cwd: "/p" });
const noLock = { ...nodeSessionFileOps, lock: undefined };
const hex = (i: number) => i.toString(16).padStart(8, "0");

function line(id: string, parentId: string | null, message: unknown): string {
	return JSON.stringify({ type: "message", id, parentId, timestamp: T, message });
}

/** Entries 1..n, each the child of the one before (odd: user, even: assistant), with `replace` lines swapped in. */
function linear(n: number, replace: Record<number, string> = {}): string[] {
	const lines: string[] = [];
	for (let i = 1; i <= n; i++) lines.push(replace[i] ?? line(hex(i), i === 1 ? null : hex(i - 1), i % 2 ? user(`u${i}`) : assistant(`a${i}`)));
	return lines;
}

function open(dir: string, lines: string[]): SessionManager {
	const file = join(dir, "s.jsonl");
	writeFileSync(file, `${[HEADER, ...lines].join("\n")}\n`);
	return SessionManager.open(file, dir, undefined, noLock);
}

/** The path to `id` by parent links, root first (what getBranch must give). */
function walked(sm: SessionManager, id: string | null): string[] {
	const path: string[] = [];
	const seen = new Set<string>();
	for (let e = id ? sm.getEntry(id) : undefined; e && !seen.has(e.id); e = e.parentId ? sm.getEntry(e.parentId) : undefined) {
		seen.add(e.id);
		path.unshift(e.id);
	}
	return path;
}

/** getBranch() to the leaf and to every entry is the walk by parent links. */
function expectPathsWalked(sm: SessionManager): void {
	expect(sm.getBranch().map((e) => e.id)).toEqual(walked(sm, sm.getLeafId()));
	for (const e of sm.getEntries()) expect(sm.getBranch(e.id).map((x) => x.id)).toEqual(walked(sm, e.id));
}

describe("paths through a session that never branched", () => {
	test("a linear file: every path is the walk, the context holds every message", () => {
		using tmp = tempDir();
		const sm = open(tmp.path, linear(9));
		expectPathsWalked(sm);
		expect(sm.buildSessionContext().messages).toHaveLength(9);
		expect(sm.contextSettings()).toEqual({ model: { provider: "mock", modelId: "mock-1" }, thinkingLevel: "off", hasMessages: true });
	});

	test("branching back and appending: the new branch leaves the old path as it was", () => {
		using tmp = tempDir();
		const sm = open(tmp.path, linear(6));
		sm.branch(hex(3));
		const a = sm.appendMessage(user("branch"));
		sm.appendMessage(assistant("branch answer"));
		expectPathsWalked(sm);
		expect(sm.getBranch().map((e) => e.id).slice(0, 4)).toEqual([hex(1), hex(2), hex(3), a]);
		// Back at the old leaf, an append continues the first line of descent.
		sm.branch(hex(6));
		sm.appendMessage(user("seven"));
		expectPathsWalked(sm);
		expect(sm.getBranch()).toHaveLength(7);
		sm.resetLeaf();
		sm.appendMessage(user("a new root"));
		expectPathsWalked(sm);
		expect(sm.getBranch()).toHaveLength(1);
	});

	test("appends to a new session and to the end of an opened one extend the slice", () => {
		using tmp = tempDir();
		const fresh = SessionManager.inMemory("/p");
		for (let i = 0; i < 4; i++) fresh.appendMessage(i % 2 ? assistant(`a${i}`) : user(`u${i}`));
		expectPathsWalked(fresh);
		expect(fresh.getBranch()).toHaveLength(4);
		const sm = open(tmp.path, linear(4));
		sm.appendMessage(user("five"));
		sm.appendMessage(assistant("six"));
		expectPathsWalked(sm);
		expect(sm.getBranch()).toHaveLength(6);
	});

	test("a damaged line in the middle, found when the context is read: paths and the context are the loader's", () => {
		for (const [what, damaged] of [
			["an entry of the wrong shape (its children move to its parent)", line(hex(4), hex(3), { ...assistant("x"), content: "a string" })],
			["a line that is not JSON (its children lose their parent)", `{"type":"message","id":"${hex(4)}","parentId":"${hex(3)}","timestamp":"${T}","message":{"role":"user","content":[}}`],
		] as const) {
			using tmp = tempDir();
			const lines = linear(8, { 4: damaged });
			const sm = open(tmp.path, lines);
			const eager = SessionManager.forkFrom(join(tmp.path, "s.jsonl"), "/p", tmp.path, noLock);
			expect(sm.buildSessionContext(), what).toEqual(eager.buildSessionContext());
			expect(sm.getWarnings().map((w) => w.line), what).toEqual([5]);
			expectPathsWalked(sm);
			expect(sm.getBranch().map((e) => e.id), what).toEqual(eager.getBranch().map((e) => e.id));
			sm.appendMessage(user("after"));
			expectPathsWalked(sm);
		}
	});

	test("a file whose first entry hangs from a missing parent, and one whose lines come out of order", () => {
		using tmp = tempDir();
		const orphan = open(tmp.path, linear(5, { 1: line(hex(1), "ffffffff", user("u1")) }));
		expectPathsWalked(orphan);
		expect(orphan.getBranch()).toHaveLength(5);
		const shuffled = open(tmp.path, [line(hex(2), hex(1), assistant("a2")), line(hex(1), null, user("u1")), line(hex(3), hex(2), user("u3"))]);
		expectPathsWalked(shuffled);
		expect(shuffled.getBranch().map((e) => e.id)).toEqual([hex(1), hex(2), hex(3)]);
	});

	test("the model, thinking level and whether there are messages are read from the end as the full context gives them", () => {
		using tmp = tempDir();
		const level = (id: number, parent: number, thinkingLevel: string) => JSON.stringify({ type: "thinking_level_change", id: hex(id), parentId: hex(parent), timestamp: T, thinkingLevel });
		const compaction = JSON.stringify({ type: "compaction", id: hex(5), parentId: hex(4), timestamp: T, summary: "earlier", firstKeptEntryId: hex(4), tokensBefore: 10 });
		for (const lines of [linear(6), linear(6, { 2: level(2, 1, "high") }), linear(6, { 5: compaction }), linear(6, { 2: level(2, 1, "low"), 5: compaction })]) {
			const sm = open(tmp.path, lines);
			const full = buildContextFromPath(sm.getBranch());
			expect(sm.contextSettings()).toEqual({ model: full.model, thinkingLevel: full.thinkingLevel, hasMessages: full.messages.length > 0 });
			expect(sm.deferredContext().findLast(() => true)).toEqual(full.messages.at(-1));
			expect(sm.deferredContext().build()).toEqual(full.messages);
		}
	});
});
