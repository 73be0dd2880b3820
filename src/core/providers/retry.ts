// When and how long to wait before retrying a failed request: 429, 5xx, overloaded and dropped
// connections, with exponential backoff that honours the server's retry-after, within bounds.
import { EventStream } from "./event-stream.ts";
import type { AssistantMessage, AssistantMessageEvent, StreamFunction } from "./types.ts";
import { newAssistantMessage } from "./wire.ts";

export interface RetryPolicyOptions {
	/** Retries after the first attempt. Default 3. */
	maxAttempts?: number;
	/** First backoff delay; doubles each retry. Default 2000 ms. */
	baseDelayMs?: number;
	/** Longest wait; a server asking for longer is not retried. Default 60000 ms. */
	maxDelayMs?: number;
}

/** The shape the agent loop takes as `hooks.retry`. */
export interface RetryPolicy {
	maxAttempts: number;
	/** Delay before retry number `attempt` (from 1), or undefined to give up. */
	delayFor(message: AssistantMessage, attempt: number): number | undefined;
}

export interface RetryStart {
	attempt: number;
	maxAttempts: number;
	delayMs: number;
	errorMessage: string;
}

export interface RetryEnd {
	success: boolean;
	attempt: number;
	finalError?: string;
}

// Failures without an HTTP status that are worth another try.
const TRANSIENT = /overloaded|rate.?limit|too many requests|ECONNRESET|socket hang ?up|connection (?:was )?(?:reset|closed|lost)|closed before the response finished|other side closed|timed? ?out|terminated/i;

/** A failed message the same request might not fail with again. */
export function isRetryable(message: AssistantMessage): boolean {
	if (message.stopReason !== "error") return false;
	const status = message.errorStatus;
	if (status !== undefined) return status === 408 || status === 429 || status >= 500;
	return TRANSIENT.test(message.errorMessage ?? "");
}

export function createRetryPolicy(options: RetryPolicyOptions = {}): RetryPolicy {
	const maxAttempts = options.maxAttempts ?? 3;
	const baseDelayMs = options.baseDelayMs ?? 2000;
	const maxDelayMs = options.maxDelayMs ?? 60_000;
	return {
		maxAttempts,
		delayFor(message, attempt) {
			if (attempt > maxAttempts || !isRetryable(message)) return undefined;
			if (message.retryAfterMs !== undefined) return message.retryAfterMs <= maxDelayMs ? message.retryAfterMs : undefined;
			return Math.min(baseDelayMs * 2 ** (attempt - 1), maxDelayMs);
		},
	};
}

export interface WithRetryOptions {
	policy?: RetryPolicy;
	onRetry?(info: RetryStart): void;
	onRetryEnd?(info: RetryEnd): void;
}

/**
 * Wrap a stream function so a request that fails before streaming any content is retried per the
 * policy. The `start` event is held back until content arrives, so a retried attempt leaves no trace
 * in the events. A failure after content has streamed is final.
 */
export function withRetry(streamFn: StreamFunction, options: WithRetryOptions = {}): StreamFunction {
	const policy = options.policy ?? createRetryPolicy();
	return (model, context, streamOptions) => {
		const out = new EventStream();
		const signal = streamOptions?.signal;
		void (async () => {
			for (let attempt = 1; ; attempt++) {
				const inner = streamFn(model, context, streamOptions);
				let held: AssistantMessageEvent | undefined;
				let started = false;
				let last: AssistantMessageEvent | undefined;
				for await (const event of inner) {
					if (event.type === "done" || event.type === "error") {
						last = event;
						break;
					}
					if (event.type === "start" && !started) {
						held = event;
						continue;
					}
					if (!started && held) out.push(held);
					started = true;
					out.push(event);
				}
				let final = last?.type === "done" ? last.message : last?.type === "error" ? last.error : await inner.result();
				const delay = !started && final.stopReason === "error" && !signal?.aborted ? policy.delayFor(final, attempt) : undefined;
				if (delay !== undefined) {
					options.onRetry?.({ attempt, maxAttempts: policy.maxAttempts, delayMs: delay, errorMessage: final.errorMessage ?? "request failed" });
					await sleep(delay, signal);
					if (!signal?.aborted) continue;
					final = { ...final, stopReason: "aborted", errorMessage: "Request aborted" };
					last = undefined;
				}
				if (attempt > 1) {
					const failed = final.stopReason === "error" || final.stopReason === "aborted";
					options.onRetryEnd?.({ success: !failed, attempt, ...(failed ? { finalError: final.errorMessage } : {}) });
				}
				if (!started && held) out.push(held);
				if (last) out.push(last);
				else if (final.stopReason === "error" || final.stopReason === "aborted") out.push({ type: "error", reason: final.stopReason, error: final });
				else out.push({ type: "done", reason: final.stopReason, message: final });
				out.end(final);
				return;
			}
		})().catch((error: unknown) => {
			// Stream functions report failures as data; this guards against one that throws anyway.
			const failed = newAssistantMessage(model);
			failed.stopReason = "error";
			failed.errorMessage = error instanceof Error ? error.message : String(error);
			out.push({ type: "error", reason: "error", error: failed });
		});
		return out;
	};
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
	return new Promise((resolve) => {
		if (signal?.aborted) return resolve();
		const done = () => {
			clearTimeout(timer);
			signal?.removeEventListener("abort", done);
			resolve();
		};
		const timer = setTimeout(done, ms);
		signal?.addEventListener("abort", done, { once: true });
	});
}
