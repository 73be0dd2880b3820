// The tool round-trip floor: the least a compiled program can do for a model that calls tools —
// POST the chat with fetch, read the SSE stream, run each `bash` call with `bash -c`, send the
// results back, repeat until the model answers with text, print it. No SDK, no agent.
//   tools-floor <baseUrl> <model> <prompt>
import { sseData } from "./floor-sse.ts";

type Call = { id: string; name: string; arguments: string };
const [baseUrl, model, prompt] = process.argv.slice(2);
const messages: Record<string, unknown>[] = [{ role: "user", content: prompt }];
const tools = [{ type: "function", function: { name: "bash", description: "Run a command", parameters: { type: "object", properties: { command: { type: "string" } }, required: ["command"] } } }];

async function ask(): Promise<{ text: string; calls: Call[] }> {
	const response = await fetch(`${baseUrl}/chat/completions`, {
		method: "POST",
		headers: { "content-type": "application/json", authorization: "Bearer bench-key" },
		body: JSON.stringify({ model, messages, tools, stream: true }),
	});
	if (!response.ok || !response.body) throw new Error(`HTTP ${response.status}: ${await response.text()}`);
	let text = "";
	const calls: Call[] = [];
	for await (const data of sseData(response.body)) {
		const delta = data.choices?.[0]?.delta ?? {};
		text += delta.content ?? "";
		for (const c of delta.tool_calls ?? []) {
			calls[c.index] ??= { id: "", name: "", arguments: "" };
			const call = calls[c.index]!;
			if (c.id) call.id = c.id;
			if (c.function?.name) call.name = c.function.name;
			call.arguments += c.function?.arguments ?? "";
		}
	}
	return { text, calls };
}

while (true) {
	const { text, calls } = await ask();
	if (calls.length === 0) {
		console.log(text);
		break;
	}
	messages.push({ role: "assistant", content: text || null, tool_calls: calls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })) });
	for (const call of calls) {
		const proc = Bun.spawn(["bash", "-c", JSON.parse(call.arguments).command], { stdout: "pipe", stderr: "pipe" });
		const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
		messages.push({ role: "tool", tool_call_id: call.id, content: `${out}${err}${code === 0 ? "" : `\nexit code ${code}`}` });
	}
}
