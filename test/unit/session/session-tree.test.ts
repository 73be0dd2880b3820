// The entry tree: branching, labels, names, and the context the model sees at a leaf, with a
// compaction and a branch summary on the path.
import { describe, expect, test } from "bun:test";
import { SessionManager } from "../../../src/core/session/session-manager.ts";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { assistant, tempDir, user } from "./fixtures.ts";

function conversation() {
	const sm = SessionManager.inMemory("/p");
	const ids = {
		model: sm.appendModelChange("other", "x-1"),
		thinking: sm.appendThinkingLevelChange("high"),
		u1: sm.appendMessage(user("q1")),
		a1: sm.appendMessage(assistant("a1")),
		u2: sm.appendMessage(user("q2")),
		a2: sm.appendMessage(assistant("a2")),
		state: sm.appendCustomEntry("state", { n: 1 }),
		u3: sm.appendMessage(user("q3")),
		a3: sm.appendMessage(assistant("a3")),
	};
	return { sm, ids };
}

describe("buildSessionContext", () => {
	test("walks root → leaf; custom entries stay out; the last assistant sets the model", () => {
		const { sm } = conversation();
		const ctx = sm.buildSessionContext();
		expect(ctx.messages.map((m) => (m.role === "user" ? m.content : m.role))).toEqual(["q1", "assistant", "q2", "assistant", "q3", "assistant"]);
		expect(ctx.thinkingLevel).toBe("high");
		expect(ctx.model).toEqual({ provider: "mock", modelId: "mock-1" });
	});

	test("a compaction emits its summary first, then entries from firstKeptEntryId, then later ones", () => {
		const { sm, ids } = conversation();
		const c = sm.appendCompaction("q1 and a1, summarised", ids.u2, 5000);
		sm.appendCustomMessageEntry("note", "after compaction", false, { k: 1 });
		sm.appendMessage(user("q4"));
		const compaction = sm.getEntry(c)!;
		const note = sm.getLeafEntry()!.parentId!;

		expect(sm.buildSessionContext().messages).toEqual([
			{ role: "compactionSummary", summary: "q1 and a1, summarised", tokensBefore: 5000, timestamp: Date.parse(compaction.timestamp) },
			user("q2"),
			assistant("a2"),
			user("q3"),
			assistant("a3"),
			{ role: "custom", customType: "note", content: "after compaction", display: false, details: { k: 1 }, timestamp: Date.parse(sm.getEntry(note)!.timestamp) },
			user("q4"),
		]);
		// The compaction is a step on the path, not a rewrite: the full history is still there.
		expect(sm.getBranch().map((e) => e.id).slice(0, 4)).toEqual([ids.model, ids.thinking, ids.u1, ids.a1]);
	});

	test("branching with a summary: the new path sees the summary, not the abandoned turns", () => {
		const { sm, ids } = conversation();
		sm.appendCompaction("only on the first branch", ids.u2, 10);
		const bs = sm.branchWithSummary(ids.a1, "tried q2 and q3; dead end");
		const u5 = sm.appendMessage(user("q5"));

		expect(sm.getEntry(bs)).toMatchObject({ type: "branch_summary", parentId: ids.a1, fromId: ids.a1, summary: "tried q2 and q3; dead end" });
		expect(sm.getBranch().map((e) => e.id)).toEqual([ids.model, ids.thinking, ids.u1, ids.a1, bs, u5]);
		expect(sm.buildSessionContext().messages).toEqual([
			user("q1"),
			assistant("a1"),
			{ role: "branchSummary", summary: "tried q2 and q3; dead end", fromId: ids.a1, timestamp: Date.parse(sm.getEntry(bs)!.timestamp) },
			user("q5"),
		]);
		expect(sm.getChildren(ids.a1).map((e) => e.id)).toEqual([ids.u2, bs]);
	});

	test("branch() moves the leaf; the old branch is kept and getBranch(fromId) still reaches it", () => {
		const { sm, ids } = conversation();
		sm.branch(ids.u2);
		const alt = sm.appendMessage(assistant("a2, take two"));
		expect(sm.getLeafId()).toBe(alt);
		expect(sm.buildSessionContext().messages.map((m) => m.role)).toEqual(["user", "assistant", "user", "assistant"]);
		expect(sm.getBranch(ids.a3).map((e) => e.id).at(-1)).toBe(ids.a3);
		expect(sm.getEntries()).toHaveLength(10);
		expect(() => sm.branch("nope")).toThrow('No entry "nope" in session');
	});

	test("resetLeaf: empty context, and the next append is a second root", () => {
		const { sm } = conversation();
		sm.resetLeaf();
		expect(sm.getLeafId()).toBeNull();
		expect(sm.buildSessionContext()).toEqual({ messages: [], thinkingLevel: "off", model: null });
		const root2 = sm.appendMessage(user("fresh start"));
		expect(sm.getEntry(root2)!.parentId).toBeNull();
		expect(sm.getTree().map((n) => n.entry.id)).toEqual([sm.getEntries()[0]!.id, root2]);
		const bs = sm.branchWithSummary(null, "from the top");
		expect(sm.getEntry(bs)).toMatchObject({ parentId: null, fromId: "root" });
	});
});

describe("tree, labels, names", () => {
	test("getTree nests children oldest first and resolves labels", () => {
		const { sm, ids } = conversation();
		sm.branch(ids.a1);
		const side = sm.appendMessage(user("side"));
		sm.appendLabelChange(ids.u1, "start");
		sm.appendLabelChange(ids.a1, "fork point");
		sm.appendLabelChange(ids.a1, undefined);

		const [root, ...others] = sm.getTree();
		expect(others).toEqual([]);
		const path: string[] = [];
		let node = root;
		while (node) {
			path.push(node.entry.id);
			node = node.children[0]!;
		}
		expect(path.slice(0, 5)).toEqual([ids.model, ids.thinking, ids.u1, ids.a1, ids.u2]);
		const a1 = root!.children[0]!.children[0]!.children[0]!;
		expect(a1.entry.id).toBe(ids.a1);
		expect(a1.children.map((c) => c.entry.id)).toEqual([ids.u2, side]);
		expect(a1.label).toBeUndefined();
		expect(root!.children[0]!.children[0]!.label).toBe("start");
		expect(sm.getLabel(ids.u1)).toBe("start");
		expect(sm.getLabel(ids.a1)).toBeUndefined();
		expect(() => sm.appendLabelChange("missing", "x")).toThrow('No entry "missing"');
	});

	test("the latest session_info names the session; an empty name clears it", () => {
		const sm = SessionManager.inMemory("/p");
		expect(sm.getSessionName()).toBeUndefined();
		sm.appendSessionInfo("first");
		sm.appendSessionInfo("  second ");
		expect(sm.getSessionName()).toBe("second");
		sm.appendSessionInfo("   ");
		expect(sm.getSessionName()).toBeUndefined();
	});
});

describe("a damaged tree", () => {
	test("a parent cycle (a hand-edited file) ends the path where it first repeats", () => {
		using tmp = tempDir();
		const file = join(tmp.path, "cycle.jsonl");
		const line = (id: string, parentId: string | null, text: string) =>
			JSON.stringify({ type: "message", id, parentId, timestamp: "2026-01-01T00:00:00.000Z", message: user(text) });
		// a ← b ← c ← d, and a's parent is c: from the leaf d the walk is d, c, b, a, then c again.
		const header = JSON.stringify({ type: "session", version: 3, id: "0190a000-0000-7000-8000-000000000000", timestamp: "2026-01-01T00:00:00.000Z", cwd: "/p" });
		writeFileSync(file, [header, line("aaaaaaaa", "cccccccc", "a"), line("bbbbbbbb", "aaaaaaaa", "b"), line("cccccccc", "bbbbbbbb", "c"), line("dddddddd", "cccccccc", "d")].join("\n") + "\n");
		const sm = SessionManager.open(file);
		expect(sm.getBranch().map((e) => e.id)).toEqual(["aaaaaaaa", "bbbbbbbb", "cccccccc", "dddddddd"]);
		expect(sm.getBranch("bbbbbbbb").map((e) => e.id)).toEqual(["cccccccc", "aaaaaaaa", "bbbbbbbb"]);
	});
});
