// The `read` tool: a text file with line numbers (paged with offset/limit), or an image as an
// attachment. File access goes through ReadOperations so it can be swapped (SSH, containers).
import { constants } from "node:fs";
import { fsp } from "./fs-async.ts";
import description from "./read.md" with { type: "text" };
import { errorCode, fsError, resolveToolPath, shownPath, throwIfAborted } from "./paths.ts";
import { DEFAULT_MAX_BYTES, type TruncationResult, fillLimits, formatSize, truncateHead } from "./truncate.ts";
import type { AgentTool } from "./types.ts";
import { ReadParams } from "./params.ts";

export { ReadParams };

export interface ReadToolDetails {
	/** Present when the output was cut to the line or byte limit. */
	truncation?: TruncationResult;
}

export interface ReadOperations {
	readFile(absolutePath: string): Promise<Buffer>;
	/** Resolves when the file exists and is readable; rejects (ideally with an fs error code) otherwise. */
	access(absolutePath: string): Promise<void>;
	/** An image MIME type, or null/undefined for anything else. Default: sniffed from the file's first bytes. */
	detectImageMimeType?(absolutePath: string): Promise<string | null | undefined>;
}

export interface ReadToolOptions {
	/** Default: the local filesystem. */
	operations?: ReadOperations;
	/** Largest image attached, in bytes. Default 5 MB (the common provider limit). */
	maxImageBytes?: number;
}

const DEFAULT_MAX_IMAGE_BYTES = 5 * 1024 * 1024;

export function createLocalReadOperations(): ReadOperations {
	return {
		readFile: (absolutePath) => fsp().readFile(absolutePath),
		access: (absolutePath) => fsp().access(absolutePath, constants.R_OK),
	};
}

/** png, jpeg, gif or webp by magic number; null for anything else. */
export function sniffImageMimeType(bytes: Uint8Array): string | null {
	const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
	if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
	if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
	if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
	if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) {
		return "image/webp";
	}
	return null;
}

/** A NUL byte early on is the usual sign of a file that is not text. */
function looksBinary(bytes: Uint8Array): boolean {
	return bytes.subarray(0, 8000).includes(0);
}

function splitFileLines(text: string): string[] {
	if (text === "") return [];
	const lines = text.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

export function createReadTool(cwd: string, options: ReadToolOptions = {}): AgentTool<typeof ReadParams, ReadToolDetails> {
	const ops = options.operations ?? createLocalReadOperations();
	const maxImageBytes = options.maxImageBytes ?? DEFAULT_MAX_IMAGE_BYTES;

	return {
		name: "read",
		label: "Read",
		description: fillLimits(description),
		parameters: ReadParams,
		promptSnippet: "Read a file (text with line numbers, or an image)",
		promptGuidelines: ["Use read to look at files, not bash cat or sed"],
		async execute(_toolCallId, params, signal) {
			throwIfAborted(signal);
			const absolutePath = resolveToolPath(cwd, params.path);
			const shown = shownPath(params.path);
			const buffer = await readOrExplain(ops, absolutePath, shown);

			const mimeType = ops.detectImageMimeType ? await ops.detectImageMimeType(absolutePath) : sniffImageMimeType(buffer);
			if (mimeType) {
				if (buffer.length > maxImageBytes) {
					throw new Error(`Image ${shown} is ${formatSize(buffer.length)}, over the ${formatSize(maxImageBytes)} limit for attachments`);
				}
				return {
					content: [
						{ type: "text", text: `Read image ${shown} [${mimeType}, ${formatSize(buffer.length)}]` },
						{ type: "image", data: buffer.toString("base64"), mimeType },
					],
					details: {},
				};
			}
			if (looksBinary(buffer)) {
				throw new Error(`${shown} is a binary file (${formatSize(buffer.length)}); read shows text files and png, jpg, gif or webp images`);
			}
			return readText(buffer, shown, params);
		},
	};
}

async function readOrExplain(ops: ReadOperations, absolutePath: string, shown: string): Promise<Buffer> {
	try {
		await ops.access(absolutePath);
		return await ops.readFile(absolutePath);
	} catch (error) {
		if (errorCode(error) === "EISDIR") throw new Error(`${shown} is a directory, not a file; list it with ls or bash instead`);
		throw fsError(error, shown, "read", `File not found: ${shown}`);
	}
}

function readText(buffer: Buffer, shown: string, params: ReadParams) {
	let text = buffer.toString("utf8");
	if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
	const lines = splitFileLines(text);
	const total = lines.length;
	const offset = params.offset ?? 1;
	if (!Number.isInteger(offset) || offset < 1) throw new Error(`offset must be a whole number of 1 or more; got ${offset}`);
	if (params.limit !== undefined && (!Number.isInteger(params.limit) || params.limit < 1)) {
		throw new Error(`limit must be a whole number of 1 or more; got ${params.limit}`);
	}
	if (total === 0 && offset === 1) return { content: [{ type: "text" as const, text: `(${shown} is empty)` }], details: {} };
	if (offset > total) throw new Error(`Offset ${offset} is beyond the end of ${shown}, which has ${total} line${total === 1 ? "" : "s"}`);

	const start = offset - 1;
	const end = params.limit === undefined ? total : Math.min(total, start + params.limit);
	const width = String(end).length;
	const numbered = lines.slice(start, end).map((line, i) => `${String(start + i + 1).padStart(width)}\t${line}`);
	const truncation = truncateHead(numbered.join("\n"));

	if (truncation.firstLineExceedsLimit) {
		const size = formatSize(Buffer.byteLength(lines[start]!, "utf8"));
		const text = `[Line ${offset} is ${size}, over the ${formatSize(truncation.maxBytes)} output limit. View part of it with bash: sed -n '${offset}p' ${shown} | head -c ${DEFAULT_MAX_BYTES}]`;
		return { content: [{ type: "text" as const, text }], details: { truncation } };
	}
	let output = truncation.content.replace(/\n$/, "");
	if (truncation.truncated) {
		const last = start + truncation.outputLines;
		const limit = truncation.truncatedBy === "bytes" ? ` (${formatSize(truncation.maxBytes)} limit)` : "";
		output += `\n\n[Showing lines ${offset}-${last} of ${total}${limit}. Use offset=${last + 1} to continue.]`;
		return { content: [{ type: "text" as const, text: output }], details: { truncation } };
	}
	if (end < total) output += `\n\n[${total - end} more line${total - end === 1 ? "" : "s"} in ${shown}. Use offset=${end + 1} to continue.]`;
	return { content: [{ type: "text" as const, text: output }], details: {} };
}
