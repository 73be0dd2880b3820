// What boundary drafts (turn_end, agent_before_settle) do to a session: checked against its
// entries, previewed as the next request's messages, then persisted in order (seeds 7.1).
import type { AgentSession } from "../agent-session.ts";
import type { AgentMessage, CustomMessage } from "../agent/messages.ts";
import type { BoundarySink } from "./loop-hooks.ts";
import type { ExtensionRunner } from "./runner.ts";
import type { SendMessageInput, SessionBoundaryDraft } from "./types.ts";

/** An extension's message (sendMessage, before_agent_start, a custom_message draft) as the conversation keeps it. */
export function customMessage(input: SendMessageInput): CustomMessage {
	return { role: "custom", customType: input.customType, content: input.content, display: input.display ?? true, details: input.details, timestamp: Date.now() };
}

/** The message a session entry holds in the live conversation (context_edit targets). */
function messageOfEntry(session: AgentSession, entryId: string): AgentMessage | undefined {
	const entry = session.session.getEntry(entryId);
	return entry?.type === "message" ? (entry.message as AgentMessage) : undefined;
}

/** `runner` is read per use: a reload replaces it while the session stays. */
export function createBoundarySink(session: AgentSession, runner: () => ExtensionRunner): BoundarySink {
	return {
		messages: () => session.messages,
		hasQueuedMessages: () => session.hasPendingMessages(),
		entryIdOf: (message) => session.entryIdOf(message) ?? "",

		problem(draft) {
			if (draft.kind === "context_edit" && !messageOfEntry(session, draft.entryId)) return `context_edit: no message entry with id ${draft.entryId} in this session`;
			if (draft.kind === "compaction" && !session.session.getEntry(draft.firstKeptEntryId)) return `compaction: no entry with id ${draft.firstKeptEntryId} in this session`;
			return undefined;
		},

		/** The next request's messages with `drafts` applied (compactions only once persisted). */
		preview(drafts) {
			const messages = [...session.messages];
			for (const draft of drafts) {
				if (draft.kind === "custom_message") messages.push(customMessage(draft));
				else if (draft.kind === "context_edit") {
					const target = messageOfEntry(session, draft.entryId);
					const index = target ? messages.indexOf(target) : -1;
					if (index < 0) continue;
					if (draft.action === "omit") messages.splice(index, 1);
					else if (draft.content !== undefined) messages[index] = { ...messages[index]!, content: draft.content } as AgentMessage;
				}
			}
			return messages;
		},

		async applyDrafts(drafts: SessionBoundaryDraft[]) {
			const sm = session.session;
			let addedMessage = false;
			const compactions: string[] = [];
			for (const draft of drafts) {
				switch (draft.kind) {
					case "custom":
						sm.appendCustomEntry(draft.customType, draft.data);
						break;
					case "custom_message": {
						const message = customMessage(draft);
						sm.appendCustomMessageEntry(message.customType, message.content, message.display, message.details);
						session.messages.push(message);
						addedMessage = true;
						break;
					}
					case "context_edit":
						session.editContext(draft.entryId, draft.action, draft.content);
						break;
					case "compaction":
						compactions.push(sm.appendCompaction(draft.summary, draft.firstKeptEntryId, draft.tokensBefore, draft.details, true));
						break;
				}
			}
			if (compactions.length > 0) {
				session.rebuildFromSession();
				const r = runner();
				for (const id of compactions) if (r.has("session_compact")) await r.emit("session_compact", { compactionEntry: sm.getEntry(id), fromExtension: true });
			}
			return addedMessage;
		},
	};
}
