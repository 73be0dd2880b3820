// The start-up list: the header (`agent v…` and the key hints, which an extension's setHeader
// replaces) and, as its own region, `[Context]`, `[Skills]`, `[Prompts]`, `[Extensions]` (compact,
// or grouped project / user / path with ctrl+o) and the issues: exactly the lines of startup.ts.
import type { Component } from "@earendil-works/pi-tui";
import { currentTheme } from "./theme/styles.ts";
import { wrapIndented } from "./transcript/block.ts";

export class HeaderView implements Component {
	private cache: { width: number; lines: string[] } | undefined;

	/** `lines(expanded)` gives the start-up list in either form (it reads the extensions of the moment). */
	/** `lines(expanded)` gives this part of the start-up list; `offset` is where it starts in the whole. */
	constructor(
		private readonly lines: (expanded: boolean) => string[],
		private expanded: boolean,
		private readonly offset = 0,
	) {}

	setExpanded(expanded: boolean): void {
		this.expanded = expanded;
		this.invalidate();
	}

	invalidate(): void {
		this.cache = undefined;
	}

	render(width: number): readonly string[] {
		if (this.cache?.width === width) return this.cache.lines;
		const theme = currentTheme();
		const source = this.lines(this.expanded);
		// A loop, not flatMap: a builtin is compiled on its first call, and the first frame would pay for it.
		const lines: string[] = [];
		for (let i = 0; i < source.length; i++) {
			const line = source[i]!;
			// The name line stands out; section titles are accented like pi's.
			const at = i + this.offset;
			const styled = at === 0 ? theme.bold(line) : /^\[.*\]$/.test(line) ? theme.fg("accent", line) : at === 1 ? theme.fg("muted", line) : line;
			if (line === "") lines.push("");
			else lines.push(...wrapIndented(styled, Math.max(1, width), "", ""));
		}
		this.cache = { width, lines };
		return lines;
	}
}
