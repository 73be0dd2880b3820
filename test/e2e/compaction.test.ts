// Compaction through the binary against the mock LLM: a small context window triggers a summary
// request before the next one, whose shape is asserted; extensions supply or cancel compactions;
// an overflow error is compacted away and the request retried; --continue resumes from the summary.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readMessages, type RecordedRequest, type SeenMessage } from "../support/mock-llm.ts";
import { MODEL, mockWorld, type MockWorld, type Protocol } from "../support/world.ts";

const SMALL = "small/mock-model";
const SUMMARY_HEAD = "The conversation history before this point was compacted into the following summary:\n<summary>\n";

/** A third provider on the mock whose model has a 2000-token window (threshold 1000, kept part ≤ 500). */
function addSmallModel(world: MockWorld): void {
	const path = join(world.agentDir, "models.json");
	const config = JSON.parse(readFileSync(path, "utf8"));
	config.providers.small = { baseUrl: world.mock.openaiBaseUrl, api: "openai-completions", apiKey: "test-key", models: [{ id: "mock-model", contextWindow: 2000, maxTokens: 512 }] };
	world.write(path, JSON.stringify(config));
}

function chats(world: MockWorld): RecordedRequest[] {
	return world.mock.requests.filter((r) => r.protocol !== "none");
}

/** Role and text of each message, system prompt left out. */
function shape(request: RecordedRequest): [SeenMessage["role"], string][] {
	return readMessages(request)
		.filter((m) => m.role !== "system")
		.map((m) => [m.role, m.text]);
}

function sessionLines(world: MockWorld): Record<string, any>[] {
	const root = join(world.agentDir, "sessions");
	const [dir] = readdirSync(root);
	const files = readdirSync(join(root, dir!)).sort();
	return readFileSync(join(root, dir!, files.at(-1)!), "utf8")
		.trim()
		.split("\n")
		.map((l) => JSON.parse(l));
}

// Prompt sizes (characters / 4 = estimated tokens): the first turn is summarised, the second kept.
const FIRST = `first ${"a".repeat(2400)}`;
const SECOND = `second ${"b".repeat(1600)}`;
const THIRD = "third";

/** Turn 1 reports 300 tokens, turn 2 1500: the request for THIRD is over 2000 - 1000. */
function scriptThreshold(world: MockWorld, summary?: string): void {
	world.mock.script({ text: "one", usage: { input: 300, output: 5 } }, { text: "two", usage: { input: 1500, output: 5 } }, ...(summary ? [{ text: summary }] : []), { text: "three" });
}

const EXTENSION = (body: string) => `import type { ExtensionAPI } from "@scope/coding-agent";
export default function (pi: ExtensionAPI) {
${body}
	pi.on("session_compact", (e) => console.error("session_compact " + e.compactionEntry.summary + " fromExtension=" + e.fromExtension));
	pi.on("session_compact_failed", (e) => console.error("session_compact_failed " + e.reason + ": " + e.error));
}
`;

describe("auto-compaction at the threshold", () => {
	test("a summary request before the request that would overflow; the next request is the summary, then the kept turns", async () => {
		await using world = await mockWorld();
		addSmallModel(world);
		scriptThreshold(world, "## Goal\nThe summary.");
		const r = await world.run(["-p", FIRST, SECOND, THIRD, "--model", SMALL]);
		expect(r).toEqual({ stdout: "three\n", stderr: "", code: 0 });
		const requests = chats(world);
		expect(requests).toHaveLength(4);

		const summaryRequest = requests[2]!;
		expect(systemOfRequest(summaryRequest)).toBe(
			"You write handover notes for coding sessions. Another assistant will carry on the work from your notes alone, without the original conversation. Reply with the notes only, in Markdown.",
		);
		expect(summaryRequest.body.tools).toBeUndefined();
		const [[role, prompt]] = shape(summaryRequest) as [[string, string]];
		expect(role).toBe("user");
		expect(prompt.startsWith(`<conversation>\n[User]: ${FIRST}\n\n[Assistant]: one\n</conversation>\n\nWrite handover notes`)).toBe(true);
		expect(prompt).not.toContain("second");

		expect(shape(requests[3]!)).toEqual([
			["user", `${SUMMARY_HEAD}## Goal\nThe summary.\n</summary>`],
			["user", SECOND],
			["assistant", "two"],
			["user", THIRD],
		]);

		const lines = sessionLines(world);
		const compaction = lines.find((l) => l.type === "compaction")!;
		const kept = lines.find((l) => l.type === "message" && l.message.content === SECOND)!;
		expect(compaction).toMatchObject({ summary: "## Goal\nThe summary.", firstKeptEntryId: kept.id, details: { readFiles: [], modifiedFiles: [] } });
		expect(compaction.tokensBefore).toBe(1505 + 2);
		expect(compaction.fromHook).toBeUndefined();
	});

	test("--continue rebuilds the context from the compaction entry", async () => {
		await using world = await mockWorld();
		addSmallModel(world);
		scriptThreshold(world, "The summary.");
		expect((await world.run(["-p", FIRST, SECOND, THIRD, "--model", SMALL])).code).toBe(0);
		world.mock.script({ text: "four" });
		const r = await world.run(["-c", "-p", "fourth"]);
		expect(r).toEqual({ stdout: "four\n", stderr: "", code: 0 });
		expect(shape(chats(world).at(-1)!)).toEqual([
			["user", `${SUMMARY_HEAD}The summary.\n</summary>`],
			["user", SECOND],
			["assistant", "two"],
			["user", THIRD],
			["assistant", "three"],
			["user", "fourth"],
		]);
	});

	test("json mode streams compaction_start and compaction_end", async () => {
		await using world = await mockWorld();
		addSmallModel(world);
		scriptThreshold(world, "S");
		const r = await world.run(["--mode", "json", "-p", FIRST, SECOND, THIRD, "--model", SMALL]);
		expect(r.code).toBe(0);
		const events = r.stdout
			.trim()
			.split("\n")
			.map((l) => JSON.parse(l))
			.filter((e) => e.type.startsWith("compaction_"));
		expect(events).toEqual([
			{ type: "compaction_start", reason: "threshold" },
			{
				type: "compaction_end",
				reason: "threshold",
				result: { summary: "S", firstKeptEntryId: expect.any(String), tokensBefore: 1507, details: { readFiles: [], modifiedFiles: [] } },
				aborted: false,
				willRetry: false,
			},
		]);
	});
});

describe("extensions and compaction", () => {
	test("session_before_compact supplies the compaction: no summary request, fromHook recorded, session_compact told", async () => {
		await using world = await mockWorld();
		addSmallModel(world);
		scriptThreshold(world);
		const ext = world.write(
			"tmp/own.ts",
			EXTENSION(`	pi.on("session_before_compact", (e) => {
		console.error("before " + e.preparation.messagesToSummarize.length + " " + e.branchEntries.length);
		return { compaction: { summary: "Own summary.", firstKeptEntryId: e.preparation.firstKeptEntryId, tokensBefore: e.preparation.tokensBefore, details: { mine: true } } };
	});`),
		);
		const r = await world.run(["-e", ext, "-p", FIRST, SECOND, THIRD, "--model", SMALL]);
		expect(r).toEqual({ stdout: "three\n", stderr: "before 2 7\nsession_compact Own summary. fromExtension=true\n", code: 0 });
		const requests = chats(world);
		expect(requests).toHaveLength(3);
		expect(shape(requests[2]!)[0]).toEqual(["user", `${SUMMARY_HEAD}Own summary.\n</summary>`]);
		expect(sessionLines(world).find((l) => l.type === "compaction")).toMatchObject({ summary: "Own summary.", details: { mine: true }, fromHook: true });
	});

	test("an extension cancels: the request goes out uncompacted; a command's ctx.compact() reports Compaction cancelled", async () => {
		await using world = await mockWorld();
		addSmallModel(world);
		scriptThreshold(world);
		const ext = world.write(
			"tmp/cancel.ts",
			EXTENSION(`	pi.on("session_before_compact", () => ({ cancel: true }));
	pi.registerCommand("squash", {
		description: "compact now",
		handler: (args, ctx) =>
			new Promise<void>((done) =>
				ctx.compact({
					customInstructions: args,
					onComplete: () => done(),
					onError: (error) => {
						console.error("compact failed: " + error.message);
						done();
					},
				}),
			),
	});`),
		);
		const r = await world.run(["-e", ext, "-p", FIRST, SECOND, THIRD, "/squash now", "--model", SMALL]);
		// session_compact_failed fires for a cancelled compaction too (pi 1.6: "fails or is aborted").
		expect(r).toEqual({
			stdout: "three\n",
			stderr: "session_compact_failed threshold: Compaction cancelled\nsession_compact_failed manual: Compaction cancelled\ncompact failed: Compaction cancelled\n",
			code: 0,
		});
		const requests = chats(world);
		expect(requests).toHaveLength(3);
		expect(shape(requests[2]!).map(([role]) => role)).toEqual(["user", "assistant", "user", "assistant", "user"]);
		expect(sessionLines(world).some((l) => l.type === "compaction")).toBe(false);
	});

	test("a manual compaction from a command: custom instructions reach the summary request", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "one" }, { text: "two" }, { text: "Manual summary." });
		const ext = world.write(
			"tmp/manual.ts",
			EXTENSION(`	pi.registerCommand("squash", {
		description: "compact now",
		handler: (args, ctx) =>
			new Promise<void>((done, fail) => ctx.compact({ customInstructions: args, onComplete: (r) => { console.error("kept from " + (r.firstKeptEntryId.length === 8)); done(); }, onError: fail })),
	});`),
		);
		const r = await world.run(["-e", ext, "-p", "first", "second", "/squash keep the numbers", "--model", MODEL.openai]);
		expect(r).toEqual({ stdout: "two\n", stderr: "session_compact Manual summary. fromExtension=false\nkept from true\n", code: 0 });
		const [, prompt] = shape(chats(world)[2]!)[0]!;
		expect(prompt.endsWith("The user asks you to focus on this: keep the numbers")).toBe(true);
	});
});

describe("overflow", () => {
	const OVERFLOW: Record<Protocol, string> = {
		anthropic: "prompt is too long: 250000 tokens > 200000 maximum",
		openai: "This model's maximum context length is 100000 tokens. However, your messages resulted in 120000 tokens. Please reduce the length of the messages.",
	};

	test.each(["openai", "anthropic"] as const)("%s: the overflow error is compacted away and the request sent once more", async (protocol) => {
		await using world = await mockWorld();
		world.mock.script({ text: "one" }, { status: 400, message: OVERFLOW[protocol] }, { text: "Overflow summary." }, { text: "two" });
		const ext = world.write("tmp/log.ts", EXTENSION(""));
		const r = await world.run(["-e", ext, "-p", "first", "second", "--model", MODEL[protocol]]);
		expect(r).toEqual({ stdout: "two\n", stderr: "session_compact Overflow summary. fromExtension=false\n", code: 0 });
		const requests = chats(world);
		expect(requests).toHaveLength(4);
		expect(shape(requests[1]!)).toEqual(shape(requests[0]!).concat([["assistant", "one"], ["user", "second"]]));
		expect(shape(requests[3]!)).toEqual([
			["user", `${SUMMARY_HEAD}Overflow summary.\n</summary>`],
			["user", "second"],
		]);
	});

	test("a second overflow after compacting is final: exit 1 with the provider's error", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "one" }, { status: 400, message: OVERFLOW.anthropic }, { text: "S" }, { status: 400, message: OVERFLOW.anthropic });
		const r = await world.run(["-p", "first", "second", "--model", MODEL.anthropic]);
		expect(r).toEqual({ stdout: "", stderr: `Error: mock-anthropic API error (400): ${OVERFLOW.anthropic}\n`, code: 1 });
		expect(chats(world)).toHaveLength(4);
	});

	test("with compaction disabled in settings, the overflow error stands", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/settings.json", JSON.stringify({ compaction: { enabled: false } }));
		world.mock.script({ text: "one" }, { status: 400, message: OVERFLOW.openai });
		const r = await world.run(["-p", "first", "second", "--model", MODEL.openai]);
		expect(r.code).toBe(1);
		expect(chats(world)).toHaveLength(2);
	});
});

function systemOfRequest(request: RecordedRequest): string {
	return readMessages(request).find((m) => m.role === "system")?.text ?? "";
}
