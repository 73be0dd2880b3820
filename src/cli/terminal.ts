// Is an fd a terminal? fstat settles pipes, files and /dev/null without node:tty, whose import
// costs ~5 ms in the binary (measured); only another character device asks tty.isatty.
import { fstatSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import type { ExtensionMode } from "../core/extensions/types.ts";
import type { Args } from "./args.ts";

export function isTerminal(fd: number): boolean {
	try {
		const stat = fstatSync(fd);
		if (!stat.isCharacterDevice()) return false;
		if (stat.rdev === statSync("/dev/null").rdev) return false;
	} catch {
		// No such fd, or no /dev/null (Windows): let isatty decide.
	}
	const tty = createRequire(import.meta.url)("node:tty") as typeof import("node:tty");
	return tty.isatty(fd);
}

/** Which mode the flags and the terminal ask for. Interactive needs a person at both ends. */
export function runMode(args: Pick<Args, "mode" | "print">): ExtensionMode {
	if (args.mode === "json" || args.mode === "rpc") return args.mode;
	if (args.print) return "print";
	// Piped stdin or stdout means print mode.
	return isTerminal(0) && isTerminal(1) ? "tui" : "print";
}
