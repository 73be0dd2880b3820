// Waiting on conditions and looking at processes from a test: never sleep-and-hope, poll until
// the thing is true (or a generous deadline says the test failed).
import { readFileSync } from "node:fs";

export async function until(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!check()) {
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await Bun.sleep(10);
	}
}

/** Alive means running: a zombie left for init to reap counts as gone. */
export function processAlive(pid: number): boolean {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
	} catch {
		return false;
	}
}

/** SIGKILL each pid that may still run (test clean-up); never throws. */
export function killAll(pids: number[]): void {
	for (const pid of pids) {
		try {
			process.kill(pid, "SIGKILL");
		} catch {
			// already gone
		}
	}
}
