// Session events as json and rpc mode write them: pi 1.6's JsonAgentSessionEvent. message_update
// goes out delta-only (no cumulative `message`, no `partial` snapshots) so a stream grows linearly;
// the other events keep pi's fields and lose the in-process extras the loop adds for extensions.
import type { AgentSessionEvent } from "../core/agent-session.ts";
import type { AssistantMessageEvent, Usage } from "../core/providers/types.ts";
import type { SessionWriteError } from "../core/session/session-errors.ts";

type WithoutPartial<T> = T extends { partial: unknown } ? Omit<T, "partial"> : T;

/** A streamed piece without its snapshot; toolcall_start names the call it opens. */
export type WireAssistantMessageEvent = WithoutPartial<AssistantMessageEvent> | { type: "toolcall_start"; contentIndex: number; id: string; toolName: string };

/** A session event as json and rpc mode write it: pi 1.6's `JsonAgentSessionEvent`, for clients reading those streams. */
export type JsonAgentSessionEvent = Exclude<AgentSessionEvent, { type: "message_update" }> | { type: "message_update"; usage: Usage; assistantMessageEvent: WireAssistantMessageEvent };

export type WireEvent =
	| { type: "message_update"; usage: Usage; assistantMessageEvent: WireAssistantMessageEvent }
	| { type: "turn_start" }
	| Record<string, unknown>;

function wireAssistantEvent(event: AssistantMessageEvent): WireAssistantMessageEvent {
	if (!("partial" in event)) return event;
	const { partial, ...delta } = event;
	if (delta.type === "toolcall_start") {
		const call = partial.content[delta.contentIndex];
		return { ...delta, id: call?.type === "toolCall" ? call.id : "", toolName: call?.type === "toolCall" ? call.name : "" };
	}
	return delta as WireAssistantMessageEvent;
}

/** The line to write for `event`; a fresh object, the event itself is left alone. */
export function toWireEvent(event: AgentSessionEvent): WireEvent {
	switch (event.type) {
		case "message_update": {
			const usage = event.message.role === "assistant" ? event.message.usage : undefined;
			return { type: "message_update", usage: usage as Usage, assistantMessageEvent: wireAssistantEvent(event.assistantMessageEvent) };
		}
		// An answer starts empty on the wire: its content comes as message_update deltas, so a client
		// that adds them up from message_start never counts a piece twice (the in-process snapshot may
		// already hold pieces the stream has yet to deliver).
		case "message_start":
			return event.message.role === "assistant" ? { type: "message_start", message: { ...event.message, content: [] } } : event;
		// pi's session stream numbers neither turns nor their start time (extensions get both).
		case "turn_start":
			return { type: "turn_start" };
		case "turn_end":
			return { type: "turn_end", message: event.message, toolResults: event.toolResults };
		// Retries happen inside a run here, so a run that ends never has one coming.
		case "agent_end":
			return { type: "agent_end", messages: event.messages, willRetry: false };
		default:
			return event;
	}
}

/**
 * The session file could not be written: the warning the terminal gets, as an event a program can
 * act on. The run goes on in memory; the unsaved entries go out with the next append that works.
 */
export interface SessionSaveFailedEvent {
	type: "session_save_failed";
	sessionFile: string;
	/** Entries held in memory (the header counts as one). */
	unsaved: number;
	/** The whole message: the cause and what happens next. */
	error: string;
}

export function saveFailedEvent(error: SessionWriteError): SessionSaveFailedEvent {
	return { type: "session_save_failed", sessionFile: error.path, unsaved: error.unsaved, error: error.message };
}
