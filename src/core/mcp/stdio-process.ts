// A stdio MCP server as a child process: the SDK's Transport over Bun.spawn (newline-delimited
// JSON-RPC). Ours, not the SDK's, so the child stays in our process group, its stderr's tail is kept
// for messages, and every live child is ended when the agent exits or gets SIGTERM / SIGHUP.
import type { Subprocess } from "bun";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";

export interface StdioProcessSpec {
	command: string;
	args: string[];
	/** The whole environment of the child. */
	env: Record<string, string>;
	cwd: string;
}

/** How the process ended: its exit code, or the signal that ended it. */
export interface ProcessExit {
	code: number | null;
	signal: string | null;
}

const STDERR_TAIL_BYTES = 4096;
/**
 * How long a server gets to exit after its stdin closes (servers stop at the end of their input),
 * then after SIGTERM, before SIGKILL. Short: the agent's exit waits for this, and a server still
 * starting up reads its input only once it is up, so it gets SIGTERM instead of a long wait.
 */
const CLOSE_GRACE_MS = [250, 1000, 1000] as const;

/** Every child that is still running, ended synchronously if the agent goes away first. */
const live = new Set<Subprocess>();
let exitHooksInstalled = false;

function endAllChildren(): void {
	for (const child of live) {
		try {
			child.kill("SIGTERM");
		} catch {
			// Already gone.
		}
	}
	live.clear();
}

/**
 * On exit, SIGTERM and SIGHUP, end the children first. When ours is the only listener for a signal
 * the signal is raised again so the process still ends the way it would have without us.
 */
function installExitHooks(): void {
	if (exitHooksInstalled) return;
	exitHooksInstalled = true;
	process.on("exit", endAllChildren);
	for (const signal of ["SIGTERM", "SIGHUP"] as const) {
		const onSignal = () => {
			endAllChildren();
			if (process.listenerCount(signal) === 1) {
				process.off(signal, onSignal);
				process.kill(process.pid, signal);
			}
		};
		process.on(signal, onSignal);
	}
}

/** Number of stdio servers still running (tests and diagnostics). */
export function liveChildCount(): number {
	return live.size;
}

export class StdioProcessTransport implements Transport {
	onclose?: () => void;
	onerror?: (error: Error) => void;
	onmessage?: <T extends JSONRPCMessage>(message: T) => void;
	private child: Subprocess<"pipe", "pipe", "pipe"> | undefined;
	private stderrTail = "";
	private exitInfo: ProcessExit | undefined;
	private closing = false;
	private readonly exited: Promise<void>;
	private resolveExited!: () => void;

	constructor(readonly spec: StdioProcessSpec) {
		this.exited = new Promise((resolve) => (this.resolveExited = resolve));
	}

	get pid(): number | undefined {
		return this.child?.pid;
	}

	/** The last few KB the server wrote to stderr. */
	get stderr(): string {
		return this.stderrTail;
	}

	/** Set once the process has ended. */
	get exit(): ProcessExit | undefined {
		return this.exitInfo;
	}

	/** The SDK's start: spawns the program unless spawn() already did. */
	async start(): Promise<void> {
		if (!this.child) this.spawn();
	}

	/** Start the program (before the SDK is loaded, so both happen at once). Throws when it cannot be started. */
	spawn(): void {
		if (this.child) throw new Error("StdioProcessTransport already started");
		installExitHooks();
		const child = Bun.spawn([this.spec.command, ...this.spec.args], {
			cwd: this.spec.cwd,
			env: this.spec.env,
			stdin: "pipe",
			stdout: "pipe",
			stderr: "pipe",
		});
		this.child = child;
		live.add(child);
		void child.exited.then((code) => {
			live.delete(child);
			const signal = child.signalCode;
			this.exitInfo = signal ? { code: null, signal: String(signal) } : { code, signal: null };
			this.resolveExited();
			this.onclose?.();
		});
		void this.readStdout(child.stdout);
		void this.readStderr(child.stderr);
	}

	private async readStdout(stream: ReadableStream<Uint8Array>): Promise<void> {
		const decoder = new TextDecoder();
		let buffer = "";
		try {
			for await (const chunk of stream) {
				buffer += decoder.decode(chunk, { stream: true });
				let newline = buffer.indexOf("\n");
				while (newline >= 0) {
					const line = buffer.slice(0, newline).replace(/\r$/, "");
					buffer = buffer.slice(newline + 1);
					if (line.trim()) this.deliver(line);
					newline = buffer.indexOf("\n");
				}
			}
		} catch {
			// The pipe closed with the process; its exit is reported through onclose.
		}
	}

	private deliver(line: string): void {
		let message: JSONRPCMessage;
		try {
			message = JSON.parse(line) as JSONRPCMessage;
		} catch {
			// A server that logs to stdout breaks the protocol; keep the line for error messages.
			this.keepStderr(`(stdout) ${line}\n`);
			this.onerror?.(new Error(`the server wrote a line that is not JSON-RPC to stdout: ${line.slice(0, 200)}`));
			return;
		}
		this.onmessage?.(message);
	}

	private async readStderr(stream: ReadableStream<Uint8Array>): Promise<void> {
		const decoder = new TextDecoder();
		try {
			for await (const chunk of stream) this.keepStderr(decoder.decode(chunk, { stream: true }));
		} catch {
			// Closed with the process.
		}
	}

	private keepStderr(text: string): void {
		this.stderrTail = (this.stderrTail + text).slice(-STDERR_TAIL_BYTES);
	}

	async send(message: JSONRPCMessage): Promise<void> {
		const child = this.child;
		if (!child || this.exitInfo) throw new Error("the server process is not running");
		child.stdin.write(`${JSON.stringify(message)}\n`);
		await child.stdin.flush();
	}

	/** Close stdin (servers exit on end of input), then SIGTERM, then SIGKILL, each after a grace period. */
	async close(): Promise<void> {
		const child = this.child;
		if (!child) return;
		if (this.closing) return this.exited;
		this.closing = true;
		if (!this.exitInfo) {
			try {
				await child.stdin.end();
			} catch {
				// Already closed.
			}
			const steps = [undefined, "SIGTERM", "SIGKILL"] as const;
			for (const [i, signal] of steps.entries()) {
				if (signal) child.kill(signal);
				if (await settlesWithin(this.exited, CLOSE_GRACE_MS[i]!)) break;
			}
		}
		live.delete(child);
	}

	/** End the process at once without waiting (the session is going away). */
	kill(): void {
		if (this.child && !this.exitInfo) this.child.kill("SIGTERM");
	}
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
	try {
		return await Promise.race([promise.then(() => true as const), timeout]);
	} finally {
		clearTimeout(timer);
	}
}
