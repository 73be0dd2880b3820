// The binary starts with JavaScriptCore's tier-up thresholds scaled up (scripts/build.ts, jitPolicy):
// start-up runs most of its code once, and compiling it would cost more than it saves. endStartup()
// sets the normal policy again once the run turns to work that repeats (a model request, a UI).

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
