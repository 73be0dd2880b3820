// Session events → transcript entries, updated in place as they stream: user messages, answers,
// tool calls (from the first streamed argument to the result), extension messages and entries,
// notices. Also draws a conversation that already happened (resume, /tree, /fork).
import type { AgentSessionEvent } from "../../../core/agent-session.ts";
import type { AgentMessage } from "../../../core/agent/messages.ts";
import type { AssistantMessage, ImageContent, ToolCall } from "../../../core/providers/types.ts";
import type { SessionEntry } from "../../../core/session/session-entries.ts";
import type { AssistantMessageView } from "./assistant-message.ts";
import type { BashExecutionView } from "./bash-execution.ts";
import type { CustomEntryLike } from "./custom-message.ts";
import { NoticeView, SummaryView, type NoticeKind } from "./notice.ts";
import type { ToolCallView } from "./tool-call.ts";
import type { Transcript } from "./transcript.ts";
import type { ViewContext } from "./view-context.ts";

type MessageViews = typeof import("./message-views.ts");
let messageViews: MessageViews | undefined;

/**
 * The message views, required (synchronously: their chunk is in the binary) on the first message or
 * entry drawn; notices and summaries, which the first frame can show, are imported as usual.
 */
function views(): MessageViews {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (messageViews ??= require("./message-views.ts") as MessageViews);
}

type UserContent = string | readonly { type: string; text?: string }[];

/** A user message's text; its images are drawn as images, not as "[image]". */
function userText(content: UserContent): string {
	return typeof content === "string" ? content : content.flatMap((c) => (c.type === "text" ? [c.text ?? ""] : [])).join("");
}

function imagesOf(content: UserContent): ImageContent[] {
	return typeof content === "string" ? [] : (content.filter((c) => c.type === "image") as unknown as ImageContent[]);
}

export interface ConversationHooks {
	/** The agent started or stopped working. */
	working(on: boolean): void;
	/** Messages waiting to be delivered changed. */
	queued(steering: readonly string[], followUp: readonly string[]): void;
	/** Token counts may have changed (an answer ended). */
	usage(): void;
}

export class Conversation {
	private assistant: AssistantMessageView | undefined;
	private readonly tools = new Map<string, ToolCallView>();
	/** The `!cmd` the app is drawing itself: its message (added before the run returns) is not drawn again. */
	private ownBash: BashExecutionView | undefined;
	/** The last status line, while nothing came after it: the next one takes its place (pi's showStatus). */
	private lastStatus: NoticeView | undefined;

	constructor(
		private readonly context: ViewContext,
		readonly transcript: Transcript,
		private readonly hooks: ConversationHooks,
	) {}

	private get expanded(): boolean {
		return this.context.expanded;
	}

	private add<T extends import("@earendil-works/pi-tui").Component>(view: T): T {
		this.lastStatus = undefined;
		this.transcript.addChild(view);
		this.context.tui.requestRender();
		return view;
	}

	notice(text: string, kind: NoticeKind = "info"): void {
		this.add(new NoticeView(text, kind));
	}

	/** A status line (notify, a command's confirmation): back-to-back ones replace each other, so a burst is one line. */
	status(text: string): void {
		const last = this.transcript.children.at(-1);
		if (this.lastStatus && last === this.lastStatus) {
			this.lastStatus.setText(text);
			this.context.tui.requestRender();
			return;
		}
		this.lastStatus = this.add(new NoticeView(text, "info"));
	}

	user(text: string, images: readonly ImageContent[] = []): void {
		const shown = this.context.renderers.transformMarkdown(text, { messageType: "user", isStreaming: false, availableWidth: this.context.tui.terminal.columns - 3 });
		this.add(new (views().UserMessageView)(shown, images));
	}

	/** A `!cmd` the app is running; `finish` it with its message. */
	bash(command: string, excluded: boolean): { output(text: string): void; finish(message: AgentMessage & { role: "bashExecution" }): void } {
		const view = this.add(new (views().BashExecutionView)(command, excluded, this.expanded));
		this.ownBash = view;
		return {
			output: (text) => {
				view.setOutput(text);
				this.context.tui.requestRender();
			},
			finish: (message) => {
				if (this.ownBash === view) this.ownBash = undefined;
				view.finish(message);
				this.context.tui.requestRender();
			},
		};
	}

	customEntry(entry: CustomEntryLike): void {
		const { CustomEntryView } = views();
		if (CustomEntryView.wanted(this.context, entry.customType)) this.add(new CustomEntryView(this.context, entry, this.expanded));
	}

	handle(event: AgentSessionEvent): void {
		switch (event.type) {
			case "agent_start":
				this.hooks.working(true);
				break;
			case "agent_end":
				this.assistant = undefined;
				this.hooks.working(false);
				this.hooks.usage();
				break;
			case "message_start":
				this.messageStart(event.message);
				break;
			case "message_update":
				if (event.message.role === "assistant") this.assistantUpdate(event.message, true);
				break;
			case "message_end":
				if (event.message.role === "assistant") {
					this.assistantUpdate(event.message, false);
					this.assistant = undefined;
					this.hooks.usage();
				}
				break;
			case "tool_execution_start":
				this.toolView(event.toolCallId, event.toolName, event.args).markStarted(event.args);
				break;
			case "tool_execution_update":
				this.toolView(event.toolCallId, event.toolName, event.args).setResult(event.partialResult, false, true);
				break;
			case "tool_execution_end":
				this.toolView(event.toolCallId, event.toolName, undefined).setResult(event.result, event.isError, false);
				this.tools.delete(event.toolCallId);
				break;
			case "queue_update":
				this.hooks.queued(event.steering, event.followUp);
				break;
			case "auto_retry_start":
				this.notice(`Retrying in ${Math.ceil(event.delayMs / 1000)}s (attempt ${event.attempt}/${event.maxAttempts}): ${event.errorMessage}`, "warning");
				break;
			case "compaction_start":
				this.notice(`Compacting the conversation (${event.reason})…`);
				break;
			case "entry_appended":
				if (event.entry.type === "custom") this.customEntry(event.entry);
				break;
			case "session_info_changed":
				this.hooks.usage();
				break;
			case "compaction_end":
				if (event.result) this.add(new SummaryView("compaction", `Compacted ${event.result.tokensBefore} tokens into a summary.\n${event.result.summary}`, this.expanded));
				else if (event.errorMessage && !event.aborted) this.notice(`Compaction failed: ${event.errorMessage}`, "error");
				this.hooks.usage();
				break;
		}
		this.context.tui.requestRender();
	}

	private messageStart(message: AgentMessage): void {
		switch (message.role) {
			case "user":
				this.user(userText(message.content), imagesOf(message.content));
				return;
			case "custom":
				if (message.display) this.add(new (views().CustomMessageView)(this.context, message, this.expanded));
				return;
			case "assistant":
				this.assistant = this.add(new (views().AssistantMessageView)(this.context, this.expanded));
				this.assistantUpdate(message, true);
				return;
			case "bashExecution":
				// The app's own `!cmd` is already on screen; its message finishes that view.
				if (this.ownBash) {
					this.ownBash.finish(message);
					this.ownBash = undefined;
				} else this.replayBash(message);
				return;
		}
	}

	private assistantUpdate(message: AssistantMessage, streaming: boolean): void {
		this.assistant ??= this.add(new (views().AssistantMessageView)(this.context, this.expanded));
		this.assistant.update(message, streaming);
		for (const block of message.content) {
			if (block.type !== "toolCall") continue;
			const view = this.toolView(block.id, block.name, block.arguments);
			if (!view.done) view.updateArgs(block.arguments, !streaming);
		}
	}

	/** The view of a call, made (and added after the answer that makes it) on first sight. */
	private toolView(id: string, name: string, args: unknown): ToolCallView {
		let view = this.tools.get(id);
		if (!view) {
			view = this.add(new (views().ToolCallView)(this.context, name, id, args ?? {}, this.expanded));
			this.tools.set(id, view);
		}
		return view;
	}

	private replayBash(message: AgentMessage & { role: "bashExecution" }): void {
		const view = new (views().BashExecutionView)(message.command, message.excludeFromContext === true, this.expanded);
		view.finish(message);
		this.add(view);
	}

	/** Draw entries that were saved before (a resumed session, a move in the tree). */
	replay(entries: readonly SessionEntry[]): void {
		const { AssistantMessageView, CustomMessageView, ToolCallView } = views();
		const calls = new Map<string, ToolCallView>();
		for (const entry of entries) {
			if (entry.type === "message") {
				const m = entry.message;
				if (m.role === "user") this.user(userText(m.content), imagesOf(m.content));
				else if (m.role === "assistant") {
					const view = this.add(new AssistantMessageView(this.context, this.expanded));
					view.update(m, false);
					for (const block of m.content) {
						if (block.type !== "toolCall") continue;
						const call = block as ToolCall;
						const tool = this.add(new ToolCallView(this.context, call.name, call.id, call.arguments, this.expanded));
						tool.markStarted();
						calls.set(call.id, tool);
					}
				} else if (m.role === "toolResult") calls.get(m.toolCallId)?.setResult({ content: m.content, details: m.details }, m.isError, false);
				else if (m.role === "bashExecution") this.replayBash(m);
			} else if (entry.type === "custom_message") {
				if (entry.display) this.add(new CustomMessageView(this.context, { role: "custom", customType: entry.customType, content: entry.content, display: true, details: entry.details, timestamp: Date.parse(entry.timestamp) }, this.expanded));
			} else if (entry.type === "custom") this.customEntry(entry);
			else if (entry.type === "compaction") this.add(new SummaryView("compaction", entry.summary, this.expanded));
			else if (entry.type === "branch_summary") this.add(new SummaryView("branch summary", entry.summary, this.expanded));
		}
	}

	/** Start over (a new session, or before a replay). */
	clear(): void {
		this.transcript.clear();
		this.tools.clear();
		this.assistant = undefined;
	}
}
