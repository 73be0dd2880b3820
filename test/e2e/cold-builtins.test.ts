// Builtins a print run does not call, read from the binary itself with a preload that counts them
// (test/support/builtin-calls.ts). JavaScriptCore compiles a builtin such as flatMap, reduce or a
// regex replace on its first call (40–150 µs each in the binary), so `agent -ne --no-session -p`
// avoids those its start-up and one request do not need; this keeps them from coming back unseen.
import { describe, expect, test } from "bun:test";
import { resolve } from "node:path";
import { MODEL, mockWorld } from "../support/world.ts";

const preload = resolve(import.meta.dir, "../support/builtin-calls.ts");

/** Builtins the round trip's path does without (loops, a length check, endsWith before a regex, no walk of an empty session). */
const NOT_IN_A_ROUND_TRIP = ["Array#flatMap", "Array#flat", "Array#reduce", "Array#some", "Array#find", "Array#findIndex", "Array#sort", "Array#at", "Array#entries", "String#replace/re", "Generator#next"];

function builtinCalls(stderr: string): string[] {
	const line = stderr.split("\n").find((l) => l.startsWith("Builtin calls: "));
	if (line === undefined) throw new Error(`no "Builtin calls:" line on stderr:\n${stderr}`);
	return line.slice("Builtin calls: ".length).split(" ").filter(Boolean);
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
