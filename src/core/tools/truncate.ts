// Cutting tool output down to what a model should see: by lines and by UTF-8 bytes, keeping the
// head (file reads) or the tail (command output), never splitting a character.

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;
/** grep match lines longer than this many characters are cut. */
export const GREP_MAX_LINE_LENGTH = 500;

export interface TruncationOptions {
	/** Default {@link DEFAULT_MAX_LINES}. */
	maxLines?: number;
	/** Default {@link DEFAULT_MAX_BYTES}. */
	maxBytes?: number;
}

export interface TruncationResult {
	content: string;
	truncated: boolean;
	/** Which limit cut the output; null when nothing was cut. */
	truncatedBy: "lines" | "bytes" | null;
	totalLines: number;
	totalBytes: number;
	/** Complete lines kept (a partial last line, see lastLinePartial, counts as one). */
	outputLines: number;
	outputBytes: number;
	/** truncateTail only: the final line alone was over the byte limit, so only its end is kept. */
	lastLinePartial: boolean;
	/** truncateHead only: the first line alone is over the byte limit, so nothing is kept. */
	firstLineExceedsLimit: boolean;
	maxLines: number;
	maxBytes: number;
}

const encoder = new TextEncoder();

function byteLength(text: string): number {
	return Buffer.byteLength(text, "utf8");
}

/**
 * Lines with their terminators. A final "\n" ends the last line rather than starting an empty
 * one, so "a\nb\n" is two lines.
 */
function splitLinesKeepEnds(text: string): string[] {
	if (text === "") return [];
	const lines: string[] = [];
	let start = 0;
	for (;;) {
		const nl = text.indexOf("\n", start);
		if (nl === -1) {
			if (start < text.length) lines.push(text.slice(start));
			return lines;
		}
		lines.push(text.slice(start, nl + 1));
		start = nl + 1;
	}
}

/** Number of lines in `text`, counted as splitLinesKeepEnds does. */
export function countLines(text: string): number {
	if (text === "") return 0;
	let count = 0;
	for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) count++;
	return text.endsWith("\n") ? count : count + 1;
}

function result(
	content: string,
	totalLines: number,
	totalBytes: number,
	limits: { maxLines: number; maxBytes: number },
	extra: Partial<TruncationResult>,
): TruncationResult {
	return {
		content,
		truncated: false,
		truncatedBy: null,
		totalLines,
		totalBytes,
		outputLines: totalLines,
		outputBytes: totalBytes,
		lastLinePartial: false,
		firstLineExceedsLimit: false,
		...limits,
		...extra,
	};
}

function limitsOf(options: TruncationOptions): { maxLines: number; maxBytes: number } {
	return { maxLines: options.maxLines ?? DEFAULT_MAX_LINES, maxBytes: options.maxBytes ?? DEFAULT_MAX_BYTES };
}

/** How many whole lines, taken in the given order, fit both limits; and which limit stopped it. */
function fitLines(ordered: string[], limits: { maxLines: number; maxBytes: number }) {
	let bytes = 0;
	let kept = 0;
	let truncatedBy: "lines" | "bytes" = "lines";
	for (const line of ordered) {
		if (kept === limits.maxLines) break;
		const size = byteLength(line);
		if (bytes + size > limits.maxBytes) {
			truncatedBy = "bytes";
			break;
		}
		bytes += size;
		kept++;
	}
	return { kept, bytes, truncatedBy };
}

/** Keep the beginning: whole lines only. If the first line alone is too big, nothing is kept. */
export function truncateHead(content: string, options: TruncationOptions = {}): TruncationResult {
	const limits = limitsOf(options);
	const totalBytes = byteLength(content);
	// Most output fits: counted without splitting it into lines.
	const totalLines = countLines(content);
	if (totalLines <= limits.maxLines && totalBytes <= limits.maxBytes) return result(content, totalLines, totalBytes, limits, {});

	const lines = splitLinesKeepEnds(content);
	const { kept, bytes, truncatedBy } = fitLines(lines, limits);
	return result(lines.slice(0, kept).join(""), totalLines, totalBytes, limits, {
		truncated: true,
		truncatedBy,
		outputLines: kept,
		outputBytes: bytes,
		firstLineExceedsLimit: kept === 0 && truncatedBy === "bytes",
	});
}

/**
 * Keep the end: whole lines, except that when the last line alone is over the byte limit its
 * final bytes are kept (starting on a character boundary).
 */
export function truncateTail(content: string, options: TruncationOptions = {}): TruncationResult {
	const limits = limitsOf(options);
	const totalBytes = byteLength(content);
	// Most command output fits: counted without splitting it into lines.
	const totalLines = countLines(content);
	if (totalLines <= limits.maxLines && totalBytes <= limits.maxBytes) return result(content, totalLines, totalBytes, limits, {});

	const lines = splitLinesKeepEnds(content);
	const { kept, bytes, truncatedBy } = fitLines([...lines].reverse(), limits);
	if (kept === 0 && truncatedBy === "bytes") {
		const tail = lastBytes(lines[lines.length - 1]!, limits.maxBytes);
		return result(tail, totalLines, totalBytes, limits, {
			truncated: true,
			truncatedBy,
			outputLines: tail === "" ? 0 : 1,
			outputBytes: byteLength(tail),
			lastLinePartial: tail !== "",
		});
	}
	return result(lines.slice(lines.length - kept).join(""), totalLines, totalBytes, limits, {
		truncated: true,
		truncatedBy,
		outputLines: kept,
		outputBytes: bytes,
	});
}

/** The longest suffix of `text` of at most `maxBytes` UTF-8 bytes that starts on a character. */
function lastBytes(text: string, maxBytes: number): string {
	const bytes = encoder.encode(text);
	if (bytes.length <= maxBytes) return text;
	let start = bytes.length - maxBytes;
	// Continuation bytes look like 10xxxxxx; step forward to the next character's first byte.
	while (start < bytes.length && (bytes[start]! & 0xc0) === 0x80) start++;
	return new TextDecoder().decode(bytes.subarray(start));
}

/** Cut one line to `maxChars` characters, marking the cut. Never splits a surrogate pair. */
export function truncateLine(line: string, maxChars: number = GREP_MAX_LINE_LENGTH): { text: string; wasTruncated: boolean } {
	if (line.length <= maxChars) return { text: line, wasTruncated: false };
	let end = maxChars;
	const code = line.charCodeAt(end - 1);
	if (code >= 0xd800 && code <= 0xdbff) end--;
	return { text: `${line.slice(0, end)}... [truncated]`, wasTruncated: true };
}

/** 512B, 1.5KB, 2.0MB. */
export function formatSize(bytes: number): string {
	if (bytes < 1024) return `${bytes}B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
	return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

/** Fill `{{maxLines}}` and `{{maxSize}}` in a tool description with the default limits. */
export function fillLimits(text: string): string {
	return text.replaceAll("{{maxLines}}", String(DEFAULT_MAX_LINES)).replaceAll("{{maxSize}}", `${DEFAULT_MAX_BYTES / 1024}KB`);
}
