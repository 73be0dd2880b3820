// The test suite's mock LLM as a process of its own, for benchmarks (it must not share an event
// loop with the measuring). Prints its URL on the first stdout line and runs until killed.
// Every request is answered from what it asks, so interleaved runs never share a script:
//   last user message "tools:N" → a `bash` call `echo <k>` while fewer than N tool results came
//   back, then the text "done N"; "tools:N:<tool>" → the same with calls of <tool> `{ message: "<k>" }`
//   (an MCP echo tool, say); anything else → ANSWER. With MOCK_ARRIVALS set, the wall-clock time
//   (ms, performance.timeOrigin-based) of every request's arrival is appended to that file.
//   bun scripts/bench/mock-server.ts
import { appendFileSync } from "node:fs";
import { readMessages, startMockLlm, type RecordedRequest, type Turn } from "../../test/support/mock-llm.ts";
import { ANSWER, toolsDoneText } from "./mock.ts";

const arrivals = process.env.MOCK_ARRIVALS;

function reply(request: RecordedRequest): Turn {
	if (arrivals) appendFileSync(arrivals, `${performance.timeOrigin + performance.now()}\n`);
	const messages = readMessages(request);
	const prompt = messages.findLast((m) => m.role === "user")?.text ?? "";
	const tools = /^tools:(\d+)(?::(\S+))?$/.exec(prompt.trim());
	if (!tools) return { text: ANSWER };
	const wanted = Number(tools[1]);
	const done = messages.filter((m) => m.role === "toolResult").length;
	if (done >= wanted) return { text: toolsDoneText(wanted) };
	const k = done + 1;
	if (tools[2]) return { toolCalls: [{ id: `call_${k}`, name: tools[2], arguments: { message: String(k) } }] };
	return { toolCalls: [{ id: `call_${k}`, name: "bash", arguments: { command: `echo ${k}` } }] };
}

const mock = await startMockLlm();
const refill = () => mock.enqueue(...Array.from({ length: 1000 }, () => reply));
refill();
// Keep the script topped up however many runs a benchmark makes; reset() also drops the recorded
// requests, so a long run does not grow.
setInterval(() => {
	if (mock.pendingTurns >= 500) return;
	mock.reset();
	refill();
}, 50);
process.stdout.write(`${mock.url}\n`);
