// The event-stream reader behind the openai-completions protocol: the format's line ends, fields,
// comments and multi-line data, however the bytes are cut; and the errors a non-2xx answer becomes.
import { describe, expect, test } from "bun:test";
import { HttpStatusError, readServerSentEvents, type ServerSentEvent } from "../../../src/core/providers/sse.ts";

function body(...pieces: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
	const encoder = new TextEncoder();
	return new ReadableStream({
		start(controller) {
			for (const p of pieces) controller.enqueue(typeof p === "string" ? encoder.encode(p) : p);
			controller.close();
		},
	});
}

async function events(stream: ReadableStream<Uint8Array>): Promise<ServerSentEvent[]> {
	const out: ServerSentEvent[] = [];
	for await (const e of readServerSentEvents(stream)) out.push(e);
	return out;
}

describe("readServerSentEvents", () => {
	test("data lines, named events, comments, a field without a value, and multi-line data", async () => {
		const text = ': keep-alive\n\ndata: {"a":1}\n\nevent: ping\ndata:x\n\ndata: one\ndata: two\nid: 7\n\ndata\n\n';
		expect(await events(body(text))).toEqual([
			{ event: undefined, data: '{"a":1}' },
			{ event: "ping", data: "x" },
			{ event: undefined, data: "one\ntwo" },
			{ event: undefined, data: "" },
		]);
	});

	test("CRLF and lone CR end lines too, even when a CRLF is cut between two chunks", async () => {
		expect(await events(body("data: a\r", "\n\r\ndata: b\r\rdata: c\n", "\n"))).toEqual([
			{ event: undefined, data: "a" },
			{ event: undefined, data: "b" },
			{ event: undefined, data: "c" },
		]);
	});

	test("an event cut anywhere, a character cut between its bytes, and a partial last event dropped", async () => {
		const bytes = new TextEncoder().encode('data: {"t":"héllo"}\n\ndata: unfinished');
		const cut = [bytes.slice(0, 3), bytes.slice(3, 15), bytes.slice(15, 16), bytes.slice(16)];
		expect(await events(body(...cut))).toEqual([{ event: undefined, data: '{"t":"héllo"}' }]);
	});
	test("the same events wherever the text is cut in two, with every kind of line end", async () => {
		const text = ': hi\r\ndata: a\r\ndata: b\r\rdata:c\n\nevent: e\rdata\r\n\r\ndata: d\n\n';
		const whole = await events(body(text));
		expect(whole).toEqual([
			{ event: undefined, data: "a\nb" },
			{ event: undefined, data: "c" },
			{ event: "e", data: "" },
			{ event: undefined, data: "d" },
		]);
		for (let cut = 1; cut < text.length; cut++) expect(await events(body(text.slice(0, cut), text.slice(cut)))).toEqual(whole);
	});
});

describe("HttpStatusError.from", () => {
	test("a JSON body gives its error object; the headers are kept for retry-after", async () => {
		const e = await HttpStatusError.from(new Response(JSON.stringify({ error: { message: "slow down", type: "rate_limit" } }), { status: 429, headers: { "retry-after": "2" } }));
		expect(e.status).toBe(429);
		expect(e.error).toEqual({ message: "slow down", type: "rate_limit" });
		expect(e.headers.get("retry-after")).toBe("2");
	});

	test("a body that is not JSON (a proxy's page) is the message", async () => {
		const e = await HttpStatusError.from(new Response("<html>Bad Gateway</html>", { status: 502 }));
		expect(e.error).toBeUndefined();
		expect(e.message).toBe("<html>Bad Gateway</html>");
	});
});
