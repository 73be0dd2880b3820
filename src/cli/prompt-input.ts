// The first prompt of a non-interactive run: `@file` contents, piped stdin and the positional
// messages, in that order. Images named with @ become attachments.
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, resolve } from "node:path";
import { UserError } from "../core/errors.ts";
import { NO_STAT } from "../core/file-reader.ts";
import type { ImageContent } from "../core/providers/types.ts";

const IMAGE_TYPES: Record<string, string> = { ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".gif": "image/gif", ".webp": "image/webp" };

export interface FileInput {
	text: string;
	images: ImageContent[];
}

/** Read `@path` arguments: text files inlined in <file> tags, images attached. */
export function readFileArgs(paths: string[], cwd: string): FileInput {
	const parts: string[] = [];
	const images: ImageContent[] = [];
	for (const p of paths) {
		const full = resolve(cwd, p);
		if (!existsSync(full)) throw new UserError(`File not found: @${p}`, [`Check the path (relative to ${cwd}).`]);
		if (!statSync(full).isFile()) throw new UserError(`@${p} is not a file.`);
		const mime = IMAGE_TYPES[extname(full).toLowerCase()];
		if (mime) {
			images.push({ type: "image", data: readFileSync(full).toString("base64"), mimeType: mime });
			parts.push(`<file name="${p}">(image attached)</file>`);
		} else {
			parts.push(`<file name="${p}">\n${readFileSync(full, "utf8")}\n</file>`);
		}
	}
	return { text: parts.join("\n"), images };
}

/**
 * Everything piped on stdin, or undefined when it is empty. Call it only when stdin is not a
 * terminal. A plain read of fd 0 first: Bun.stdin costs ~2 ms more at start-up in the binary
 * (measured); it remains for a non-blocking stdin, which a plain read cannot wait on.
 */
export async function readPipedStdin(): Promise<string | undefined> {
	if (stdinIsDevNull()) return undefined;
	let text: string;
	try {
		text = readFileSync(0, "utf8");
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		// A closed stdin has nothing to say.
		if (code === "EBADF") return undefined;
		if (code !== "EAGAIN") throw error;
		text = await Bun.stdin.text();
	}
	return text.trim() === "" ? undefined : text;
}

/**
 * Whether stdin is /dev/null (`< /dev/null`, a spawn's "ignore", most CI steps): there is nothing to
 * read, and Bun tells without node:fs (1.5–2 ms of a compiled start to load) or its stat() (~0.6 ms on
 * first use). A device, pipe or socket has no size (Infinity), and /dev/null's time is when the system
 * made its devices: a pipe or socket carries the time it was made or last written, so one with the
 * same millisecond is not there to be lost. A device made with /dev/null (/dev/zero) has no end to read either.
 */
function stdinIsDevNull(): boolean {
	if (process.platform === "win32") return false;
	try {
		const stdin = Bun.file(0);
		if (stdin.size !== Infinity) return false;
		const time = stdin.lastModified;
		return time !== NO_STAT && time === Bun.file("/dev/null").lastModified;
	} catch {
		return false;
	}
}
