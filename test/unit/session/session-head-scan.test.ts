// Opening a session reads each message line's head (id, parent, time) by scanning its characters;
// every line the scan does not take is parsed whole. Whatever the file holds — CRLF endings,
// non-ASCII text, escapes in the head, huge lines, damage at the start, middle or end, a last line
// cut off mid-write — what is read lazily must be what reading every line at once gives.
import { describe, expect, test } from "bun:test";
import { deepStrictEqual } from "node:assert";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionTreeNode } from "../../../src/core/session/session-entries.ts";
import { nodeSessionFileOps } from "../../../src/core/session/session-file.ts";
import { SessionManager } from "../../../src/core/session/session-manager.ts";
import { assistant, tempDir, user } from "./fixtures.ts";

const T = "2026-01-01T00:00:00.000Z";
const HEADER = JSON.stringify({ type: "session", version: 3, id: "0190a000-0000-7000-8000-000000000000", timestamp: T, cwd: "/p" });
const noLock = { ...nodeSessionFileOps, lock: undefined };
const hex = (i: number) => i.toString(16).padStart(8, "0");

function line(id: string, parentId: string | null, message: unknown, timestamp = T): string {
	return JSON.stringify({ type: "message", id, parentId, timestamp, message });
}

/** Entries 1..n, each the child of the one before, with `replace` lines swapped in. */
function linear(n: number, replace: Record<number, string> = {}): string[] {
	const lines: string[] = [];
	for (let i = 1; i <= n; i++) lines.push(replace[i] ?? line(hex(i), i === 1 ? null : hex(i - 1), i % 2 ? user(`u${i}`) : assistant(`a${i}`)));
	return lines;
}

const ids = (nodes: SessionTreeNode[]): unknown[] => nodes.map((n) => [n.entry.id, ids(n.children)]);

/** Open `text` lazily and read it whole (forkFrom); everything a caller can see must agree. */
function expectAsReadWhole(dir: string, text: string, what: string): SessionManager {
	const file = join(dir, "s.jsonl");
	writeFileSync(file, text);
	const lazy = SessionManager.open(file, dir, undefined, noLock);
	const whole = SessionManager.forkFrom(file, "/p", dir, noLock);
	expect(lazy.buildSessionContext(), what).toEqual(whole.buildSessionContext());
	// Once its line is read, a damaged last entry gives the leaf back to the entry before it.
	expect(lazy.getLeafId(), what).toBe(whole.getLeafId());
	expect(ids(lazy.getTree()), what).toEqual(ids(whole.getTree()));
	expect(lazy.getEntries(), what).toEqual(whole.getEntries());
	expect(JSON.stringify(lazy.getEntries()), what).toBe(JSON.stringify(whole.getEntries()));
	// Plain objects, as an extension comparing or copying them expects (node's strict equality checks prototypes).
	for (const e of lazy.getEntries()) expect(Object.getPrototypeOf(e), what).toBe(Object.prototype);
	deepStrictEqual(lazy.getEntries(), whole.getEntries(), what);
	expect(lazy.getWarnings().map((w) => w.message).sort(), what).toEqual(whole.getWarnings().map((w) => w.message).sort());
	return lazy;
}

const file = (lines: string[], eol = "\n") => `${[HEADER, ...lines].join(eol)}${eol}`;
const notJson = (id: string, parent: string) => `{"type":"message","id":"${id}","parentId":"${parent}","timestamp":"${T}","message":{"role":"user","content":[}}`;
const badShape = (id: string, parent: string) => line(id, parent, { ...assistant("x"), content: "a string" });

describe("the head scan takes what a full read takes", () => {
	test("damaged lines at the start, in the middle and at the end, of either kind", () => {
		using tmp = tempDir();
		for (const at of [1, 4, 8]) {
			for (const [kind, damaged] of [
				["not JSON", notJson(hex(at), hex(at - 1))],
				["wrong shape", badShape(hex(at), hex(at - 1))],
			] as const) {
				const sm = expectAsReadWhole(tmp.path, file(linear(8, { [at]: damaged })), `${kind} at entry ${at}`);
				expect(sm.getWarnings().map((w) => w.line), `${kind} at entry ${at}`).toEqual([at + 1]);
			}
		}
	});

	test("CRLF line endings", () => {
		using tmp = tempDir();
		const sm = expectAsReadWhole(tmp.path, file(linear(6), "\r\n"), "CRLF");
		expect(sm.buildSessionContext().messages).toHaveLength(6);
		expect(sm.getWarnings()).toEqual([]);
	});

	test("non-ASCII text in messages, ids and times, and escapes in the head", () => {
		using tmp = tempDir();
		const lines = [
			line("é0000001", null, user("grüße, 日本語, 🎉")),
			line("00000002", "é0000001", assistant("ответ ✓")),
			// Escapes in the head: the characters are not the field, so the line is parsed whole.
			`{"type":"message","id":"\\u0030\\u0030000003","parentId":"00000002","timestamp":"${T}","message":${JSON.stringify(user("escaped id"))}}`,
			`{"type":"message","id":"00000004","parentId":"\\u0030\\u0030000003","timestamp":"${T}","message":${JSON.stringify(assistant("escaped parent"))}}`,
			`{"type":"message","id":"00000005","parentId":"00000004","timestamp":"2026-01-01T00:00:00.000Z\\u0020","message":${JSON.stringify(user("escaped time"))}}`,
			line("00000006", "00000005", assistant("a \"quoted\" \\ back\nslash"), "2026-01-01T00:00:01.000Z"),
		];
		const sm = expectAsReadWhole(tmp.path, file(lines), "non-ASCII and escapes");
		expect(sm.getBranch().map((e) => e.id)).toEqual(["é0000001", "00000002", "00000003", "00000004", "00000005", "00000006"]);
		expect(sm.getEntry("00000005")?.timestamp).toBe("2026-01-01T00:00:00.000Z ");
	});

	test("heads the scan must not take: an empty or non-string parent, a parent that only starts like the line before, spaces, fields out of order", () => {
		using tmp = tempDir();
		const lines = linear(4, {
			2: `{"type":"message","id":"00000002","parentId":"","timestamp":"${T}","message":${JSON.stringify(assistant("empty parent"))}}`,
			3: `{"type":"message","id":"00000003","parentId":0,"timestamp":"${T}","message":${JSON.stringify(user("number parent"))}}`,
			4: `{"type": "message", "id": "00000004", "parentId": "00000003", "timestamp": "${T}", "message": ${JSON.stringify(assistant("spaced"))}}`,
		});
		lines.push(line("00000005", "0000000", user("parent a prefix of the line before")));
		lines.push(line("00000006", "000000051", assistant("parent longer than the line before")));
		lines.push(JSON.stringify({ type: "message", parentId: "00000006", id: "00000007", timestamp: T, message: user("out of order") }));
		lines.push(`{"type":"message","id":"00000008","parentId":"00000007","timestamp":"${T}","message":{"role":"user","content":"no closing brace"}`);
		expectAsReadWhole(tmp.path, file(lines), "heads parsed whole");
	});

	test("ids and times of every length near the usual 8 and 24 characters, and a raw line break where a field would end", () => {
		using tmp = tempDir();
		const lines: string[] = [];
		let previous: string | null = null;
		for (let n = 1; n <= 12; n++) {
			// An id of n characters, a time of 14 + 2n characters, a parent that is the line before.
			const id = "abcdef012345".slice(0, n);
			lines.push(line(id, previous, n % 2 ? user(`u${n}`) : assistant(`a${n}`), T.slice(0, 14) + "x".repeat(2 * n)));
			previous = id;
		}
		lines.push(line("0000000d", previous, user("time of 24"), "2026-01-01T00:00:00.000Z"));
		lines.push(line("0000000e", "0000000d", user("time of 25"), "2026-01-01T00:00:00.0000Z"));
		lines.push(line("0000000f", "0000000e", user("time of 23"), "2026-01-01T00:00:00.00Z"));
		lines.push(line("00000010", "0000000", assistant("a parent one short of the line before")));
		lines.push(`{"type":"message","id":"0000\n0011","parentId":"00000010","timestamp":"${T}","message":${JSON.stringify(user("broken id"))}}`);
		const sm = expectAsReadWhole(tmp.path, file(lines), "lengths");
		expect(sm.getEntry("abcdef")?.timestamp).toBe(`${T.slice(0, 14)}xxxxxxxxxxxx`);
		expect(sm.getEntry("0000000e")?.timestamp).toBe("2026-01-01T00:00:00.0000Z");
		expect(sm.getEntry("abcdef01")?.parentId).toBe("abcdef0");
	});

	test("a huge line among ordinary ones", () => {
		using tmp = tempDir();
		const huge = "x".repeat(3_000_000) + "é".repeat(1000);
		const sm = expectAsReadWhole(tmp.path, file(linear(5, { 3: line(hex(3), hex(2), user(huge)) })), "huge line");
		expect(sm.buildSessionContext().messages[2]).toMatchObject({ role: "user", content: huge });
	});

	test("a last line cut off mid-write, with and without the file's other lines damaged", () => {
		using tmp = tempDir();
		const whole = file(linear(6));
		const cut = whole.slice(0, whole.length - 40);
		let sm = expectAsReadWhole(tmp.path, cut, "cut mid-line");
		expect(sm.getWarnings().map((w) => w.message)).toEqual([`${join(tmp.path, "s.jsonl")}:7: skipped the last line: it was cut off mid-write`]);
		expect(sm.getLeafId()).toBe(hex(5));
		// Cut right after an inner "}}" (the end of the usage): the line ends like a whole one.
		const last = line(hex(7), hex(6), assistant("seven"));
		const torn = last.slice(0, last.indexOf("}}") + 2);
		expect(torn.endsWith("}}") && torn.length < last.length).toBe(true);
		sm = expectAsReadWhole(tmp.path, `${whole}${torn}`, "cut after a brace");
		expect(sm.getWarnings().map((w) => w.line)).toEqual([8]);
		expect(sm.getLeafId()).toBe(hex(6));
		// A whole last line without its newline is kept.
		expect(expectAsReadWhole(tmp.path, `${whole}${last}`, "no newline at the end").getLeafId()).toBe(hex(7));
		expectAsReadWhole(tmp.path, file(linear(6, { 2: notJson(hex(2), hex(1)) })).slice(0, -30), "cut, with damage before");
	});
});
