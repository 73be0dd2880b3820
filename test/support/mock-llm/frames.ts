// Writes a rendered answer (a list of frames) as a streamed HTTP body, and breaks it on purpose
// when the turn asks: a malformed line mid-stream, a reset connection, or a stall until the client leaves.
import type { Fault } from "./turns.ts";

/** One piece of a body: an SSE event, or a slice of a JSON body. */
export interface Frame {
	text: string;
	/** Carries model output (text, thinking or tool-call deltas); faults cut relative to these. */
	content?: boolean;
}

export interface FrameWriteOptions {
	status: number;
	headers: Record<string, string>;
	fault: Fault;
	/** Inserted after the first content frame when the fault is "malformed". */
	malformed: Frame;
	/** Pause between frames. */
	chunkDelayMs: number;
	/** Aborts when the client goes away or the server closes; ends a hang. */
	signal: AbortSignal;
	/** Called when writing starts and when it has ended, however it ended. */
	onOpen(): void;
	onClose(): void;
}

type Ending = "close" | "reset" | "wait";

// Bun discards bytes still queued when a stream errors; give the socket a moment to flush them.
const FLUSH_BEFORE_RESET_MS = 25;

export function framesResponse(frames: Frame[], options: FrameWriteOptions): Response {
	const { send, ending } = planFrames(frames, options.fault, options.malformed);
	const encoder = new TextEncoder();
	const stop = new AbortController();
	if (options.signal.aborted) stop.abort();
	else options.signal.addEventListener("abort", () => stop.abort(), { once: true });
	const body = new ReadableStream<Uint8Array>({
		async start(controller) {
			options.onOpen();
			try {
				for (const frame of send) {
					if (stop.signal.aborted) return;
					controller.enqueue(encoder.encode(frame.text));
					if (options.chunkDelayMs > 0) await Bun.sleep(options.chunkDelayMs);
				}
				if (ending === "reset") {
					await Bun.sleep(FLUSH_BEFORE_RESET_MS);
					// Erroring a response body makes Bun reset the connection: no final chunk, so the
					// client sees ECONNRESET. `undefined` keeps Bun from printing an error report.
					if (!stop.signal.aborted) controller.error(undefined);
					return;
				}
				if (ending === "wait") await untilAborted(stop.signal);
				if (!stop.signal.aborted) controller.close();
			} catch {
				// The client left while we were writing; nothing to tell anyone.
			} finally {
				options.onClose();
			}
		},
		cancel() {
			stop.abort();
		},
	});
	return new Response(body, { status: options.status, headers: options.headers });
}

function untilAborted(signal: AbortSignal): Promise<void> {
	if (signal.aborted) return Promise.resolve();
	return new Promise((resolve) => signal.addEventListener("abort", () => resolve(), { once: true }));
}

/** Which frames to send and how to end, for a fault. */
function planFrames(frames: Frame[], fault: Fault, malformed: Frame): { send: Frame[]; ending: Ending } {
	const contentAt = frames.flatMap((frame, i) => (frame.content ? [i] : []));
	const afterFirst = contentAt.length > 0 ? contentAt[0] + 1 : Math.ceil(frames.length / 2);
	switch (fault) {
		case "malformed":
			return { send: [...frames.slice(0, afterFirst), malformed, ...frames.slice(afterFirst)], ending: "close" };
		case "hang":
			return { send: frames.slice(0, afterFirst), ending: "wait" };
		case "drop": {
			const half = contentAt.length > 0 ? contentAt[Math.ceil(contentAt.length / 2) - 1] + 1 : afterFirst;
			return { send: frames.slice(0, half), ending: "reset" };
		}
		default:
			return { send: frames, ending: "close" };
	}
}
