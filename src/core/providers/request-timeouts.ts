// Stall detection for provider requests (issue 12, defect 6): a header timeout (no response head
// within N ms) and an idle-stream timeout (no body bytes for N ms). A fired timeout closes the
// connection and says which one fired; the agent loop retries it when nothing had streamed yet.

/** No response head within this long: the request is given up (and retried). Settings `httpHeaderTimeoutMs`. */
export const DEFAULT_HEADER_TIMEOUT_MS = 120_000;
/** No bytes of the body for this long: the stream is given up. Settings `httpIdleTimeoutMs` (pi's name and default). */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;

export interface RequestTimeouts {
	/** 0 turns it off. Default DEFAULT_HEADER_TIMEOUT_MS. */
	headerMs?: number;
	/** 0 turns it off. Default DEFAULT_IDLE_TIMEOUT_MS. */
	idleMs?: number;
}

/** "2 s", "500 ms", "5 min", "1 h": how long, for a person. */
export function formatDuration(ms: number): string {
	if (ms < 1000) return `${Math.round(ms)} ms`;
	if (ms < 120_000) return `${Number((ms / 1000).toFixed(1))} s`;
	if (ms < 3_600_000) return `${Number((ms / 60_000).toFixed(1))} min`;
	return `${Number((ms / 3_600_000).toFixed(1))} h`;
}

/** A body read through RequestWatchdog.chunks. */
export interface WatchedBody extends AsyncIterable<Uint8Array> {
	/** The protocol's end marker arrived (SSE `[DONE]`): the body counts as read to its end, though the reading stops there. */
	end(): void;
}

/**
 * Watches one request. `fetch` wraps the fetch the SDK is given; once a timeout fires, `failure`
 * says which, in words for the user, and the request's connection is closed.
 */
export class RequestWatchdog {
	failure: string | undefined;
	/** The response's content type, once its head arrived. */
	contentType: string | undefined;
	/** The body was read to its end (not cut off by a reset or a timeout). */
	bodyEnded = false;
	private readonly headerMs: number;
	private readonly idleMs: number;

	constructor(
		private readonly provider: string,
		timeouts: RequestTimeouts | undefined,
	) {
		this.headerMs = timeouts?.headerMs ?? DEFAULT_HEADER_TIMEOUT_MS;
		this.idleMs = timeouts?.idleMs ?? DEFAULT_IDLE_TIMEOUT_MS;
	}

	/** The last request's connection: what a stalled body read (`chunks`) closes. */
	private connection: AbortController | undefined;

	/**
	 * `ownBody`: the caller reads the body through `chunks` (the idle timeout lives there), so the
	 * response comes as it is, without a stream of ours in front of its body.
	 */
	fetch(base: typeof fetch, ownBody = false): typeof fetch {
		const watched = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
			const controller = new AbortController();
			this.connection = controller;
			const signal = init?.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
			const timer =
				this.headerMs > 0
					? setTimeout(() => {
							this.failure = `No response from ${this.provider} within ${formatDuration(this.headerMs)} (header timeout; settings "httpHeaderTimeoutMs" changes it)`;
							controller.abort(new Error(this.failure));
						}, this.headerMs)
					: undefined;
			let response: Response;
			try {
				response = await base(input, { ...init, signal });
			} finally {
				clearTimeout(timer);
			}
			this.contentType = response.headers.get("content-type") ?? undefined;
			if (!response.body || ownBody) return response;
			return new Response(this.watchBody(response.body, controller), { status: response.status, statusText: response.statusText, headers: response.headers });
		};
		return watched as typeof fetch;
	}

	/**
	 * The chunks of a body fetched with `ownBody`: a read that waits idleMs for bytes fails (and
	 * closes the connection). One timer for the whole body, restarted by each read (a timer and a
	 * race per chunk cost more than the chunk's own handling); while nobody reads (a slow consumer),
	 * it only starts over, unref'd. A plain iterator over the body's reader: no second stream to
	 * pass every chunk through.
	 */
	chunks(body: ReadableStream<Uint8Array>, connection = this.connection): WatchedBody {
		const reader = body.getReader();
		let stalled: Error | undefined;
		let reading = false;
		const timer =
			this.idleMs > 0
				? setTimeout(() => {
						if (!reading) return void timer?.refresh();
						this.failure = `${this.provider} stopped sending: no data for ${formatDuration(this.idleMs)} (idle timeout; settings "httpIdleTimeoutMs" changes it)`;
						stalled = new Error(this.failure);
						connection?.abort(stalled);
						void reader.cancel(stalled).catch(() => {});
					}, this.idleMs)
				: undefined;
		timer?.unref();
		const settle = (next: Awaited<ReturnType<typeof reader.read>>): IteratorResult<Uint8Array> => {
			reading = false;
			timer?.unref();
			if (stalled) throw stalled;
			if (next.done) {
				clearTimeout(timer);
				this.bodyEnded = true;
				return { value: undefined, done: true };
			}
			return next;
		};
		const fail = (error: unknown): never => {
			clearTimeout(timer);
			throw stalled ?? error;
		};
		const iterator: AsyncIterator<Uint8Array> = {
			next: () => {
				reading = true;
				timer?.ref().refresh();
				return reader.read().then(settle, fail);
			},
			return: () => {
				clearTimeout(timer);
				void reader.cancel().catch(() => {});
				return Promise.resolve({ value: undefined, done: true });
			},
		};
		return {
			[Symbol.asyncIterator]: () => iterator,
			end: () => {
				this.bodyEnded = true;
			},
		};
	}

	/**
	 * The body as a stream, for an SDK that reads it itself: the chunks of `chunks`, so a read that
	 * waits idleMs for bytes errors the stream (and closes the connection) in the same way.
	 */
	private watchBody(body: ReadableStream<Uint8Array>, connection: AbortController): ReadableStream<Uint8Array> {
		const chunks = this.chunks(body, connection)[Symbol.asyncIterator]();
		return new ReadableStream<Uint8Array>({
			pull: async (controller) => {
				try {
					const next = await chunks.next();
					if (next.done) controller.close();
					else controller.enqueue(next.value);
				} catch (error) {
					controller.error(error);
				}
			},
			cancel: async () => {
				await chunks.return?.();
			},
		});
	}
}
