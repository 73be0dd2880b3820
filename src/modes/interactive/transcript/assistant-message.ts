// An answer from the model as it streams and once done: its text as Markdown wrapped to the width
// (tables drawn as tables, code highlighted), thinking collapsed to one line until ctrl+o, and an
// error or abort line at the end. Tool calls are entries of their own (tool-call.ts).
import { Spacer } from "@earendil-works/pi-tui/dist/components/spacer.js";
import { Container } from "@earendil-works/pi-tui/dist/tui.js";
import type { Component } from "@earendil-works/pi-tui";
import type { AssistantMessage } from "../../../core/providers/types.ts";
import { currentTheme, getMarkdownTheme } from "../theme/styles.ts";
import { LazyMarkdown } from "./markdown.ts";
import { Block, MARGIN, wrapIndented, type Expandable } from "./block.ts";
import type { Settling } from "./transcript.ts";
import type { ViewContext } from "./view-context.ts";

/** Thinking: one line saying how much there is, or all of it (ctrl+o). */
export class ThinkingView extends Block implements Expandable {
	private text = "";

	constructor(
		private readonly context: ViewContext,
		private expanded: boolean,
	) {
		super();
	}

	setText(text: string): void {
		if (text === this.text) return;
		this.text = text;
		this.invalidate();
	}

	setExpanded(expanded: boolean): void {
		this.expanded = expanded;
		this.invalidate();
	}

	protected build(width: number): string[] {
		const theme = currentTheme();
		const text = this.text.trim();
		if (!text) return [];
		const style = (t: string) => theme.italic(theme.fg("thinkingText", t));
		if (this.context.thinkingShown ?? this.expanded) {
			const shown = this.context.renderers.transformMarkdown(text, { messageType: "assistant-thinking", isStreaming: false, availableWidth: width - 1 });
			return shown.split("\n").flatMap((line) => wrapIndented(style(line), width));
		}
		const count = text.split("\n").length;
		const label = this.context.hiddenThinkingLabel ?? "Thinking";
		return [`${MARGIN}${style(`∴ ${label} (${count} ${count === 1 ? "line" : "lines"}, ctrl+o to expand)`)}`];
	}
}

/** A text part: Markdown under a blank line, transformed by extensions just before it is drawn. */
class TextPart extends Container {
	private readonly markdown: LazyMarkdown;
	private streaming = true;

	constructor(context: ViewContext) {
		super();
		this.markdown = new LazyMarkdown("", 1, 0, getMarkdownTheme(), undefined, {
			transform: (md, availableWidth) => context.renderers.transformMarkdown(md, { messageType: "assistant", isStreaming: this.streaming, availableWidth }),
		});
		this.addChild(new Spacer(1));
		this.addChild(this.markdown);
	}

	set(text: string, streaming: boolean): void {
		this.streaming = streaming;
		this.markdown.setText(text);
	}

	override render(width: number): readonly string[] {
		const lines = this.markdown.render(width);
		return lines.length > 0 ? super.render(width) : [];
	}
}

export class AssistantMessageView extends Container implements Expandable, Settling {
	private readonly parts: (TextPart | ThinkingView)[] = [];
	private readonly end = new Container();
	private streaming = true;
	onChange: (() => void) | undefined;

	constructor(
		private readonly context: ViewContext,
		private expanded: boolean,
	) {
		super();
		this.addChild(this.end);
	}

	/** Show `message` as it stands (`streaming` while more may come). */
	update(message: AssistantMessage, streaming: boolean): void {
		let index = 0;
		for (const block of message.content) {
			if (block.type !== "text" && block.type !== "thinking") continue;
			let part = this.parts[index];
			const wanted = block.type === "text" ? TextPart : ThinkingView;
			if (!(part instanceof wanted)) {
				part = block.type === "text" ? new TextPart(this.context) : new ThinkingView(this.context, this.expanded);
				if (this.parts[index]) this.removeChild(this.parts[index]!);
				this.parts[index] = part;
				this.children.splice(index, 0, part);
			}
			if (part instanceof TextPart) part.set((block as { text: string }).text, streaming);
			else part.setText((block as { thinking: string }).thinking);
			index++;
		}
		this.end.clear();
		if (!streaming) this.end.addChild(endLine(message));
		this.streaming = streaming;
		this.onChange?.();
	}

	/** Once the answer is complete, only ctrl+o, ctrl+t, a theme or a new width change it. */
	settled(): boolean {
		return !this.streaming;
	}

	setExpanded(expanded: boolean): void {
		this.expanded = expanded;
		for (const part of this.parts) if (part instanceof ThinkingView) part.setExpanded(expanded);
		this.onChange?.();
	}

	override invalidate(): void {
		super.invalidate();
		this.onChange?.();
	}
}

/** The line an unsuccessful answer ends with. */
function endLine(message: AssistantMessage): Component {
	const theme = currentTheme();
	const lines =
		message.stopReason === "error"
			? [theme.fg("error", `Error: ${message.errorMessage ?? "the request failed"}`)]
			: message.stopReason === "aborted"
				? [theme.fg("warning", "Aborted.")]
				: [];
	return new (class extends Block {
		protected build(width: number): string[] {
			return lines.flatMap((l) => wrapIndented(l, width));
		}
	})();
}
