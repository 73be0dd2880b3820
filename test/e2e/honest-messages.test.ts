// What the agent says when things go wrong is true (issue 12, defects 11 and 12): a session file
// that cannot be written (read-only, a full disk) does not stop the run (it goes on, as the message
// says) and is reported once, not per entry; an HTML page or an empty stream is named as such and
// not retried; a 429 asking for an hour's wait says so.
import { describe, expect, test } from "bun:test";
import { appendFileSync, chmodSync, readdirSync, readFileSync, statfsSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { canMount, mountTmpfs, unmount } from "../support/tmpfs.ts";
import { readMessages } from "../support/mock-llm.ts";
import { MODEL, type MockWorld, mockWorld } from "../support/world.ts";

const model = ["-ne", "--model", MODEL.openai];

/**
 * Make `dir` unwritable for the agent: a read-only bind mount as root (root ignores file modes),
 * file modes otherwise. Returns the undo.
 */
function makeReadOnly(dir: string, file: string): () => void {
	if (process.getuid?.() === 0) {
		const mount = (...args: string[]) => Bun.spawnSync(["mount", ...args]).exitCode === 0;
		if (mount("--bind", dir, dir) && mount("-o", "remount,bind,ro", dir)) return () => void Bun.spawnSync(["umount", dir]);
		throw new Error("cannot make a read-only bind mount");
	}
	chmodSync(file, 0o444);
	chmodSync(dir, 0o555);
	return () => {
		chmodSync(dir, 0o755);
		chmodSync(file, 0o644);
	};
}

function lastUserTexts(world: MockWorld): string[] {
	return readMessages(world.mock.lastRequest())
		.filter((m) => m.role === "user")
		.map((m) => m.text);
}

describe("a session file that cannot be written", () => {
	const CASES = [
		// A different model is a model_change entry, appended before the run starts.
		{ name: "-c with another model on a read-only session: the run goes on (exit 0), one warning, then what was not saved", argv: ["--model", MODEL.anthropic], unsaved: 3 },
		// No model change: the first entry that fails is the user's message.
		{ name: "-c with the same model on a read-only session: the conversation continues, one warning", argv: [], unsaved: 2 },
	];
	for (const { name, argv, unsaved } of CASES) {
		test(name, async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "first" }, { text: "second" });
			expect((await world.run([...model, "-p", "one"])).code).toBe(0);
			const file = world.onlySessionFile();
			const before = readFileSync(file);
			const undo = makeReadOnly(dirname(file), file);
			try {
				const r = await world.run(["-ne", ...argv, "-c", "-p", "two"]);
				expect(r.code).toBe(0);
				expect(r.stdout).toBe("second\n");
				const lines = r.stderr.trimEnd().split("\n");
				expect(lines).toHaveLength(2);
				expect(lines[0]).toStartWith(`Warning: Could not save the session to ${file}: `);
				expect(lines[0]).toEndWith("What was already saved is unchanged; the run goes on, and what is not saved yet (1 entry so far) is written as soon as saving works again.");
				expect(lines[1]).toMatch(new RegExp(`^Warning: ${unsaved} entries of this run could not be saved to ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} \\(.+\\); the file holds only what was saved before\\.$`));
				// The conversation did continue: the model saw the earlier turn.
				expect(lastUserTexts(world)).toEqual(["one", "two"]);
				expect(readFileSync(file).equals(before)).toBe(true);
			} finally {
				undo();
			}
		});
	}

	test.skipIf(!canMount)("a full disk under the sessions folder: one warning for the whole run, not one per entry", async () => {
		await using world = await mockWorld();
		const disk = join(world.root, "disk");
		if (!mountTmpfs(disk, "256k")) throw new Error("mount failed");
		try {
			const env = { AGENT_SESSION_DIR: disk };
			world.mock.script({ text: "first" }, { toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "echo hi" } }] }, { text: "second" });
			expect((await world.run([...model, "-p", "one"], { env })).code).toBe(0);
			const [folder] = readdirSync(disk);
			const file = join(disk, folder!, readdirSync(join(disk, folder!))[0]!);
			// End the file on a page boundary (blank lines are nothing to a reader), then fill the disk:
			// every append now needs a page there is no room for.
			appendFileSync(file, "\n".repeat(4096 - (statSync(file).size % 4096)));
			const before = readFileSync(file);
			const { bavail, bsize } = statfsSync(disk);
			writeFileSync(join(disk, "filler"), Buffer.alloc(bavail * bsize));
			const r = await world.run([...model, "-c", "-p", "two"], { env });
			expect(r.code).toBe(0);
			expect(r.stdout).toBe("second\n");
			const lines = r.stderr.trimEnd().split("\n");
			expect(lines).toHaveLength(2);
			expect(lines[0]).toStartWith(`Warning: Could not save the session to ${file}: no space left on device (ENOSPC). `);
			expect(lines[1]).toStartWith(`Warning: 4 entries of this run could not be saved to ${file} `);
			expect(readFileSync(file).equals(before)).toBe(true);
			// Nothing half-made is left beside it (no lock, no temp file).
			expect(readdirSync(join(disk, folder!))).toEqual([basename(file)]);
		} finally {
			unmount(disk);
		}
	});
});

describe("provider answers that are not what they seem", () => {
	test("an HTML page (a wrong base URL) is named as such and not retried", async () => {
		await using world = await mockWorld();
		world.mock.script({ status: 200, body: "<!doctype html><html><body>Welcome to nginx!</body></html>", contentType: "text/html; charset=utf-8" });
		const r = await world.run([...model, "-p", "hi"]);
		expect(r).toEqual({
			stdout: "",
			stderr: `Error: mock answered with a web page (text/html; charset=utf-8), not a model response: check its baseUrl (${world.mock.openaiBaseUrl}); OpenAI-compatible servers usually end in /v1\n`,
			code: 1,
		});
		expect(world.mock.requests).toHaveLength(1);
	});

	test("an SSE stream with only [DONE] is an empty response, not a closed connection, and is not retried", async () => {
		await using world = await mockWorld();
		world.mock.script({ status: 200, body: "data: [DONE]\n\n", contentType: "text/event-stream" });
		const r = await world.run([...model, "-p", "hi"]);
		expect(r).toEqual({ stdout: "", stderr: "Error: mock sent an empty response: the stream ended without any content or a finish reason\n", code: 1 });
		expect(world.mock.requests).toHaveLength(1);
	});

	test("a 429 asking for an hour says so, and the agent does not wait an hour", async () => {
		await using world = await mockWorld();
		world.mock.script({ status: 429, retryAfter: 3600, message: "quota exceeded" });
		const r = await world.run([...model, "-p", "hi"]);
		expect(r).toEqual({ stdout: "", stderr: "Error: Rate limited by mock (429): quota exceeded; the server asks to wait 1 h before trying again\n", code: 1 });
		expect(world.mock.requests).toHaveLength(1);
	});

	test("a dropped connection is still called one", async () => {
		await using world = await mockWorld();
		world.mock.script({ drop: true });
		const r = await world.run([...model, "-p", "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toMatch(/^Error: The connection to mock (was lost|closed) before the response finished/);
	});
});
