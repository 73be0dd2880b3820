// json mode's output (`agent --mode json`): the session header, then every session event as one
// JSON line in pi 1.6's wire shape, from the moment the session exists — so what session_start
// handlers emit is on the stream too. Print mode runs the prompts; this only writes.
import type { AgentSession } from "../core/agent-session.ts";
import { writeStdout } from "../stdio.ts";
import { saveFailedEvent, toWireEvent } from "./wire-event.ts";

function writeLine(value: unknown): void {
	writeStdout(`${JSON.stringify(value)}\n`);
}

/** Write the header and start streaming; returns the function that stops. */
export function attachJsonStream(session: AgentSession, warn: (text: string) => void): () => void {
	writeLine(session.session.getHeader());
	const unsubscribe = session.subscribe((event) => writeLine(toWireEvent(event)));
	session.setWriteErrorHandler((error) => {
		warn(`Warning: ${error.message}\n`);
		writeLine(saveFailedEvent(error));
	});
	return unsubscribe;
}
