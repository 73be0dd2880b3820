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
	let buffer = "";
	let event: string | undefined;
	let data: string[] = [];
	for await (const chunk of body) {
		buffer += decoder.decode(chunk, { stream: true });
		let start = 0;
		for (;;) {
			const lf = buffer.indexOf("\n", start);
			const cr = buffer.indexOf("\r", start);
			// A lone CR ends a line too; a CR at the end of the buffer may be the first half of CRLF.
			const end = cr >= 0 && (lf < 0 || cr < lf) ? (cr === buffer.length - 1 ? -1 : cr) : lf;
			if (end < 0) break;
			const line = buffer.slice(start, end);
			start = end + (buffer[end] === "\r" && buffer[end + 1] === "\n" ? 2 : 1);
			if (line === "") {
				if (data.length > 0) yield { event, data: data.join("\n") };
				event = undefined;
				data = [];
				continue;
			}
			if (line.startsWith(":")) continue;
			const colon = line.indexOf(":");
			const field = colon < 0 ? line : line.slice(0, colon);
			let value = colon < 0 ? "" : line.slice(colon + 1);
			if (value.startsWith(" ")) value = value.slice(1);
			if (field === "data") data.push(value);
			else if (field === "event") event = value;
		}
		buffer = buffer.slice(start);
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
