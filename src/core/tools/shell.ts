// Running a shell command locally: `bash -c` in its own process group, both pipes streamed to
// onData, and abort/timeout killing the whole group so no grandchild outlives the call.
import { existsSync } from "node:fs";
import { killProcessGroup, trackProcessGroup } from "../process-groups.ts";

export interface BashExecOptions {
	/** Called with each chunk of stdout or stderr, in arrival order. */
	onData: (data: Buffer) => void;
	signal?: AbortSignal;
	/** Seconds; none by default. */
	timeout?: number;
	/** Default: this process's environment. */
	env?: Record<string, string | undefined>;
}

/**
 * How the bash tool runs a command; swap it to run elsewhere (SSH, a container, a sandbox).
 * Resolves with the exit code (null when killed by a signal). Rejects with `Error("aborted")`
 * when the signal fired and `Error("timeout:<seconds>")` when the timeout passed, the same
 * protocol pi's extensions use, so their operations work here unchanged.
 */
export interface BashOperations {
	exec(command: string, cwd: string, options: BashExecOptions): Promise<{ exitCode: number | null }>;
}

/**
 * After the shell exits, how long to keep reading pipes that a background child may still hold
 * open (`server &`) before giving up on them. Ordinary output is already in the pipe by then.
 */
const PIPE_GRACE_MS = 200;

export function findShell(): string {
	if (existsSync("/bin/bash")) return "/bin/bash";
	return Bun.which("bash") ?? "sh";
}

/** The pipes of one command still being read, and how to stop reading them. */
interface Pipes {
	open: number;
	cancels: (() => void)[];
}

async function pump(stream: ReadableStream<Uint8Array>, onData: (data: Buffer) => void, pipes: Pipes) {
	const reader = stream.getReader();
	pipes.cancels.push(() => reader.cancel().catch(() => {}));
	try {
		for (;;) {
			const { done, value } = await reader.read();
			if (done) return;
			onData(Buffer.from(value.buffer, value.byteOffset, value.byteLength));
		}
	} catch {
		// cancelled after the grace period, or the pipe broke: what arrived has been passed on
	} finally {
		pipes.open--;
	}
}

export function createLocalBashOperations(options: { shellPath?: string } = {}): BashOperations {
	// Looked up on the first command, not on every one.
	let shell: string | undefined;
	return {
		async exec(command, cwd, { onData, signal, timeout, env }) {
			if (signal?.aborted) throw new Error("aborted");
			shell ??= options.shellPath ?? findShell();
			let proc: Bun.Subprocess<"ignore", "pipe", "pipe">;
			try {
				proc = Bun.spawn([shell, "-c", command], {
					cwd,
					env: env ?? process.env,
					stdin: "ignore",
					stdout: "pipe",
					stderr: "pipe",
					detached: true, // its own process group, so one kill reaches every child
				});
			} catch (error) {
				// Checked only when the spawn failed (a missing cwd fails it with the shell's name in the message).
				if (!existsSync(cwd)) throw new Error(`Working directory does not exist: ${cwd}`);
				throw error;
			}
			// Until it exits, a signal that ends the agent ends this command too.
			const untrack = trackProcessGroup(proc.pid);
			let timedOut = false;
			const timer =
				timeout !== undefined && timeout > 0
					? setTimeout(() => {
							timedOut = true;
							killProcessGroup(proc.pid);
						}, timeout * 1000)
					: undefined;
			const onAbort = () => killProcessGroup(proc.pid);
			signal?.addEventListener("abort", onAbort, { once: true });

			const pipes: Pipes = { open: 2, cancels: [] };
			const pumps = Promise.all([pump(proc.stdout, onData, pipes), pump(proc.stderr, onData, pipes)]);
			try {
				await proc.exited;
				// Most often both pipes ended with the shell: no grace timer, nothing to cancel.
				if (pipes.open > 0) {
					let grace: ReturnType<typeof setTimeout> | undefined;
					await Promise.race([pumps, new Promise((resolve) => (grace = setTimeout(resolve, PIPE_GRACE_MS)))]);
					clearTimeout(grace);
					for (const cancel of pipes.cancels) cancel();
				}
			} finally {
				untrack();
				if (timer) clearTimeout(timer);
				signal?.removeEventListener("abort", onAbort);
			}
			if (signal?.aborted) throw new Error("aborted");
			if (timedOut) throw new Error(`timeout:${timeout}`);
			return { exitCode: proc.exitCode };
		},
	};
}
