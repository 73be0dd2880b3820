// pi-ai 1.6's transcript model: a request's system prompt and tools travel as
// system messages at the head of (and, as updates, inside) `context.messages`. Custom providers
// read them back with getCurrentSystemPrompt / getCurrentTools; our own wire protocols take the
// older { systemPrompt, messages, tools } shape, which toLegacyContext() produces.
import type { Context, Message, TextContent, Tool } from "./types.ts";

export interface SystemMessage {
	role: "system";
	content: string | TextContent[];
	/** Named sections after `content`; in later messages `null` removes one. */
	sections?: Record<string, string | null>;
	toolsAdded?: Tool[];
	toolsRemoved?: { name: string }[];
	timestamp: number;
}

export type TranscriptMessage = Message | SystemMessage;

export interface TranscriptContext {
	messages: TranscriptMessage[];
}

const isSystem = (m: { role: string }): m is SystemMessage => m.role === "system";

/** Text of a content field: a string, or the text parts joined (default with nothing between). */
export function contentText(content: string | readonly { type: string; text?: string }[], separator = ""): string {
	if (typeof content === "string") return content;
	return content
		.filter((c) => c.type === "text")
		.map((c) => c.text ?? "")
		.join(separator);
}

/** A system message rendered as one prompt: its content, then its sections, blank-line separated. */
export function getSystemMessageText(message: SystemMessage): string {
	const parts = [contentText(message.content)];
	for (const text of Object.values(message.sections ?? {})) if (text !== null) parts.push(text);
	return parts.filter((p) => p.length > 0).join("\n\n");
}

/** A later system message as plain text for APIs that accept one mid-conversation. */
export function renderSystemMessageUpdate(message: SystemMessage): string {
	const parts: string[] = [];
	const text = contentText(message.content);
	if (text) parts.push(text);
	for (const [name, value] of Object.entries(message.sections ?? {})) {
		parts.push(value === null ? `The system prompt section "${name}" no longer applies.` : `Updated system prompt section "${name}":\n${value}`);
	}
	if (message.toolsAdded?.length) parts.push(`Tools now available: ${message.toolsAdded.map((t) => t.name).join(", ")}.`);
	if (message.toolsRemoved?.length) parts.push(`Tools no longer available: ${message.toolsRemoved.map((t) => t.name).join(", ")}.`);
	return parts.join("\n\n");
}

export function createInitialSystemMessage(systemPrompt: string | undefined, tools: Tool[] | undefined): SystemMessage | undefined {
	const hasPrompt = systemPrompt !== undefined && systemPrompt.length > 0;
	const hasTools = tools !== undefined && tools.length > 0;
	if (!hasPrompt && !hasTools) return undefined;
	return { role: "system", content: systemPrompt ?? "", ...(hasTools ? { toolsAdded: tools } : {}), timestamp: 0 };
}

/** `{ systemPrompt, messages, tools }` → the transcript form (a leading system message). */
export function normalizeContext(context: Context | TranscriptContext): TranscriptContext {
	if (!("systemPrompt" in context) && !("tools" in context)) return { messages: [...context.messages] };
	const legacy = context as Context;
	const head = createInitialSystemMessage(legacy.systemPrompt, legacy.tools);
	const rest = legacy.messages.filter((m) => !isSystem(m as TranscriptMessage));
	return { messages: head ? [head, ...rest] : [...rest] };
}

export function getInitialSystemMessage(messages: readonly TranscriptMessage[]): SystemMessage | undefined {
	const first = messages[0];
	return first && isSystem(first) ? first : undefined;
}

export function withoutInitialSystemMessage<T extends TranscriptMessage>(messages: readonly T[]): T[] {
	return getInitialSystemMessage(messages) ? messages.slice(1) : [...messages];
}

/** The tools available after every system message's additions and removals, in order. */
export function getCurrentTools(messages: readonly TranscriptMessage[]): Tool[] {
	const tools = new Map<string, Tool>();
	for (const m of messages) {
		if (!isSystem(m)) continue;
		for (const t of m.toolsRemoved ?? []) tools.delete(t.name);
		for (const t of m.toolsAdded ?? []) tools.set(t.name, t);
	}
	return [...tools.values()];
}

/** Every system message folded into one: contents appended, sections patched by name, tools resolved. */
export function getCurrentSystemMessage(messages: readonly TranscriptMessage[]): SystemMessage | undefined {
	const content: string[] = [];
	const sections = new Map<string, string>();
	let timestamp: number | undefined;
	for (const m of messages) {
		if (!isSystem(m)) continue;
		timestamp ??= m.timestamp;
		const text = contentText(m.content);
		if (text) content.push(text);
		for (const [name, value] of Object.entries(m.sections ?? {})) {
			if (value === null) sections.delete(name);
			else sections.set(name, value);
		}
	}
	const tools = getCurrentTools(messages);
	if (timestamp === undefined && tools.length === 0) return undefined;
	return {
		role: "system",
		content: content.join("\n\n"),
		...(sections.size > 0 ? { sections: Object.fromEntries(sections) } : {}),
		...(tools.length > 0 ? { toolsAdded: tools } : {}),
		timestamp: timestamp ?? 0,
	};
}

export function getCurrentSystemPrompt(messages: readonly TranscriptMessage[]): string {
	const m = getCurrentSystemMessage(messages);
	return m ? getSystemMessageText(m) : "";
}

/** One leading system message with the current prompt and tools; later system messages dropped. */
export function collapseSystemMessages(context: TranscriptContext): TranscriptContext {
	const head = getCurrentSystemMessage(context.messages);
	const rest = context.messages.filter((m) => !isSystem(m));
	return { messages: head ? [head, ...rest] : rest };
}

export function resolveTranscript(context: TranscriptContext, supportsMidConversationSystemMessages: boolean): TranscriptContext {
	return supportsMidConversationSystemMessages ? context : collapseSystemMessages(context);
}

/** A tool as declared to a model: name, description and a plain-JSON schema. */
export function toToolDeclaration(tool: Tool & { constrainedSampling?: unknown }): Tool {
	return {
		name: tool.name,
		description: tool.description,
		parameters: JSON.parse(JSON.stringify(tool.parameters)),
		...(tool.constrainedSampling === undefined ? {} : { constrainedSampling: tool.constrainedSampling }),
	} as Tool;
}

export function declarationsEqual(a: Tool, b: Tool): boolean {
	return JSON.stringify(toToolDeclaration(a)) === JSON.stringify(toToolDeclaration(b));
}

export function getToolStateChanges(previous: readonly Tool[], current: readonly Tool[]): { toolsAdded: Tool[]; toolsRemoved: { name: string }[] } {
	const before = new Map(previous.map((t) => [t.name, t]));
	const after = new Map(current.map((t) => [t.name, t]));
	return {
		toolsAdded: current.filter((t) => !before.has(t.name) || !declarationsEqual(before.get(t.name)!, t)).map(toToolDeclaration),
		toolsRemoved: previous.filter((t) => !after.has(t.name) || !declarationsEqual(t, after.get(t.name)!)).map((t) => ({ name: t.name })),
	};
}

/** Every tool ever declared in the transcript, in first-declaration order (the last definition of each). */
export function getDeclaredTools(messages: readonly TranscriptMessage[]): Tool[] {
	const tools = new Map<string, Tool>();
	for (const m of messages) if (isSystem(m)) for (const t of m.toolsAdded ?? []) tools.set(t.name, t);
	return [...tools.values()];
}

export function hasToolRedefinitions(messages: readonly TranscriptMessage[]): boolean {
	const seen = new Map<string, Tool>();
	for (const m of messages) {
		if (!isSystem(m)) continue;
		for (const t of m.toolsAdded ?? []) {
			const before = seen.get(t.name);
			if (before && !declarationsEqual(before, t)) return true;
			seen.set(t.name, t);
		}
	}
	return false;
}

export function hasNonAdditiveToolChanges(messages: readonly TranscriptMessage[]): boolean {
	const declared = new Set<string>();
	for (const m of messages) {
		if (!isSystem(m)) continue;
		if ((m.toolsRemoved?.length ?? 0) > 0) return true;
		for (const t of m.toolsAdded ?? []) {
			if (declared.has(t.name)) return true;
			declared.add(t.name);
		}
	}
	return false;
}

/** The transcript (or a legacy context) as our wire protocols take it: the prompt and tools folded out. */
export function toLegacyContext(context: Context | TranscriptContext): Context {
	const messages = context.messages as TranscriptMessage[];
	if (!messages.some(isSystem)) return { ...(context as Context) };
	const head = getCurrentSystemMessage(messages);
	const legacy = context as Partial<Context>;
	return {
		systemPrompt: head ? getSystemMessageText(head) : legacy.systemPrompt,
		messages: messages.filter((m): m is Message => !isSystem(m)),
		tools: head?.toolsAdded ?? legacy.tools,
	};
}

/** Our context handed to a pi 1.6 custom provider: the transcript form, keeping the legacy fields too. */
export function toTranscriptContext(context: Context): TranscriptContext & Context {
	return { ...context, messages: normalizeContext(context).messages as Message[] };
}
