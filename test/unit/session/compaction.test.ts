// Compaction: token estimates, where the cut falls (never between a tool call and its result),
// the summary request, overflow recognition, and AgentSession compacting manually, at the
// threshold and after an overflow, with the extension hooks.
import { describe, expect, test } from "bun:test";
import { Type } from "typebox";
import { AgentSession, type ModelAccess } from "../../../src/core/agent-session.ts";
import type { AgentMessage } from "../../../src/core/agent/messages.ts";
import { isContextOverflow } from "../../../src/core/providers/overflow.ts";
import type { AssistantMessage, Model } from "../../../src/core/providers/types.ts";
import { emptyUsage } from "../../../src/core/providers/types.ts";
import {
	compactionLimits,
	DEFAULT_COMPACTION_SETTINGS,
	estimateContextTokens,
	estimateTokens,
	prepareCompaction,
	serializeConversation,
	summaryPrompt,
	withFileLists,
} from "../../../src/core/session/compaction.ts";
import type { CompactionEvent } from "../../../src/core/session/compactor.ts";
import { SessionManager } from "../../../src/core/session/session-manager.ts";
import type { AgentTool } from "../../../src/core/tools/types.ts";
import { scriptedStream, testModel, type ScriptedTurn } from "../../support/scripted-stream.ts";

const text = (n: number, ch = "x") => ch.repeat(n);

function assistant(content: AssistantMessage["content"], timestamp: number, totalTokens = 0): AssistantMessage {
	return {
		role: "assistant",
		content,
		api: "openai-completions",
		provider: "test",
		model: "test-model",
		usage: { ...emptyUsage(), totalTokens },
		stopReason: content.some((c) => c.type === "toolCall") ? "toolUse" : "stop",
		timestamp,
	};
}

/** A session file holding `messages`, in order. */
function sessionOf(messages: AgentMessage[]): SessionManager {
	const sm = SessionManager.inMemory("/tmp");
	for (const m of messages) sm.appendMessage(m as never);
	return sm;
}

const settings = { ...DEFAULT_COMPACTION_SETTINGS, keepRecentTokens: 100 };

describe("estimates and limits", () => {
	test("characters / 4 per message; images count 1200 tokens; tool calls by name and arguments", () => {
		expect(estimateTokens({ role: "user", content: text(40), timestamp: 1 })).toBe(10);
		expect(estimateTokens({ role: "user", content: [{ type: "image", data: "", mimeType: "image/png" }], timestamp: 1 })).toBe(1200);
		expect(estimateTokens(assistant([{ type: "toolCall", id: "c", name: "read", arguments: { path: "a" } }], 1))).toBe(Math.ceil(("read".length + '{"path":"a"}'.length) / 4));
	});

	test("context: the last response's usage plus later messages; a response before the latest compaction does not count", () => {
		const before = [{ role: "user", content: text(400), timestamp: 1 }, assistant([{ type: "text", text: "ok" }], 2, 5000), { role: "user", content: text(40), timestamp: 3 }] as AgentMessage[];
		expect(estimateContextTokens(before)).toEqual({ tokens: 5010, fromUsage: true });
		const after = [{ role: "compactionSummary", summary: text(80), tokensBefore: 5000, timestamp: 10 }, ...before] as AgentMessage[];
		expect(estimateContextTokens(after)).toEqual({ tokens: 20 + 100 + 1 + 10, fromUsage: false });
	});

	test("context estimate of one array growing, rebuilt and edited in place matches a fresh search every time", () => {
		// What the search was before it became incremental: the first compactionSummary of the whole array.
		const reference = (messages: AgentMessage[]) => {
			const copy = [...messages];
			const summary = copy.find((m) => m.role === "compactionSummary");
			return { summaryAt: summary ? copy.indexOf(summary) : -1, estimate: estimateContextTokens(copy) };
		};
		const user = (t: number) => ({ role: "user", content: text(8), timestamp: t }) as AgentMessage;
		const summary = (t: number) => ({ role: "compactionSummary", summary: text(40), tokensBefore: 9000, timestamp: t }) as AgentMessage;
		const messages: AgentMessage[] = [];
		const check = () => expect(estimateContextTokens(messages)).toEqual(reference(messages).estimate);
		check();
		for (let t = 1; t <= 6; t++) {
			messages.push(user(t), assistant([{ type: "text", text: "ok" }], t + 0.5, 100 * t));
			check();
		}
		// A summary appended after the array was searched (not at the front): found by the search that continues,
		// and it is newer than every response, so none of their usage counts.
		messages.push(summary(10));
		check();
		expect(estimateContextTokens(messages)).toEqual({ tokens: 6 * 2 + 6 * 1 + 10, fromUsage: false });
		messages.push(user(20));
		check();
		// Compaction rebuilds the same array in place: the summary first, then kept messages older than it,
		// whose usage no longer counts (it would with the summary found before the rebuild).
		messages.splice(0, messages.length, summary(30), user(21), assistant([{ type: "text", text: "ok" }], 22, 700));
		check();
		expect(estimateContextTokens(messages).fromUsage).toBe(false);
		messages.push(user(33), assistant([{ type: "text", text: "ok" }], 34, 900));
		check();
		expect(estimateContextTokens(messages)).toEqual({ tokens: 900, fromUsage: true });
		// Rebuilt with no summary (a branch switch): every response counts again.
		messages.splice(0, messages.length, user(1), assistant([{ type: "text", text: "ok" }], 2, 50), user(3));
		check();
		expect(estimateContextTokens(messages)).toEqual({ tokens: 52, fromUsage: true });
		// An omitted message, a response, then the first message replaced in place.
		messages.splice(1, 1);
		check();
		messages.push(assistant([{ type: "text", text: "ok" }], 4, 80));
		check();
		messages[0] = summary(43);
		check();
		expect(estimateContextTokens(messages).fromUsage).toBe(false);
		messages.length = 0;
		check();
		messages.push(summary(50), assistant([{ type: "text", text: "ok" }], 51, 60));
		check();
		expect(estimateContextTokens(messages)).toEqual({ tokens: 60, fromUsage: true });
	});

	test("without reported usage the estimate is every message's own, request after request of a growing conversation", () => {
		const messages: AgentMessage[] = [];
		for (let t = 1; t <= 20; t++) {
			messages.push(
				{ role: "user", content: text(t * 3), timestamp: t },
				assistant([{ type: "toolCall", id: `c${t}`, name: "bash", arguments: { command: text(t) } }], t + 0.1),
				{ role: "toolResult", toolCallId: `c${t}`, toolName: "bash", content: [{ type: "text", text: text(t * 7) }], isError: false, timestamp: t + 0.2 },
			);
			const expected = messages.reduce((sum, m) => sum + estimateTokens(m), 0);
			expect(estimateContextTokens(messages)).toEqual({ tokens: expected, fromUsage: false });
			// A copy of the same messages, and the array again: the same answer.
			expect(estimateContextTokens([...messages])).toEqual({ tokens: expected, fromUsage: false });
			expect(estimateContextTokens(messages)).toEqual({ tokens: expected, fromUsage: false });
		}
		// A message replaced by another (a rebuilt conversation) counts as the new one.
		messages[1] = { role: "user", content: text(400), timestamp: 1.1 };
		expect(estimateContextTokens(messages).tokens).toBe(messages.reduce((sum, m) => sum + estimateTokens(m), 0));
	});

	test("small windows shrink the reserve and the kept part", () => {
		expect(compactionLimits(DEFAULT_COMPACTION_SETTINGS, 200_000)).toEqual({ threshold: 200_000 - 16384, reserve: 16384, keep: 20000 });
		expect(compactionLimits(DEFAULT_COMPACTION_SETTINGS, 2000)).toEqual({ threshold: 1000, reserve: 1000, keep: 500 });
	});
});

describe("prepareCompaction", () => {
	const turn = (i: number, size: number): AgentMessage[] => [
		{ role: "user", content: `u${i} ${text(size)}`, timestamp: i * 10 },
		assistant([{ type: "toolCall", id: `c${i}`, name: "read", arguments: { path: `f${i}.ts` } }], i * 10 + 1),
		{ role: "toolResult", toolCallId: `c${i}`, toolName: "read", content: [{ type: "text", text: text(size) }], isError: false, timestamp: i * 10 + 2 },
		assistant([{ type: "text", text: `a${i}` }], i * 10 + 3),
	];

	test("keeps whole turns within keepRecentTokens, summarises the rest, lists the files", () => {
		const sm = sessionOf([...turn(1, 400), ...turn(2, 400), ...turn(3, 200)]);
		const branch = sm.getBranch();
		const prep = prepareCompaction(branch, { ...settings, keepRecentTokens: 110 }, 100_000, 1234)!;
		// Walking back: turn 3 is 1 + 50 + 5 + 51 tokens; turn 2's tool result crosses 110, so turn 3 is kept.
		expect(prep.firstKeptEntryId).toBe(branch[8]!.id);
		expect(prep.messagesToSummarize).toHaveLength(8);
		expect(prep.keptMessages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(prep.isSplitTurn).toBe(false);
		expect(prep.tokensBefore).toBe(1234);
		expect(prep.fileOps).toEqual({ readFiles: ["f1.ts", "f2.ts"], modifiedFiles: [] });
	});

	test("never cuts between a tool call and its result", () => {
		// A huge tool result right at the budget: the cut moves to the next cut point, not onto the result.
		const messages = [...turn(1, 10), ...turn(2, 10)];
		(messages[6] as { content: unknown }).content = [{ type: "text", text: text(2000) }];
		const branch = sessionOf(messages).getBranch();
		const prep = prepareCompaction(branch, settings, 100_000, 0)!;
		const kept = branch.find((e) => e.id === prep.firstKeptEntryId)!;
		expect(kept.type === "message" && kept.message.role).toBe("assistant");
		expect(prep.keptMessages.map((m) => m.role)).toEqual(["assistant"]);
		expect(prep.isSplitTurn).toBe(true);
	});

	test("when everything fits, the last turn is kept; one message alone is nothing to compact", () => {
		const branch = sessionOf([...turn(1, 10), ...turn(2, 10)]).getBranch();
		const prep = prepareCompaction(branch, DEFAULT_COMPACTION_SETTINGS, 100_000, 0)!;
		expect(prep.keptMessages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
		expect(prep.isSplitTurn).toBe(false);
		expect(prepareCompaction(sessionOf([{ role: "user", content: "hi", timestamp: 1 }]).getBranch(), settings, 100_000, 0)).toBeUndefined();
	});

	test("a second compaction starts from what the first kept and folds in its summary", () => {
		const sm = sessionOf([...turn(1, 400), ...turn(2, 400)]);
		const firstKept = sm.getBranch()[4]!.id;
		sm.appendCompaction("first summary", firstKept, 999, { readFiles: ["old.ts"], modifiedFiles: [] });
		for (const m of turn(3, 400)) sm.appendMessage(m as never);
		const prep = prepareCompaction(sm.getBranch(), settings, 100_000, 0)!;
		expect(prep.previousSummary).toBe("first summary");
		expect((prep.messagesToSummarize[0] as { content: string }).content.startsWith("u2 ")).toBe(true);
		expect(prep.fileOps.readFiles).toContain("old.ts");
	});
});

describe("the summary request", () => {
	test("serialised conversation, sections, previous notes, split turn, custom instructions", () => {
		const messages: AgentMessage[] = [
			{ role: "user", content: "fix the bug", timestamp: 1 },
			assistant([{ type: "text", text: "looking" }, { type: "toolCall", id: "c", name: "read", arguments: { path: "a.ts" } }], 2),
			{ role: "toolResult", toolCallId: "c", toolName: "read", content: [{ type: "text", text: text(2100) }], isError: false, timestamp: 3 },
		];
		expect(serializeConversation(messages)).toBe(
			`[User]: fix the bug\n\n[Assistant]: looking\n\n[Assistant tool call]: read({"path":"a.ts"})\n\n[Tool result: read]: ${text(2000)}\n[… 100 more characters]`,
		);
		const prompt = summaryPrompt(
			{ firstKeptEntryId: "x", messagesToSummarize: messages, keptMessages: [], isSplitTurn: true, tokensBefore: 0, previousSummary: "earlier", fileOps: { readFiles: [], modifiedFiles: [] }, settings },
			"  the API changes ",
		);
		expect(prompt.startsWith("<conversation>\n[User]: fix the bug")).toBe(true);
		expect(prompt).toContain("<previous-notes>\nearlier\n</previous-notes>");
		expect(prompt).toContain("## Goal");
		expect(prompt).toContain("The last request above is still being worked on");
		expect(prompt.endsWith("The user asks you to focus on this: the API changes")).toBe(true);
		expect(withFileLists(" notes ", { readFiles: ["a.ts"], modifiedFiles: ["b.ts"] })).toBe("notes\n\n<read-files>\na.ts\n</read-files>\n\n<modified-files>\nb.ts\n</modified-files>");
	});
});

describe("isContextOverflow", () => {
	const failed = (errorMessage: string, errorStatus?: number) => ({ stopReason: "error", errorMessage, errorStatus });
	test.each([
		["mock API error (400): prompt is too long: 213462 tokens > 200000 maximum", 400, true],
		["openai API error (400): This model's maximum context length is 128000 tokens. However, your messages resulted in 130000 tokens.", 400, true],
		["Your input exceeds the context window of this model", 400, true],
		["the request exceeds the available context size, try increasing it", 400, true],
		["anything", 413, true],
		["Rate limited by openai (429): Request too large: too many tokens per min", 429, false],
		["openai API error (400): Invalid value for 'model'", 400, false],
	] as const)("%s (%p)", (message, status, expected) => {
		expect(isContextOverflow(failed(message, status))).toBe(expected);
	});
	test("only failed messages", () => {
		expect(isContextOverflow({ stopReason: "stop", errorMessage: "prompt is too long" })).toBe(false);
	});
});

describe("AgentSession compaction", () => {
	const echo: AgentTool = {
		name: "echo",
		label: "Echo",
		description: "Echo",
		parameters: Type.Object({ text: Type.String() }),
		async execute(_id, params: any) {
			return { content: [{ type: "text", text: params.text }], details: undefined };
		},
	} as AgentTool;

	function setup(turns: (ScriptedTurn & { usage?: number })[], model: Model = testModel, compaction = {}) {
		const stream = scriptedStream(turns);
		let i = 0;
		// Usage comes from the script (the scripted stream reports none).
		const withUsage: typeof stream = ((m: Model, c: never, o: never) => {
			const s = stream(m, c, o);
			const usage = turns[i++]?.usage;
			return {
				async *[Symbol.asyncIterator]() {
					for await (const e of s) {
						if (e.type === "done" && usage) e.message.usage = { ...e.message.usage, totalTokens: usage, input: usage };
						yield e;
					}
				},
				result: () => s.result(),
			};
		}) as never;
		const models: ModelAccess = { stream: withUsage, getApiKeyAndHeaders: async () => ({}), find: () => undefined };
		const sm = SessionManager.inMemory("/tmp");
		const session = new AgentSession({ cwd: "/tmp", model, thinkingLevel: "off", models, session: sm, tools: [echo], activeTools: ["echo"], systemPrompt: { cwd: "/tmp" }, compaction });
		const events: CompactionEvent[] = [];
		session.subscribe((e) => {
			if (e.type === "compaction_start" || e.type === "compaction_end") events.push(e);
		});
		return { session, stream, sm, events };
	}

	test("manual: the summary request, the entry, the rebuilt conversation, the events", async () => {
		const { session, stream, sm, events } = setup([{ text: "one" }, { text: "two" }, { text: "## Goal\nsummary text" }], testModel, { keepRecentTokens: 4 });
		await session.prompt(`first ${text(100)}`);
		await session.prompt("second");
		const result = await session.compact("focus on tests");
		expect(result.summary).toBe("## Goal\nsummary text");
		const request = stream.contexts[2]!;
		expect(request.tools).toEqual([]);
		expect(request.messages).toHaveLength(1);
		expect((request.messages[0]!.content as string).endsWith("The user asks you to focus on this: focus on tests")).toBe(true);
		expect(stream.options[2]!.maxTokens).toBe(4096);
		const entry = sm.getLeafEntry()!;
		expect(entry).toMatchObject({ type: "compaction", summary: "## Goal\nsummary text", firstKeptEntryId: result.firstKeptEntryId });
		expect(session.messages.map((m) => m.role)).toEqual(["compactionSummary", "user", "assistant"]);
		expect(events).toEqual([
			{ type: "compaction_start", reason: "manual" },
			{ type: "compaction_end", reason: "manual", result, aborted: false, willRetry: false },
		]);
		expect(session.getContextUsage()!.tokens).toBe(session.compaction.contextTokens());
	});

	test("hooks: an extension's compaction is used without a request; cancel and invalid ones fail", async () => {
		const { session, stream, sm, events } = setup([{ text: "one" }, { text: "two" }]);
		await session.prompt("first");
		await session.prompt("second");
		const seen: string[] = [];
		session.compaction.hooks = {
			before: async ({ preparation }) => ({ compaction: { summary: "from hook", firstKeptEntryId: preparation.firstKeptEntryId, tokensBefore: 7 } }),
			compacted: async (entry, fromExtension) => void seen.push(`compacted ${entry.summary} ${fromExtension}`),
			failed: async (info) => void seen.push(`failed ${info.reason} aborted=${info.aborted} fromExtension=${info.fromExtension} ${info.error ?? ""}`.trim()),
		};
		await session.compact();
		expect(stream.contexts).toHaveLength(2);
		expect(sm.getLeafEntry()).toMatchObject({ type: "compaction", summary: "from hook", tokensBefore: 7, fromHook: true });

		session.compaction.hooks.before = async () => ({ cancel: true });
		await expect(session.compact()).rejects.toThrow("Compaction cancelled");
		session.compaction.hooks.before = async () => ({ compaction: { summary: "x", firstKeptEntryId: "nope", tokensBefore: 1 } });
		await expect(session.compact()).rejects.toThrow('session_before_compact returned an invalid compaction: firstKeptEntryId "nope" is not an entry on the current branch');
		expect(seen).toEqual([
			"compacted from hook true",
			"failed manual aborted=true fromExtension=false",
			'failed manual aborted=false fromExtension=true session_before_compact returned an invalid compaction: firstKeptEntryId "nope" is not an entry on the current branch',
		]);
		expect(events.filter((e) => e.type === "compaction_end").map((e) => [(e as { aborted: boolean }).aborted, (e as { errorMessage?: string }).errorMessage])).toEqual([
			[false, undefined],
			[true, undefined],
			[false, 'Compaction failed: session_before_compact returned an invalid compaction: firstKeptEntryId "nope" is not an entry on the current branch'],
		]);
	});

	test("threshold: a request over contextWindow - reserve is preceded by a summary request", async () => {
		const small: Model = { ...testModel, contextWindow: 2000 };
		const { session, stream, events } = setup([{ text: "one", usage: 1500 }, { text: "summary" }, { text: "two" }], small);
		await session.prompt(`first ${text(400)}`);
		await session.prompt("second");
		expect(stream.contexts).toHaveLength(3);
		expect(stream.contexts[1]!.systemPrompt).toContain("handover notes");
		expect(stream.contexts[2]!.messages.map((m) => m.role)).toEqual(["user", "user"]);
		expect(stream.contexts[2]!.messages[0]!.content).toContain("<summary>\nsummary\n</summary>");
		expect(events.map((e) => [e.type, e.reason])).toEqual([
			["compaction_start", "threshold"],
			["compaction_end", "threshold"],
		]);
	});

	test("after a compaction, no second threshold compaction on estimates alone (only once a response reports usage)", async () => {
		const small: Model = { ...testModel, contextWindow: 2000 };
		const { session, stream, events } = setup([{ text: "one", usage: 1500 }, { text: "summary" }, { text: "two" }, { text: "three" }], small);
		await session.prompt("first");
		await session.prompt(`second ${text(3800)}`);
		await session.prompt("third");
		expect(stream.contexts).toHaveLength(4);
		expect(stream.contexts[3]!.messages.map((m) => m.role)).toEqual(["user", "user", "assistant", "user"]);
		expect(events).toHaveLength(2);
	});

	test("overflow: compact, then the same request once more; a second overflow is final", async () => {
		const { session, stream, events } = setup([
			{ text: "one" },
			{ text: "two" },
			{ error: "prompt is too long: 3000 tokens > 2000 maximum" },
			{ text: "summary" },
			{ text: "three" },
		]);
		await session.prompt("first");
		await session.prompt("second");
		await session.prompt("third");
		expect(session.lastAssistant()!.content).toEqual([{ type: "text", text: "three" }]);
		expect(stream.contexts[4]!.messages[0]!.content).toContain("<summary>\nsummary\n</summary>");
		expect(session.messages.some((m) => m.role === "assistant" && m.stopReason === "error")).toBe(false);
		expect(events.map((e) => [e.type, e.reason, (e as { willRetry?: boolean }).willRetry])).toEqual([
			["compaction_start", "overflow", undefined],
			["compaction_end", "overflow", true],
		]);

		const again = setup([{ text: "one" }, { text: "two" }, { error: "prompt is too long" }, { text: "summary" }, { error: "prompt is too long" }]);
		await again.session.prompt("first");
		await again.session.prompt("second");
		await again.session.prompt("third");
		expect(again.session.lastAssistant()).toMatchObject({ stopReason: "error", errorMessage: "prompt is too long" });
		expect(again.stream.contexts).toHaveLength(5);
	});

	test("disabled: no threshold compaction and overflow errors stay errors", async () => {
		const small: Model = { ...testModel, contextWindow: 2000 };
		const { session, stream } = setup([{ text: "one", usage: 1900 }, { error: "prompt is too long" }], small, { enabled: false });
		await session.prompt("first");
		await session.prompt("second");
		expect(stream.contexts).toHaveLength(2);
		expect(session.lastAssistant()!.stopReason).toBe("error");
	});
});
