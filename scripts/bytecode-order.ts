// Profile-guided bytecode layout for the binary (Bun's `compile.bytecodeOrder`): run a freshly built
// binary the way scripts use it, with BUN_BYTECODE_ORDER_OUT set, so the next build places the
// bytecode those runs used together at the front and a start reads and decodes less of the binary.
// The runs: a `-p` answer with no session (the most common), then a saved session with one bash
// call. They talk to the test suite's mock LLM on 127.0.0.1, in a temporary HOME and cwd.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { startMockLlm, type TurnSource } from "../test/support/mock-llm.ts";

/** How a start is profiled: the arguments after the model, and the mock's turns for it. */
const RUNS: { name: string; argv: string[]; turns: TurnSource[]; tui?: true }[] = [
	{ name: "print", argv: ["-ne", "--no-session", "-p", "say hello"], turns: [{ text: "Hello." }] },
	{ name: "session-tools", argv: ["-ne", "-p", "run echo"], turns: [{ toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "echo 1" } }] }, { text: "Done." }] },
	// The TUI in a pseudo-terminal up to its first frame, then ctrl+d.
	{ name: "tui", argv: ["-ne"], turns: [], tui: true },
];

/** Run the TUI in a pseudo-terminal until its first frame (the editor's border drawn), then ctrl+d; its exit code and what it drew. */
async function runTui(argv: string[], options: { cwd: string; env: Record<string, string> }): Promise<[number, string]> {
	const decoder = new TextDecoder();
	let seen = "";
	let drawn = false;
	const child = Bun.spawn(argv, {
		...options,
		terminal: {
			cols: 120,
			rows: 40,
			data(terminal, data) {
				seen += decoder.decode(data, { stream: true });
				if (!drawn && seen.includes("───") && seen.includes("\x1b[?2026l")) {
					drawn = true;
					terminal.write("\x04");
				}
			},
		},
	});
	const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
	try {
		return [await child.exited, seen];
	} finally {
		clearTimeout(timer);
		child.terminal?.close();
	}
}

export interface RecordedOrder {
	/** The profiles, most common start first (what `bytecodeOrder` takes). */
	files: string[];
	/** Removes the profiles. */
	remove(): void;
}

/**
 * Profile `binary` (a host build with bytecode). Throws with the run's output when a run fails:
 * a binary that cannot answer one prompt is not worth laying out.
 */
export async function recordBytecodeOrder(binary: string): Promise<RecordedOrder> {
	const root = mkdtempSync(join(tmpdir(), "agent-bytecode-order-"));
	const remove = () => rmSync(root, { recursive: true, force: true });
	try {
		await using mock = await startMockLlm();
		const home = join(root, "home");
		const cwd = join(root, "cwd");
		mkdirSync(join(home, ".agent"), { recursive: true });
		mkdirSync(cwd);
		const provider = { baseUrl: mock.openaiBaseUrl, api: "openai-completions", apiKey: "profile-key", models: [{ id: "mock-model" }] };
		writeFileSync(join(home, ".agent", "models.json"), JSON.stringify({ providers: { mock: provider } }));
		const files: string[] = [];
		for (const run of RUNS) {
			mock.script(...run.turns);
			const file = join(root, `${run.name}.order`);
			const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, BUN_BYTECODE_ORDER_OUT: file };
			const argv = [resolve(binary), "--model", "mock/mock-model", ...run.argv];
			const [code, stdout, stderr] = run.tui
				? [...(await runTui(argv, { cwd, env: { ...env, TERM: "xterm-256color" } })), ""]
				: await (async () => {
						const child = Bun.spawn(argv, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
						return Promise.all([child.exited, new Response(child.stdout).text(), new Response(child.stderr).text()]);
					})();
			if (code !== 0 || !(await Bun.file(file).exists())) {
				throw new Error(`profiling run "${run.name}" of ${binary} failed (exit ${code}):\n${stdout}${stderr}`);
			}
			files.push(file);
		}
		return { files, remove };
	} catch (error) {
		remove();
		throw error;
	}
}
