// One frame of the screen as the line arrays its components returned, in order, never joined: the
// Screen compares it with the last frame and hands pi-tui the lines from a row on, in time that
// depends on the parts and the lines asked for, not on how long the transcript is.

export class Frame {
	static readonly EMPTY = new Frame([]);
	/** How many lines, all parts together. */
	readonly length: number;
	/** Where each part starts. */
	private readonly starts: number[] = [];
	/** Where each part array first appears: an array a component returns again is the same lines (pi-tui's contract). */
	private readonly at = new Map<readonly string[], number>();

	constructor(private readonly parts: readonly (readonly string[])[]) {
		let length = 0;
		for (const part of parts) {
			this.starts.push(length);
			if (!this.at.has(part)) this.at.set(part, length);
			length += part.length;
		}
		this.length = length;
	}

	/** Line `i` (undefined past the end). */
	line(i: number): string | undefined {
		if (i < 0 || i >= this.length) return undefined;
		let lo = 0;
		let hi = this.parts.length - 1;
		while (lo < hi) {
			const mid = (lo + hi + 1) >> 1;
			if (this.starts[mid]! <= i) lo = mid;
			else hi = mid - 1;
		}
		return this.parts[lo]![i - this.starts[lo]!];
	}

	/** The lines from `from` on, as one new array. */
	from(from: number): string[] {
		const out: string[] = [];
		for (let p = 0; p < this.parts.length; p++) {
			const part = this.parts[p]!;
			const start = this.starts[p]!;
			if (start + part.length <= from) continue;
			for (let i = Math.max(0, from - start); i < part.length; i++) out.push(part[i]!);
		}
		return out;
	}

	/** Whether any line from `from` on passes `test`. */
	some(from: number, test: (line: string) => boolean): boolean {
		for (let p = 0; p < this.parts.length; p++) {
			const part = this.parts[p]!;
			const start = this.starts[p]!;
			if (start + part.length <= from) continue;
			for (let i = Math.max(0, from - start); i < part.length; i++) if (test(part[i]!)) return true;
		}
		return false;
	}

	/** Whether this frame's first `end` lines are `other`'s (both having that many). */
	samePrefix(other: Frame, end: number): boolean {
		if (this.length < end || other.length < end) return false;
		for (let p = 0; p < this.parts.length; p++) {
			const start = this.starts[p]!;
			if (start >= end) break;
			const part = this.parts[p]!;
			// The same array at the same row: the same lines, not compared one by one.
			if (other.at.get(part) === start) continue;
			const stop = Math.min(part.length, end - start);
			for (let i = 0; i < stop; i++) if (part[i] !== other.line(start + i)) return false;
		}
		return true;
	}
}
