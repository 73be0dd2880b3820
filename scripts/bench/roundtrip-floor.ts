// The round-trip floor: the least a compiled program can do for one answer — POST a chat request
// to an OpenAI-compatible server with fetch, read the SSE stream, print the text. No SDK, no agent.
//   roundtrip-floor <baseUrl> <model> <prompt>
export {};

const [baseUrl, model, prompt] = process.argv.slice(2);
const response = await fetch(`${baseUrl}/chat/completions`, {
	method: "POST",
	headers: { "content-type": "application/json", authorization: "Bearer bench-key" },
	body: JSON.stringify({ model, messages: [{ role: "user", content: prompt }], stream: true }),
});
if (!response.ok || !response.body) {
	console.error(`HTTP ${response.status}: ${await response.text()}`);
	process.exit(1);
}
let text = "";
let pending = "";
const decoder = new TextDecoder();
for await (const chunk of response.body) {
	pending += decoder.decode(chunk, { stream: true });
	for (let nl = pending.indexOf("\n"); nl >= 0; nl = pending.indexOf("\n")) {
		const line = pending.slice(0, nl).trim();
		pending = pending.slice(nl + 1);
		if (!line.startsWith("data:") || line === "data: [DONE]") continue;
		text += JSON.parse(line.slice(5)).choices?.[0]?.delta?.content ?? "";
	}
}
console.log(text);
