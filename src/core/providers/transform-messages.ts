// Makes a conversation safe to send to a given model: providers reject tool calls without results,
// results without calls, and thinking signatures minted by another model.
import type { AssistantMessage, Message, Model, ToolResultMessage } from "./types.ts";

/** A call whose result has not been seen yet. */
interface PendingCall {
	id: string;
	name: string;
}

/** Where a left-to-right pass over a conversation stands: what it kept, and the calls still unanswered. */
class Scan {
	readonly out: Message[] = [];
	pending: PendingCall[] = [];
	answered = new Set<string>();

	constructor(readonly model: Model) {}

	add(message: Message): void {
		if (message.role === "toolResult") {
			if (!this.isPending(message.toolCallId) || this.answered.has(message.toolCallId)) return;
			this.answered.add(message.toolCallId);
			this.out.push(message);
			return;
		}
		this.fillMissing();
		if (message.role === "user") {
			this.out.push(message);
			return;
		}
		if (message.stopReason === "error" || message.stopReason === "aborted") return;
		const cleaned = forModel(message, this.model);
		if (cleaned.content.length === 0) return;
		this.out.push(cleaned);
		for (const c of cleaned.content) if (c.type === "toolCall") this.pending.push({ id: c.id, name: c.name });
	}

	/** Results for the pending calls nobody answered; the pass moves past them. */
	private fillMissing(): void {
		if (this.pending.length === 0) return;
		for (const call of this.pending) if (!this.answered.has(call.id)) this.out.push(missingResult(call.id, call.name));
		this.pending = [];
		if (this.answered.size > 0) this.answered = new Set();
	}

	private isPending(id: string): boolean {
		for (const call of this.pending) if (call.id === id) return true;
		return false;
	}
}

/**
 * The last pass, kept before its final fillMissing: the agent loop sends the same conversation
 * again and again with a message or two more, so a request starting with the very messages of the
 * last one (same objects, same model) continues from there instead of going over all of them.
 */
let last: { inputs: Message[]; scan: Scan } | undefined;

/** Whether `messages` begins with every element of `prefix`, the same objects in the same order. */
export function startsWith(messages: readonly Message[], prefix: readonly Message[]): boolean {
	if (prefix.length > messages.length) return false;
	for (let i = 0; i < prefix.length; i++) if (messages[i] !== prefix[i]) return false;
	return true;
}

function sameModel(a: Model, b: Model): boolean {
	return a === b || (a.provider === b.provider && a.id === b.id && a.api === b.api);
}

/**
 * Returns a cleaned copy: failed or aborted assistant turns dropped (they may hold half a tool
 * call), thinking from other models dropped, missing tool results filled with an error result,
 * and results whose call is gone dropped. The input is not changed. Messages are read as final:
 * one already sent is not looked at again while the conversation only grows.
 */
export function transformMessages(messages: Message[], model: Model): Message[] {
	const resume = last && sameModel(last.scan.model, model) && startsWith(messages, last.inputs) ? last : undefined;
	const scan = resume?.scan ?? new Scan(model);
	for (let i = resume ? resume.inputs.length : 0; i < messages.length; i++) scan.add(messages[i]!);
	last = { inputs: messages.slice(), scan };
	const out = scan.out.slice();
	// The end of the conversation: calls still pending get their results here, in the copy only,
	// as a later message may still answer them.
	for (const call of scan.pending) if (!scan.answered.has(call.id)) out.push(missingResult(call.id, call.name));
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
