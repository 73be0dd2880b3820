// `!cmd` / `!!cmd`: the command, its output as it runs (the last lines) and when done (the last
// 20, all with ctrl+o), and how it ended: exit code, cancelled, where the full output went.
import type { BashExecutionMessage } from "../../../core/agent/messages.ts";
import { currentTheme } from "../theme/styles.ts";
import { Block, MARGIN, wrapIndented, type Expandable } from "./block.ts";

const RUNNING_TAIL = 5;
const COLLAPSED_LINES = 20;

export class BashExecutionView extends Block implements Expandable {
	private output = "";
	private message: BashExecutionMessage | undefined;

	constructor(
		private readonly command: string,
		private readonly excluded: boolean,
		private expanded: boolean,
	) {
		super();
	}

	/** Output so far, while it runs. */
	setOutput(output: string): void {
		this.output = output;
		this.invalidate();
	}

	finish(message: BashExecutionMessage): void {
		this.message = message;
		this.output = message.output;
		this.invalidate();
	}

	setExpanded(expanded: boolean): void {
		this.expanded = expanded;
		this.invalidate();
	}

	/** Output streams in until the command ends. */
	override settled(): boolean {
		return this.message !== undefined;
	}

	protected build(width: number): string[] {
		const theme = currentTheme();
		const indent = `${MARGIN}  `;
		const head = `${theme.bold("$")} ${this.command}${this.excluded ? theme.fg("dim", "  (kept out of the model's context)") : ""}`;
		const out = wrapIndented(head, width, indent, MARGIN);
		const all = this.output.replace(/\n$/, "").split("\n");
		const lines = this.output === "" ? [] : all;
		const done = this.message;
		const shown = !done ? lines.slice(-RUNNING_TAIL) : this.expanded || lines.length <= COLLAPSED_LINES ? lines : lines.slice(-COLLAPSED_LINES);
		if (done && shown.length < lines.length) out.push(theme.fg("dim", `${indent}… ${lines.length - shown.length} earlier lines (ctrl+o to show all)`));
		for (const line of shown) out.push(...wrapIndented(done ? line : theme.fg("muted", line), width, indent));
		if (done?.cancelled) out.push(theme.fg("warning", `${indent}Cancelled.`));
		else if (done && done.exitCode !== 0) out.push(theme.fg("error", `${indent}exit code ${done.exitCode ?? "unknown"}`));
		if (done?.truncated && done.fullOutputPath) out.push(theme.fg("dim", `${indent}Full output: ${done.fullOutputPath}`));
		return out;
	}
}
