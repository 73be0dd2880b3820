// readTextFile, pathExists and kindOf on what a start finds: absent files (most of them), a parent that is a
// file, a folder where a file was expected, a symlink loop, a file with a BOM. Config-sized files are read
// through Bun (Bun.file's size, Bun.mmap) rather than node:fs: the text must be what node:fs reads.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileReadError, MAX_CONFIG_BYTES, pathExists, readTextFile } from "../../../src/core/file-reader.ts";
import { kindOf } from "../../../src/core/resources/resource-paths.ts";

function world(): { root: string } & Disposable {
	const root = mkdtempSync(join(tmpdir(), "file-reader-"));
	writeFileSync(join(root, "file.md"), "\uFEFFhello");
	mkdirSync(join(root, "folder"));
	symlinkSync(join(root, "loop-a"), join(root, "loop-b"));
	symlinkSync(join(root, "loop-b"), join(root, "loop-a"));
	return { root, [Symbol.dispose]: () => rmSync(root, { recursive: true, force: true }) };
}

describe("readTextFile", () => {
	test("an absent file, or one under a file, is no file: undefined", () => {
		using w = world();
		expect(readTextFile(join(w.root, "absent.json"))).toBeUndefined();
		expect(readTextFile(join(w.root, "absent", "deeper.json"))).toBeUndefined();
		expect(readTextFile(join(w.root, "file.md", "settings.json"))).toBeUndefined();
	});

	test("a file's text without its BOM; a folder or a symlink loop is an error naming the path", () => {
		using w = world();
		expect(readTextFile(join(w.root, "file.md"))).toBe("hello");
		expect(() => readTextFile(join(w.root, "folder"))).toThrow(FileReadError);
		expect(() => readTextFile(join(w.root, "folder"))).toThrow(`${join(w.root, "folder")}: is a directory, not a file; it was not read`);
		expect(() => readTextFile(join(w.root, "loop-a"))).toThrow("a symlink loop");
	});
});

describe("readTextFile reads what node:fs reads", () => {
	const contents: Record<string, Uint8Array | string> = {
		empty: "",
		"one-byte": "x",
		bom: "\uFEFF{}",
		"two-boms": "\uFEFF\uFEFFx",
		crlf: "a\r\nb\r\n",
		unicode: "héllo → 世界 😀",
		"invalid-utf8": new Uint8Array([0x61, 0xff, 0x62, 0xc3, 0x28, 0xe2, 0x82, 0xf0, 0x9f, 0x98, 0x63, 0xc0, 0xaf, 0xed, 0xa0, 0x80]),
		"truncated-tail": new Uint8Array([0x61, 0xe4, 0xb8]),
		nul: "a\u0000b",
		large: "0123456789abcdef\n".repeat(70_000),
	};

	test.each(Object.keys(contents))("%s", (name) => {
		using w = world();
		const path = join(w.root, name);
		writeFileSync(path, contents[name]!);
		const viaNode = readFileSync(path, "utf8");
		expect(readTextFile(path)).toBe(viaNode.charCodeAt(0) === 0xfeff ? viaNode.slice(1) : viaNode);
		// A session-sized read takes node:fs's path: the same text.
		expect(readTextFile(path, { maxBytes: MAX_CONFIG_BYTES * 2 })).toBe(readTextFile(path));
	});

	test("a file over maxBytes, a FIFO and /dev/null are refused without being read", () => {
		using w = world();
		const path = join(w.root, "big.json");
		writeFileSync(path, "x".repeat(3000));
		expect(() => readTextFile(path, { maxBytes: 1024 })).toThrow(`${path}: is too large to read (3 KB; the limit is 1 KB)`);
		expect(() => readTextFile("/dev/null")).toThrow("/dev/null: is a device, not a file; it was not read");
		const fifo = join(w.root, "fifo");
		if (Bun.spawnSync(["mkfifo", fifo]).exitCode === 0) expect(() => readTextFile(fifo)).toThrow(`${fifo}: is a FIFO (named pipe), not a file; it was not read`);
	});

	test("a symlink to a file is read, one to a folder is a folder", () => {
		using w = world();
		symlinkSync(join(w.root, "file.md"), join(w.root, "link.md"));
		symlinkSync(join(w.root, "folder"), join(w.root, "link-dir"));
		expect(readTextFile(join(w.root, "link.md"))).toBe("hello");
		expect(() => readTextFile(join(w.root, "link-dir"))).toThrow("is a directory, not a file");
	});
});

describe("pathExists", () => {
	test("answers as existsSync over files, folders, links, absent paths and paths under a file", () => {
		using w = world();
		symlinkSync(join(w.root, "absent"), join(w.root, "dangling"));
		symlinkSync(join(w.root, "folder"), join(w.root, "link-dir"));
		const paths = ["file.md", "folder", "link-dir", "absent", "dangling", "loop-a", join("file.md", "x"), join("absent", "x"), join("folder", "..", "file.md")].map((p) => join(w.root, p));
		for (const path of [...paths, "/", "/dev/null", ""]) expect([path, pathExists(path)]).toEqual([path, existsSync(path)]);
	});
});

describe("kindOf", () => {
	test("file, dir, or undefined for what is absent, under a file or a symlink loop", () => {
		using w = world();
		expect(kindOf(join(w.root, "file.md"))).toBe("file");
		expect(kindOf(join(w.root, "folder"))).toBe("dir");
		expect(kindOf(join(w.root, "absent"))).toBeUndefined();
		expect(kindOf(join(w.root, "file.md", "x"))).toBeUndefined();
		expect(kindOf(join(w.root, "loop-a"))).toBeUndefined();
	});
});
