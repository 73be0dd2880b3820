// The first prompt of a non-interactive run: `@file` contents, piped stdin and the positional
// messages, in that order. Images named with @ become attachments.
import { existsSync, readFileSync, statSync } from "node:fs";
import { extname, resolve } from "node:path";
import { UserError } from "../core/errors.ts";
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

/** Everything piped on stdin, or undefined when stdin is a terminal or empty. */
export async function readPipedStdin(): Promise<string | undefined> {
	const text = await Bun.stdin.text();
	return text.trim() === "" ? undefined : text;
}
