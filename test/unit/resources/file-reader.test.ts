// readTextFile and kindOf on what a start finds: absent files (most of them), a parent that is a
// file, a folder where a file was expected, a symlink loop, a file with a BOM.
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileReadError, readTextFile } from "../../../src/core/file-reader.ts";
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
