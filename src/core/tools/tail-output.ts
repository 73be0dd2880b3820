// Collects streaming command output: keeps a bounded window of the end in memory for the model
// and, once the output is past the limits, spills all of it to a temp file.
import { FullOutputFile } from "./full-output.ts";
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, type TruncationOptions, type TruncationResult, truncateTail } from "./truncate.ts";

export class TailOutput {
	private readonly maxLines: number;
	private readonly maxBytes: number;
	private readonly decoder = new TextDecoder();
	private window = "";
	private windowTrimmed = false;
	private totalBytes = 0;
	private newlines = 0;
	private endsWithNewline = false;
	/** Raw chunks held until the output outgrows the limits and gets a file. */
	private pending: Uint8Array[] = [];
	private file: FullOutputFile | undefined;

	constructor(
		private readonly tool: string,
		limits: TruncationOptions = {},
	) {
		this.maxLines = limits.maxLines ?? DEFAULT_MAX_LINES;
		this.maxBytes = limits.maxBytes ?? DEFAULT_MAX_BYTES;
	}

	get fullOutputPath(): string | undefined {
		return this.file?.path;
	}

	push(chunk: Uint8Array): void {
		if (chunk.length === 0) return;
		this.totalBytes += chunk.length;
		for (let at = chunk.indexOf(0x0a); at >= 0; at = chunk.indexOf(0x0a, at + 1)) this.newlines++;
		this.endsWithNewline = chunk[chunk.length - 1] === 0x0a;

		if (this.file) this.file.write(chunk);
		else {
			this.pending.push(chunk);
			if (this.overLimits()) {
				this.file = new FullOutputFile(this.tool);
				for (const held of this.pending) this.file.write(held);
				this.pending = [];
			}
		}

		this.window += this.decoder.decode(chunk, { stream: true });
		// Characters are at least one byte each, so 2×maxBytes characters always hold the last
		// maxBytes bytes and the last maxLines lines that fit in them. Trim only at 4× to amortise.
		if (this.window.length > 4 * this.maxBytes) {
			this.window = this.window.slice(-2 * this.maxBytes);
			this.windowTrimmed = true;
		}
	}

	private totalLines(): number {
		if (this.totalBytes === 0) return 0;
		return this.endsWithNewline ? this.newlines : this.newlines + 1;
	}

	private overLimits(): boolean {
		return this.totalBytes > this.maxBytes || this.totalLines() > this.maxLines;
	}

	/** The end of the output as the model would see it now, with totals for the whole stream. */
	snapshot(): TruncationResult {
		const tail = truncateTail(this.window, { maxLines: this.maxLines, maxBytes: this.maxBytes });
		const truncated = tail.truncated || this.windowTrimmed;
		return {
			...tail,
			truncated,
			truncatedBy: tail.truncatedBy ?? (truncated ? "bytes" : null),
			totalLines: this.totalLines(),
			totalBytes: this.totalBytes,
		};
	}

	/** Flush the decoder and close the file; the output is complete. */
	finish(): TruncationResult {
		this.window += this.decoder.decode();
		this.file?.close();
		return this.snapshot();
	}
}
