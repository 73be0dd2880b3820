// The file a session writes: exact header and entry lines, lazy creation, append-only growth,
// skipped torn and garbage lines, and v1/v2 files migrated in memory without being rewritten.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { ENV } from "../../../src/config.ts";
import { SessionManager } from "../../../src/core/session/session-manager.ts";
import { assistant, ENTRY_ID, ISO, readLines, tempDir, user, UUID } from "./fixtures.ts";

describe("file contents", () => {
	let savedEnv: string | undefined;
	beforeEach(() => {
		savedEnv = process.env[ENV.sessionDir];
	});
	afterEach(() => {
		if (savedEnv === undefined) delete process.env[ENV.sessionDir];
		else process.env[ENV.sessionDir] = savedEnv;
	});

	test("lives at <sessions root>/--<cwd>--/<time>_<uuid>.jsonl with a v3 header", () => {
		using tmp = tempDir();
		process.env[ENV.sessionDir] = tmp.path;
		const sm = SessionManager.create("/work/my/proj");
		const header = sm.getHeader();
		expect(header.id).toMatch(UUID);
		expect(header.timestamp).toMatch(ISO);
		expect(sm.getSessionDir()).toBe(join(tmp.path, "--work-my-proj--"));
		expect(sm.getSessionFile()).toBe(join(tmp.path, "--work-my-proj--", `${header.timestamp.replace(/[:.]/g, "-")}_${header.id}.jsonl`));
		expect(basename(sm.getSessionFile()!)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z_[0-9a-f-]{36}\.jsonl$/);

		sm.appendMessage(user("hi"));
		sm.appendMessage(assistant("hello"));
		const firstLine = readFileSync(sm.getSessionFile()!, "utf8").split("\n")[0];
		expect(firstLine).toBe(JSON.stringify({ type: "session", version: 3, id: header.id, timestamp: header.timestamp, cwd: "/work/my/proj" }));
	});

	test("every entry type is written with type, id, parentId, timestamp and its own fields", () => {
		using tmp = tempDir();
		const sm = SessionManager.create("/p", tmp.path);
		const ids = [
			sm.appendModelChange("mock", "mock-1"),
			sm.appendThinkingLevelChange("high"),
			sm.appendMessage(user("hi")),
			sm.appendMessage(assistant("hello")),
		];
		ids.push(sm.appendCustomEntry("my-state", { count: 42 }));
		ids.push(sm.appendCustomMessageEntry("note", "injected note", true, { a: 1 }));
		ids.push(sm.appendSessionInfo("  named session  "));
		ids.push(sm.appendLabelChange(ids[3]!, "my-label"));
		ids.push(sm.appendCompaction("summary text", ids[2]!, 1234, { kept: 1 }, true));
		ids.push(sm.appendBranchSummary(ids[1]!, "left behind"));

		const lines = readLines(sm.getSessionFile()!);
		expect(lines).toHaveLength(11);
		const entries = lines.slice(1);
		const parents = [null, ...ids.slice(0, -1)];
		entries.forEach((e, i) => {
			expect(Object.keys(e).slice(0, 4)).toEqual(["type", "id", "parentId", "timestamp"]);
			expect(e.id).toBe(ids[i]!);
			expect(e.id).toMatch(ENTRY_ID);
			expect(e.parentId).toBe(parents[i]!);
			expect(e.timestamp).toMatch(ISO);
		});
		const fields = entries.map(({ id: _i, parentId: _p, timestamp: _t, ...rest }) => rest);
		expect(fields).toEqual([
			{ type: "model_change", provider: "mock", modelId: "mock-1" },
			{ type: "thinking_level_change", thinkingLevel: "high" },
			{ type: "message", message: user("hi") },
			{ type: "message", message: JSON.parse(JSON.stringify(assistant("hello"))) },
			{ type: "custom", customType: "my-state", data: { count: 42 } },
			{ type: "custom_message", customType: "note", content: "injected note", display: true, details: { a: 1 } },
			{ type: "session_info", name: "named session" },
			{ type: "label", targetId: ids[3]!, label: "my-label" },
			{ type: "compaction", summary: "summary text", firstKeptEntryId: ids[2]!, tokensBefore: 1234, details: { kept: 1 }, fromHook: true },
			{ type: "branch_summary", fromId: ids[1]!, summary: "left behind" },
		]);
		expect(new Set(ids).size).toBe(ids.length);
	});
});

describe("lazy, append-only writing", () => {
	test("nothing (not even the directory) exists before the first assistant message", () => {
		using tmp = tempDir();
		const dir = join(tmp.path, "sessions");
		const sm = SessionManager.create("/p", dir);
		sm.appendModelChange("mock", "mock-1");
		sm.appendMessage(user("hi"));
		sm.appendCustomEntry("state", { n: 1 });
		expect(existsSync(dir)).toBe(false);

		sm.appendMessage(assistant("hello"));
		expect(readLines(sm.getSessionFile()!).map((l) => l.type)).toEqual(["session", "model_change", "message", "custom", "message"]);
	});

	test("an in-memory session never writes", () => {
		using tmp = tempDir();
		const sm = SessionManager.inMemory(tmp.path);
		sm.appendMessage(user("hi"));
		sm.appendMessage(assistant("hello"));
		expect(sm.getSessionFile()).toBeUndefined();
		expect(sm.isPersisted()).toBe(false);
		expect(sm.getSessionDir()).toBe("");
		expect(sm.buildSessionContext().messages).toHaveLength(2);
	});

	test("each append only adds bytes; what was written never changes", () => {
		using tmp = tempDir();
		const sm = SessionManager.create("/p", tmp.path);
		sm.appendMessage(user("one"));
		sm.appendMessage(assistant("two"));
		let before = readFileSync(sm.getSessionFile()!);
		const appends = [
			() => sm.appendMessage(user("three")),
			() => sm.appendLabelChange(sm.getLeafId()!, "x"),
			() => sm.branch(sm.getEntries()[0]!.id),
			() => sm.appendMessage(user("other branch")),
			() => sm.appendSessionInfo("name"),
		];
		for (const step of appends) {
			step();
			const after = readFileSync(sm.getSessionFile()!);
			expect(after.length).toBeGreaterThanOrEqual(before.length);
			expect(after.subarray(0, before.length).equals(before)).toBe(true);
			before = after;
		}
		expect(readLines(sm.getSessionFile()!)).toHaveLength(7);
	});

	test("reopening continues at the last entry and appends to the same file", () => {
		using tmp = tempDir();
		const first = SessionManager.create("/p", tmp.path);
		first.appendMessage(user("one"));
		const a = first.appendMessage(assistant("two"));
		const reopened = SessionManager.open(first.getSessionFile()!);
		expect(reopened.getWarnings()).toEqual([]);
		expect(reopened.getSessionId()).toBe(first.getSessionId());
		expect(reopened.getCwd()).toBe("/p");
		expect(reopened.getLeafId()).toBe(a);
		const u = reopened.appendMessage(user("three"));
		const lines = readLines(first.getSessionFile()!);
		expect(lines.map((l) => l.id)).toEqual([first.getSessionId(), first.getEntries()[0]!.id, a, u]);
		expect(lines[3]!.parentId).toBe(a);
	});
});

describe("damaged files", () => {
	function writtenSession(dir: string): { sm: SessionManager; file: string } {
		const sm = SessionManager.create("/p", dir);
		sm.appendMessage(user("question"));
		sm.appendMessage(assistant("answer"));
		return { sm, file: sm.getSessionFile()! };
	}

	test("a torn last line is skipped with a warning and the next append starts a fresh line", () => {
		using tmp = tempDir();
		const { sm, file } = writtenSession(tmp.path);
		appendFileSync(file, '{"type":"message","id":"deadbeef","parentId":"ab');
		const bytesBefore = readFileSync(file);

		const reopened = SessionManager.open(file);
		expect(reopened.getWarnings()).toEqual([{ file, line: 4, message: `${file}:4: skipped the last line: it was cut off mid-write` }]);
		expect(reopened.getEntries().map((e) => e.id)).toEqual(sm.getEntries().map((e) => e.id));
		const next = reopened.appendMessage(user("after the tear"));

		const after = readFileSync(file);
		expect(after.subarray(0, bytesBefore.length).equals(bytesBefore)).toBe(true);
		const again = SessionManager.open(file);
		expect(again.getWarnings().map((w) => w.line)).toEqual([4]);
		expect(again.getEntries().map((e) => e.id)).toEqual([...sm.getEntries().map((e) => e.id), next]);
		expect(again.getLeafEntry()).toMatchObject({ id: next, parentId: sm.getLeafId(), message: { content: "after the tear" } });
	});

	test("garbage in the middle is skipped with its line number; the entries around it keep their tree", () => {
		using tmp = tempDir();
		const { sm, file } = writtenSession(tmp.path);
		const [header, first, second] = readFileSync(file, "utf8").split("\n");
		writeFileSync(file, `${header}\n${first}\nnot json at all\n[1,2]\n${second}\n`);

		const reopened = SessionManager.open(file);
		expect(reopened.getWarnings()).toEqual([
			{ file, line: 3, message: `${file}:3: skipped a line that is not valid JSON` },
			{ file, line: 4, message: `${file}:4: skipped a line that is not a session entry (no "type")` },
		]);
		const [u, a] = sm.getEntries();
		expect(reopened.getBranch().map((e) => e.id)).toEqual([u!.id, a!.id]);
		expect(reopened.buildSessionContext().messages.map((m) => m.role)).toEqual(["user", "assistant"]);
		reopened.appendMessage(user("more"));
		expect(SessionManager.open(file).getEntries()).toHaveLength(3);
	});

	test("a repeated id: an identical line (a retried write) is dropped quietly, a different one with a warning naming the first", () => {
		using tmp = tempDir();
		const { sm, file } = writtenSession(tmp.path);
		const [header, first, second] = readFileSync(file, "utf8").split("\n");
		const changed = second!.replace('"answer"', '"another answer"');
		writeFileSync(file, `${header}\n${first}\n${first}\n${second}\n${changed}\n`);

		const reopened = SessionManager.open(file);
		expect(reopened.getWarnings()).toEqual([{ file, line: 5, message: `${file}:5: skipped an entry whose id ${sm.getLeafId()} repeats line 4` }]);
		expect(reopened.getEntries().map((e) => e.id)).toEqual(sm.getEntries().map((e) => e.id));
		expect(reopened.buildSessionContext().messages).toEqual(sm.buildSessionContext().messages);
	});

	test("a damaged entry that names itself as parent: its children keep the missing parent (opening used to loop forever)", () => {
		using tmp = tempDir();
		const file = join(tmp.path, "s.jsonl");
		const T = "2026-01-01T00:00:00.000Z";
		const lines = [
			{ type: "session", version: 3, id: "0190a000-0000-7000-8000-000000000000", timestamp: T, cwd: "/p" },
			{ type: "model_change", id: "0000000a", parentId: "0000000a", timestamp: T, provider: 5 },
			{ type: "model_change", id: "0000000b", parentId: "0000000a", timestamp: T, provider: "mock", modelId: "m" },
			{ type: "message", id: "0000000c", parentId: "0000000a", timestamp: T, message: user("child") },
		];
		writeFileSync(file, `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`);
		const sm = SessionManager.open(file);
		expect(sm.getWarnings().map((w) => w.line)).toEqual([2]);
		expect(sm.getEntries().map((e) => [e.id, e.parentId])).toEqual([
			["0000000b", "0000000a"],
			["0000000c", "0000000a"],
		]);
		expect(sm.getTree().map((n) => n.entry.id)).toEqual(["0000000b", "0000000c"]);
	});

	test("a header after the first entries (a hand-edited file) still opens, in file order", () => {
		using tmp = tempDir();
		const { sm, file } = writtenSession(tmp.path);
		const [header, first, second] = readFileSync(file, "utf8").split("\n");
		writeFileSync(file, `${first}\n${header}\n${second}\n`);
		const reopened = SessionManager.open(file);
		expect(reopened.getWarnings()).toEqual([]);
		expect(reopened.getHeader().id).toBe(sm.getHeader().id);
		expect(reopened.getBranch().map((e) => e.id)).toEqual(sm.getEntries().map((e) => e.id));
	});

	test("an empty file becomes a new session written there; entries without a header are refused", () => {
		using tmp = tempDir();
		const empty = join(tmp.path, "empty.jsonl");
		writeFileSync(empty, "");
		const sm = SessionManager.open(empty, undefined, "/p");
		expect(sm.getEntries()).toEqual([]);
		sm.appendMessage(user("q"));
		sm.appendMessage(assistant("a"));
		expect(readLines(empty).map((l) => l.type)).toEqual(["session", "message", "message"]);

		const headless = join(tmp.path, "headless.jsonl");
		const text = '{"type":"message","id":"00000001","parentId":null,"timestamp":"2024-01-01T00:00:00.000Z","message":{"role":"user","content":"x","timestamp":1}}\n';
		writeFileSync(headless, text);
		expect(() => SessionManager.open(headless)).toThrow(`${headless} is not a session file: it has entries but no session header line.`);
		expect(readFileSync(headless, "utf8")).toBe(text);
	});
});

describe("old versions migrate in memory", () => {
	test("v1 (linear, no ids): ids from line numbers, compaction index → id, file untouched, appends survive a reload", () => {
		using tmp = tempDir();
		const file = join(tmp.path, "v1.jsonl");
		const v1 = [
			{ type: "session", id: "11111111-1111-1111-1111-111111111111", timestamp: "2024-01-01T00:00:00.000Z", cwd: "/old" },
			{ type: "message", timestamp: "2024-01-01T00:00:01.000Z", message: user("first") },
			{ type: "message", timestamp: "2024-01-01T00:00:02.000Z", message: assistant("reply") },
			{ type: "message", timestamp: "2024-01-01T00:00:03.000Z", message: user("second") },
			{ type: "compaction", timestamp: "2024-01-01T00:00:04.000Z", summary: "sum", firstKeptEntryIndex: 3, tokensBefore: 99 },
			{ type: "message", timestamp: "2024-01-01T00:00:05.000Z", message: assistant("after") },
		];
		const text = v1.map((e) => JSON.stringify(e)).join("\n") + "\n";
		writeFileSync(file, text);

		const sm = SessionManager.open(file);
		expect(sm.getWarnings()).toEqual([]);
		expect(sm.getCwd()).toBe("/old");
		const entries = sm.getEntries();
		expect(entries.map((e) => [e.id, e.parentId])).toEqual([
			["00000002", null],
			["00000003", "00000002"],
			["00000004", "00000003"],
			["00000005", "00000004"],
			["00000006", "00000005"],
		]);
		expect(entries[3]).toMatchObject({ type: "compaction", firstKeptEntryId: "00000004" });
		expect(entries[3]).not.toHaveProperty("firstKeptEntryIndex");
		expect(sm.buildSessionContext().messages.map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant"]);
		expect(readFileSync(file, "utf8")).toBe(text);

		const added = sm.appendMessage(user("new"));
		const reloaded = SessionManager.open(file);
		expect(reloaded.getLeafEntry()).toMatchObject({ id: added, parentId: "00000006" });
		expect(reloaded.getBranch()).toHaveLength(6);
		expect(readFileSync(file, "utf8").startsWith(text)).toBe(true);
	});

	test("v2: hookMessage becomes custom", () => {
		using tmp = tempDir();
		const file = join(tmp.path, "v2.jsonl");
		const hook = { role: "hookMessage", customType: "note", content: "from a hook", display: true, timestamp: 5 };
		const lines = [
			{ type: "session", version: 2, id: "22222222-2222-2222-2222-222222222222", timestamp: "2024-01-01T00:00:00.000Z", cwd: "/v2" },
			{ type: "message", id: "aaaaaaaa", parentId: null, timestamp: "2024-01-01T00:00:01.000Z", message: hook },
		];
		const text = lines.map((e) => JSON.stringify(e)).join("\n") + "\n";
		writeFileSync(file, text);
		const sm = SessionManager.open(file);
		expect(sm.buildSessionContext().messages).toEqual([{ ...hook, role: "custom" } as never]);
		expect(readFileSync(file, "utf8")).toBe(text);
	});
});
