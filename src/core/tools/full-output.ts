// When output is cut, the whole of it goes to a temp file whose path the model is given, so it
// can read the rest with offsets instead of re-running the command.
import { closeSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { APP_NAME, tmpDir } from "../../config.ts";
import { trackOutputFile } from "./output-files.ts";
import { type TruncationOptions, type TruncationResult, formatSize, truncateHead } from "./truncate.ts";

/** A fresh path in the OS temp dir (read at call time, so TMPDIR set later is honoured). */
export function newFullOutputPath(tool: string, extension = "log"): string {
	const path = join(tmpDir(), `${APP_NAME}-${tool}-${randomHex(6)}.${extension}`);
	// Removed when the process ends unless a saved session entry refers to it.
	trackOutputFile(path);
	return path;
}

// Web Crypto's global, not node:crypto: importing that costs ~7 ms at start-up in the binary (measured).
function randomHex(bytes: number): string {
	return Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
}

export async function saveFullOutput(tool: string, text: string): Promise<string> {
	const path = newFullOutputPath(tool);
	await Bun.write(path, text);
	return path;
}

/** The part of a tool's details that says its output was cut and where the whole of it is. */
export interface SavedOutputDetails {
	/** Present when the output was cut. */
	truncation?: TruncationResult;
	/** The complete output, when it was cut. */
	fullOutputPath?: string;
}

export interface LimitedOutput {
	text: string;
	/** Empty when nothing was cut. */
	details: SavedOutputDetails;
}

/**
 * Keep the head of a listing (grep, find, ls) within the limits; when cut, save the whole and
 * end the text with a notice naming the file.
 */
export async function limitOutput(tool: string, text: string, options: TruncationOptions = {}): Promise<LimitedOutput> {
	const truncation = truncateHead(text, options);
	if (!truncation.truncated) return { text, details: {} };
	const fullOutputPath = await saveFullOutput(tool, text);
	const limit = truncation.truncatedBy === "lines" ? `${truncation.maxLines} lines` : formatSize(truncation.maxBytes);
	const notice = `[Output truncated to ${limit} (${truncation.outputLines} of ${truncation.totalLines} lines shown). Full output: ${fullOutputPath}]`;
	return { text: `${truncation.content}\n${notice}`, details: { truncation, fullOutputPath } };
}

/**
 * An append-only temp file opened on demand. Writes are synchronous so chunks land in order
 * even when they arrive from two pipes at once.
 */
export class FullOutputFile {
	readonly path: string;
	private fd: number | undefined;

	constructor(tool: string) {
		this.path = newFullOutputPath(tool);
		this.fd = openSync(this.path, "w");
	}

	write(chunk: Uint8Array): void {
		if (this.fd !== undefined) writeSync(this.fd, chunk);
	}

	close(): void {
		if (this.fd === undefined) return;
		closeSync(this.fd);
		this.fd = undefined;
	}
}
