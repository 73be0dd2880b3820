// Makes a conversation safe to send to a given model: providers reject tool calls without results,
// results without calls, and thinking signatures minted by another model.
import type { AssistantMessage, Message, Model, ToolResultMessage } from "./types.ts";

/**
 * Returns a cleaned copy: failed or aborted assistant turns dropped (they may hold half a tool
 * call), thinking from other models dropped, missing tool results filled with an error result,
 * and results whose call is gone dropped. The input is not changed.
 */
export function transformMessages(messages: Message[], model: Model): Message[] {
	const out: Message[] = [];
	let pendingCalls: { id: string; name: string }[] = [];
	let answered = new Set<string>();

	// Runs once per message of every request: plain loops, and nothing allocated when no call is pending.
	const fillMissing = () => {
		if (pendingCalls.length === 0) return;
		for (const call of pendingCalls) {
			if (answered.has(call.id)) continue;
			out.push(missingResult(call.id, call.name));
		}
		pendingCalls = [];
		if (answered.size > 0) answered = new Set();
	};
	const isPending = (id: string) => {
		for (const call of pendingCalls) if (call.id === id) return true;
		return false;
	};

	for (const message of messages) {
		if (message.role === "toolResult") {
			if (!isPending(message.toolCallId) || answered.has(message.toolCallId)) continue;
			answered.add(message.toolCallId);
			out.push(message);
			continue;
		}
		fillMissing();
		if (message.role === "user") {
			out.push(message);
			continue;
		}
		if (message.stopReason === "error" || message.stopReason === "aborted") continue;
		const cleaned = forModel(message, model);
		if (cleaned.content.length === 0) continue;
		out.push(cleaned);
		for (const c of cleaned.content) if (c.type === "toolCall") pendingCalls.push({ id: c.id, name: c.name });
	}
	fillMissing();
	return out;
}

function forModel(message: AssistantMessage, model: Model): AssistantMessage {
	const same = message.provider === model.provider && message.model === model.id && message.api === model.api;
	if (same) return message;
	const content = message.content.flatMap((block): AssistantMessage["content"] => {
		if (block.type === "thinking") return [];
		if (block.type === "text") return block.text ? [{ type: "text" as const, text: block.text }] : [];
		const { thoughtSignature: _dropped, ...call } = block;
		return [call];
	});
	return { ...message, content };
}

function missingResult(toolCallId: string, toolName: string): ToolResultMessage {
	return {
		role: "toolResult",
		toolCallId,
		toolName,
		content: [{ type: "text", text: "No result provided: the tool call was interrupted." }],
		isError: true,
		timestamp: Date.now(),
	};
}
