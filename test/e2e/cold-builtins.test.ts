// Builtins a print run does not call, read from the binary itself with a preload that counts them
// (test/support/builtin-calls.ts). JavaScriptCore compiles a builtin such as flatMap, reduce or a
// regex replace on its first call (40–150 µs each in the binary), so `agent -ne --no-session -p`
// avoids those its start-up and one request do not need, and the TUI those its first frame does not;
// this keeps them from coming back unseen.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { agentBinary, TempWorld } from "../support/agent.ts";
import { MODEL, mockWorld, type MockWorld } from "../support/world.ts";

const preload = resolve(import.meta.dir, "../support/builtin-calls.ts");

/** Builtins the round trip's path does without (loops, a length check, endsWith before a regex, no walk of an empty session). */
const NOT_IN_A_ROUND_TRIP = ["Array#flatMap", "Array#flat", "Array#reduce", "Array#some", "Array#find", "Array#findIndex", "Array#sort", "Array#at", "Array#entries", "String#replace/re", "Generator#next", "String#padStart"];

/**
 * Builtins the TUI's first frame (-ne, no model: a first-time user's screen) does without: the header,
 * the no-model help, the footer, a new session's first id, the transcript asking whether anything is
 * drawn above it (no second render of the header, where pi-tui would call every) and pi-tui's top-level
 * constants (literals in the binary). pi-tui's own code before the frame calls some, find, findIndex,
 * repeat and replaceAll, so those stay.
 */
const NOT_IN_THE_FIRST_FRAME = ["Array#flatMap", "Array#sort", "Array#at", "Array#entries", "Array.from", "String.raw", "String#padStart"];

/**
 * And with no ~/.agent at all (the start-up benchmark's world), Array#every too: a models.json's
 * precompiled check calls it, the frame itself no longer does.
 */
const NOT_IN_A_FIRST_TIME_FRAME = [...NOT_IN_THE_FIRST_FRAME, "Array#every"];

function builtinCalls(stderr: string, prefix = "Builtin calls: "): string[] {
	const line = stderr.split("\n").find((l) => l.startsWith(prefix));
	if (line === undefined) throw new Error(`no "${prefix}" line on stderr:\n${stderr}`);
	return line.slice(prefix.length).split(" ").filter(Boolean);
}

/** `agent -ne` (no model) in a pseudo-terminal up to its first frame, then ctrl+d: the builtins called by the start-up's end. */
async function firstFrameCalls(world: TempWorld): Promise<string[]> {
	const errFile = join(world.root, "tui-stderr.txt");
	let seen = "";
	const decoder = new TextDecoder();
	const proc = Bun.spawn(["sh", "-c", `exec "$@" 2>"${errFile}"`, "sh", agentBinary(), "-ne"], {
		cwd: world.cwd,
		env: world.environment({ TERM: "xterm-256color", BUN_OPTIONS: `--preload ${preload}` }),
		terminal: { cols: 120, rows: 40, data: (_t, data) => void (seen += decoder.decode(data, { stream: true })) },
	});
	try {
		const deadline = Date.now() + 15_000;
		while (!seen.includes("───")) {
			if (proc.exitCode !== null || Date.now() > deadline) throw new Error(`no editor on the screen; output:\n${JSON.stringify(seen.slice(-3000))}`);
			await Bun.sleep(20);
		}
		proc.terminal!.write("\x04");
		expect(await proc.exited).toBe(0);
	} finally {
		if (proc.exitCode === null) proc.kill("SIGKILL");
		proc.terminal?.close();
	}
	return builtinCalls(readFileSync(errFile, "utf8"), "Builtin calls by the start-up's end: ");
}

describe("cold builtins, as the binary calls them", () => {
	test("agent -ne --no-session -p answers without calling builtins it does not need", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "hi" });
		const r = await world.run(["-ne", "--no-session", "--model", MODEL.openai, "-p", "hello"], { env: { BUN_OPTIONS: `--preload ${preload}` } });
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("hi\n");
		expect(builtinCalls(r.stderr).filter((name) => NOT_IN_A_ROUND_TRIP.includes(name))).toEqual([]);
	});

	test("the TUI's first frame, with no model configured, calls none of the builtins it does without", async () => {
		await using world = await mockWorld();
		const calls = await firstFrameCalls(world);
		// The check sees the frame's own calls: the editor's trigger pattern replaces with a regex.
		expect(calls).toContain("String#replace/re");
		expect(calls.filter((name) => NOT_IN_THE_FIRST_FRAME.includes(name))).toEqual([]);
	}, 30_000);

	test("a first-time user's first frame (no ~/.agent) calls none of them, nor Array#every", async () => {
		await using world = new TempWorld();
		const calls = await firstFrameCalls(world);
		expect(calls).toContain("String#replace/re");
		expect(calls.filter((name) => NOT_IN_A_FIRST_TIME_FRAME.includes(name))).toEqual([]);
	}, 30_000);

	test("loading -e extensions (an import and a factory each, under their deadlines) calls none of Promise.race, Array#some, Array.from", async () => {
		// The loader raced each stage against its deadline with Promise.race; asking whether a -e value names a
		// package used Array#some; typebox's tokenizer built its character classes with Array.from (literals in the binary).
		await using world = await mockWorld();
		world.mock.script({ text: "hi" });
		const files = [0, 1].map((i) =>
			world.write(`ext-${i}.ts`, `import { Type } from "typebox";\nexport default function (pi) {\n  pi.registerTool({ name: "tool_${i}", label: "T", description: "d", parameters: Type.Object({ text: Type.String() }), execute: async () => ({ content: [], details: {} }) });\n}\n`),
		);
		const r = await world.run(["-ne", ...files.flatMap((f) => ["-e", f]), "--no-session", "--model", MODEL.openai, "-p", "hello"], { env: { BUN_OPTIONS: `--preload ${preload}` } });
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("hi\n");
		expect(builtinCalls(r.stderr).filter((name) => ["Promise.race", "Array#some", "Array.from"].includes(name))).toEqual([]);
	});

	test("the check can fail: a run that lists models sorts them", async () => {
		await using world = await mockWorld();
		const r = await world.run(["-ne", "--list-models"], { env: { BUN_OPTIONS: `--preload ${preload}` } });
		expect(r.code).toBe(0);
		expect(builtinCalls(r.stderr)).toContain("Array#sort");
	});
});
