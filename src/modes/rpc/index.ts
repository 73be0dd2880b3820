// rpc mode (`agent --mode rpc`, SPEC §10, reference §7.4): commands as JSON lines on stdin,
// responses and every session event as JSON lines on stdout. Lines are handled as they arrive,
// so a dialog's answer or a steer gets through while a prompt runs.
import { createAgentSession, type CreateAgentSessionOptions } from "../../core/sdk.ts";
import type { AgentSession } from "../../core/agent-session.ts";
import type { ExtensionHost, PromptDisposition, SubmitOptions } from "../../core/extensions/host.ts";
import { onExtensionExit } from "../../core/exit-guard.ts";
import { endAllProcessGroups } from "../../core/process-groups.ts";
import { writeStderr, writeStdout } from "../../stdio.ts";
import { COMMANDS, checkFields, type RpcCommandContext, type RpcCommandSpec } from "./commands.ts";
import { saveFailedEvent, toWireEvent } from "../wire-event.ts";
import { readLines, salvageId, serializeLine } from "./framing.ts";
import { RpcUI } from "./ui.ts";

export interface RpcIO {
	/** Default: the process's stdin. */
	input: ReadableStream<Uint8Array>;
	/** Default: fd 1 (protocol only). */
	write(text: string): void;
	/** Default: fd 2. */
	writeError(text: string): void;
}

type CommandId = string | number | undefined;

function errorText(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Runs until stdin ends (exit 0, after what is in flight), ctx.shutdown() (0) or a signal (143 / 129 / 130). */
export async function runRpcMode(options: CreateAgentSessionOptions, io: Partial<RpcIO> = {}): Promise<number> {
	const write = io.write ?? writeStdout;
	const writeError = io.writeError ?? writeStderr;
	const send = (record: object) => write(serializeLine(record));
	const respond = (id: CommandId, command: string, outcome: { data?: unknown } | { error: string }) =>
		send({ ...(id !== undefined ? { id } : {}), type: "response", command, ...("error" in outcome ? { success: false, error: outcome.error } : { success: true, ...outcome }) });

	let host: ExtensionHost | undefined;
	const ui = new RpcUI({
		send,
		note: (text) => writeError(`${text}\n`),
		extensionPaths: () => (host?.extensions ?? options.extensions?.loaded?.extensions ?? []).map((e) => e.resolvedPath),
	});
	const stop = new Shutdown();
	let unsubscribe: (() => void) | undefined;
	const created = await createAgentSession({
		...options,
		mode: "rpc",
		ui: ui.context,
		hasUI: true,
		onExtensionError: (r) => send({ type: "extension_error", extensionPath: r.extensionPath, event: r.event, error: r.error }),
		// Reference §7.4: takes effect once the commands in flight are done.
		onShutdown: () => stop.request(0),
		// Before session_start: what its handlers emit (entries, notifications) reaches the client.
		onSessionCreated: (session) => {
			unsubscribe = session.subscribe((event) => send(toWireEvent(event)));
			session.setWriteErrorHandler((error) => {
				writeError(`Warning: ${error.message}\n`);
				send(saveFailedEvent(error));
			});
			session.setLoadWarningHandler((w) => writeError(`Warning: ${w.message}\n`));
		},
	});
	host = created.host;
	const { session, registry } = created;
	for (const w of created.warnings) writeError(`Warning: ${w}\n`);

	/** A prompt: answered with its disposition as soon as that is known, or with the error that stopped it first. */
	const submit = async (text: string, submitOptions: SubmitOptions, accept: (disposition: PromptDisposition) => void): Promise<void> => {
		let accepted = false;
		const run = host!.submit(text, {
			...submitOptions,
			onAccepted: (disposition) => {
				accepted = true;
				accept(disposition);
			},
		});
		stop.track(run);
		try {
			const result = await run;
			if (result.kind === "error") throw new Error(result.message);
		} catch (error) {
			if (!accepted) throw error;
			writeError(`Error: ${errorText(error)}\n`);
		}
	};

	const execute = (type: string, spec: RpcCommandSpec, command: Record<string, unknown>) => {
		const id = command.id as CommandId;
		let answered = false;
		const answer = (outcome: { data?: unknown } | { error: string }) => {
			if (answered) return;
			answered = true;
			respond(id, type, outcome);
		};
		const rpc: RpcCommandContext = { session, host: host!, registry, id, emit: send, submit: (text, o) => submit(text, o, (disposition) => answer({ data: { disposition } })) };
		// Tracked before it starts, so a ctx.shutdown() inside waits for this command's answer.
		const task = Promise.resolve().then(async () => {
			try {
				const data = await spec.run(command as never, rpc);
				answer(data === undefined ? {} : { data });
			} catch (error) {
				answer({ error: errorText(error) });
			}
		});
		stop.track(task);
	};

	const handleLine = (line: string) => {
		if (line.trim() === "") return;
		let parsed: unknown;
		try {
			parsed = JSON.parse(line);
		} catch (error) {
			// A line cut short may still name its id: answer it, so the client is not left waiting.
			respond(salvageId(line), "parse", { error: `Failed to parse command: ${errorText(error)}` });
			return;
		}
		const record = typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
		const id = record && (typeof record.id === "string" || typeof record.id === "number") ? record.id : undefined;
		if (!record || typeof record.type !== "string") {
			respond(id, typeof record?.type === "string" ? record.type : "parse", {
				error: `Failed to parse command: expected a JSON object with a string "type", got ${line.length > 80 ? `${line.slice(0, 80)}…` : line}`,
			});
			return;
		}
		const command = record as Record<string, unknown> & { type: string };
		if (command.type === "extension_ui_response") {
			const problem = ui.handleResponse(command);
			if (problem) respond(id, "extension_ui_response", { error: problem });
			return;
		}
		const spec = Object.hasOwn(COMMANDS, command.type) ? COMMANDS[command.type] : undefined;
		if (!spec) {
			respond(id, command.type, { error: `Unknown command: ${command.type}` });
			return;
		}
		const problem = checkFields(command.type, spec, command);
		if (problem) respond(id, command.type, { error: problem });
		else execute(command.type, spec, command);
	};

	const onSignal = (code: number) => () => void stop.terminate(code, session);
	const signals: [NodeJS.Signals, () => void][] = [
		["SIGTERM", onSignal(143)],
		["SIGHUP", onSignal(129)],
		["SIGINT", onSignal(130)],
	];
	for (const [name, handler] of signals) process.on(name, handler);
	// An extension's process.exit() after loading: stop like a signal would, in order (issue 12).
	const stopExitListening = onExtensionExit((request) => void stop.terminate(request.code, session));

	// End of input: nobody is left to answer a dialog; finish what is in flight, then exit.
	void readLines(io.input ?? Bun.stdin.stream(), handleLine)
		.catch((error) => writeError(`Error: reading stdin: ${errorText(error)}\n`))
		.finally(() => {
			ui.close();
			stop.request(0);
		});

	const code = await stop.done;
	for (const [name, handler] of signals) process.off(name, handler);
	stopExitListening();
	unsubscribe?.();
	ui.close();
	await host.shutdown();
	return code;
}

/** When to stop: a graceful request waits for the commands in flight; a signal aborts them first. */
class Shutdown {
	private readonly inFlight = new Set<Promise<unknown>>();
	private requested: number | undefined;
	private terminating = false;
	private finished = false;
	private resolve!: (code: number) => void;
	readonly done = new Promise<number>((r) => (this.resolve = r));

	track(task: Promise<unknown>): void {
		this.inFlight.add(task);
		const settle = () => {
			this.inFlight.delete(task);
			this.check();
		};
		task.then(settle, settle);
	}

	request(code: number): void {
		this.requested ??= code;
		this.check();
	}

	/** Abort the run and any bash command (their process groups die with them), then stop. */
	async terminate(code: number, session: AgentSession): Promise<void> {
		// A second signal while the first is still aborting: stop now.
		if (this.terminating) return this.finish(code);
		this.terminating = true;
		this.requested = code;
		endAllProcessGroups();
		session.abortBash();
		await session.abort();
		this.finish(code);
	}

	private check(): void {
		if (this.requested !== undefined && this.inFlight.size === 0) this.finish(this.requested);
	}

	private finish(code: number): void {
		if (this.finished) return;
		this.finished = true;
		this.resolve(code);
	}
}
