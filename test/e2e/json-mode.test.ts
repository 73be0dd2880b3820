// `agent --mode json` through the compiled binary: line 1 is the session header, then one JSON
// line per session event, for both wire protocols; retries show as auto_retry_* lines.
import { describe, expect, test } from "bun:test";
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

function headerOf(world: MockWorld): any {
	return readSessionLines(world.onlySessionFile())[0];
}

for (const protocol of PROTOCOLS) {
	const model = ["-ne", "--model", MODEL[protocol]];

	describe(`agent --mode json (${protocol})`, () => {
		test("line 1 is the session header, then every event of a text answer", async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "Hello in JSON." });
			const r = await world.run([...model, "--mode", "json", "say hello"]);
			expect(r.stderr).toBe("");
			expect(r.code).toBe(0);
			const [header, ...events] = jsonLines(r.stdout);
			const saved = headerOf(world);
			expect(header).toEqual({ type: "session", version: 3, id: saved.id, timestamp: saved.timestamp, cwd: world.cwd });
			expect(eventTypes(events)).toEqual([
				"agent_start",
				"turn_start",
				"message_start",
				"message_end",
				"message_start",
				"message_update",
				"message_end",
				"turn_end",
				"agent_end",
			]);
			expect(events[2].message).toMatchObject({ role: "user", content: "say hello" });
			const final = events.findLast((e) => e.type === "message_end").message;
			expect(final).toMatchObject({ role: "assistant", content: [{ type: "text", text: "Hello in JSON." }], stopReason: "stop" });
			// The deltas add up to the text.
			const deltas = events.filter((e) => e.assistantMessageEvent?.type === "text_delta").map((e) => e.assistantMessageEvent.delta);
			expect(deltas.join("")).toBe("Hello in JSON.");
			expect(events.at(-1).messages.map((m: any) => m.role)).toEqual(["user", "assistant"]);
		});

		test("a tool call shows tool_execution_start/update/end and a second turn", async () => {
			await using world = await mockWorld();
			world.mock.script({ toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "echo from-bash" } }] }, { text: "Done." });
			const r = await world.run([...model, "--mode", "json", "go"]);
			expect(r.code).toBe(0);
			const [, ...events] = jsonLines(r.stdout);
			expect(eventTypes(events).filter((t) => t !== "tool_execution_update")).toEqual([
				"agent_start",
				"turn_start",
				"message_start",
				"message_end",
				"message_start",
				"message_update",
				"message_end",
				"tool_execution_start",
				"tool_execution_end",
				"message_start",
				"message_end",
				"turn_end",
				"turn_start",
				"message_start",
				"message_update",
				"message_end",
				"turn_end",
				"agent_end",
			]);
			expect(events.find((e) => e.type === "tool_execution_start")).toEqual({ type: "tool_execution_start", toolCallId: "call_1", toolName: "bash", args: { command: "echo from-bash" } });
			const end = events.find((e) => e.type === "tool_execution_end");
			expect(end).toMatchObject({ toolCallId: "call_1", toolName: "bash", isError: false, result: { content: [{ type: "text", text: "from-bash" }] } });
			expect(events.filter((e) => e.type === "turn_end").map((e) => e.turnIndex)).toEqual([0, 1]);
			expect(events.find((e) => e.type === "turn_end").toolResults.map((m: any) => m.toolCallId)).toEqual(["call_1"]);
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
				{ type: "auto_retry_end", success: true, attempt: 2 },
			]);
			// The failed attempt leaves no message behind: one user and one assistant message.
			expect(events.filter((e) => e.type === "message_end").map((e) => e.message.role)).toEqual(["user", "assistant"]);
			expect(eventTypes(events).indexOf("auto_retry_start")).toBeLessThan(eventTypes(events).indexOf("auto_retry_end"));
		});

		test("a failed run still ends with agent_end, and exits 1 with the error on stderr", async () => {
			await using world = await mockWorld();
			world.mock.script({ status: 400, message: "context too long" });
			const r = await world.run([...model, "--mode", "json", "go"]);
			expect(r.code).toBe(1);
			const provider = protocol === "openai" ? "mock" : "mock-anthropic";
			const [, ...events] = jsonLines(r.stdout);
			expect(events.at(-1).type).toBe("agent_end");
			const failed = events.findLast((e) => e.type === "message_end").message;
			expect(failed.stopReason).toBe("error");
			expect(r.stderr).toBe(`Error: ${failed.errorMessage}\n`);
			expect(failed.errorMessage).toBe(`${provider} API error (400): context too long`);
			// 400 is not worth retrying.
			expect(world.mock.requests).toHaveLength(1);
		});
	});
}
