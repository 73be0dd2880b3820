// Is an fd a terminal? Bun's isatty binding answers without node:tty (whose import costs ~5 ms in the
// binary, measured) or node:fs (1.5–2 ms). Without that binding, fstat settles pipes, files and
// /dev/null, and only another character device asks tty.isatty.
import { fstatSync, statSync } from "node:fs";
import type { ExtensionMode } from "../core/extensions/types.ts";
import type { Args } from "./args.ts";

interface TtyBinding {
	isTTY(fd: number): boolean;
}
let ttyBinding: TtyBinding | null | undefined;

/** process.binding("tty_wrap"), Node's own isatty, which Bun provides; null where it does not. */
function isattyBinding(): TtyBinding | null {
	if (ttyBinding !== undefined) return ttyBinding;
	try {
		const found = (process as unknown as { binding(name: string): Partial<TtyBinding> | undefined }).binding("tty_wrap");
		ttyBinding = typeof found?.isTTY === "function" ? (found as TtyBinding) : null;
	} catch {
		ttyBinding = null;
	}
	return ttyBinding;
}

/**
 * The answer for each fd asked about: a start asks about stdin and stdout up to four times each (the
 * mode at parse time, extension start-up, the prompt, the session-in-use prompt), and each answer is
 * an isatty call (without the binding, an fstat, a stat of /dev/null and isatty). A run's stdin and
 * stdout do not change under it.
 */
const answers = new Map<number, boolean>();

export function isTerminal(fd: number): boolean {
	let answer = answers.get(fd);
	if (answer === undefined) answers.set(fd, (answer = askTerminal(fd)));
	return answer;
}

function askTerminal(fd: number): boolean {
	const binding = isattyBinding();
	if (binding) {
		try {
			return binding.isTTY(fd) === true;
		} catch {
			// An fd it refuses: the checks below decide.
		}
	}
	try {
		const stat = fstatSync(fd);
		if (!stat.isCharacterDevice()) return false;
		if (stat.rdev === statSync("/dev/null").rdev) return false;
	} catch {
		// No such fd, or no /dev/null (Windows): let isatty decide.
	}
	const tty = require("node:tty") as typeof import("node:tty");
	return tty.isatty(fd);
}

/**
 * Which mode the flags and the terminal ask for. Interactive needs a person at both ends and a
 * terminal that can draw; piped stdin or stdout, or TERM=dumb, means print mode.
 */
export function runMode(args: Pick<Args, "mode" | "print">): ExtensionMode {
	if (args.mode === "json" || args.mode === "rpc") return args.mode;
	if (args.print) return "print";
	return isTerminal(0) && !tuiFallbackReason() ? "tui" : "print";
}

/**
 * Why a person at the keyboard gets print mode instead of the TUI (stdout is not a terminal,
 * `TERM=dumb`), said in one line; undefined when the TUI can run.
 */
export function tuiFallbackReason(): string | undefined {
	if (!isTerminal(1)) return "stdout is not a terminal";
	if (process.env.TERM === "dumb") return "TERM=dumb cannot show the interactive screen";
	return undefined;
}
