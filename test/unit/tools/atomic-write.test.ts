// edit and write save through writeFileAtomic: a failure at any step leaves the original
// byte-identical and no temp file behind; mode, owner, symlinks, CRLF and BOM are kept.
import { describe, expect, test } from "bun:test";
import { chmodSync, chownSync, lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, statSync, symlinkSync } from "node:fs";
import * as fsp from "node:fs/promises";
import { join } from "node:path";
import { type AtomicWriteFs, writeFileAtomic } from "../../../src/core/tools/atomic-write.ts";
import { createEditTool, createLocalEditOperations } from "../../../src/core/tools/edit.ts";
import { createLocalWriteOperations, createWriteTool } from "../../../src/core/tools/write.ts";
import { errorOf, run, TempProject } from "./fixture.ts";

type Step = "open" | "write" | "sync" | "rename";

/** The real filesystem, except that `step` fails with `code` (the way a full disk would). */
function failingFs(step: Step, code = "ENOSPC"): AtomicWriteFs {
	const fail = () => Promise.reject(Object.assign(new Error(`${code}: no space left on device, ${step}`), { code }));
	return {
		...fsp,
		rename: step === "rename" ? fail : fsp.rename,
		open: (async (path: string, flags: string, mode?: number) => {
			if (step === "open" && flags === "wx") return fail();
			const handle = await fsp.open(path, flags, mode);
			if (step === "write") {
				// Half of the content lands, then the disk is full: what an in-place write leaves behind.
				const write = handle.write.bind(handle);
				let calls = 0;
				Object.assign(handle, {
					write: (buffer: Uint8Array, offset: number, length: number, position: number) =>
						calls++ === 0 ? write(buffer, offset, Math.ceil(length / 2), position) : fail(),
				});
			}
			if (step === "sync") Object.assign(handle, { sync: fail });
			return handle;
		}) as AtomicWriteFs["open"],
	};
}

function entries(dir: string): string[] {
	return readdirSync(dir).sort();
}

describe("writeFileAtomic", () => {
	for (const step of ["open", "write", "sync", "rename"] as Step[]) {
		test(`a failure at ${step}: the original is byte-identical, no temp file is left, the error says so`, async () => {
			using p = new TempProject();
			const original = Buffer.from(`\uFEFFfirst line\r\n${"a line\r\n".repeat(1000)}`);
			const path = p.write("src/a.txt", original);
			const before = entries(join(p.cwd, "src"));
			const tool = createEditTool(p.cwd, { operations: createLocalEditOperations(failingFs(step)) });
			const message = await errorOf(run(tool, { path: "src/a.txt", edits: [{ oldText: "first line\na line", newText: "changed" }] }));
			expect(message).toStartWith("Cannot write src/a.txt: ");
			expect(message).toContain("ENOSPC");
			expect(message).toEndWith("; src/a.txt was left as it was");
			expect(readFileSync(path).equals(original)).toBe(true);
			expect(entries(join(p.cwd, "src"))).toEqual(before);
		});
	}

	test("write: a failed save of a new file leaves nothing and says nothing was written", async () => {
		using p = new TempProject();
		const tool = createWriteTool(p.cwd, { operations: createLocalWriteOperations(failingFs("write")) });
		expect(await errorOf(run(tool, { path: "new.txt", content: "x".repeat(10_000) }))).toBe(
			"Cannot write new.txt: no space left on device (ENOSPC); nothing was written",
		);
		expect(entries(p.cwd)).toEqual([]);
	});

	test("write: an overwrite that fails leaves the old content", async () => {
		using p = new TempProject();
		p.write("a.txt", "precious\n");
		const tool = createWriteTool(p.cwd, { operations: createLocalWriteOperations(failingFs("sync", "EIO")) });
		expect(await errorOf(run(tool, { path: "a.txt", content: "new" }))).toStartWith("Cannot write a.txt: ");
		expect(p.read("a.txt")).toBe("precious\n");
		expect(entries(p.cwd)).toEqual(["a.txt"]);
	});

	test("keeps the file's mode (and its owner, where the process may set it)", async () => {
		using p = new TempProject();
		const path = p.write("run.sh", "#!/bin/sh\necho old\n");
		chmodSync(path, 0o750);
		const root = process.getuid?.() === 0;
		if (root) chownSync(path, 4321, 4321);
		await writeFileAtomic(path, "#!/bin/sh\necho new\n");
		const stats = statSync(path);
		expect(stats.mode & 0o7777).toBe(0o750);
		if (root) expect([stats.uid, stats.gid]).toEqual([4321, 4321]);
		expect(readFileSync(path, "utf8")).toBe("#!/bin/sh\necho new\n");
	});

	test("a symlink is followed: the target changes, the link stays a link", async () => {
		using p = new TempProject();
		const real = p.write("real/config.txt", "old\n");
		mkdirSync(join(p.cwd, "links"));
		symlinkSync("../real/config.txt", join(p.cwd, "links/config.txt"));
		await run(createEditTool(p.cwd), { path: "links/config.txt", edits: [{ oldText: "old", newText: "new" }] });
		expect(lstatSync(join(p.cwd, "links/config.txt")).isSymbolicLink()).toBe(true);
		expect(readlinkSync(join(p.cwd, "links/config.txt"))).toBe("../real/config.txt");
		expect(readFileSync(real, "utf8")).toBe("new\n");
		expect(entries(join(p.cwd, "real"))).toEqual(["config.txt"]);
	});

	test("a dangling symlink creates its target; a symlink loop is an error naming it", async () => {
		using p = new TempProject();
		symlinkSync("made.txt", join(p.cwd, "link.txt"));
		await run(createWriteTool(p.cwd), { path: "link.txt", content: "hi" });
		expect(readFileSync(join(p.cwd, "made.txt"), "utf8")).toBe("hi");
		symlinkSync("loop-b", join(p.cwd, "loop-a"));
		symlinkSync("loop-a", join(p.cwd, "loop-b"));
		expect(await errorOf(run(createWriteTool(p.cwd), { path: "loop-a", content: "x" }))).toBe(
			"Cannot write loop-a: too many levels of symbolic links (a symlink loop); loop-a was left as it was",
		);
	});

	test("a new file gets the umask's mode, as a plain write would", async () => {
		using p = new TempProject();
		const old = process.umask(0o027);
		try {
			await writeFileAtomic(join(p.cwd, "fresh.txt"), "x");
		} finally {
			process.umask(old);
		}
		expect(statSync(join(p.cwd, "fresh.txt")).mode & 0o777).toBe(0o640);
	});
});
