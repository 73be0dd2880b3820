// The mock LLM server of the benchmarks, started as a separate process (mock-server.ts) and
// stopped with `await using`. It answers "say hello" with ANSWER and "tools:N" with N bash calls.

/** What the mock answers to any prompt but "tools:N". */
export const ANSWER = "Hello from the mock.";

/** The final text after N tool calls. */
export function toolsDoneText(n: number): string {
	return `done ${n}`;
}

export interface MockServer extends AsyncDisposable {
	url: string;
	/** `${url}/v1` */
	openaiBaseUrl: string;
}

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
	const decoder = new TextDecoder();
	let text = "";
	for await (const chunk of stream) {
		text += decoder.decode(chunk, { stream: true });
		const nl = text.indexOf("\n");
		if (nl >= 0) return text.slice(0, nl);
	}
	throw new Error("the mock server exited before printing its URL");
}

/** `arrivalsFile`: the mock appends each request's arrival time (wall clock, ms) to it. */
export async function startMockServer(options: { arrivalsFile?: string } = {}): Promise<MockServer> {
	const server = Bun.spawn([process.execPath, new URL("./mock-server.ts", import.meta.url).pathname], {
		stdout: "pipe",
		stderr: "inherit",
		env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: process.env.HOME ?? "/tmp", ...(options.arrivalsFile ? { MOCK_ARRIVALS: options.arrivalsFile } : {}) },
	});
	try {
		const url = await firstLine(server.stdout);
		return {
			url,
			openaiBaseUrl: `${url}/v1`,
			async [Symbol.asyncDispose]() {
				server.kill();
				await server.exited;
			},
		};
	} catch (error) {
		server.kill();
		throw error;
	}
}
