// Run a program without a shell and collect its output: `pi.exec()` and anything else that needs
// a quick subprocess. Never throws for the program's own failure; the result says what happened.
import type { ExecOptions, ExecResult } from "./extensions/types.ts";

export async function execCommand(command: string, args: string[], cwd: string, options: ExecOptions = {}): Promise<ExecResult> {
	if (options.signal?.aborted) return { stdout: "", stderr: "", code: 1, killed: true };
	let proc: ReturnType<typeof Bun.spawn>;
	try {
		proc = Bun.spawn([command, ...args], {
			cwd: options.cwd ?? cwd,
			stdin: "ignore",
			stdout: "pipe",
			stderr: "pipe",
			env: process.env,
		});
	} catch (error) {
		// Spawn failures (ENOENT, EACCES) are the program's failure, reported the way a shell would.
		const code = (error as NodeJS.ErrnoException).code === "ENOENT" ? 127 : 126;
		const reason = code === 127 ? "command not found" : (error as Error).message;
		return { stdout: "", stderr: `${command}: ${reason}\n`, code, killed: false };
	}
	let killed = false;
	const kill = () => {
		if (proc.exitCode !== null || proc.signalCode !== null) return;
		killed = true;
		proc.kill("SIGTERM");
	};
	const timer = options.timeout && options.timeout > 0 ? setTimeout(kill, options.timeout) : undefined;
	options.signal?.addEventListener("abort", kill, { once: true });
	try {
		const [stdout, stderr, code] = await Promise.all([
			new Response(proc.stdout as ReadableStream).text(),
			new Response(proc.stderr as ReadableStream).text(),
			proc.exited,
		]);
		return { stdout, stderr, code: killed && code === 0 ? 1 : code, killed };
	} finally {
		if (timer) clearTimeout(timer);
		options.signal?.removeEventListener("abort", kill);
	}
}
