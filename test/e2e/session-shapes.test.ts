// A session line that is valid JSON of an unexpected shape never bricks the session (issue 12,
// defect 7): it is skipped with a file:line warning like a torn line, the entries after it hang
// from its parent, and --continue / --session / --fork resume the rest. The file is not rewritten.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { readMessages } from "../support/mock-llm.ts";
import { MODEL, type MockWorld, mockWorld, readSessionLines } from "../support/world.ts";

const model = ["-ne", "--model", MODEL.openai];

/** Two finished turns on disk, then `damage` applied to the first assistant message's line. */
async function damagedSession(world: MockWorld, damage: (message: any) => void): Promise<{ file: string; line: number; text: string }> {
	world.mock.script({ text: "first answer" }, { text: "second answer" });
	expect((await world.run([...model, "-p", "first question"])).code).toBe(0);
	expect((await world.run([...model, "-c", "-p", "second question"])).code).toBe(0);
	const file = world.onlySessionFile();
	const lines = readSessionLines(file);
	const index = lines.findIndex((l) => l.type === "message" && l.message.role === "assistant");
	damage(lines[index].message);
	const text = `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
	writeFileSync(file, text);
	return { file, line: index + 1, text };
}

function userTexts(world: MockWorld): string[] {
	return readMessages(world.mock.lastRequest())
		.filter((m) => m.role === "user")
		.map((m) => m.text);
}

const CASES: [string, (message: any) => void, string][] = [
	['"content": "text"', (m) => (m.content = "text"), "message.content must be an array of content blocks"],
	['"content": null', (m) => (m.content = null), "message.content must be an array of content blocks"],
	["a tool call with null arguments", (m) => (m.content = [{ type: "toolCall", id: "c1", name: "bash", arguments: null }]), "message.content[0].arguments must be an object"],
	["a text block without text", (m) => (m.content = [{ type: "text" }]), "message.content[0].text must be a string"],
];

describe("an assistant entry of the wrong shape", () => {
	for (const [what, damage, problem] of CASES) {
		test(`${what}: -c resumes with a file:line warning; the rest of the conversation is kept`, async () => {
			await using world = await mockWorld();
			const { file, line, text } = await damagedSession(world, damage);
			world.mock.script({ text: "third answer" });
			const r = await world.run([...model, "-c", "-p", "third question"]);
			expect(r).toEqual({
				stdout: "third answer\n",
				stderr: `Warning: ${file}:${line}: skipped a "message" entry of an unexpected shape: ${problem}\n`,
				code: 0,
			});
			// The skipped answer is gone; both questions before it and after it are still there.
			expect(userTexts(world)).toEqual(["first question", "second question", "third question"]);
			// Never rewritten: appended to.
			expect(readFileSync(file, "utf8").startsWith(text)).toBe(true);
		});
	}

	test("--fork and --session of such a file work the same way; nothing says Internal error or shows source", async () => {
		await using world = await mockWorld();
		const { file, line } = await damagedSession(world, (m) => (m.content = null));
		world.mock.script({ text: "forked" }, { text: "opened" });
		const warning = `Warning: ${file}:${line}: skipped a "message" entry of an unexpected shape: message.content must be an array of content blocks\n`;
		const forked = await world.run([...model, "--fork", file, "-p", "in the fork"]);
		expect(forked).toEqual({ stdout: "forked\n", stderr: warning, code: 0 });
		const opened = await world.run([...model, "--session", file, "-p", "opened again"]);
		expect(opened).toEqual({ stdout: "opened\n", stderr: warning, code: 0 });
	});
});

test("messages are read when first used: a command run reads only the last answer; the prompt after it reports the damaged line", async () => {
	await using world = await mockWorld();
	const { file, line } = await damagedSession(world, (m) => (m.content = "text"));
	world.write("project/count.ts", `export default function (pi) {
	pi.registerCommand("count", { handler: async (_a, ctx) => console.error(\`entries \${ctx.sessionManager.getEntries().length}\`) });
}
`);
	// The damaged answer is not on the way to the last one: nothing to report yet; the last answer is printed as always.
	const command = await world.run([...model, "-e", "./count.ts", "--session", file, "-p", "/count"]);
	expect(command).toEqual({ stdout: "second answer\n", stderr: expect.stringMatching(/^entries \d+\n$/), code: 0 });
	world.mock.script({ text: "third answer" });
	const prompt = await world.run([...model, "--session", file, "-p", "third question"]);
	expect(prompt).toEqual({ stdout: "third answer\n", stderr: `Warning: ${file}:${line}: skipped a "message" entry of an unexpected shape: message.content must be an array of content blocks\n`, code: 0 });
	expect(userTexts(world)).toEqual(["first question", "second question", "third question"]);
});

test("other entry kinds of the wrong shape are skipped the same way", async () => {
	await using world = await mockWorld();
	world.mock.script({ text: "first answer" });
	expect((await world.run([...model, "-p", "q"])).code).toBe(0);
	const file = world.onlySessionFile();
	const lines = readSessionLines(file);
	const last = lines.at(-1);
	const bad = [
		{ type: "model_change", id: "bad00001", parentId: last.id, timestamp: last.timestamp, provider: 7 },
		{ type: "compaction", id: "bad00002", parentId: "bad00001", timestamp: last.timestamp, summary: null, firstKeptEntryId: last.id, tokensBefore: 1 },
		{ type: "message", id: "bad00003", parentId: "bad00002", timestamp: last.timestamp, message: { role: "user", content: [{ type: "image" }] } },
	];
	writeFileSync(file, `${[...lines, ...bad].map((l) => JSON.stringify(l)).join("\n")}\n`);
	world.mock.script({ text: "still here" });
	const r = await world.run([...model, "-c", "-p", "again"]);
	expect(r.code).toBe(0);
	expect(r.stdout).toBe("still here\n");
	const n = lines.length;
	expect(r.stderr).toBe(
		[
			`Warning: ${file}:${n + 1}: skipped a "model_change" entry of an unexpected shape: "provider" and "modelId" must be strings`,
			`Warning: ${file}:${n + 2}: skipped a "compaction" entry of an unexpected shape: "summary" must be a string`,
			`Warning: ${file}:${n + 3}: skipped a "message" entry of an unexpected shape: message.content[0] must have string "data" and "mimeType"`,
			"",
		].join("\n"),
	);
	expect(userTexts(world)).toEqual(["q", "again"]);
});
