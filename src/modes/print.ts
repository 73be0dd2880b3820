// Print and json modes: send the prompts in turn, then print the final assistant text (text);
// json mode's stream is json.ts, attached when the session was created. The exit code says how the run ended.
import type { AgentSession } from "../core/agent-session.ts";
import type { ExtensionHost } from "../core/extensions/host.ts";
import type { AssistantMessage, ImageContent } from "../core/providers/types.ts";
import { withoutSourceExcerpt } from "../core/errors.ts";
import { systemReason } from "../core/file-reader.ts";
import { extensionExitRequest, onExtensionExit } from "../core/exit-guard.ts";
import { onTerminationSignals } from "../core/process-groups.ts";
import { formatDuration } from "../core/providers/request-timeouts.ts";
import { mark } from "../core/timing.ts";
import { writeStderr, writeStdout } from "../stdio.ts";

export interface PrintModeOptions {
	mode: "text" | "json";
	/** Prompts to send in order (the first already merged with @files and stdin). */
	prompts: string[];
	/** Attached to the first prompt (@image files). */
	images?: ImageContent[];
	/** json mode: stops the event stream (attached when the session was created, see json.ts). */
	detach?: () => void;
	/** Why the session has no model: thrown when a prompt needs one (commands run without). */
	modelError?: Error;
}

export async function runPrintMode(session: AgentSession, host: ExtensionHost, options: PrintModeOptions): Promise<number> {
	// SIGINT, SIGTERM or SIGHUP: running commands are ended, the run aborted, extensions told; 130/143/129.
	let interrupted: number | undefined;
	const stopListening = onTerminationSignals((code) => {
		interrupted = code;
		void session.abort();
	});
	// An extension's process.exit() stops the run like a signal; whether it finished decides the exit code.
	let finished = false;
	const stopExitListening = onExtensionExit(() => void session.abort());
	// A waiting run is never silent: one stderr line per retry (json mode has auto_retry_start).
	const stopRetryLines =
		options.mode === "text"
			? session.subscribe((event) => {
					if (event.type === "auto_retry_start") writeStderr(`${retryLine(session.model?.provider ?? "the provider", event)}\n`);
				})
			: undefined;
	try {
		for (let i = 0; i < options.prompts.length; i++) {
			const prompt = options.prompts[i]!;
			const result = await host.submit(prompt, { images: i === 0 ? options.images : undefined, source: "interactive" }).catch((error: unknown) => {
				if (options.modelError && error instanceof Error && error.name === "NoModelError") throw options.modelError;
				throw error;
			});
			// Runs extensions started without waiting (a command's sendUserMessage) finish first.
			await host.waitForIdle();
			if (result.kind === "error") {
				writeStderr(`Error: ${withoutSourceExcerpt(result.message)}\n`);
				return 1;
			}
			// A command or a handled input leaves no new answer; the next prompt still goes.
			const last = session.lastAssistant();
			if (interrupted !== undefined || extensionExitRequest() || session.lastRunAborted || (last && (last.stopReason === "error" || last.stopReason === "aborted"))) break;
		}
		finished = !extensionExitRequest();
	} finally {
		// A compaction an extension started without awaiting it (ctx.compact()) finishes before the exit.
		await session.compaction.settled();
		mark("run");
		options.detach?.();
		stopRetryLines?.();
		await host.shutdown();
		mark("shutdown");
		stopListening();
		stopExitListening();
		// Told once when saving stopped working; if it never recovered, say what the file lacks.
		const unsaved = session.session.unsavedWrites();
		if (unsaved) {
			const n = unsaved.unsaved;
			writeStderr(`Warning: ${n} ${n === 1 ? "entry" : "entries"} of this run could not be saved to ${unsaved.path} (${systemReason(unsaved.cause)}); the file holds only what was saved before.\n`);
		}
	}
	const last = session.lastAssistant();
	if (interrupted !== undefined) return interrupted;
	const exit = extensionExitRequest();
	if (exit && !finished) {
		// stdout stays empty, as for any run that did not finish.
		const who = exit.extensionPath ? `Extension "${exit.extensionPath}"` : "An extension";
		writeStderr(`Error: ${who} called process.exit(${exit.code}) before the run finished; the run was stopped.\n`);
		return exit.code || 1;
	}
	if (last && (last.stopReason === "error" || last.stopReason === "aborted")) {
		// stdout stays empty: a script must not take a cut-off answer for the answer.
		writeStderr(`Error: ${last.errorMessage ?? (last.stopReason === "aborted" ? "Request aborted" : "Request failed")}\n`);
		return 1;
	}
	// Aborted between requests (an extension's ctx.abort() during tool calls).
	if (session.lastRunAborted) {
		writeStderr("Error: Request aborted\n");
		return 1;
	}
	if (options.mode === "text" && last) {
		const text = finalText(last);
		if (text) writeStdout(text.endsWith("\n") ? text : `${text}\n`);
	}
	// A finished run whose extension then asked for an exit code (in session_shutdown, say) gets it.
	return exit?.code ?? 0;
}

/** `Retrying mock in 2 s (attempt 2/4): 503 The engine is currently overloaded`. */
export function retryLine(provider: string, event: { attempt: number; maxAttempts: number; delayMs: number; errorMessage: string }): string {
	// "mock server error (503): overloaded" → "503 overloaded": the provider is already named.
	const status = /\((\d{3})\): ([\s\S]*)$/.exec(event.errorMessage);
	const reason = status ? `${status[1]} ${status[2]}` : event.errorMessage;
	return `Retrying ${provider} in ${formatDuration(event.delayMs)} (attempt ${event.attempt + 1}/${event.maxAttempts + 1}): ${reason}`;
}

function finalText(message: AssistantMessage): string {
	return message.content
		.filter((c) => c.type === "text")
		.map((c) => (c as { text: string }).text)
		.join("\n");
}
