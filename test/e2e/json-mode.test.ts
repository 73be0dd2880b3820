// `agent --mode json` through the compiled binary: line 1 is the session header, then one JSON
// line per session event in pi 1.6's shape, checked line by line against the list in README.md,
// for both wire protocols; retries show as auto_retry_* lines, extension entries as entry_appended.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { MODEL, type MockWorld, mockWorld, type Protocol, readSessionLines } from "../support/world.ts";

const PROTOCOLS: Protocol[] = ["openai", "anthropic"];

/** Every stdout line parsed; a line that is not JSON fails the test with the line in view. */
function jsonLines(stdout: string): any[] {
	expect(stdout.endsWith("\n")).toBe(true);
	return stdout
		.slice(0, -1)
		.split("\n")
		.map((line) => {
			try {
				return JSON.parse(line);
			} catch {
				throw new Error(`not a JSON line: ${line}`);
			}
		});
}

/** Event types in order, with runs of the same *_update type folded into one. */
function eventTypes(events: any[]): string[] {
	const types: string[] = [];
	for (const e of events) if (!(e.type.endsWith("_update") && types.at(-1) === e.type)) types.push(e.type);
	return types;
}

/** A line as README.md lists it: `type[:role or streamed piece]` and its fields; runs of the same line folded. */
function signatures(lines: any[]): string[] {
	const out: string[] = [];
	for (const line of lines) {
		const { type, ...fields } = line;
		const detail = line.message?.role ?? line.assistantMessageEvent?.type;
		const sig = [`${type}${detail ? `:${detail}` : ""}`, ...Object.keys(fields)].join(" ");
		if (out.at(-1) !== sig) out.push(sig);
	}
	return out;
}

/** The event list between the json-events markers in README.md, one signature per line. */
function readmeEventList(): string[] {
	const readme = readFileSync(join(import.meta.dir, "../../README.md"), "utf8");
	const block = /<!-- json-events:start -->\n```text\n([\s\S]*?)```\n<!-- json-events:end -->/.exec(readme);
	if (!block) throw new Error("README.md has no json-events block");
	return block[1]!.trim().split("\n").map((l) => l.trim().split(/\s+/).join(" "));
}

function headerOf(world: MockWorld): any {
	return readSessionLines(world.onlySessionFile())[0];
}

for (const protocol of PROTOCOLS) {
	const model = ["-ne", "--model", MODEL[protocol]];

	describe(`agent --mode json (${protocol})`, () => {
		test("a tool call and an answer: exactly the lines README.md lists, header first", async () => {
			await using world = await mockWorld();
			world.mock.script({ toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "echo from-bash" } }] }, { text: "Done: it printed from-bash." });
			const r = await world.run([...model, "--mode", "json", "run echo from-bash"]);
			expect(r.stderr).toBe("");
			expect(r.code).toBe(0);
			const lines = jsonLines(r.stdout);
			expect(signatures(lines)).toEqual(readmeEventList());

			const [header, ...events] = lines;
			const saved = headerOf(world);
			expect(header).toEqual({ type: "session", version: 3, id: saved.id, timestamp: saved.timestamp, cwd: world.cwd });
			// The system message: the prompt and the tools the model works with, not part of the conversation.
			const system = events.find((e) => e.type === "message_start").message;
			expect(system).toMatchObject({ role: "system", content: "", sections: { prompt: expect.stringContaining(world.cwd) } });
			expect(system.toolsAdded.map((t: any) => t.name)).toEqual(["read", "bash", "edit", "write"]);
			expect(system.toolsAdded[1].parameters).toMatchObject({ type: "object", required: ["command"] });
			expect(readSessionLines(world.onlySessionFile()).filter((e) => e.type === "message").map((e) => e.message.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
			expect(events[4].message).toMatchObject({ role: "user", content: "run echo from-bash" });
			// An answer starts empty: its pieces arrive as message_update deltas.
			expect(events.filter((e) => e.type === "message_start" && e.message.role === "assistant").map((e) => e.message.content)).toEqual([[], []]);
			// Delta-only updates: no message snapshot; toolcall_start names the call; the deltas add up.
			const updates = events.filter((e) => e.type === "message_update");
			expect(updates.every((e) => !("message" in e) && !("partial" in e.assistantMessageEvent) && typeof e.usage.totalTokens === "number")).toBe(true);
			expect(updates[0].assistantMessageEvent).toEqual({ type: "toolcall_start", contentIndex: 0, id: "call_1", toolName: "bash" });
			const pieces = (kind: string) => updates.filter((e) => e.assistantMessageEvent.type === kind).map((e) => e.assistantMessageEvent.delta).join("");
			expect(JSON.parse(pieces("toolcall_delta"))).toEqual({ command: "echo from-bash" });
			expect(pieces("text_delta")).toBe("Done: it printed from-bash.");
			expect(updates.at(-1).usage).toMatchObject({ input: 10, output: 5 });
			// The tool's progress, then its result.
			expect(events.find((e) => e.type === "tool_execution_start")).toEqual({ type: "tool_execution_start", toolCallId: "call_1", toolName: "bash", args: { command: "echo from-bash" } });
			expect(events.find((e) => e.type === "tool_execution_update")).toMatchObject({ toolCallId: "call_1", partialResult: { content: [{ type: "text", text: "from-bash" }] } });
			expect(events.find((e) => e.type === "tool_execution_end")).toMatchObject({ toolCallId: "call_1", toolName: "bash", isError: false, result: { content: [{ type: "text", text: "from-bash" }] }, durationMs: expect.any(Number) });
			expect(events.find((e) => e.type === "message_end" && e.message.role === "toolResult").message.durationMs).toBeGreaterThanOrEqual(0);
			expect(events.find((e) => e.type === "turn_end").toolResults.map((m: any) => m.toolCallId)).toEqual(["call_1"]);
			const end = events.find((e) => e.type === "agent_end");
			expect(end.willRetry).toBe(false);
			expect(end.messages.map((m: any) => m.role)).toEqual(["system", "user", "assistant", "toolResult", "assistant"]);
			expect(events.at(-1)).toEqual({ type: "agent_settled", aborted: false });
		});

		test("a second prompt announces no system message when nothing changed", async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "one" }, { text: "two" });
			const r = await world.run([...model, "--mode", "json", "first", "second"]);
			expect(r.code).toBe(0);
			const [, ...events] = jsonLines(r.stdout);
			expect(events.filter((e) => e.type === "message_start").map((e) => e.message.role)).toEqual(["system", "user", "assistant", "user", "assistant"]);
			expect(events.filter((e) => e.type === "agent_settled")).toHaveLength(2);
		});

		test("entries an extension appends show as entry_appended, from session_start on", async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "ok" });
			const ext = world.write(
				"project/notes.ts",
				`export default function (pi) {
	pi.on("session_start", () => pi.appendEntry("notes", { at: "start" }));
	pi.on("agent_end", () => pi.appendEntry("notes", { at: "end" }));
}
`,
			);
			const r = await world.run(["--model", MODEL[protocol], "-ne", "-e", ext, "--mode", "json", "go"]);
			expect(r.code).toBe(0);
			const lines = jsonLines(r.stdout);
			expect(lines[0].type).toBe("session");
			// session_start ran before the first prompt: its entry comes right after the header.
			expect(lines[1]).toMatchObject({ type: "entry_appended", entry: { type: "custom", customType: "notes", data: { at: "start" } } });
			const appended = lines.filter((e) => e.type === "entry_appended");
			expect(appended.map((e) => e.entry.data.at)).toEqual(["start", "end"]);
			const saved = readSessionLines(world.onlySessionFile()).filter((e) => e.type === "custom");
			expect(saved.map((e) => e.id)).toEqual(appended.map((e) => e.entry.id));
		});

		test("a session file that cannot be written: session_save_failed on the stream, the warning on stderr, the run goes on", async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "answered anyway" });
			const blocker = world.write("project/blocker", "a file, not a folder\n");
			const r = await world.run([...model, "--mode", "json", "--session-dir", join(blocker, "sessions"), "go"]);
			expect(r.code).toBe(0);
			const events = jsonLines(r.stdout);
			const failed = events.filter((e) => e.type === "session_save_failed");
			expect(failed).toHaveLength(1);
			expect(failed[0]).toEqual({ type: "session_save_failed", sessionFile: expect.stringContaining(join(blocker, "sessions")), unsaved: 5, error: expect.stringContaining("ENOTDIR") });
			// The warning when saving first failed, and at the end what the file lacks.
			const warnings = r.stderr.trimEnd().split("\n");
			expect(warnings).toHaveLength(2);
			expect(warnings[0]).toBe(`Warning: ${failed[0].error}`);
			expect(warnings[1]).toMatch(/^Warning: 5 entries of this run could not be saved to .*blocker\/sessions\/.*\.jsonl \(not a directory \(ENOTDIR\)\); the file holds only what was saved before\.$/);
			expect(events.findLast((e) => e.type === "message_end").message).toMatchObject({ role: "assistant", content: [{ type: "text", text: "answered anyway" }] });
			expect(events.at(-1)).toEqual({ type: "agent_settled", aborted: false });
		});

		test("429 with retry-after: auto_retry_start, then success and auto_retry_end, exit 0", async () => {
			await using world = await mockWorld();
			world.mock.script({ status: 429, retryAfter: 0.02, message: "slow down" }, { text: "Made it." });
			const r = await world.run([...model, "--mode", "json", "go"]);
			expect(r.stderr).toBe("");
			expect(r.code).toBe(0);
			expect(world.mock.requests).toHaveLength(2);
			const [, ...events] = jsonLines(r.stdout);
			const provider = protocol === "openai" ? "mock" : "mock-anthropic";
			const retries = events.filter((e) => e.type.startsWith("auto_retry_"));
			expect(retries).toEqual([
				{ type: "auto_retry_start", attempt: 1, maxAttempts: 3, delayMs: 20, errorMessage: `Rate limited by ${provider} (429): slow down` },
				{ type: "auto_retry_end", success: true, attempt: 1 },
			]);
			// The failed attempt leaves no message behind: one user and one assistant message.
			expect(events.filter((e) => e.type === "message_end").map((e) => e.message.role)).toEqual(["system", "user", "assistant"]);
			expect(eventTypes(events).indexOf("auto_retry_start")).toBeLessThan(eventTypes(events).indexOf("auto_retry_end"));
		});

		test("a failed run still ends with agent_end, and exits 1 with the error on stderr", async () => {
			await using world = await mockWorld();
			world.mock.script({ status: 400, message: "context too long" });
			const r = await world.run([...model, "--mode", "json", "go"]);
			expect(r.code).toBe(1);
			const provider = protocol === "openai" ? "mock" : "mock-anthropic";
			const [, ...events] = jsonLines(r.stdout);
			expect(events.slice(-2).map((e) => e.type)).toEqual(["agent_end", "agent_settled"]);
			const failed = events.findLast((e) => e.type === "message_end").message;
			expect(failed.stopReason).toBe("error");
			expect(r.stderr).toBe(`Error: ${failed.errorMessage}\n`);
			expect(failed.errorMessage).toBe(`${provider} API error (400): context too long`);
			// 400 is not worth retrying.
			expect(world.mock.requests).toHaveLength(1);
		});
	});
}
