// Direct writes to fd 1 and 2. Touching `process.stdout` builds Node's stream machinery (~20 ms
// and 7 MB at start-up in a compiled binary, measured), so paths that only print use these.
import { writeSync } from "node:fs";

function writeAll(fd: number, text: string): void {
	let buf = Buffer.from(text);
	while (buf.length > 0) {
		try {
			const n = writeSync(fd, buf);
			buf = buf.subarray(n);
		} catch (error) {
			// A non-blocking pipe that is full: wait a moment and retry rather than lose output.
			if ((error as NodeJS.ErrnoException).code === "EAGAIN") {
				Bun.sleepSync(1);
				continue;
			}
			// The reader went away (EPIPE): nothing more can be said.
			if ((error as NodeJS.ErrnoException).code === "EPIPE") return;
			throw error;
		}
	}
}

export function writeStdout(text: string): void {
	writeAll(1, text);
}

export function writeStderr(text: string): void {
	writeAll(2, text);
}
