// Is an fd a terminal? fstat settles pipes, files and /dev/null without node:tty, whose import
// costs ~5 ms in the binary (measured); only another character device asks tty.isatty.
import { fstatSync, statSync } from "node:fs";
import { createRequire } from "node:module";

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
