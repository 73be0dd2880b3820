// The round-trip floor: the least a compiled program can do for one answer — POST a chat request
// to an OpenAI-compatible server with fetch, read the SSE stream, print the text. No SDK, no agent.
//   roundtrip-floor <baseUrl> <model> <prompt>
import { sseData } from "./floor-sse.ts";

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
for await (const data of sseData(response.body)) text += data.choices?.[0]?.delta?.content ?? "";
console.log(text);
