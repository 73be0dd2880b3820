// The test suite's mock LLM as a process of its own, answering every chat request with the same
// short text, for benchmarks: it must not share an event loop with the measuring (lib.ts's RSS
// runs block it). Prints its URL on the first stdout line and runs until killed.
//   bun scripts/bench/mock-server.ts [text]
import { startMockLlm } from "../../test/support/mock-llm.ts";

const text = process.argv[2] ?? "Hello from the mock.";
const mock = await startMockLlm();
const refill = () => mock.enqueue(...Array.from({ length: 1000 }, () => ({ text })));
refill();
// Keep the script topped up however many runs a benchmark makes; reset() also drops the recorded
// requests, so a long run does not grow.
setInterval(() => {
	if (mock.pendingTurns >= 500) return;
	mock.reset();
	refill();
}, 50);
process.stdout.write(`${mock.url}\n`);
