// edit and write never destroy a user's file (issue 12, defect 2), through the compiled binary: a
// save that fails half-way (a full disk, the file-size limit) leaves the original byte-identical and
// the model is told so; mode and symlinks survive a save.
import { describe, expect, test } from "bun:test";
import { chmodSync, lstatSync, readdirSync, readFileSync, statfsSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentBinary } from "../support/agent.ts";
import { readMessages } from "../support/mock-llm.ts";
import { canMount, mountTmpfs } from "../support/tmpfs.ts";
import { MODEL, type MockWorld, mockWorld } from "../support/world.ts";

const model = ["-ne", "--model", MODEL.openai];

function toolResults(world: MockWorld): string[] {
	return readMessages(world.mock.lastRequest())
		.filter((m) => m.role === "toolResult")
		.map((m) => m.text);
}

/** Run the binary under bash with extra shell lines first (ulimit, traps). */
async function runUnder(world: MockWorld, prelude: string, argv: string[], cwd = world.cwd) {
	const proc = Bun.spawn(["bash", "-c", `${prelude}\nexec "$0" "$@"`, agentBinary(), ...argv], { cwd, env: world.environment(), stdout: "pipe", stderr: "pipe" });
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	return { stdout, stderr, code };
}

describe("atomic saves through the binary", () => {
	test.skipIf(!canMount)("ENOSPC on a small tmpfs: the edit fails, the original is byte-identical, the model is told it was left as it was", async () => {
		await using world = await mockWorld();
		const disk = join(world.root, "disk");
		if (!mountTmpfs(disk, "1m")) throw new Error("mount failed");
		try {
			const original = `MARKER\n${"original line\n".repeat(8000)}`;
			writeFileSync(join(disk, "big.txt"), original);
			// Leave ~48 KB free: the edit makes the file 200 KB longer than that.
			const { bavail, bsize } = statfsSync(disk);
			writeFileSync(join(disk, "filler"), Buffer.alloc(bavail * bsize - 48 * 1024));
			world.mock.script(
				{ toolCalls: [{ id: "call_1", name: "edit", arguments: { path: join(disk, "big.txt"), edits: [{ oldText: "MARKER", newText: "y".repeat(200_000) }] } }] },
				{ text: "The disk is full." },
			);
			const r = await world.run([...model, "-p", "grow it"]);
			expect(r).toEqual({ stdout: "The disk is full.\n", stderr: "", code: 0 });
			expect(readFileSync(join(disk, "big.txt"), "utf8") === original).toBe(true);
			expect(readdirSync(disk).sort()).toEqual(["big.txt", "filler"]);
			const [result] = toolResults(world);
			expect(result).toStartWith(`Cannot write ${join(disk, "big.txt")}: `);
			expect(result).toContain("(ENOSPC)");
			expect(result).toEndWith(`; ${join(disk, "big.txt")} was left as it was`);
		} finally {
			Bun.spawnSync(["umount", disk]);
		}
	});

	test("a write error half-way (the file-size limit, EFBIG): the original is byte-identical and the model is told", async () => {
		await using world = await mockWorld();
		const original = `MARKER\n${"original line\n".repeat(8000)}`;
		world.write("project/big.txt", original);
		world.mock.script(
			{ toolCalls: [{ id: "call_1", name: "edit", arguments: { path: "big.txt", edits: [{ oldText: "MARKER", newText: "changed" }] } }] },
			{ toolCalls: [{ id: "call_2", name: "write", arguments: { path: "big.txt", content: "z".repeat(100_000) } }] },
			{ text: "Could not save." },
		);
		// Writes past 64 KB fail with EFBIG (SIGXFSZ ignored, as a shell's trap leaves it for exec).
		// --no-session: the session file would pass the limit too (the 100 KB write is in it).
		const r = await runUnder(world, "trap '' XFSZ; ulimit -f 64", [...model, "--no-session", "-p", "change it"]);
		expect(r).toEqual({ stdout: "Could not save.\n", stderr: "", code: 0 });
		expect(readFileSync(join(world.cwd, "big.txt"), "utf8") === original).toBe(true);
		expect(readdirSync(world.cwd)).toEqual(["big.txt"]);
		const results = toolResults(world);
		expect(results).toHaveLength(2);
		for (const text of results) {
			expect(text).toStartWith("Cannot write big.txt: file too large (EFBIG)");
			expect(text).toEndWith("; big.txt was left as it was");
		}
	});

	test("a save keeps the file's mode and writes through a symlink, which stays a symlink", async () => {
		await using world = await mockWorld();
		const script = world.write("project/tools/run.sh", "#!/bin/sh\necho old\n");
		chmodSync(script, 0o754);
		symlinkSync("tools/run.sh", join(world.cwd, "run"));
		world.mock.script(
			{ toolCalls: [{ id: "call_1", name: "edit", arguments: { path: "run", edits: [{ oldText: "old", newText: "new" }] } }] },
			{ text: "Done." },
		);
		const r = await world.run([...model, "-p", "update"]);
		expect(r.code).toBe(0);
		expect(lstatSync(join(world.cwd, "run")).isSymbolicLink()).toBe(true);
		expect(readFileSync(script, "utf8")).toBe("#!/bin/sh\necho new\n");
		expect(statSync(script).mode & 0o7777).toBe(0o754);
		expect(readdirSync(join(world.cwd, "tools"))).toEqual(["run.sh"]);
	});
});
