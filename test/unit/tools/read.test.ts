import { describe, expect, test } from "bun:test";
import { createReadTool, type ReadOperations } from "../../../src/core/tools/read.ts";
import { errorOf, run, TempProject, textOf } from "./fixture.ts";

const lines = (n: number, make = (i: number) => `line ${i}`) => Array.from({ length: n }, (_, i) => `${make(i + 1)}\n`).join("");

describe("read", () => {
	test("numbers lines; a trailing newline adds no empty line", async () => {
		using p = new TempProject();
		p.write("a.ts", "one\ntwo\n");
		const r = await run(createReadTool(p.cwd), { path: "a.ts" });
		expect(textOf(r)).toBe("1\tone\n2\ttwo");
		expect(r.details).toEqual({});
	});

	test("offset and limit page through the file with a continuation hint", async () => {
		using p = new TempProject();
		p.write("a.txt", lines(12));
		const tool = createReadTool(p.cwd);
		expect(textOf(await run(tool, { path: "a.txt", offset: 9, limit: 2 }))).toBe(
			" 9\tline 9\n10\tline 10\n\n[2 more lines in a.txt. Use offset=11 to continue.]",
		);
		expect(textOf(await run(tool, { path: "a.txt", offset: 11 }))).toBe("11\tline 11\n12\tline 12");
	});

	test("CRLF is not shown and a BOM is dropped", async () => {
		using p = new TempProject();
		p.write("w.txt", "\uFEFFone\r\ntwo\r\n");
		expect(textOf(await run(createReadTool(p.cwd), { path: "w.txt" }))).toBe("1\tone\n2\ttwo");
	});

	test("cuts at 2000 lines and says where to continue", async () => {
		using p = new TempProject();
		p.write("big.txt", lines(2500));
		const r = await run(createReadTool(p.cwd), { path: "big.txt" });
		const text = textOf(r);
		expect(text.split("\n")[1999]).toBe("2000\tline 2000");
		expect(text.endsWith("2000\tline 2000\n\n[Showing lines 1-2000 of 2500. Use offset=2001 to continue.]")).toBe(true);
		expect(r.details.truncation).toMatchObject({ truncated: true, truncatedBy: "lines", outputLines: 2000 });
	});

	test("cuts at 50KB, naming the limit", async () => {
		using p = new TempProject();
		p.write("wide.txt", lines(1000, () => "x".repeat(99))); // ~100 bytes a numbered line
		const text = textOf(await run(createReadTool(p.cwd), { path: "wide.txt", offset: 1 }));
		const last = text.split("\n").at(-1)!;
		expect(last).toMatch(/^\[Showing lines 1-(\d+) of 1000 \(50\.0KB limit\)\. Use offset=(\d+) to continue\.\]$/);
		const [, shownTo, next] = last.match(/1-(\d+) of .* offset=(\d+)/)!;
		expect(Number(next)).toBe(Number(shownTo) + 1);
		expect(Buffer.byteLength(text.slice(0, text.lastIndexOf("\n\n[")))).toBeLessThanOrEqual(51200);
	});

	test("a single line over 50KB points at bash", async () => {
		using p = new TempProject();
		p.write("min.js", `short\n${"y".repeat(60 * 1024)}\n`);
		const text = textOf(await run(createReadTool(p.cwd), { path: "min.js", offset: 2 }));
		expect(text).toBe("[Line 2 is 60.0KB, over the 50.0KB output limit. View part of it with bash: sed -n '2p' min.js | head -c 51200]");
	});

	test("model-facing errors", async () => {
		using p = new TempProject();
		p.write("a.txt", "one\ntwo\n");
		p.write("dir/x.txt", "x");
		p.write("bin.dat", new Uint8Array([1, 2, 0, 3]));
		const tool = createReadTool(p.cwd);
		expect(await errorOf(run(tool, { path: "missing.ts" }))).toBe("File not found: missing.ts");
		expect(await errorOf(run(tool, { path: "dir" }))).toBe("dir is a directory, not a file; list it with ls or bash instead");
		expect(await errorOf(run(tool, { path: "a.txt", offset: 5 }))).toBe("Offset 5 is beyond the end of a.txt, which has 2 lines");
		expect(await errorOf(run(tool, { path: "bin.dat" }))).toBe(
			"bin.dat is a binary file (4B); read shows text files and png, jpg, gif or webp images",
		);
	});

	test("an empty file says so", async () => {
		using p = new TempProject();
		p.write("e.txt", "");
		expect(textOf(await run(createReadTool(p.cwd), { path: "e.txt" }))).toBe("(e.txt is empty)");
	});

	test("an image comes back as an attachment", async () => {
		using p = new TempProject();
		const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
		p.write("pic.png", png);
		const r = await run(createReadTool(p.cwd), { path: "@pic.png" });
		expect(r.content).toEqual([
			{ type: "text", text: "Read image pic.png [image/png, 12B]" },
			{ type: "image", data: Buffer.from(png).toString("base64"), mimeType: "image/png" },
		]);
		expect(await errorOf(run(createReadTool(p.cwd, { maxImageBytes: 10 }), { path: "pic.png" }))).toBe(
			"Image pic.png is 12B, over the 10B limit for attachments",
		);
	});

	test("operations can be swapped", async () => {
		const calls: string[] = [];
		const operations: ReadOperations = {
			access: async (path) => void calls.push(`access ${path}`),
			readFile: async (path) => {
				calls.push(`read ${path}`);
				return Buffer.from("remote\n");
			},
		};
		const r = await run(createReadTool("/remote/cwd", { operations }), { path: "src/a.ts" });
		expect(textOf(r)).toBe("1\tremote");
		expect(calls).toEqual(["access /remote/cwd/src/a.ts", "read /remote/cwd/src/a.ts"]);
	});
});
