// JSON-lines framing for rpc mode: records end at "\n" and nowhere else. U+2028 and U+2029 are
// legal inside JSON strings, so a reader that also splits on them (Node's readline) breaks records.

/** One record as a line: U+2028/2029 escaped too, so even a client that splits on them reads it whole. */
export function serializeLine(value: unknown): string {
	return `${JSON.stringify(value).replace(/\u2028/g, "\\u2028").replace(/\u2029/g, "\\u2029")}\n`;
}

/**
 * Splits a byte stream into lines on "\n" (0x0A, which never occurs inside a multi-byte UTF-8
 * sequence), strips one trailing "\r", and decodes each line as UTF-8. A last line without "\n"
 * is delivered at the end of the stream.
 */
export class LineSplitter {
	private chunks: Uint8Array[] = [];
	private readonly decoder = new TextDecoder();

	constructor(private readonly onLine: (line: string) => void) {}

	push(chunk: Uint8Array): void {
		let start = 0;
		for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, start)) {
			this.chunks.push(chunk.subarray(start, i));
			this.emit();
			start = i + 1;
		}
		// Copy: the reader may reuse its buffer for the next chunk.
		if (start < chunk.length) this.chunks.push(chunk.slice(start));
	}

	end(): void {
		if (this.chunks.length > 0) this.emit();
	}

	private emit(): void {
		const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks);
		this.chunks = [];
		const line = this.decoder.decode(bytes);
		this.onLine(line.endsWith("\r") ? line.slice(0, -1) : line);
	}
}

/** Feed every line of `stream` to `onLine`; resolves at end of stream. */
export async function readLines(stream: ReadableStream<Uint8Array>, onLine: (line: string) => void): Promise<void> {
	const splitter = new LineSplitter(onLine);
	for await (const chunk of stream) splitter.push(chunk);
	splitter.end();
}

/**
 * The `id` of a line that is not valid JSON (cut short, a stray comma), when it can still be
 * read: a top-level-looking `"id": "…"` or `"id": 12`. Undefined when there is none.
 */
export function salvageId(line: string): string | number | undefined {
	const match = /"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?)\s*[,}]/.exec(line);
	if (!match) return undefined;
	try {
		const value: unknown = JSON.parse(match[1]!);
		return typeof value === "string" || typeof value === "number" ? value : undefined;
	} catch {
		return undefined;
	}
}
