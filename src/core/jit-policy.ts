// The binary starts with JavaScriptCore's tier-up thresholds scaled up (scripts/build.ts, jitPolicy):
// start-up runs most of its code once, and compiling it would cost more than it saves. A print or
// json run keeps that policy to its end: its turns run each function a few times per tool call, and
// compiling them cost more CPU than it saved even over 400 calls (measured). endStartup() sets the
// normal policy again for the long-lived modes (the TUI, RPC).

/** The scale the build bakes in (`compile.jitPolicy`); 1 is JavaScriptCore's own policy. */
export const STARTUP_JIT_POLICY = 8;

let ended = false;

/** Back to the normal JIT policy, for the rest of the process; later calls do nothing. */
export function endStartup(): void {
	if (ended) return;
	ended = true;
	Bun.unsafe.setJITPolicy(1);
}

/** Whether endStartup() ran in this process. */
export function startupEnded(): boolean {
	return ended;
}
