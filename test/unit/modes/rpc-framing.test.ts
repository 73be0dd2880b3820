// rpc framing: lines end at "\n" only, whatever the chunking; a trailing "\r" goes; a character
// split across chunks is decoded whole; U+2028/2029 never end a line and are escaped on output.
import { expect, test } from "bun:test";
import { LineSplitter, readLines, serializeLine } from "../../../src/modes/rpc/framing.ts";

function split(chunks: (string | Uint8Array)[]): string[] {
	const lines: string[] = [];
	const splitter = new LineSplitter((line) => lines.push(line));
	for (const c of chunks) splitter.push(typeof c === "string" ? new TextEncoder().encode(c) : c);
	splitter.end();
	return lines;
}

test("splits on \\n only, strips one trailing \\r, keeps U+2028/2029 and empty lines", () => {
	expect(split(['{"a":"x\u2028y"}\n{"b":"p\u2029q"}\r\n\n', "last"])).toEqual(['{"a":"x\u2028y"}', '{"b":"p\u2029q"}', "", "last"]);
	expect(split(["a\r\r\n"])).toEqual(["a\r"]);
	expect(split(["no newline at all"])).toEqual(["no newline at all"]);
	expect(split([])).toEqual([]);
});

test("a line and a multi-byte character may arrive in pieces", () => {
	const bytes = new TextEncoder().encode('{"t":"é😀\u2028"}\n{"u":1}\n');
	const oneByOne = [...bytes].map((b) => Uint8Array.of(b));
	expect(split(oneByOne)).toEqual(['{"t":"é😀\u2028"}', '{"u":1}']);
	expect(split([bytes.subarray(0, 7), bytes.subarray(7, 12), bytes.subarray(12)])).toEqual(['{"t":"é😀\u2028"}', '{"u":1}']);
});

test("a reused read buffer does not change a line already started", () => {
	const lines: string[] = [];
	const splitter = new LineSplitter((line) => lines.push(line));
	const buffer = new TextEncoder().encode("abc");
	splitter.push(buffer);
	buffer.set(new TextEncoder().encode("xyz"));
	splitter.push(new TextEncoder().encode("d\n"));
	expect(lines).toEqual(["abcd"]);
});

test("readLines reads a stream to its end", async () => {
	const stream = new Blob(["one\ntwo\r\nthree"]).stream();
	const lines: string[] = [];
	await readLines(stream, (l) => lines.push(l));
	expect(lines).toEqual(["one", "two", "three"]);
});

test("serializeLine writes one line of JSON with U+2028/2029 escaped", () => {
	const line = serializeLine({ text: "a\u2028b\u2029c\nd" });
	expect(line).toBe('{"text":"a\\u2028b\\u2029c\\nd"}\n');
	expect(JSON.parse(line)).toEqual({ text: "a\u2028b\u2029c\nd" });
});
