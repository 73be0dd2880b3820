// Reads the conversation out of a recorded request in one shape for both protocols, so a test can
// assert "the tool result went back to the model" without knowing the wire format.
import type { RecordedRequest } from "./request.ts";

export interface SeenToolCall {
	id: string;
	name: string;
	arguments: unknown;
}

export interface SeenMessage {
	role: "system" | "user" | "assistant" | "toolResult";
	/** Text parts joined with "\n"; an image part reads "[image]". */
	text: string;
	/** Assistant messages only. */
	toolCalls?: SeenToolCall[];
	/** Tool results only. */
	toolCallId?: string;
	/** Tool results only, and only Anthropic says so. */
	isError?: boolean;
}

/** The system prompt and messages of a chat request, in order. Anthropic tool_result blocks become toolResult messages. */
export function readMessages(request: RecordedRequest): SeenMessage[] {
	const messages: any[] = Array.isArray(request.body.messages) ? request.body.messages : [];
	return request.protocol === "anthropic" ? readAnthropic(request.body.system, messages) : messages.flatMap(readOpenAiMessage);
}

/** Names of the tools the request offered the model. */
export function readToolNames(request: RecordedRequest): string[] {
	const tools: any[] = Array.isArray(request.body.tools) ? request.body.tools : [];
	return tools.map((tool) => String(tool.function?.name ?? tool.name));
}

function readOpenAiMessage(message: any): SeenMessage[] {
	const text = textOf(message.content);
	switch (message.role) {
		case "system":
		case "developer":
			return [{ role: "system", text }];
		case "tool":
			return [{ role: "toolResult", text, toolCallId: message.tool_call_id }];
		case "assistant": {
			const calls: any[] = message.tool_calls ?? [];
			const toolCalls = calls.map((call) => ({ id: call.id, name: call.function?.name, arguments: parseJson(call.function?.arguments) }));
			return [{ role: "assistant", text, toolCalls }];
		}
		default:
			return [{ role: "user", text }];
	}
}

function readAnthropic(system: unknown, messages: any[]): SeenMessage[] {
	const seen: SeenMessage[] = system ? [{ role: "system", text: textOf(system) }] : [];
	for (const message of messages) {
		const blocks: any[] = typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content ?? []);
		if (message.role === "assistant") {
			const toolCalls = blocks.filter((b) => b.type === "tool_use").map((b) => ({ id: b.id, name: b.name, arguments: b.input }));
			seen.push({ role: "assistant", text: textOf(blocks), toolCalls });
			continue;
		}
		for (const result of blocks.filter((b) => b.type === "tool_result")) {
			seen.push({ role: "toolResult", text: textOf(result.content), toolCallId: result.tool_use_id, isError: result.is_error === true });
		}
		const rest = blocks.filter((b) => b.type !== "tool_result");
		if (rest.length > 0) seen.push({ role: "user", text: textOf(rest) });
	}
	return seen;
}

/** Text of a content field in either protocol: a string, or an array of parts/blocks. */
function textOf(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.flatMap((part: any) => {
			if (part.type === "text") return [String(part.text)];
			if (part.type === "image" || part.type === "image_url") return ["[image]"];
			return [];
		})
		.join("\n");
}

function parseJson(text: unknown): unknown {
	try {
		return JSON.parse(String(text));
	} catch {
		return text;
	}
}
