// The boundary events turn_end and agent_before_settle through the compiled binary: drafts of every
// kind persisted in order, the preview context, `continue: true` making one more provider request,
// and an invalid draft voiding the boundary's drafts and its continue (SPEC §6, seeds 7.1).
import { describe, expect, test } from "bun:test";
import { readMessages } from "../support/mock-llm.ts";
import { onlySession, runWith, stable, transcript, writeExtension } from "../support/runtime.ts";
import { mockWorld } from "../support/world.ts";

describe("turn_end", () => {
	test("drafts of each kind are persisted in order; handlers see and replace the list", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"drafts",
			`export default function (pi) {
	pi.on("turn_end", (e) => {
		if (e.turnIndex !== 0) return;
		const user = e.context.messages[0];
		return { entries: [...e.entries, { kind: "custom", customType: "audit", data: { turn: e.turnIndex } }] };
	});
	pi.on("turn_end", (e, ctx) => {
		if (e.turnIndex !== 0) return;
		log(e.entries.map((d) => d.kind));
		const userEntry = ctx.sessionManager.getBranch().find((x) => x.type === "message" && x.message.role === "user");
		return {
			entries: [
				...e.entries,
				{ kind: "custom_message", customType: "reminder", content: "remember the tests", display: true },
				{ kind: "context_edit", entryId: userEntry.id, action: "replace", content: "redacted prompt" },
			],
		};
	});
	pi.on("turn_end", (e) => { if (e.turnIndex === 0) log(e.entries.map((d) => d.kind), e.context.messages.map((m) => m.role + ":" + (typeof m.content === "string" ? m.content : m.content[0]?.type))); });
}
`,
		);
		world.mock.script({ toolCalls: [{ name: "ls", arguments: {} }] }, { text: "done" });
		const r = await runWith(world, [ext], ["secret prompt"], { args: ["--tools", "ls"] });
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([
			["custom"],
			[
				["custom", "custom_message", "context_edit"],
				["user:redacted prompt", "assistant:toolCall", "toolResult:text", "custom:remember the tests"],
			],
		]);
		// The second request: the edit and the custom message are in the model's context.
		expect(readMessages(world.mock.lastRequest()).slice(1).map((m) => `${m.role}:${m.text}`)).toEqual([
			"user:redacted prompt",
			"assistant:",
			expect.stringMatching(/^toolResult:/),
			"user:remember the tests",
		]);
		const entries = stable(onlySession(world)).slice(3);
		expect(entries.map((e) => e.type + (e.customType ? `(${e.customType})` : ""))).toEqual([
			"message",
			"message",
			"message",
			"custom(audit)",
			"custom_message(reminder)",
			"custom(context_edit)",
			"message",
		]);
		expect(entries[3]).toEqual({ type: "custom", customType: "audit", data: { turn: 0 } });
	});

	test("continue: true after a final answer makes one more provider request", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"more",
			`export default function (pi) {
	let asked = false;
	pi.on("turn_end", (e) => {
		log(e.turnIndex, e.context.canContinue);
		if (asked) return;
		asked = true;
		return { entries: [{ kind: "custom_message", customType: "nudge", content: "also check the docs", display: false }], continue: true };
	});
}
`,
		);
		world.mock.script({ text: "first answer" }, { text: "second answer" });
		const r = await runWith(world, [ext], ["go"], { mode: "print" });
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("second answer\n");
		expect(world.mock.requests.length).toBe(2);
		expect(readMessages(world.mock.lastRequest()).at(-1)).toEqual({ role: "user", text: "also check the docs" });
		expect(r.log).toEqual([
			[0, false],
			[1, false],
		]);
		expect(transcript(onlySession(world))).toEqual(["user: go", "assistant: first answer", "custom(nudge): also check the docs", "assistant: second answer"]);
	});

	test("continue: true with nothing new for the model does not loop", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "noop", `export default (pi) => pi.on("turn_end", () => ({ continue: true }));\n`);
		world.mock.script({ text: "only" });
		const r = await runWith(world, [ext], ["go"], { mode: "print" });
		expect(r).toMatchObject({ stdout: "only\n", stderr: "", code: 0 });
		expect(world.mock.requests.length).toBe(1);
	});

	test("an invalid draft voids every draft of the boundary and its continue; reported once", async () => {
		await using world = await mockWorld();
		const good = writeExtension(world, "good", `export default (pi) => pi.on("turn_end", (e) => ({ entries: [...e.entries, { kind: "custom", customType: "kept?" }], continue: true }));\n`);
		const bad = writeExtension(world, "bad", `export default (pi) => pi.on("turn_end", (e) => ({ entries: [...e.entries, { kind: "custom_message", customType: "x", content: "y" }], continue: true }));\n`);
		const after = writeExtension(world, "after", `export default (pi) => pi.on("turn_end", (e) => { log(e.entries.length, e.continue); return { entries: [...e.entries, { kind: "custom_message", customType: "z", content: "z", display: true }] }; });\n`);
		world.mock.script({ text: "answer" });
		const r = await runWith(world, [good, bad, after], ["go"], { mode: "print" });
		expect(r.stderr).toBe("Extension error (./bad.ts): Invalid boundary draft: a custom_message draft needs display: boolean. All drafts of this turn_end were discarded and it does not continue.\n");
		expect(r.stdout).toBe("answer\n");
		expect(r.log).toEqual([[2, true]]);
		expect(world.mock.requests.length).toBe(1);
		expect(onlySession(world).filter((e) => e.type === "custom" || e.type === "custom_message")).toEqual([]);
	});

	test("a context_edit naming an unknown entry is invalid, not a crash", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(world, "edit", `export default (pi) => pi.on("turn_end", () => ({ entries: [{ kind: "context_edit", entryId: "nope", action: "omit" }] }));\n`);
		world.mock.script({ text: "answer" });
		const r = await runWith(world, [ext], ["go"], { mode: "print" });
		expect(r.stderr).toBe("Extension error (./edit.ts): Invalid boundary draft: context_edit: no message entry with id nope in this session. All drafts of this turn_end were discarded and it does not continue.\n");
		expect(r.code).toBe(0);
	});

	test("a compaction draft appends a compaction entry, rebuilds the context and fires session_compact", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"compact",
			`export default function (pi) {
	let turns = 0;
	pi.on("turn_end", (e, ctx) => {
		// Each prompt is a run of its own: this is the end of the second one.
		if (++turns !== 2) return;
		const branch = ctx.sessionManager.getBranch();
		const lastUser = branch.filter((x) => x.type === "message" && x.message.role === "user").at(-1);
		return { entries: [{ kind: "compaction", summary: "we listed files", firstKeptEntryId: lastUser.id, tokensBefore: 1234 }] };
	});
	pi.on("session_compact", (e) => log(e.compactionEntry.type, e.compactionEntry.summary, e.fromExtension));
}
`,
		);
		world.mock.script({ text: "one" }, { text: "two" }, { text: "three" });
		const r = await runWith(world, [ext], ["first", "second", "third"], { mode: "print", args: ["--tools", "ls"] });
		expect(r.stderr).toBe("");
		expect(r.log).toEqual([["compaction", "we listed files", true]]);
		expect(readMessages(world.mock.lastRequest()).slice(1).map((m) => m.text)).toEqual([
			"The conversation history before this point was compacted into the following summary:\n<summary>\nwe listed files\n</summary>",
			"second",
			"two",
			"third",
		]);
		expect(onlySession(world).find((e) => e.type === "compaction")).toMatchObject({ summary: "we listed files", tokensBefore: 1234, fromHook: true });
	});
});

describe("agent_before_settle", () => {
	test("drafts are persisted, continue runs once more, then it settles; agent_settled follows", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"settle",
			`export default function (pi) {
	let rounds = 0;
	pi.on("agent_before_settle", (e) => {
		log("settle", e.outcome, e.context.canContinue, e.context.messages.at(-1).role);
		if (rounds++ > 0) return { entries: [...e.entries, { kind: "custom", customType: "settled", data: { rounds } }] };
		return { entries: [{ kind: "custom_message", customType: "check", content: "did you run the tests?", display: true }], continue: true };
	});
	pi.on("agent_settled", (e) => log("settled", e.outcome));
	pi.on("agent_end", () => log("agent_end"));
}
`,
		);
		world.mock.script({ text: "done" }, { text: "yes, they pass" });
		const r = await runWith(world, [ext], ["fix it"], { mode: "print" });
		expect(r.stderr).toBe("");
		expect(r.stdout).toBe("yes, they pass\n");
		expect(r.log).toEqual([
			"agent_end",
			["settle", "completed", false, "assistant"],
			"agent_end",
			["settle", "completed", false, "assistant"],
			["settled", "completed"],
		]);
		expect(readMessages(world.mock.lastRequest()).at(-1)).toEqual({ role: "user", text: "did you run the tests?" });
		const entries = onlySession(world);
		expect(transcript(entries)).toEqual(["user: fix it", "assistant: done", "custom(check): did you run the tests?", "assistant: yes, they pass"]);
		expect(stable(entries).at(-1)).toEqual({ type: "custom", customType: "settled", data: { rounds: 2 } });
	});

	test("after a failed run the outcome is error and continue is refused", async () => {
		await using world = await mockWorld();
		const ext = writeExtension(
			world,
			"fail",
			`export default function (pi) {
	pi.on("agent_before_settle", (e) => { log(e.outcome, e.context.canContinue); return { entries: [{ kind: "custom_message", customType: "retry", content: "again", display: true }], continue: true }; });
	pi.on("agent_settled", (e) => log("settled", e.outcome));
}
`,
		);
		world.mock.script({ status: 400, message: "no" });
		const r = await runWith(world, [ext], ["go"], { mode: "print" });
		expect(r.code).toBe(1);
		expect(r.log).toEqual([
			["error", false],
			["settled", "error"],
		]);
		expect(world.mock.requests.length).toBe(1);
	});
});
