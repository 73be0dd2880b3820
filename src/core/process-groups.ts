// The process groups of commands running right now (the bash tool, a person's `!cmd`), so that
// whatever ends the agent — SIGINT, SIGTERM, SIGHUP, process.exit — ends them too (issue 12).
import { exitProcess } from "./exit-guard.ts";

const running = new Set<number>();
let exitHooked = false;

/** SIGKILL a whole process group, falling back to the leader alone. Never throws. */
export function killProcessGroup(pid: number): void {
	try {
		process.kill(-pid, "SIGKILL");
	} catch {
		try {
			process.kill(pid, "SIGKILL");
		} catch {
			// already gone
		}
	}
}

/**
 * Record the group led by `pid` (spawned detached) as running; returns the function that forgets
 * it once the command is over. The first call also makes process exit end every group still here.
 */
export function trackProcessGroup(pid: number): () => void {
	running.add(pid);
	if (!exitHooked) {
		exitHooked = true;
		// Synchronous by nature: the last thing a process does, however it exits.
		process.on("exit", endAllProcessGroups);
	}
	return () => void running.delete(pid);
}

/** The leaders of the groups still running, oldest first. */
export function runningProcessGroups(): number[] {
	return [...running];
}

/**
 * End every running command's process group now. Modes call it when a signal ends the agent
 * (print, json and rpc; interactive mode on SIGTERM/SIGHUP and on quit), before the orderly shutdown.
 */
export function endAllProcessGroups(): void {
	for (const pid of running) killProcessGroup(pid);
	running.clear();
}

/** Exit codes for the signals that end a run: 128 + the signal's number, as a shell reports them. */
export const SIGNAL_EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;
export type TerminationSignal = keyof typeof SIGNAL_EXIT_CODES;

/**
 * Listen for SIGINT, SIGTERM and SIGHUP: each ends every running command's process group at once,
 * then calls `onSignal` with the exit code to use (the mode aborts its run and shuts down in order).
 * A second signal while that is under way exits at once. Returns the function that stops listening.
 */
export function onTerminationSignals(onSignal: (exitCode: number, signal: TerminationSignal) => void): () => void {
	let first: number | undefined;
	const listeners = (Object.keys(SIGNAL_EXIT_CODES) as TerminationSignal[]).map((signal) => {
		const listener = () => {
			endAllProcessGroups();
			const code = SIGNAL_EXIT_CODES[signal];
			if (first !== undefined) exitProcess(first);
			first = code;
			onSignal(code, signal);
		};
		process.on(signal, listener);
		return [signal, listener] as const;
	});
	return () => {
		for (const [signal, listener] of listeners) process.off(signal, listener);
	};
}
