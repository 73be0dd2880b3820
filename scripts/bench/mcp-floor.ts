// The floor of the MCP benchmark's per-call part: the official SDK alone, compiled with the same
// Bun and flags as the agent. Starts the server over stdio, connects, calls `echo` N times one
// after another, and prints the median call time (in-process) and "done N". With `--bun-spawn`
// the SDK's Client runs over the agent's own stdio transport (Bun.spawn) instead of the SDK's
// (node:child_process), which splits the agent's difference into transport and loop. With
// `--between <url>` each call follows a GET of `url` (the mock LLM), as each of the agent's calls
// follows a model request: a server idle between calls answers slower than one called back to back.
//   mcp-floor <node> <server.js> <N> [--bun-spawn] [--between <url>]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StdioProcessTransport } from "../../src/core/mcp/stdio-process.ts";

const [node, server, count, ...flags] = process.argv.slice(2);
const between = flags.includes("--between") ? flags[flags.indexOf("--between") + 1] : undefined;
const calls = Number(count);
if (!node || !server || !Number.isInteger(calls) || calls < 1) {
	process.stderr.write("usage: mcp-floor <node> <server.js> <N>\n");
	process.exit(2);
}
const client = new Client({ name: "mcp-floor", version: "1" });
const transport =
	flags.includes("--bun-spawn")
		? new StdioProcessTransport({ command: node, args: [server, "stdio"], env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp" }, cwd: process.cwd() })
		: new StdioClientTransport({ command: node, args: [server, "stdio"], stderr: "ignore" });
await client.connect(transport);
const times: number[] = [];
for (let k = 1; k <= calls; k++) {
	if (between) await (await fetch(between)).arrayBuffer();
	const started = performance.now();
	const result = await client.callTool({ name: "echo", arguments: { message: String(k) } });
	times.push(performance.now() - started);
	const text = (result.content as { type: string; text?: string }[])[0]?.text;
	if (text !== `Echo: ${k}`) throw new Error(`unexpected result of call ${k}: ${JSON.stringify(result)}`);
}
await client.close();
times.sort((a, b) => a - b);
process.stdout.write(`per call ${times[Math.floor(times.length / 2)]!.toFixed(3)} ms\ndone ${calls}\n`);
