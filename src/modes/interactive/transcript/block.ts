// What every transcript entry shares: a blank line above it, a one-column margin, lines cached per
// width until the entry changes, and the ctrl+o state. Entries that show more when expanded
// implement `setExpanded`; the transcript flips them all at once.
import { truncateToWidth, visibleWidth, wrapTextWithAnsi } from "@earendil-works/pi-tui/dist/utils.js";
import type { Component } from "@earendil-works/pi-tui";
import { wrapAsciiLine } from "./ascii-wrap.ts";
import type { Settling } from "./transcript.ts";

export const MARGIN = " ";

/** A transcript entry whose look depends on ctrl+o. */
export interface Expandable {
	setExpanded(expanded: boolean): void;
}

export function isExpandable(component: Component): component is Component & Expandable {
	return typeof (component as Partial<Expandable>).setExpanded === "function";
}

const ANSI = /\x1b\[[0-9;]*m|\x1b\][^\x07]*\x07/g;

/**
 * One line of `text` wrapped to `width`: the first row after `firstIndent`, the rest after
 * `indent` plus the line's own leading spaces (a hanging indent, so `  - item` wraps under `item`).
 */
export function wrapIndented(text: string, width: number, indent = MARGIN, firstIndent = indent): string[] {
	if (visibleWidth(firstIndent) + visibleWidth(text) <= width) return [firstIndent + text];
	const hang = " ".repeat(/^ */.exec(text.replace(ANSI, ""))![0].length);
	const rest = indent + hang;
	const inner = Math.max(1, width - Math.max(visibleWidth(firstIndent), visibleWidth(rest)));
	const out: string[] = [];
	// Plain or one-colour ASCII (most lines, and the first frame's) skips pi-tui's per-character walk.
	const rows = wrapAsciiLine(text, inner) ?? wrapTextWithAnsi(text, inner);
	for (const [i, line] of rows.entries()) out.push(i === 0 ? firstIndent + line : rest + line.trimStart());
	return out.length > 0 ? out : [firstIndent.trimEnd()];
}

/** One line cut to the width (with an ellipsis) rather than wrapped. */
export function fitLine(line: string, width: number): string {
	return truncateToWidth(line, Math.max(1, width));
}

/**
 * A block of lines under a blank line; subclasses build the lines, the cache does the rest. Its
 * lines change only when it is invalidated, so it is settled unless a subclass says otherwise.
 */
export abstract class Block implements Component, Settling {
	private cache: { width: number; lines: string[] } | undefined;
	onChange: (() => void) | undefined;

	protected abstract build(width: number): string[];

	settled(): boolean {
		return true;
	}

	render(width: number): readonly string[] {
		if (this.cache?.width === width) return this.cache.lines;
		const body = this.build(width);
		const lines = body.length > 0 ? ["", ...body] : [];
		this.cache = { width, lines };
		return lines;
	}

	invalidate(): void {
		this.dropLines();
		this.onChange?.();
	}

	/** Build the lines again on the next render, without invalidating anything below. */
	protected dropLines(): void {
		this.cache = undefined;
	}
}

/** A fixed block of already-styled lines (notices, command output). */
export class LinesBlock extends Block {
	constructor(
		private lines: string[],
		private readonly margin = MARGIN,
	) {
		super();
	}

	setLines(lines: string[]): void {
		this.lines = lines;
		this.invalidate();
	}

	protected build(width: number): string[] {
		return this.lines.flatMap((line) => (line === "" ? [""] : wrapIndented(line, width, this.margin)));
	}
}
