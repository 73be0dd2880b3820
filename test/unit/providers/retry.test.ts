// The retry policy (what is retried, how long to wait) and withRetry's handling of abort.
import { describe, expect, test } from "bun:test";
import { createAssistantMessageEventStream } from "../../../src/core/providers/event-stream.ts";
import { createRetryPolicy, isRetryable, withRetry, type RetryStart } from "../../../src/core/providers/retry.ts";
import type { AssistantMessage, Model, StreamFunction } from "../../../src/core/providers/types.ts";
import { emptyUsage } from "../../../src/core/providers/types.ts";

function failed(fields: Partial<AssistantMessage>): AssistantMessage {
	return { role: "assistant", content: [], api: "x", provider: "p", model: "m", usage: emptyUsage(), stopReason: "error", timestamp: 0, ...fields };
}

describe("isRetryable", () => {
	test.each([
		[{ errorStatus: 429 }, true],
		[{ errorStatus: 500 }, true],
		[{ errorStatus: 529 }, true],
		[{ errorStatus: 408 }, true],
		[{ errorStatus: 400 }, false],
		[{ errorStatus: 401 }, false],
		[{ errorMessage: "anthropic stream error: Overloaded" }, true],
		[{ errorMessage: "The connection to x was lost before the response finished (ECONNRESET)" }, true],
		[{ errorMessage: "Could not connect to ollama at http://localhost:11434/v1: connection refused (is the server running?)" }, false],
		[{ stopReason: "aborted" as const, errorMessage: "Request aborted" }, false],
	])("%j → %p", (fields, expected) => {
		expect(isRetryable(failed(fields))).toBe(expected);
	});
});

describe("createRetryPolicy", () => {
	test("exponential backoff, capped, for at most maxAttempts retries", () => {
		const policy = createRetryPolicy({ maxAttempts: 4, baseDelayMs: 1000, maxDelayMs: 5000 });
		const error = failed({ errorStatus: 503 });
		expect([1, 2, 3, 4, 5].map((n) => policy.delayFor(error, n))).toEqual([1000, 2000, 4000, 5000, undefined]);
	});

	test("retry-after wins when within the cap, and gives up when beyond it", () => {
		const policy = createRetryPolicy();
		expect(policy.maxAttempts).toBe(3);
		expect(policy.delayFor(failed({ errorStatus: 429, retryAfterMs: 7000 }), 1)).toBe(7000);
		expect(policy.delayFor(failed({ errorStatus: 429, retryAfterMs: 61_000 }), 1)).toBeUndefined();
		expect(policy.delayFor(failed({ errorStatus: 429 }), 2)).toBe(4000);
	});
});

describe("withRetry", () => {
	const model = { id: "m", provider: "p", api: "x" } as Model;

	test("an abort while waiting ends the stream as aborted without another attempt", async () => {
		let calls = 0;
		const flaky: StreamFunction = () => {
			calls++;
			const s = createAssistantMessageEventStream();
			const message = failed({ errorStatus: 503, errorMessage: "p server error (503): busy" });
			s.push({ type: "start", partial: message });
			s.push({ type: "error", reason: "error", error: message });
			return s;
		};
		const controller = new AbortController();
		const starts: RetryStart[] = [];
		const s = withRetry(flaky, {
			policy: createRetryPolicy({ baseDelayMs: 60_000 }),
			onRetry: (info) => {
				starts.push(info);
				controller.abort();
			},
		})(model, { messages: [] }, { signal: controller.signal });
		const events = [];
		for await (const e of s) events.push(e.type);
		expect(events).toEqual(["start", "error"]);
		expect(await s.result()).toMatchObject({ stopReason: "aborted", errorMessage: "Request aborted" });
		expect(calls).toBe(1);
		expect(starts).toEqual([{ attempt: 1, maxAttempts: 3, delayMs: 60_000, errorMessage: "p server error (503): busy" }]);
	});
});
