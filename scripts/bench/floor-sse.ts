// What the compiled floors share: the JSON of each `data:` line of an SSE body, as it arrives.
export async function* sseData(body: ReadableStream<Uint8Array>): AsyncGenerator<any> {
	let pending = "";
	const decoder = new TextDecoder();
	for await (const chunk of body) {
		pending += decoder.decode(chunk, { stream: true });
		for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
			const line = pending.slice(0, nl).trim();
			pending = pending.slice(nl + 1);
			if (line.startsWith("data:") && line !== "data: [DONE]") yield JSON.parse(line.slice(5));
		}
	}
}
