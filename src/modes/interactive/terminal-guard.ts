// The terminal is always handed back as it was: on SIGINT/SIGTERM/SIGHUP from outside, on a crash,
// on a closed terminal; ctrl+z (or SIGTSTP) suspends with the terminal restored and `fg` redraws.
// An error nothing caught in an extension's async code is shown, not fatal.
import type { InteractiveApp } from "./app.ts";

export interface TerminalGuard {
	/** Remove the handlers (the app has exited). */
	release(): void;
}

/** Suspend to the shell: the TUI stops, the process group gets SIGTSTP, SIGCONT brings it back. */
export function suspend(app: InteractiveApp): void {
	if (process.platform === "win32") {
		app.hint("Suspending is not supported on Windows.");
		return;
	}
	// Something must keep the event loop alive while stopped, or `fg` would find the process gone.
	const keepAlive = setInterval(() => {}, 2 ** 30);
	const ignoreInt = () => {};
	process.on("SIGINT", ignoreInt);
	process.once("SIGCONT", () => {
		clearInterval(keepAlive);
		process.off("SIGINT", ignoreInt);
		app.tui.start();
		app.layout.editorSlot.focus();
		app.tui.requestRender(true);
	});
	app.tui.stop();
	process.kill(0, "SIGTSTP");
}

export function guardTerminal(app: InteractiveApp): TerminalGuard {
	// Raw mode turns ctrl+c into a key; these come from outside. Each leaves the terminal as it was.
	const onInt = () => void app.exit(130);
	const onTerm = () => void app.exit(143);
	// A closed terminal: say goodbye to extensions, write nothing more.
	const onHup = () => void app.exit(129);
	const onEnd = () => void app.exit(0);
	// Writing to a terminal that went away must not crash the exit.
	const onWriteError = () => {};
	const onRejection = (reason: unknown) => app.errorOf(reason);
	const onCrash = (error: unknown) => {
		try {
			app.tui.stop();
		} finally {
			process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
			process.exit(1);
		}
	};
	process.on("SIGINT", onInt);
	process.on("SIGTERM", onTerm);
	process.on("SIGHUP", onHup);
	process.stdin.on("end", onEnd);
	process.stdout.on("error", onWriteError);
	process.on("unhandledRejection", onRejection);
	process.on("uncaughtException", onCrash);
	app.tui.setSuspendSignalHandler(() => suspend(app));
	return {
		release() {
			process.off("SIGINT", onInt);
			process.off("SIGTERM", onTerm);
			process.off("SIGHUP", onHup);
			process.stdin.off("end", onEnd);
			process.off("unhandledRejection", onRejection);
			process.off("uncaughtException", onCrash);
		},
	};
}
