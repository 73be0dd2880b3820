// The push side of AssistantMessageEventStream: a wire protocol pushes events, consumers iterate
// them once, and `result()` resolves with the final message whether or not anyone iterates.
import type { AssistantMessage, AssistantMessageEvent, AssistantMessageEventStream } from "./types.ts";

export class EventStream implements AssistantMessageEventStream {
	private queue: AssistantMessageEvent[] = [];
	private waiting: ((next: IteratorResult<AssistantMessageEvent>) => void) | undefined;
	private ended = false;
	private final: AssistantMessage | undefined;
	// Promise.withResolvers rather than `new Promise(executor)`: the constructor is a builtin that
	// JavaScriptCore compiles on its first call (~0.15 ms of a start, measured), and this is its only use on a -p run.
	private readonly settled = Promise.withResolvers<AssistantMessage>();

	/** Deliver one event. A `done` or `error` event settles `result()` and ends the stream. */
	push(event: AssistantMessageEvent): void {
		if (this.ended) return;
		if (event.type === "done") this.finish(event.message);
		else if (event.type === "error") this.finish(event.error);
		const waiter = this.waiting;
		if (waiter) {
			this.waiting = undefined;
			waiter({ value: event, done: false });
		} else {
			this.queue.push(event);
		}
		if (this.final) this.end();
	}

	/** End the stream. Without a final event, `result()` settles with `fallback` (if given). */
	end(fallback?: AssistantMessage): void {
		if (!this.final && fallback) this.finish(fallback);
		this.ended = true;
		if (this.waiting && this.queue.length === 0) {
			const waiter = this.waiting;
			this.waiting = undefined;
			waiter({ value: undefined, done: true });
		}
	}

	result(): Promise<AssistantMessage> {
		return this.settled.promise;
	}

	/**
	 * One iteration over the events. Not an async generator: every event of every response passes
	 * here (twice, through the registry's stream), and a generator's yield costs a promise and
	 * extra turns of the microtask queue that a queued event does not need.
	 */
	[Symbol.asyncIterator](): AsyncIterator<AssistantMessageEvent> {
		let closed = false;
		return {
			next: (): Promise<IteratorResult<AssistantMessageEvent>> => {
				if (closed) return Promise.resolve({ value: undefined, done: true });
				if (this.queue.length > 0) return Promise.resolve({ value: this.queue.shift()!, done: false });
				if (this.ended) return Promise.resolve({ value: undefined, done: true });
				const next = Promise.withResolvers<IteratorResult<AssistantMessageEvent>>();
				this.waiting = next.resolve;
				return next.promise;
			},
			return: (): Promise<IteratorResult<AssistantMessageEvent>> => {
				closed = true;
				return Promise.resolve({ value: undefined, done: true });
			},
		};
	}

	private finish(message: AssistantMessage): void {
		if (this.final) return;
		this.final = message;
		this.settled.resolve(message);
	}
}

/** A new stream for a `streamSimple` implementation to push into (pi-ai's name). */
export function createAssistantMessageEventStream(): EventStream {
	return new EventStream();
}
