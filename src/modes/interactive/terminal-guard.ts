// The terminal is always handed back as it was: on SIGINT/SIGTERM/SIGHUP from outside (running
// commands' process groups are ended first), on a crash, on a closed terminal, on an extension's
// process.exit(); ctrl+z (or SIGTSTP) suspends with the terminal restored and `fg` redraws.
// An error nothing caught in an extension's async code is shown, not fatal.
import { exitProcess, onExtensionExit } from "../../core/exit-guard.ts";
import { onTerminationSignals } from "../../core/process-groups.ts";
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
	process.once("SIGCONT", () => {
		clearInterval(keepAlive);
		app.tui.start();
		app.layout.editorSlot.focus();
		app.tui.requestRender(true);
	});
	app.tui.stop();
	process.kill(0, "SIGTSTP");
}

export function guardTerminal(app: InteractiveApp): TerminalGuard {
	// Raw mode turns ctrl+c into a key; these come from outside (kill, a closed terminal). Each ends
	// running commands, then leaves in order (130, 143, 129); a second one exits at once.
	const stopSignals = onTerminationSignals((code) => void app.exit(code));
	const stopExitRequests = onExtensionExit((request) => void app.exit(request.code));
	const onEnd = () => void app.exit(0);
	// Writing to a terminal that went away must not crash the exit.
	const onWriteError = () => {};
	const onRejection = (reason: unknown) => app.errorOf(reason);
	const onCrash = (error: unknown) => {
		try {
			app.tui.stop();
		} finally {
			process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
			exitProcess(1);
		}
	};
	process.stdin.on("end", onEnd);
	process.stdout.on("error", onWriteError);
	process.on("unhandledRejection", onRejection);
	process.on("uncaughtException", onCrash);
	app.tui.setSuspendSignalHandler(() => suspend(app));
	return {
		release() {
			stopSignals();
			stopExitRequests();
			process.stdin.off("end", onEnd);
			process.off("unhandledRejection", onRejection);
			process.off("uncaughtException", onCrash);
		},
	};
}
