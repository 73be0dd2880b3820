// One tool call, from the moment the model starts writing it until its result: drawn by a
// registerToolRenderer resolver or the tool's own renderCall / renderResult (pi-tui components in a
// padded box, or bare with renderShell "self"), else by the built-in look in tool-defaults.ts.
import { Box } from "@earendil-works/pi-tui/dist/components/box.js";
import { Image } from "@earendil-works/pi-tui/dist/components/image.js";
import { getCapabilities } from "@earendil-works/pi-tui/dist/terminal-image.js";
import type { Component } from "@earendil-works/pi-tui";
import type { ToolDefinition, ToolRenderContext } from "../../../core/extensions/types.ts";
import type { AgentToolResult } from "../../../core/tools/types.ts";
import { currentTheme } from "../theme/styles.ts";
import { type Expandable, MARGIN, wrapIndented } from "./block.ts";
import { resultLines, resultText, toolCallLine } from "./tool-defaults.ts";
import type { Settling } from "./transcript.ts";
import type { ViewContext } from "./view-context.ts";

type Renderers = Pick<ToolDefinition, "renderCall" | "renderResult" | "renderShell">;

/** Lines of running output shown under a call that has not finished. */
const LIVE_TAIL = 3;
/** How wide an image in a result is drawn, in cells (pi's `terminal.imageWidthCells` default). */
const IMAGE_WIDTH_CELLS = 60;

/** The renderers for a tool: extension resolvers in load order (each may defer), then the tool's own. */
function renderersFor(context: ViewContext, name: string): Renderers | undefined {
	return context.renderers.toolRenderers(name, () => {
		const tool = context.tool(name) as Renderers | undefined;
		return tool?.renderCall || tool?.renderResult ? tool : undefined;
	});
}

export class ToolCallView implements Component, Expandable, Settling {
	private args: unknown;
	private argsComplete = false;
	private executionStarted = false;
	private result: AgentToolResult | undefined;
	private isPartial = true;
	private isError = false;
	private readonly rendererState: Record<string, unknown> = {};
	private lastCall: Component | undefined;
	private lastResult: Component | undefined;
	private cache: { width: number; lines: readonly string[] } | undefined;
	/** The result's images, kept while their data stays the same (a Kitty image keeps its id). */
	private images: { data: string; view: Image }[] = [];
	onChange: (() => void) | undefined;

	constructor(
		private readonly context: ViewContext,
		readonly name: string,
		readonly toolCallId: string,
		args: unknown,
		private expanded: boolean,
	) {
		this.args = args;
	}

	/** The arguments as streamed so far (`complete` once the model finished the call). */
	updateArgs(args: unknown, complete: boolean): void {
		this.args = args;
		this.argsComplete ||= complete;
		this.invalidate();
	}

	markStarted(args?: unknown): void {
		if (args !== undefined) this.args = args;
		this.argsComplete = true;
		this.executionStarted = true;
		this.invalidate();
	}

	/** Output so far (tool_execution_update), or the final result. */
	setResult(result: AgentToolResult, isError: boolean, partial: boolean): void {
		this.result = result;
		this.isError = isError;
		this.isPartial = partial;
		this.invalidate();
	}

	get done(): boolean {
		return this.result !== undefined && !this.isPartial;
	}

	/** Every change after the result (ctrl+o, a renderer's invalidate()) goes through invalidate(). */
	settled(): boolean {
		return this.done;
	}

	setExpanded(expanded: boolean): void {
		this.expanded = expanded;
		this.invalidate();
	}

	invalidate(): void {
		this.cache = undefined;
		this.lastCall?.invalidate();
		this.lastResult?.invalidate();
		for (const { view } of this.images) view.invalidate();
		this.onChange?.();
	}

	render(width: number): readonly string[] {
		if (this.cache?.width === width) return this.cache.lines;
		const lines = ["", ...this.build(width)];
		this.cache = { width, lines };
		return lines;
	}

	private renderContext(lastComponent: Component | undefined): ToolRenderContext & { state: Record<string, unknown> } {
		return {
			args: this.args,
			toolCallId: this.toolCallId,
			invalidate: () => {
				this.invalidate();
				this.context.tui.requestRender();
			},
			lastComponent,
			state: this.rendererState,
			cwd: this.context.cwd,
			executionStarted: this.executionStarted,
			argsComplete: this.argsComplete,
			isPartial: this.isPartial,
			expanded: this.expanded,
			showImages: !!getCapabilities().images,
			isError: this.isError,
		};
	}

	private build(width: number): string[] {
		const renderers = renderersFor(this.context, this.name);
		if (renderers) {
			try {
				const custom = this.buildCustom(renderers, width);
				if (custom) return custom;
			} catch {
				// A renderer that throws: the built-in look below.
			}
		}
		return this.buildDefault(width);
	}

	private buildCustom(renderers: Renderers, width: number): string[] | undefined {
		const theme = currentTheme() as never;
		const call = renderers.renderCall?.(this.args as never, theme, this.renderContext(this.lastCall) as never) as Component | undefined;
		if (call) this.lastCall = call;
		let result: Component | undefined;
		if (this.result && renderers.renderResult) {
			result = renderers.renderResult(this.result as never, { expanded: this.expanded, isPartial: this.isPartial }, theme, this.renderContext(this.lastResult) as never) as Component | undefined;
			if (result) this.lastResult = result;
		}
		if (!call && !result) return undefined;
		if (renderers.renderShell === "self") {
			const callPart = call ? [...call.render(width)] : this.wrappedDefault(width, "", "call");
			const resultPart = result ? [...result.render(width)] : renderers.renderResult ? [] : this.wrappedDefault(width, "", "rest");
			return [...callPart, ...resultPart];
		}
		const inner = Math.max(1, width - 2);
		const callLines = call ? [...call.render(inner)] : this.wrappedDefault(inner, "", "call");
		const resultPart = result ? [...result.render(inner)] : renderers.renderResult ? [] : this.wrappedDefault(inner, "", "rest");
		const token = !this.result || this.isPartial ? "toolPendingBg" : this.isError ? "toolErrorBg" : "toolSuccessBg";
		const box = new Box(1, 0, (t) => currentTheme().bg(token, t));
		box.addChild({ render: () => [...callLines, ...resultPart], invalidate() {} });
		// A terminal that draws images gets the result's images under the renderer's lines, as in pi.
		return [...box.render(width), ...(getCapabilities().images ? this.imageLines(width, MARGIN) : [])];
	}

	/**
	 * The finished result's images, each under a blank line: drawn by pi-tui's Image component
	 * (Kitty or iTerm2 graphics), or as its placeholder `[Image: [image/png] 640x480]` where the
	 * terminal cannot draw them (tmux, most terminals without a graphics protocol).
	 */
	private imageLines(width: number, margin: string): string[] {
		const blocks = this.result && !this.isPartial ? (this.result.content ?? []).filter((c) => c.type === "image") : [];
		this.images = blocks.map((block, i) => {
			const kept = this.images[i];
			if (kept?.data === block.data) return kept;
			const view = new Image(block.data, block.mimeType, { fallbackColor: (s) => currentTheme().fg("toolOutput", s) }, { maxWidthCells: IMAGE_WIDTH_CELLS });
			return { data: block.data, view };
		});
		return this.images.flatMap(({ view }) => ["", ...view.render(Math.max(1, width - margin.length)).map((line) => margin + line)]);
	}

	/** Call line, then the result (or the running output's tail), unwrapped and without the margin. */
	private defaultLines(): { call: string; rest: string[] } {
		const theme = currentTheme();
		const details = this.result && !this.isPartial ? this.result.details : undefined;
		const call = toolCallLine(this.name, this.args, this.context.cwd, details);
		if (!this.result) return { call, rest: [] };
		if (this.isPartial) {
			const tail = resultText(this.result).split("\n").slice(-LIVE_TAIL);
			return { call, rest: tail.filter((l) => l !== "").map((l) => theme.fg("muted", `    ${l}`)) };
		}
		return { call, rest: resultLines(this.name, this.args, this.result, this.isError, this.expanded) };
	}

	/** The default lines wrapped to `width`, each starting with `margin`. */
	private wrappedDefault(width: number, margin: string, parts: "call" | "rest" | "all" = "all"): string[] {
		const { call, rest } = this.defaultLines();
		const out = parts === "rest" ? [] : wrapIndented(call, width, `${margin}  `, margin);
		if (parts !== "call") for (const line of rest) out.push(...wrapIndented(line, width, `${margin}    `, margin));
		return out;
	}

	private buildDefault(width: number): string[] {
		return [...this.wrappedDefault(width, MARGIN), ...this.imageLines(width, `${MARGIN}    `)];
	}
}
