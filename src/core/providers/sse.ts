// Server-sent events over fetch: the events of a response body as they arrive (the WHATWG event
// stream format: `event:` and `data:` fields, multi-line data, comments, CR/LF/CRLF line ends), and
// the error a non-2xx answer becomes. What the openai-completions protocol needs instead of an SDK.

export interface ServerSentEvent {
	/** The `event:` field; undefined when the event had none (the default "message"). */
	event: string | undefined;
	/** The `data:` lines joined with "\n". */
	data: string;
}

/** Each event of `body`, in order; ends when the body does (a partial last event is dropped, as the format says). */
export async function* readServerSentEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ServerSentEvent> {
	const decoder = new TextDecoder();
	const parser = new ServerSentEventParser();
	for await (const chunk of body) {
		const events = parser.feed(decoder.decode(chunk, { stream: true }));
		for (let i = 0; i < events.length; i++) yield events[i]!;
	}
}

/**
 * The format's line and field rules over text as it arrives (`feed` each decoded piece, in order);
 * runs for every line of every response. CR and CRLF line ends become LF once per piece of text, so
 * the line loop looks for LF alone, and the usual event (one `data:` line) needs no array to join.
 */
export class ServerSentEventParser {
	/** Text after the last complete line (never a CR). */
	private rest = "";
	/** The last piece ended in CR: an LF starting the next one is that CRLF's second half. */
	private skipLf = false;
	private event: string | undefined;
	private data: string | undefined;
	/** The events the last piece completed: one array, refilled by each call. */
	private readonly done: ServerSentEvent[] = [];

	feed(text: string): ServerSentEvent[] {
		this.done.length = 0;
		if (this.skipLf && text) {
			this.skipLf = false;
			if (text.charCodeAt(0) === 10) text = text.slice(1);
		}
		let buffer = this.rest + text;
		if (buffer.includes("\r")) {
			if (buffer.endsWith("\r")) this.skipLf = true;
			buffer = buffer.replace(/\r\n?/g, "\n");
		}
		let start = 0;
		for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n", start)) {
			this.line(buffer, start, end);
			start = end + 1;
		}
		this.rest = start === 0 ? buffer : buffer.slice(start);
		return this.done;
	}

	private line(buffer: string, start: number, end: number): void {
		if (start === end) {
			if (this.data !== undefined) this.done.push({ event: this.event, data: this.data });
			this.event = undefined;
			this.data = undefined;
			return;
		}
		if (buffer.charCodeAt(start) === 58) return; // ":" starts a comment
		const colon = buffer.indexOf(":", start);
		const fieldEnd = colon >= 0 && colon < end ? colon : end;
		let from = fieldEnd === end ? end : fieldEnd + 1;
		if (from < end && buffer.charCodeAt(from) === 32) from++;
		const field = buffer.slice(start, fieldEnd);
		if (field === "data") {
			const value = buffer.slice(from, end);
			this.data = this.data === undefined ? value : `${this.data}\n${value}`;
		} else if (field === "event") this.event = buffer.slice(from, end);
	}
}

/**
 * A non-2xx answer: the status, the headers (retry-after) and the body's `error` object when the body
 * is JSON, else its text as the message — the shape describeFailure reads, as the SDKs give it.
 */
export class HttpStatusError extends Error {
	constructor(
		readonly status: number,
		readonly headers: Headers,
		/** The parsed body's `error` member (or the body itself when it has none); undefined for a non-JSON body. */
		readonly error: unknown,
		message: string,
	) {
		super(message);
		this.name = "HttpStatusError";
	}

	static async from(response: Response): Promise<HttpStatusError> {
		const text = await response.text().catch(() => "");
		let body: unknown;
		try {
			body = text ? JSON.parse(text) : undefined;
		} catch {
			body = undefined;
		}
		const error = body && typeof body === "object" && "error" in body ? (body as { error: unknown }).error : body;
		const message = body === undefined ? text || response.statusText || `HTTP ${response.status}` : JSON.stringify(body);
		return new HttpStatusError(response.status, response.headers, error, message);
	}
}

/** An `error` object sent inside an event stream (no HTTP status): describeFailure calls it a stream error. */
export class StreamErrorEvent extends Error {
	constructor(readonly error: unknown) {
		super(typeof error === "object" && error && typeof (error as { message?: unknown }).message === "string" ? (error as { message: string }).message : JSON.stringify(error));
		this.name = "StreamErrorEvent";
	}
}

/** fetch itself failed (refused, reset, DNS): named as the SDKs name it, with the cause kept. */
export class ConnectionFailedError extends Error {
	constructor(override readonly cause: unknown) {
		super(cause instanceof Error ? cause.message : String(cause));
		this.name = "APIConnectionError";
	}
}
