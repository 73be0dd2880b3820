import { describe, expect, test } from "bun:test";
import {
	DEFAULT_MAX_BYTES,
	DEFAULT_MAX_LINES,
	formatSize,
	truncateHead,
	truncateLine,
	truncateTail,
} from "../../../src/core/tools/truncate.ts";

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}\n`).join("");

/** What both truncations did before they counted lines without splitting (the split is the definition of a line). */
function splitLines(text: string): string[] {
	if (text === "") return [];
	const lines = text.split("\n").map((l) => `${l}\n`);
	const last = lines.pop()!;
	if (last !== "\n") lines.push(last.slice(0, -1));
	return lines;
}

describe("line counts", () => {
	test("totals and kept lines match the split into lines, for random output around both limits", () => {
		let seed = 7;
		const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed % n);
		const pieces = ["a", "\n", "é", "\n\n", "ab\n", "😀", "xyz"];
		for (let i = 0; i < 400; i++) {
			let text = "";
			for (let n = random(40); n > 0; n--) text += pieces[random(pieces.length)];
			const limits = { maxLines: 1 + random(8), maxBytes: 1 + random(60) };
			const lines = splitLines(text);
			const bytes = Buffer.byteLength(text);
			for (const r of [truncateHead(text, limits), truncateTail(text, limits)]) {
				expect(r.totalLines).toBe(lines.length);
				expect(r.totalBytes).toBe(bytes);
				expect(r.truncated).toBe(lines.length > limits.maxLines || bytes > limits.maxBytes);
				if (!r.truncated) expect(r).toMatchObject({ content: text, outputLines: lines.length, outputBytes: bytes });
			}
		}
	});
});

describe("limits", () => {
	test("pi's defaults", () => {
		expect(DEFAULT_MAX_LINES).toBe(2000);
		expect(DEFAULT_MAX_BYTES).toBe(51200);
	});
});

describe("truncateHead", () => {
	test("under both limits nothing changes", () => {
		const r = truncateHead("a\nb\n");
		expect(r).toMatchObject({ content: "a\nb\n", truncated: false, truncatedBy: null, totalLines: 2, totalBytes: 4, outputLines: 2 });
	});

	test("exactly at the line limit is not truncated; one over is", () => {
		expect(truncateHead(numbered(2000)).truncated).toBe(false);
		const r = truncateHead(numbered(2001));
		expect(r).toMatchObject({ truncated: true, truncatedBy: "lines", totalLines: 2001, outputLines: 2000 });
		expect(r.content.endsWith("line 2000\n")).toBe(true);
	});

	test("byte limit keeps whole lines only", () => {
		const r = truncateHead("aaaa\nbbbb\ncccc\n", { maxBytes: 12 });
		expect(r).toMatchObject({ content: "aaaa\nbbbb\n", truncatedBy: "bytes", outputLines: 2, outputBytes: 10, totalBytes: 15 });
	});

	test("exactly at the byte limit is not truncated", () => {
		expect(truncateHead("aaaa\nbbbb\n", { maxBytes: 10 }).truncated).toBe(false);
	});

	test("bytes are UTF-8 bytes, not characters", () => {
		// "é" is two bytes: "éé\n" is 5 bytes
		const r = truncateHead("éé\néé\n", { maxBytes: 9 });
		expect(r).toMatchObject({ content: "éé\n", outputBytes: 5, totalBytes: 10, truncatedBy: "bytes" });
	});

	test("a first line over the byte limit keeps nothing and says so", () => {
		const r = truncateHead("x".repeat(100), { maxBytes: 10 });
		expect(r).toMatchObject({ content: "", truncated: true, firstLineExceedsLimit: true, outputLines: 0 });
	});
});

describe("truncateTail", () => {
	test("keeps the last lines", () => {
		const r = truncateTail("a\nb\nc\n", { maxLines: 2 });
		expect(r).toMatchObject({ content: "b\nc\n", truncatedBy: "lines", totalLines: 3, outputLines: 2 });
	});

	test("keeps whole lines under the byte limit", () => {
		const r = truncateTail("aaaa\nbbbb\ncccc", { maxBytes: 10 });
		expect(r).toMatchObject({ content: "bbbb\ncccc", truncatedBy: "bytes", outputLines: 2 });
	});

	test("a last line over the byte limit keeps its end without splitting a character", () => {
		// "xxhéllo": the last 4 bytes would start inside "é" (2 bytes), so only "llo" is kept
		const r = truncateTail("xxhéllo", { maxBytes: 4 });
		expect(r).toMatchObject({ content: "llo", lastLinePartial: true, outputBytes: 3, totalBytes: 8 });
	});

	test("a four-byte character at the cut is dropped whole", () => {
		const r = truncateTail("ab😀cd", { maxBytes: 5 });
		expect(r.content).toBe("cd");
		expect(truncateTail("ab😀cd", { maxBytes: 6 }).content).toBe("😀cd");
	});
});

describe("truncateLine and formatSize", () => {
	test("truncateLine marks the cut", () => {
		expect(truncateLine("abcdef", 3)).toEqual({ text: "abc... [truncated]", wasTruncated: true });
		expect(truncateLine("abc", 3)).toEqual({ text: "abc", wasTruncated: false });
	});

	test("truncateLine never splits a surrogate pair", () => {
		expect(truncateLine("a😀b", 2).text).toBe("a... [truncated]");
	});

	test("formatSize", () => {
		expect([0, 1023, 1024, 1536, 51200, 1048576, 5 * 1048576 + 10].map(formatSize)).toEqual([
			"0B",
			"1023B",
			"1.0KB",
			"1.5KB",
			"50.0KB",
			"1.0MB",
			"5.0MB",
		]);
	});
});
