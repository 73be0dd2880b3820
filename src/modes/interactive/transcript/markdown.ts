// pi-tui's Markdown component (and marked under it) loads after the first frame instead of with the
// app: an empty screen draws no Markdown, and it is the largest part of pi-tui a start-up would pay
// for. Until it is there, text is drawn as wrapped lines; a resumed conversation waits for it.
import { wrapTextWithAnsi } from "@earendil-works/pi-tui/dist/utils.js";
import type { Component, DefaultTextStyle, Markdown, MarkdownOptions, MarkdownTheme } from "@earendil-works/pi-tui";

type MarkdownModule = typeof import("@earendil-works/pi-tui/dist/components/markdown.js");

let loaded: MarkdownModule | undefined;
let loading: Promise<void> | undefined;
/** Some text was drawn as plain lines, the component not there yet: it must be drawn again. */
let drawnPlain = false;

/**
 * Load the Markdown component (once); resolves when views draw Markdown. `redraw` runs then if
 * text was drawn without it (not for a conversation that waited for it: redrawing a long one is
 * a whole frame's work for nothing).
 */
export function loadMarkdown(redraw?: () => void): Promise<void> {
	loading ??= import("@earendil-works/pi-tui/dist/components/markdown.js").then((m) => {
		loaded = m;
	});
	if (!redraw) return loading;
	return loading.then(() => {
		if (!drawnPlain) return;
		drawnPlain = false;
		redraw();
	});
}

/** pi-tui's Markdown with the same constructor, drawn as plain wrapped text until the component is loaded. */
export class LazyMarkdown implements Component {
	private real: Markdown | undefined;

	constructor(
		private text: string,
		private readonly paddingX: number,
		private readonly paddingY: number,
		private readonly theme: MarkdownTheme,
		private readonly defaultTextStyle?: DefaultTextStyle,
		private readonly options?: MarkdownOptions,
	) {}

	setText(text: string): void {
		this.text = text;
		this.real?.setText(text);
	}

	invalidate(): void {
		this.real?.invalidate();
	}

	render(width: number): readonly string[] {
		if (!this.real && loaded) this.real = new loaded.Markdown(this.text, this.paddingX, this.paddingY, this.theme, this.defaultTextStyle, this.options);
		if (this.real) return this.real.render(width);
		const inner = Math.max(1, width - 2 * this.paddingX);
		const text = this.options?.transform ? this.options.transform(this.text, inner) : this.text;
		if (!text.trim()) return [];
		drawnPlain = true;
		const pad = " ".repeat(this.paddingX);
		const lines = wrapTextWithAnsi(text, inner).map((line) => pad + line);
		const blank = Array.from({ length: this.paddingY }, () => "");
		return [...blank, ...lines, ...blank];
	}
}
