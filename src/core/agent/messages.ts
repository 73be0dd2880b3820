// Messages the agent keeps in its conversation: the provider messages plus the agent-only
// kinds (custom extension messages, user bash runs, summaries), and how they become provider messages.
import type { ImageContent, Message, TextContent, Tool, ToolResultMessage, UserMessage, AssistantMessage } from "../providers/types.ts";

export interface CustomMessage<TDetails = unknown> {
	role: "custom";
	customType: string;
	content: string | (TextContent | ImageContent)[];
	/** Shown in the UI when true. */
	display: boolean;
	details?: TDetails;
	timestamp: number;
}

export interface BashExecutionMessage {
	role: "bashExecution";
	command: string;
	output: string;
	exitCode: number | undefined;
	cancelled: boolean;
	truncated: boolean;
	fullOutputPath?: string;
	/** `!!cmd`: shown, but kept out of the model's context. */
	excludeFromContext?: boolean;
	timestamp: number;
}

export interface BranchSummaryMessage {
	role: "branchSummary";
	summary: string;
	fromId: string;
	timestamp: number;
}

export interface CompactionSummaryMessage {
	role: "compactionSummary";
	summary: string;
	tokensBefore: number;
	timestamp: number;
}

/**
 * The system prompt and tools in force from this point of a run on (pi 1.6's SystemMessage). The
 * first one of a session declares them; a later one says what changed: `sections` replace named
 * parts of the prompt, `toolsAdded` / `toolsRemoved` change the tool set. Announced on the event
 * stream (json, rpc, extensions' message_start/end); never kept in the conversation or sent as a message.
 */
export interface SystemMessage {
	role: "system";
	/** Instructions added at this point; the prompt itself is in `sections`. */
	content: string;
	sections?: Record<string, string | null>;
	toolsAdded?: Tool[];
	toolsRemoved?: { name: string }[];
	timestamp: number;
}

export type AgentMessage =
	| SystemMessage
	| UserMessage
	| AssistantMessage
	| ToolResultMessage
	| CustomMessage
	| BashExecutionMessage
	| BranchSummaryMessage
	| CompactionSummaryMessage;

export type { UserMessage, AssistantMessage, ToolResultMessage };

/** A user's bash run as a conversation message (`!cmd`, rpc `bash`). */
export function bashExecutionMessage(
	command: string,
	result: { output: string; exitCode: number | undefined; cancelled: boolean; truncated: boolean; fullOutputPath?: string },
	excludeFromContext?: boolean,
): BashExecutionMessage {
	return {
		role: "bashExecution",
		command,
		output: result.output,
		exitCode: result.exitCode,
		cancelled: result.cancelled,
		truncated: result.truncated,
		...(result.fullOutputPath ? { fullOutputPath: result.fullOutputPath } : {}),
		...(excludeFromContext ? { excludeFromContext: true } : {}),
		timestamp: Date.now(),
	};
}

function bashToText(m: BashExecutionMessage): string {
	const status = m.cancelled ? "(cancelled)" : `(exit code ${m.exitCode ?? "unknown"})`;
	const truncated = m.truncated && m.fullOutputPath ? `\n[output truncated; full output in ${m.fullOutputPath}]` : "";
	return `Ran \`${m.command}\` ${status}\n\`\`\`\n${m.output}\n\`\`\`${truncated}`;
}

/** Turn the agent's conversation into what a provider understands. */
export function convertToLlm(messages: AgentMessage[]): Message[] {
	const out: Message[] = [];
	for (const m of messages) {
		switch (m.role) {
			case "user":
			case "assistant":
			case "toolResult":
				out.push(m);
				break;
			case "custom":
				out.push({ role: "user", content: m.content, timestamp: m.timestamp });
				break;
			case "bashExecution":
				if (!m.excludeFromContext) out.push({ role: "user", content: bashToText(m), timestamp: m.timestamp });
				break;
			case "branchSummary":
				out.push({
					role: "user",
					content: `The following is a summary of a branch that this conversation came back from:\n<summary>\n${m.summary}\n</summary>`,
					timestamp: m.timestamp,
				});
				break;
			case "compactionSummary":
				out.push({
					role: "user",
					content: `The conversation history before this point was compacted into the following summary:\n<summary>\n${m.summary}\n</summary>`,
					timestamp: m.timestamp,
				});
				break;
		}
	}
	return out;
}

/** Plain text of a message's content, for display and summaries. */
export function textOf(content: string | { type: string; text?: string }[]): string {
	if (typeof content === "string") return content;
	return content
		.filter((c) => c.type === "text")
		.map((c) => c.text ?? "")
		.join("");
}
