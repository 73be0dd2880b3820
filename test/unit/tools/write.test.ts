import { describe, expect, test } from "bun:test";
import { withFileMutationQueue } from "../../../src/core/tools/file-mutation-queue.ts";
import { createWriteTool, type WriteOperations } from "../../../src/core/tools/write.ts";
import { errorOf, run, TempProject, textOf } from "./fixture.ts";

describe("write", () => {
	test("creates parent directories and reports the bytes written", async () => {
		using p = new TempProject();
		const r = await run(createWriteTool(p.cwd), { path: "deep/er/é.txt", content: "héllo\n" });
		expect(textOf(r)).toBe("Wrote 7 bytes to deep/er/é.txt");
		expect(r.details).toEqual({ bytesWritten: 7 });
		expect(p.read("deep/er/é.txt")).toBe("héllo\n");
	});

	test("overwrites", async () => {
		using p = new TempProject();
		p.write("a.txt", "old content\n");
		await run(createWriteTool(p.cwd), { path: "a.txt", content: "new" });
		expect(p.read("a.txt")).toBe("new");
	});

	test("model-facing errors", async () => {
		using p = new TempProject();
		p.write("dir/x", "");
		p.write("file", "");
		const tool = createWriteTool(p.cwd);
		expect(await errorOf(run(tool, { path: "dir", content: "x" }))).toBe("dir is a directory; write needs a file path");
		expect(await errorOf(run(tool, { path: "file/child.txt", content: "x" }))).toBe(
			"Cannot write file/child.txt: a parent of it is a file, not a directory",
		);
	});

	test("operations can be swapped", async () => {
		const calls: string[] = [];
		const operations: WriteOperations = {
			mkdir: async (dir) => void calls.push(`mkdir ${dir}`),
			writeFile: async (path, content) => void calls.push(`write ${path} ${content}`),
		};
		await run(createWriteTool("/r", { operations }), { path: "a/b.txt", content: "hi" });
		expect(calls).toEqual(["mkdir /r/a", "write /r/a/b.txt hi"]);
	});
});

describe("withFileMutationQueue", () => {
	test("one file's mutations run one at a time, in call order; other files don't wait", async () => {
		const events: string[] = [];
		let releaseFirst!: () => void;
		const first = withFileMutationQueue("/q/a", async () => {
			events.push("a1 start");
			await new Promise<void>((resolve) => (releaseFirst = resolve));
			events.push("a1 end");
		});
		const second = withFileMutationQueue("/q/a", async () => void events.push("a2"));
		const other = withFileMutationQueue("/q/b", async () => void events.push("b"));
		await other;
		expect(events).toEqual(["a1 start", "b"]);
		releaseFirst();
		await Promise.all([first, second]);
		expect(events).toEqual(["a1 start", "b", "a1 end", "a2"]);
	});

	test("a failed mutation does not block the next", async () => {
		const failed = withFileMutationQueue("/q/c", async () => {
			throw new Error("boom");
		});
		const next = withFileMutationQueue("/q/c", async () => "ran");
		expect(await errorOf(failed)).toBe("boom");
		expect(await next).toBe("ran");
	});
});
