// What the mock LLM server records about each request it receives, and how it reads one off the
// wire. Tests assert on these records (headers, body) instead of peeking into the server.

export type WireProtocol = "openai" | "anthropic" | "none";

export interface RecordedRequest {
	method: string;
	/** Path without the query, e.g. "/v1/chat/completions". */
	path: string;
	/** The query string with its "?", or "". */
	search: string;
	/** Header names lowercased. */
	headers: Record<string, string>;
	/** The parsed JSON body; `{}` when the body is empty or not a JSON object. */
	body: Record<string, any>;
	rawBody: string;
	/** Which wire protocol the path belongs to. */
	protocol: WireProtocol;
	/** Whether the body asked for a streamed (SSE) answer. */
	stream: boolean;
}

export const OPENAI_CHAT_PATH = "/v1/chat/completions";
export const ANTHROPIC_MESSAGES_PATH = "/v1/messages";

export async function recordRequest(request: Request): Promise<RecordedRequest> {
	const url = new URL(request.url);
	const rawBody = await request.text();
	const body = parseObject(rawBody);
	const headers: Record<string, string> = {};
	// Headers iterate with lowercased names already.
	for (const [name, value] of request.headers) headers[name] = value;
	return {
		method: request.method,
		path: url.pathname,
		search: url.search,
		headers,
		body,
		rawBody,
		protocol: protocolOf(request.method, url.pathname),
		stream: body.stream === true,
	};
}

function protocolOf(method: string, path: string): WireProtocol {
	if (method !== "POST") return "none";
	if (path === OPENAI_CHAT_PATH) return "openai";
	if (path === ANTHROPIC_MESSAGES_PATH) return "anthropic";
	return "none";
}

function parseObject(text: string): Record<string, any> {
	try {
		const value: unknown = JSON.parse(text);
		return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, any>) : {};
	} catch {
		return {};
	}
}
