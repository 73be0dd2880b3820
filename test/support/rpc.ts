// Drives `agent --mode rpc` as a client would: JSON lines to its stdin, every stdout line parsed
// (split on "\n" only) and kept in order, so tests can wait for a response or an event.
import type { Subprocess } from "bun";
import { agentBinary, type TempWorld } from "./agent.ts";

export type RpcRecord = Record<string, any>;

/** How long to wait for a record before failing with what arrived: a guard against hangs, not a timed assertion. */
const STUCK_MS = 20_000;

export class RpcAgent implements AsyncDisposable {
	/** Every stdout record so far, in order. */
	readonly records: RpcRecord[] = [];
	/** stdout lines that were not JSON objects (the protocol allows none). */
	readonly badLines: string[] = [];
	stderr = "";
	/** All of stdout as text. */
	stdout = "";
	readonly exited: Promise<number>;
	private readonly proc: Subprocess<"pipe", "pipe", "pipe">;
	private waiters: (() => void)[] = [];
	private nextId = 1;
	private stdinOpen = true;

	constructor(world: TempWorld, args: string[], env: Record<string, string | undefined> = {}) {
		const proc = Bun.spawn([agentBinary(), "--mode", "rpc", ...args], {
			cwd: world.cwd,
			env: world.environment(env),
			stdin: "pipe",
			stdout: "pipe",
			stderr: "pipe",
		});
		this.proc = proc;
		const out = this.readStdout();
		const err = (async () => {
			for await (const chunk of proc.stderr.pipeThrough(new TextDecoderStream())) {
				this.stderr += chunk;
				this.wake();
			}
		})();
		this.exited = Promise.all([out, err, proc.exited]).then(([, , code]) => {
			this.wake();
			return code;
		});
	}

	get pid(): number {
		return this.proc.pid;
	}

	get exitCode(): number | null {
		return this.proc.exitCode;
	}

	private async readStdout(): Promise<void> {
		let buffer = "";
		for await (const chunk of this.proc.stdout.pipeThrough(new TextDecoderStream())) {
			buffer += chunk;
			this.stdout += chunk;
			for (let i = buffer.indexOf("\n"); i !== -1; i = buffer.indexOf("\n")) {
				const line = buffer.slice(0, i);
				buffer = buffer.slice(i + 1);
				try {
					const record = JSON.parse(line);
					if (typeof record === "object" && record !== null && !Array.isArray(record)) this.records.push(record);
					else this.badLines.push(line);
				} catch {
					this.badLines.push(line);
				}
			}
			this.wake();
		}
		if (buffer !== "") this.badLines.push(buffer);
	}

	private wake(): void {
		for (const w of this.waiters.splice(0)) w();
	}

	/** Write a record (or a raw string, sent as is) to the agent's stdin. */
	send(record: RpcRecord | string): void {
		this.proc.stdin.write(typeof record === "string" ? record : `${JSON.stringify(record)}\n`);
		this.proc.stdin.flush();
	}

	/** Send a command with a fresh id and wait for its response. */
	async request(command: RpcRecord): Promise<RpcRecord> {
		const id = `req-${this.nextId++}`;
		this.send({ ...command, id });
		return this.waitFor((r) => r.type === "response" && r.id === id, `response to ${JSON.stringify(command)}`);
	}

	/** The first record at or after index `from` matching `match`; waits for it. */
	async waitFor(match: (record: RpcRecord) => boolean, what: string, from = 0): Promise<RpcRecord> {
		const started = Date.now();
		for (;;) {
			const found = this.records.slice(from).find(match);
			if (found) return found;
			if (this.proc.exitCode !== null || this.proc.signalCode !== null) {
				await this.exited;
				const late = this.records.slice(from).find(match);
				if (late) return late;
				throw new Error(`agent exited (${this.proc.exitCode ?? this.proc.signalCode}) before ${what}\n${this.transcript()}`);
			}
			if (Date.now() - started > STUCK_MS) throw new Error(`no ${what} after ${STUCK_MS} ms\n${this.transcript()}`);
			await new Promise<void>((resolve) => {
				const timer = setTimeout(resolve, 250);
				this.waiters.push(() => {
					clearTimeout(timer);
					resolve();
				});
			});
		}
	}

	/** Wait for an event of `type` (optionally also matching `match`) at or after `from`. */
	event(type: string, from = 0, match: (record: RpcRecord) => boolean = () => true): Promise<RpcRecord> {
		return this.waitFor((r) => r.type === type && match(r), `a ${type} event`, from);
	}

	/** Records of one type, in order. */
	all(type: string, from = 0): RpcRecord[] {
		return this.records.slice(from).filter((r) => r.type === type);
	}

	/** Close stdin (the client is done) and wait for the exit code. */
	async end(): Promise<number> {
		if (this.stdinOpen) {
			this.stdinOpen = false;
			await this.proc.stdin.end();
		}
		return this.exited;
	}

	kill(signal: NodeJS.Signals): void {
		this.proc.kill(signal);
	}

	transcript(): string {
		return `--- stdout\n${this.records.map((r) => JSON.stringify(r)).join("\n")}\n--- bad stdout lines\n${this.badLines.join("\n")}\n--- stderr\n${this.stderr}`;
	}

	async [Symbol.asyncDispose](): Promise<void> {
		if (this.proc.exitCode === null && this.proc.signalCode === null) this.proc.kill("SIGKILL");
		await this.exited;
	}
}

/** Whether a process with this pid still runs; a zombie waiting to be reaped counts as gone. */
export { processAlive as isAlive } from "./processes.ts";
