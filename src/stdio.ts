// Direct writes to fd 1 and 2. Touching `process.stdout` builds Node's stream machinery (~20 ms
// and 7 MB at start-up in a compiled binary, measured), so paths that only print use these.
import { writeSync } from "node:fs";

// Bun's own console.log and console.warn, taken before anything replaces them: a line given as one
// string is written as it is, synchronously and whole (a full non-blocking pipe is waited out, a reader
// that went away is ignored), and without node:fs, whose loading costs 1.5–2 ms of a compiled start.
// console.warn, not console.error, for stderr: on a terminal Bun paints console.error's text red.
const bunLog = console.log;
const bunWarn = console.warn;

// TextEncoder, not Buffer.from: the first use of Buffer builds it (~0.4 ms of a `-p` run that uses it nowhere else).
const encoder = new TextEncoder();

function writeAll(fd: number, text: string): void {
	let buf = encoder.encode(text);
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
			// The reader went away (EPIPE), or the terminal did (EIO after a hang-up): nothing more can be said.
			const code = (error as NodeJS.ErrnoException).code;
			if (code === "EPIPE" || code === "EIO") return;
			throw error;
		}
	}
}

export function writeStdout(text: string): void {
	if (text.endsWith("\n")) bunLog(text.slice(0, -1));
	else writeAll(1, text);
}

export function writeStderr(text: string): void {
	if (text.endsWith("\n")) bunWarn(text.slice(0, -1));
	else writeAll(2, text);
}

// Console methods that print to stdout (in Bun, trace too). log/info/debug/trace keep Bun's own
// formatting through console.error; the rest go through a node:console on stderr, built on first use.
const STDOUT_CONSOLE_METHODS = ["dir", "dirxml", "table", "count", "countReset", "group", "groupCollapsed", "groupEnd"] as const;
let guarded = false;
/** Set once code that is not ours (an extension module) is about to run. */
let foreignCode = false;
let stdoutRedirected = false;

/**
 * From here on, whatever code other than ours writes to stdout — `console.log` at the top of an
 * extension module, `process.stdout.write` in a factory — goes to stderr, so the answer or protocol
 * we write with writeStdout is all stdout carries, from its first byte (SPEC §10). For
 * non-interactive modes; called as soon as the flags say which mode runs. Costs nothing until used:
 * `process.stdout` itself is redirected only when foreign code is about to run (beforeForeignCode).
 */
export function routeStdoutToStderr(): void {
	if (guarded) return;
	guarded = true;
	const toStderr = (...parts: unknown[]) => console.error(...parts);
	console.log = toStderr;
	console.info = toStderr;
	console.debug = toStderr;
	console.trace = (...parts: unknown[]) => {
		// The caller's stack, without this wrapper's frame.
		const stack = (new Error().stack ?? "").split("\n").slice(2).join("\n");
		console.error("Trace:", ...parts, `\n${stack}`);
	};
	let stderrConsole: import("node:console").Console | undefined;
	const lazy = (): import("node:console").Console => {
		if (stderrConsole) return stderrConsole;
		const { Console } = require("node:console") as typeof import("node:console");
		stderrConsole = new Console({ stdout: process.stderr, stderr: process.stderr });
		return stderrConsole;
	};
	for (const name of STDOUT_CONSOLE_METHODS) {
		(console as unknown as Record<string, unknown>)[name] = (...args: unknown[]) => (lazy()[name] as (...a: unknown[]) => void)(...args);
	}
	if (foreignCode) redirectProcessStdout();
}

/**
 * Called before an extension module is imported: from here on, when stdout is routed, `process.stdout`
 * is stderr. Not done up front because redefining the property builds Bun's lazy process.stdout (and
 * with it node:stream), measured ~5 ms of a `-p` run that loads no extension.
 */
export function beforeForeignCode(): void {
	foreignCode = true;
	if (guarded) redirectProcessStdout();
}

function redirectProcessStdout(): void {
	if (stdoutRedirected) return;
	stdoutRedirected = true;
	// A getter, not an assignment to process.stdout.write: building process.stdout costs ~20 ms.
	Object.defineProperty(process, "stdout", { configurable: true, enumerable: true, get: () => process.stderr });
}
