// Extension messages (`pi.sendMessage` with display: true) and custom entries (`pi.appendEntry`):
// drawn by the extension's registerMessageRenderer / registerEntryRenderer component when it has
// one, else (messages only) as a labelled Markdown block. A renderer that throws falls back.
import type { Component } from "@earendil-works/pi-tui";
import type { CustomMessage } from "../../../core/agent/messages.ts";
import { currentTheme, getMarkdownTheme } from "../theme/styles.ts";
import { Block, MARGIN, type Expandable } from "./block.ts";
import { LazyMarkdown } from "./markdown.ts";
import { keyHint } from "../keybindings.ts";
import type { ViewContext } from "./view-context.ts";

type Renderer = (subject: never, options: { expanded: boolean; outputPad: number; keyHint(action: string, description?: string): string }, theme: unknown) => unknown;

function isComponent(value: unknown): value is Component {
	return !!value && typeof (value as Component).render === "function";
}

/** The text of a message's content, for display. */
export function contentText(content: string | readonly { type: string; text?: string }[]): string {
	return typeof content === "string" ? content : content.map((c) => (c.type === "text" ? (c.text ?? "") : c.type === "image" ? "[image]" : "")).join("");
}

/**
 * An entry an extension renderer draws; `fallback` when there is none (or it fails). The
 * renderer's component is asked for its lines every frame, as pi does: it may change them on its
 * own (invalidating itself and asking for a frame), so such an entry never settles.
 */
abstract class RenderedEntry extends Block implements Expandable {
	private component: Component | undefined;
	private tried = false;
	/** What the component returned for the lines built last, at that width. */
	private drawn: { width: number; lines: readonly string[] } | undefined;

	constructor(
		protected readonly context: ViewContext,
		private expanded: boolean,
	) {
		super();
	}

	protected abstract renderer(): Renderer | undefined;
	protected abstract subject(): unknown;
	protected abstract fallback(width: number): string[];

	setExpanded(expanded: boolean): void {
		this.expanded = expanded;
		this.tried = false;
		this.invalidate();
	}

	override invalidate(): void {
		super.invalidate();
		this.component?.invalidate();
	}

	override settled(): boolean {
		return this.tried && !this.component;
	}

	override render(width: number): readonly string[] {
		const drawn = this.drawn;
		if (this.component && drawn?.width === width && this.componentLines(width) !== drawn.lines) this.dropLines();
		return super.render(width);
	}

	/** The component's lines at `width` (a throw draws the fallback from now on). */
	private componentLines(width: number): readonly string[] | undefined {
		try {
			return this.component?.render(Math.max(1, width - 1));
		} catch {
			this.component = undefined;
			return undefined;
		}
	}

	protected build(width: number): string[] {
		if (!this.tried) {
			this.tried = true;
			this.component = undefined;
			try {
				const options = { expanded: this.expanded, outputPad: 1, keyHint: (action: string, description?: string) => keyHint(action, description ?? "") };
				const made = this.renderer()?.(this.subject() as never, options, currentTheme());
				if (isComponent(made)) this.component = made;
			} catch {
				// A renderer that throws: the fallback below.
			}
		}
		const lines = this.componentLines(width);
		if (lines) {
			this.drawn = { width, lines };
			return lines.map((line) => MARGIN + line);
		}
		this.drawn = undefined;
		return this.fallback(width);
	}
}

export class CustomMessageView extends RenderedEntry {
	private markdown: LazyMarkdown | undefined;

	constructor(
		context: ViewContext,
		private readonly message: CustomMessage,
		expanded: boolean,
	) {
		super(context, expanded);
	}

	protected renderer(): Renderer | undefined {
		return this.context.renderers.messageRenderer(this.message.customType)?.value as Renderer | undefined;
	}

	protected subject(): unknown {
		return this.message;
	}

	protected fallback(width: number): string[] {
		const theme = currentTheme();
		this.markdown ??= new LazyMarkdown(contentText(this.message.content), 1, 0, getMarkdownTheme(), undefined, {
			transform: (md, availableWidth) => this.context.renderers.transformMarkdown(md, { messageType: "custom", isStreaming: false, availableWidth }),
		});
		return [`${MARGIN}${theme.fg("customMessageLabel", `[${this.message.customType}]`)}`, ...this.markdown.render(width)];
	}
}

export interface CustomEntryLike {
	type: "custom";
	customType: string;
	data?: unknown;
	id?: string;
}

/** A custom entry shows only when an extension registered a renderer for its type. */
export class CustomEntryView extends RenderedEntry {
	constructor(
		context: ViewContext,
		private readonly entry: CustomEntryLike,
		expanded: boolean,
	) {
		super(context, expanded);
	}

	static wanted(context: ViewContext, customType: string): boolean {
		return context.renderers.entryRenderer(customType) !== undefined;
	}

	protected renderer(): Renderer | undefined {
		return this.context.renderers.entryRenderer(this.entry.customType)?.value as Renderer | undefined;
	}

	protected subject(): unknown {
		return this.entry;
	}

	protected fallback(): string[] {
		return [];
	}
}
