// Lines the app says itself: notify() and info lines (muted), warnings, errors; and summaries of
// compacted or left-behind branches (one line, all of it with ctrl+o).
import { currentTheme } from "../theme/styles.ts";
import { Block, MARGIN, wrapIndented, type Expandable } from "./block.ts";

export type NoticeKind = "info" | "warning" | "error" | "plain";

export class NoticeView extends Block {
	constructor(
		private text: string,
		private readonly kind: NoticeKind = "info",
	) {
		super();
	}

	setText(text: string): void {
		this.text = text;
		this.invalidate();
	}

	protected build(width: number): string[] {
		const theme = currentTheme();
		const paint = (line: string, i: number) => {
			if (this.kind === "error") return theme.fg("error", `${i === 0 ? "Error: " : ""}${line}`);
			if (this.kind === "warning") return theme.fg("warning", `${i === 0 ? "Warning: " : ""}${line}`);
			if (this.kind === "info") return theme.fg("muted", line);
			return line;
		};
		// A loop, not flatMap (compiled on its first call, and the no-model help is in the first frame).
		const lines = this.text.split("\n");
		const out: string[] = [];
		for (let i = 0; i < lines.length; i++) out.push(...wrapIndented(paint(lines[i]!, i), width, MARGIN));
		return out;
	}
}

export class SummaryView extends Block implements Expandable {
	constructor(
		private readonly label: string,
		private readonly summary: string,
		private expanded: boolean,
	) {
		super();
	}

	setExpanded(expanded: boolean): void {
		this.expanded = expanded;
		this.invalidate();
	}

	protected build(width: number): string[] {
		const theme = currentTheme();
		const lines = this.summary.trim().split("\n");
		const head = theme.fg("customMessageLabel", `[${this.label}]`);
		if (!this.expanded) {
			const more = lines.length > 1 ? theme.fg("dim", ` (${lines.length} lines, ctrl+o to expand)`) : "";
			return wrapIndented(`${head} ${theme.fg("muted", lines[0] ?? "")}${more}`, width);
		}
		return [...wrapIndented(head, width), ...lines.flatMap((line) => wrapIndented(theme.fg("muted", line), width, `${MARGIN}  `))];
	}
}
