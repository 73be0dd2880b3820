// The one reader's answers for files that are not there, or cannot be: undefined for an absent file
// or one under a file (nothing to read), a FileReadError naming the file for one that is not a file.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { FileReadError, readJsonFile, readTextFile } from "../../../src/core/file-reader.ts";
import { kindOf } from "../../../src/core/resources/resource-paths.ts";
import { tempDir } from "../session/fixtures.ts";

describe("readTextFile and kindOf on paths that hold no file", () => {
	test("absent, under a file, a folder, and a file", () => {
		using dir = tempDir();
		writeFileSync(join(dir.path, "plain.txt"), "\ufeffhello\n");
		mkdirSync(join(dir.path, "folder"));
		expect(readTextFile(join(dir.path, "missing.json"))).toBeUndefined();
		expect(readJsonFile(join(dir.path, "missing.json"))).toBeUndefined();
		// ENOTDIR: the parent is a file, so there is no such file either.
		expect(readTextFile(join(dir.path, "plain.txt", "below.json"))).toBeUndefined();
		expect(() => readTextFile(join(dir.path, "folder"))).toThrow(FileReadError);
		expect(() => readTextFile(join(dir.path, "folder"))).toThrow(/folder: is a directory, not a file; it was not read$/);
		expect(readTextFile(join(dir.path, "plain.txt"))).toBe("hello\n");
		expect(kindOf(join(dir.path, "missing"))).toBeUndefined();
		expect(kindOf(join(dir.path, "plain.txt", "below"))).toBeUndefined();
		expect(kindOf(join(dir.path, "folder"))).toBe("dir");
		expect(kindOf(join(dir.path, "plain.txt"))).toBe("file");
	});
});
