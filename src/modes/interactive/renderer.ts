// Session events → what the conversation looks like: user lines, assistant markdown printed line
// by line as it streams, thinking collapsed, one line per tool call with a collapsed result, custom
// messages through extension renderers. The unfinished line and the spinner live at the bottom.
import pc from "picocolors";
import type { AgentSessionEvent } from "../../core/agent-session.ts";
import type { AgentMessage, CustomMessage } from "../../core/agent/messages.ts";
import type { Extension, ToolDefinition, ToolRenderContext } from "../../core/extensions/types.ts";
import type { AgentToolResult } from "../../core/tools/types.ts";
import { MarkdownStream, renderMarkdown } from "./markdown.ts";
import { componentLines, terminalTheme } from "./theme.ts";
import { resultFull, resultSummary, resultText, toolCallLine } from "./tool-lines.ts";

export interface RenderSurface {
	print(lines: string[]): void;
	redraw(): void;
	readonly columns: number;
	readonly expanded: boolean;
	readonly cwd: string;
	readonly hiddenThinkingLabel: string | undefined;
	/** Something is on the screen already (so a block starts with a blank line). */
	readonly hasOutput: boolean;
	extensions(): Extension[];
	tool(name: string): unknown;
	/** The agent started or stopped working (the spinner runs meanwhile). */
	setWorking(working: boolean): void;
}

interface RunningTool {
	name: string;
	args: unknown;
	state: Record<string, unknown>;
	/** The call as shown while it runs (computed once; renderers are not called per frame). */
	line?: string[];
	/** Output so far (tool_execution_update), shown under the running call. */
	partial?: string;
}

type ToolRenderers = Pick<ToolDefinition, "renderCall" | "renderResult">;

const MARGIN = " ";

/** The text of a message's content, for display. */
export function contentText(content: string | { type: string; text?: string }[]): string {
	return typeof content === "string" ? content : content.map((c) => (c.type === "text" ? (c.text ?? "") : c.type === "image" ? "[image]" : "")).join("");
}

export class ConversationRenderer {
	private stream: MarkdownStream | undefined;
	/** Whether the current assistant text block has printed its first line. */
	private blockOpen = false;
	private thinking: string | undefined;
	private readonly tools = new Map<string, RunningTool>();
	/** The last collapsible thing (tool result, thinking) in full, for ctrl+o. */
	private lastExpanded: string[] | undefined;
	private queue: { steering: string[]; followUp: string[] } = { steering: [], followUp: [] };
	private working = false;
	/** Lines held back while a replay is printed, so it appears in one piece. */
	private batch: string[] | undefined;

	constructor(private readonly surface: RenderSurface) {}

	private print(lines: string[]): void {
		if (this.batch) this.batch.push(...lines);
		else this.surface.print(lines);
	}

	/** Print a block of lines, separated from what came before by a blank line. */
	block(lines: string[]): void {
		this.print(this.surface.hasOutput || (this.batch?.length ?? 0) > 0 ? ["", ...lines] : lines);
	}

	/** Everything `fn` prints goes out in one write. */
	batched(fn: () => void): void {
		this.batch = [];
		try {
			fn();
		} finally {
			const lines = this.batch;
			this.batch = undefined;
			this.surface.print(lines);
		}
	}

	handle(event: AgentSessionEvent): void {
		switch (event.type) {
			case "agent_start":
				this.working = true;
				this.surface.setWorking(true);
				return;
			case "agent_end":
				this.flushText();
				this.working = false;
				this.tools.clear();
				this.surface.setWorking(false);
				return;
			case "message_start":
				this.messageStart(event.message);
				return;
			case "message_update":
				if (event.message.role === "assistant") this.assistantDelta(event.assistantMessageEvent);
				return;
			case "message_end":
				if (event.message.role === "assistant") this.assistantEnd(event.message);
				return;
			case "tool_execution_start":
				this.toolStart(event.toolCallId, event.toolName, event.args);
				return;
			case "tool_execution_update": {
				const tool = this.tools.get(event.toolCallId);
				if (tool) tool.partial = resultText(event.partialResult);
				this.surface.redraw();
				return;
			}
			case "tool_execution_end":
				this.toolEnd(event.toolCallId, event.toolName, event.result, event.isError);
				return;
			case "queue_update":
				this.queue = { steering: event.steering, followUp: event.followUp };
				this.surface.redraw();
				return;
			case "auto_retry_start":
				this.print([pc.yellow(`${MARGIN}Retrying in ${Math.ceil(event.delayMs / 1000)}s (attempt ${event.attempt}/${event.maxAttempts}): ${event.errorMessage}`)]);
				return;
		}
	}

	/** The run is over (normally agent_end says so; a run that threw never sent it). */
	settle(): void {
		if (!this.working) return;
		this.flushText();
		this.working = false;
		this.thinking = undefined;
		this.tools.clear();
		this.surface.setWorking(false);
	}

	private messageStart(message: AgentMessage): void {
		if (message.role === "user") this.printUser(contentText(message.content));
		else if (message.role === "custom" && message.display) this.block(this.customLines(message));
		else if (message.role === "assistant") {
			this.stream = undefined;
			this.blockOpen = false;
		}
	}

	printUser(text: string): void {
		this.block(text.split("\n").map((l, i) => `${i === 0 ? pc.dim("›") : " "} ${l}`));
	}

	private assistantDelta(e: Extract<AgentSessionEvent, { type: "message_update" }>["assistantMessageEvent"]): void {
		switch (e.type) {
			case "text_start":
				this.flushText();
				this.stream = new MarkdownStream();
				this.blockOpen = false;
				break;
			case "text_delta":
				this.stream ??= new MarkdownStream();
				this.printText(this.stream.push(e.delta));
				break;
			case "text_end":
				this.flushText();
				break;
			case "thinking_start":
				this.thinking = "";
				break;
			case "thinking_delta":
				this.thinking = (this.thinking ?? "") + e.delta;
				break;
			case "thinking_end":
				this.printThinking(e.content);
				break;
		}
		this.surface.redraw();
	}

	private printText(lines: string[]): void {
		if (lines.length === 0) return;
		const out = lines.map((l) => MARGIN + l);
		if (!this.blockOpen) out.unshift("");
		this.blockOpen = true;
		this.print(out);
	}

	private flushText(): void {
		if (!this.stream) return;
		this.printText(this.stream.end());
		this.stream = undefined;
	}

	private printThinking(text: string): void {
		this.thinking = undefined;
		if (!text.trim()) return;
		const full = text.split("\n").map((l) => MARGIN + pc.dim(pc.italic(l)));
		this.lastExpanded = full;
		const lines = text.split("\n").length;
		const label = this.surface.hiddenThinkingLabel ?? "Thinking";
		this.block(this.surface.expanded ? full : [MARGIN + pc.dim(pc.italic(`∴ ${label} (${lines} ${lines === 1 ? "line" : "lines"}, ctrl+o to expand)`))]);
	}

	private assistantEnd(message: Extract<AgentMessage, { role: "assistant" }>): void {
		// Providers that never sent text_start / text_end still had their text printed as it came.
		this.flushText();
		if (message.stopReason === "error") this.block([pc.red(`${MARGIN}Error: ${message.errorMessage ?? "the request failed"}`)]);
		else if (message.stopReason === "aborted") this.block([pc.yellow(`${MARGIN}Aborted.`)]);
	}

	// ---- tools -----------------------------------------------------------------------------------

	private renderers(name: string): ToolRenderers | undefined {
		for (const ext of this.surface.extensions()) {
			for (const resolve of ext.toolRenderers) {
				try {
					const found = resolve(name, () => undefined);
					if (found) return found;
				} catch {
					// A broken resolver falls back to the default look.
				}
			}
		}
		const tool = this.surface.tool(name) as ToolRenderers | undefined;
		return tool?.renderCall || tool?.renderResult ? tool : undefined;
	}

	private renderContext(id: string, tool: RunningTool, isError: boolean): ToolRenderContext & { state: Record<string, unknown> } {
		return {
			args: tool.args,
			toolCallId: id,
			invalidate() {},
			lastComponent: undefined,
			state: tool.state,
			cwd: this.surface.cwd,
			executionStarted: true,
			argsComplete: true,
			isPartial: false,
			expanded: this.surface.expanded,
			showImages: false,
			isError,
		};
	}

	private callLines(id: string, tool: RunningTool, details?: unknown): string[] {
		const custom = this.renderers(tool.name)?.renderCall;
		if (custom) {
			try {
				const lines = componentLines(custom(tool.args as never, terminalTheme, this.renderContext(id, tool, false) as never), this.surface.columns - 1);
				if (lines) return lines.map((l) => MARGIN + l);
			} catch {
				// Renderer threw: the default line below.
			}
		}
		return [MARGIN + toolCallLine(tool.name, tool.args, this.surface.cwd, details)];
	}

	/** A running call lives at the bottom (with its output tail) until it ends. */
	private toolStart(id: string, name: string, args: unknown): void {
		this.flushText();
		const tool: RunningTool = { name, args, state: {} };
		tool.line = this.callLines(id, tool);
		this.tools.set(id, tool);
		this.surface.redraw();
	}

	/** Call and result are printed together when the call ends, so parallel calls never interleave. */
	private toolEnd(id: string, name: string, result: AgentToolResult, isError: boolean): void {
		const tool = this.tools.get(id) ?? { name, args: {}, state: {} };
		this.tools.delete(id);
		const full = resultFull(name, result, isError);
		let shown = this.surface.expanded ? full : resultSummary(name, result, isError);
		const custom = this.renderers(name)?.renderResult;
		if (custom) {
			try {
				const lines = componentLines(custom(result as never, { expanded: this.surface.expanded, isPartial: false }, terminalTheme, this.renderContext(id, tool, isError) as never), this.surface.columns - 3);
				if (lines) shown = lines.map((l) => `   ${l}`);
			} catch {
				// Renderer threw: the default summary.
			}
		}
		const call = this.callLines(id, tool, result.details);
		this.lastExpanded = [...call, ...full];
		this.block([...call, ...shown]);
	}

	/** ctrl+o: print the last tool result (or thinking) in full. False when there is none. */
	expandLast(): boolean {
		if (!this.lastExpanded) return false;
		this.block(this.lastExpanded);
		return true;
	}

	// ---- custom messages and replays --------------------------------------------------------------

	customLines(message: CustomMessage): string[] {
		const owner = this.surface.extensions().find((e) => e.messageRenderers.has(message.customType));
		const renderer = owner?.messageRenderers.get(message.customType);
		if (renderer) {
			try {
				const lines = componentLines(renderer(message, { expanded: this.surface.expanded, outputPad: 1, keyHint: (action, description) => description ?? action }, terminalTheme), this.surface.columns - 1);
				if (lines) return lines.map((l) => MARGIN + l);
			} catch {
				// Renderer threw: readable text below.
			}
		}
		const [first = "", ...rest] = contentText(message.content).split("\n");
		return [`${MARGIN}${pc.dim(`[${message.customType}]`)} ${first}`, ...rest.map((l) => MARGIN + l)];
	}

	/** Print a conversation that already happened (after /resume, /fork, /tree). */
	replay(messages: AgentMessage[]): void {
		for (const m of messages) {
			switch (m.role) {
				case "user":
					this.printUser(contentText(m.content));
					break;
				case "assistant": {
					const text = m.content.filter((c) => c.type === "text").map((c) => (c as { text: string }).text).join("\n");
					if (text.trim()) this.block(renderMarkdown(text).map((l) => MARGIN + l));
					for (const c of m.content) if (c.type === "toolCall") this.block([MARGIN + toolCallLine(c.name, c.arguments, this.surface.cwd)]);
					break;
				}
				case "toolResult":
					this.print(resultSummary(m.toolName, { content: m.content, details: m.details }, m.isError));
					break;
				case "bashExecution":
					this.block([`${MARGIN}${pc.bold("$")} ${m.command}`, ...resultSummary("bash", { content: [{ type: "text", text: m.output }], details: {} }, false)]);
					break;
				case "custom":
					if (m.display) this.block(this.customLines(m));
					break;
				case "branchSummary":
				case "compactionSummary":
					this.block([pc.dim(`${MARGIN}[summary] ${m.summary.split("\n")[0]}`)]);
					break;
			}
		}
	}

	// ---- the live part ---------------------------------------------------------------------------

	/** Lines shown at the bottom while work is going on; `spinner` is the current frame. */
	liveLines(spinner: string, workingMessage: string | undefined, workingVisible: boolean): string[] {
		const lines: string[] = [];
		const partial = this.stream?.partial;
		if (partial) lines.push(MARGIN + partial);
		else if (this.thinking !== undefined) lines.push(pc.dim(`${MARGIN}${spinner} ${this.surface.hiddenThinkingLabel ?? "Thinking"}…`));
		else if (this.working && workingVisible) {
			for (const tool of this.tools.values()) {
				lines.push(...(tool.line ?? []));
				if (tool.partial) lines.push(...tool.partial.split("\n").slice(-3).map((l) => pc.dim(`     ${l}`)));
			}
			lines.push(`${MARGIN}${pc.cyan(spinner)} ${workingMessage ?? "Working…"} ${pc.dim("(esc to interrupt)")}`);
		}
		for (const text of this.queue.steering) lines.push(pc.dim(`${MARGIN}↳ steer: ${text}`));
		for (const text of this.queue.followUp) lines.push(pc.dim(`${MARGIN}↳ follow-up: ${text}`));
		return lines;
	}
}
