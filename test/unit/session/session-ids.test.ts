// A session opened from a file knows its ids at first only as sorted numbers (entry-index.ts): the
// parser settles repeated ids with a map only when two numbers are the same, and the manager builds
// its id map when an id is first looked up. Over random sessions — branches, damaged lines, retried
// and clashing ids, ids that share a number, CRLF, a cut last line — what is seen must be what the
// map-checked parse and a whole read give.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { EntryIndex, FileIds, idKey } from "../../../src/core/session/entry-index.ts";
import type { SessionEntry, SessionTreeNode } from "../../../src/core/session/session-entries.ts";
import { newEntryId, nodeSessionFileOps, parseSessionText } from "../../../src/core/session/session-file.ts";
import { SessionManager } from "../../../src/core/session/session-manager.ts";
import { assistant, tempDir, user } from "./fixtures.ts";

const HEADER = JSON.stringify({ type: "session", version: 3, id: "0190a000-0000-7000-8000-000000000000", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" });
const noLock = { ...nodeSessionFileOps, lock: undefined };
const hex = (i: number) => i.toString(16).padStart(8, "0");

/** A small seeded generator, so a failing case can be run again. */
function random(seed: number): () => number {
	let s = seed >>> 0;
	return () => {
		s = (s + 0x6d2b79f5) >>> 0;
		let t = s;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
	};
}

/**
 * A session file's text of about `n` lines after the header, with every kind of trouble a file can
 * have. `reuseDamaged` false: a damaged message line's id is used by no other line, nor is the line
 * repeated (a lazily read line holds its id from open on, which a whole read does not: see the test).
 */
function randomSession(seed: number, n: number, reuseDamaged = true): string {
	const r = random(seed);
	const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
	const ids: string[] = [];
	const lines: string[] = [];
	const time = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString();
	// Ids that read as the same number as another (case, a non-hex tail), or as none (other lengths, non-hex).
	const oddId = (i: number) => pick([hex(i).toUpperCase(), `${hex(i).slice(0, 7)}g`, `0000000${"ABCDEF"[i % 6]}`, `root${i % 3}`, "é0000001", `${hex(i)}0`, "0000000a"]);
	for (let i = 1; i <= n; i++) {
		const roll = r();
		const id = roll < 0.12 ? oddId(i) : roll < 0.17 && ids.length > 0 ? pick(ids) : hex(i * 7919);
		// Mostly the line before (one chain), sometimes an earlier entry (a branch), a root, or an id not in the file.
		const p = r();
		const parentId = ids.length === 0 || p < 0.05 ? null : p < 0.75 ? ids.at(-1)! : p < 0.95 ? pick(ids) : "ffffffff";
		const head = { id, parentId, timestamp: time(i) };
		const kind = r();
		const damaged = kind >= 0.8 && kind < 0.88;
		// A retried write: a copy of an earlier line.
		const copies = reuseDamaged ? lines : lines.filter((l) => !l.includes('"id":"d'));
		if (damaged && !reuseDamaged) head.id = `d${hex(i)}`;
		if (kind < 0.6) lines.push(JSON.stringify({ type: "message", ...head, message: i % 2 ? user(`u${i} ✓`) : assistant(`a${i} ответ`) }));
		else if (kind < 0.66) lines.push(JSON.stringify({ type: "model_change", ...head, provider: "mock", modelId: `m${i}` }));
		else if (kind < 0.7) lines.push(JSON.stringify({ type: "thinking_level_change", ...head, thinkingLevel: pick(["low", "high", "bogus"]) }));
		else if (kind < 0.74 && ids.length > 0) lines.push(JSON.stringify({ type: "label", ...head, targetId: pick(ids), label: pick(["mark", "", undefined]) }));
		else if (kind < 0.77 && ids.length > 0) lines.push(JSON.stringify({ type: "compaction", ...head, summary: `sum ${i}`, firstKeptEntryId: pick(ids), tokensBefore: i }));
		else if (kind < 0.8) lines.push(JSON.stringify({ type: "custom_message", ...head, customType: "x", content: `c${i}`, display: true }));
		else if (kind < 0.84) lines.push(`{"type":"message","id":"${head.id}","parentId":${JSON.stringify(parentId)},"timestamp":"${time(i)}","message":{"role":"user","content":[}}`);
		else if (kind < 0.88) lines.push(JSON.stringify({ type: "message", ...head, message: { ...assistant("x"), content: "a string" } }));
		else if (kind < 0.91) lines.push("not json at all");
		else if (kind < 0.94 && copies.length > 0) lines.push(pick(copies));
		else lines.push(JSON.stringify({ type: "message", ...head, message: user(`plain ${i}`) }));
		if (!damaged || reuseDamaged) ids.push(head.id);
	}
	const eol = r() < 0.2 ? "\r\n" : "\n";
	const text = `${[HEADER, ...lines].join(eol)}${eol}`;
	return r() < 0.15 ? text.slice(0, text.length - 1 - Math.floor(r() * 30)) : text;
}

const treeIds = (nodes: SessionTreeNode[]): unknown[] => nodes.map((n) => [n.entry.id, n.label, treeIds(n.children)]);

describe("ids known by their numbers", () => {
	test("idKey: 8 characters read in hex; anything else has none", () => {
		expect(idKey("0000000a")).toBe(10);
		expect(idKey("0000000A")).toBe(10);
		expect(idKey("ffffffff")).toBe(2 ** 32 - 1);
		expect(idKey("root")).toBeNaN();
		expect(idKey("é0000001")).toBeNaN();
		expect(idKey("000000000")).toBeNaN();
	});

	test("newEntryId: 8 lowercase hex digits, random, never one that is taken", () => {
		const seen = new Set<string>();
		for (let i = 0; i < 2000; i++) {
			const id = newEntryId(seen);
			expect(id).toMatch(/^[0-9a-f]{8}$/);
			expect(idKey(id)).toBeDefined();
			seen.add(id);
		}
		expect(seen.size).toBe(2000);
		// Every digit takes every value: the ids are not a counter or a clock.
		for (let d = 0; d < 8; d++) expect(new Set([...seen].map((id) => id[d])).size).toBe(16);
		// A taken id is skipped until a free one comes.
		let refused = 0;
		const id = newEntryId({ has: () => refused++ < 5 });
		expect(refused).toBe(6);
		expect(id).toMatch(/^[0-9a-f]{8}$/);
	});

	test("FileIds: a repeated key makes the sorted list undefined; a repeated id without a key is a sure repeat", () => {
		const entry = (id: string) => ({ type: "custom", id, parentId: null, timestamp: "" }) as SessionEntry;
		const ids = new FileIds();
		for (let i = 0; i < 3000; i++) expect(ids.add(entry(hex(3000 - i)))).toBe(true);
		expect(ids.add(entry("root"))).toBe(true);
		expect(ids.add(entry("root"))).toBe(false);
		expect(Array.from(ids.sorted()!.subarray(0, 3))).toEqual([1, 2, 3]);
		ids.add(entry("00000BB8"));
		expect(ids.sorted()).toBeUndefined();
	});

	test("EntryIndex: lookups without a map until one is needed; taken() covers the file's ids and the ones added", () => {
		const entries = [1, 2, 3].map((i) => ({ type: "custom", id: hex(i), parentId: i === 1 ? null : hex(i - 1), timestamp: "" }) as SessionEntry);
		const index = new EntryIndex(entries, { idKeys: new Float64Array([1, 2, 3]) });
		expect(index.get(hex(3))).toBe(entries[2]);
		expect(index.taken(hex(2))).toBe(true);
		expect(index.taken(hex(4))).toBe(false);
		const added = { type: "custom", id: hex(9), parentId: hex(3), timestamp: "" } as SessionEntry;
		entries.push(added);
		index.add(added);
		expect(index.taken(hex(9))).toBe(true);
		expect(index.hasMap()).toBe(false);
		expect(index.get(hex(1))).toBe(entries[0]);
		expect(index.hasMap()).toBe(true);
		expect(index.get(hex(9))).toBe(added);
		index.delete(hex(9));
		expect(index.get(hex(9))).toBeUndefined();
	});

	test("random sessions: the parse by numbers is the map-checked parse", () => {
		for (let seed = 1; seed <= 300; seed++) {
			const text = randomSession(seed, 5 + (seed % 60));
			for (const lazy of [false, true]) {
				const fast = parseSessionText(text, "f.jsonl", { lazy });
				const exact = parseSessionText(text, "f.jsonl", { lazy, exactIds: true });
				const what = `seed ${seed}, lazy ${lazy}`;
				expect(fast.warnings, what).toEqual(exact.warnings);
				expect(fast.chain, what).toBe(exact.chain);
				expect(fast.entries.length, what).toBe(exact.entries.length);
				expect(JSON.stringify(fast.entries), what).toBe(JSON.stringify(exact.entries));
				expect(fast.warnings, what).toEqual(exact.warnings);
				expect(exact.byId?.size, what).toBe(exact.entries.length);
			}
		}
	});

	// A damaged message line read lazily keeps its id from open on: a later line with the same id is
	// skipped as a repeat, which a whole read (that skipped the damaged one) keeps; this test does
	// not reuse their ids.
	test("random sessions: opened lazily, every view is the whole read's, and every id finds its entry", () => {
		using tmp = tempDir();
		const file = join(tmp.path, "s.jsonl");
		for (let seed = 1; seed <= 150; seed++) {
			writeFileSync(file, randomSession(seed, 5 + (seed % 50), false));
			const what = `seed ${seed}`;
			const lazy = SessionManager.open(file, tmp.path, undefined, noLock);
			const whole = SessionManager.forkFrom(file, "/p", tmp.path, noLock);
			expect(lazy.buildSessionContext(), what).toEqual(whole.buildSessionContext());
			// Once the branch is read (a damaged last line gives the leaf back to the entry before it).
			expect(lazy.getLeafEntry()?.id, what).toBe(whole.getLeafEntry()?.id);
			// contextSettings() alone may walk past a damaged line it does not read: asked after the branch is.
			expect(lazy.contextSettings(), what).toEqual(whole.contextSettings());
			expect(lazy.getLeafId(), what).toBe(whole.getLeafId());
			expect(lazy.getBranch().map((e) => e.id), what).toEqual(whole.getBranch().map((e) => e.id));
			expect(treeIds(lazy.getTree()), what).toEqual(treeIds(whole.getTree()));
			expect(JSON.stringify(lazy.getEntries()), what).toBe(JSON.stringify(whole.getEntries()));
			expect(lazy.getWarnings().map((w) => w.message).sort(), what).toEqual(whole.getWarnings().map((w) => w.message).sort());
			for (const e of whole.getEntries()) {
				expect(lazy.getEntry(e.id)?.id, what).toBe(e.id);
				expect(lazy.getBranch(e.id).map((b) => b.id), what).toEqual(whole.getBranch(e.id).map((b) => b.id));
			}
			expect(lazy.getEntry("not-an-id"), what).toBeUndefined();
			// New entries take ids no entry has, and are found like the file's.
			const appended = lazy.appendMessage(user("more"));
			expect(whole.getEntries().some((e) => e.id === appended), what).toBe(false);
			expect(lazy.getEntry(appended)?.id, what).toBe(appended);
			expect(lazy.getLeafId(), what).toBe(appended);
		}
	});

	test("resuming a long session that never branched builds no id map: settings, the last answer, the leaf, an append", () => {
		using tmp = tempDir();
		const file = join(tmp.path, "s.jsonl");
		const lines = [HEADER];
		for (let i = 1; i <= 500; i++) lines.push(JSON.stringify({ type: "message", id: hex(i), parentId: i === 1 ? null : hex(i - 1), timestamp: "2026-01-01T00:00:00.000Z", message: i % 2 ? user(`u${i}`) : assistant(`a${i}`) }));
		writeFileSync(file, `${lines.join("\n")}\n`);
		const sm = SessionManager.open(file, tmp.path, undefined, noLock);
		const index = (sm as unknown as { ids: EntryIndex }).ids;
		expect(sm.contextSettings()).toMatchObject({ model: { provider: "mock", modelId: "mock-1" }, hasMessages: true });
		expect(sm.deferredContext().findLast((m) => m.role === "assistant")).toMatchObject({ role: "assistant" });
		expect(sm.getLeafEntry()?.id).toBe(hex(500));
		expect(sm.getEntries()).toHaveLength(500);
		const id = sm.appendMessage(user("next"));
		expect(sm.getBranch()).toHaveLength(501);
		expect(sm.getEntry(id)?.parentId).toBe(hex(500));
		expect(index.hasMap()).toBe(false);
		// An entry in the middle needs the map; it is built once, from the list as it is.
		expect(sm.getEntry(hex(250))?.parentId).toBe(hex(249));
		expect(index.hasMap()).toBe(true);
		expect(sm.getEntry(id)?.id).toBe(id);
	});
});
