// Whether a standard stream is a terminal, without paying for node:tty where fstat can tell:
// importing node:tty costs ~5 ms at start-up in the binary (measured), on every run.
import { fstatSync, statSync } from "node:fs";

/** isatty(fd). Pipes, files and /dev/null are settled by fstat; another character device asks node:tty. */
export function isTerminal(fd: number): boolean {
	try {
		const stat = fstatSync(fd);
		if (!stat.isCharacterDevice()) return false;
		if (stat.rdev === statSync("/dev/null").rdev) return false;
	} catch {
		// A closed fd, or no /dev/null (Windows): isatty decides.
	}
	// Loaded only here, synchronously, so callers stay synchronous.
	const { isatty } = require("node:tty") as typeof import("node:tty");
	return isatty(fd);
}
