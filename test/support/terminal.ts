// The compiled binary in a real terminal: a tmux pane on a private socket, driven with send-keys
// and read with capture-pane — what a person would see. `await using` kills that tmux server only.
import { agentBinary, type TempWorld } from "./agent.ts";

export const hasTmux = Bun.which("tmux") !== null;

export interface TerminalOptions {
	/** Extra environment for the binary (TERM is xterm-256color, NO_COLOR is set). */
	env?: Record<string, string | undefined>;
	width?: number;
	height?: number;
	/** Working directory (default the world's project). */
	cwd?: string;
}

function shellQuote(s: string): string {
	return `'${s.replace(/'/g, "'\\''")}'`;
}

/** Lines with trailing spaces cut, and blank lines at the end dropped. */
function tidy(text: string): string {
	return text
		.split("\n")
		.map((l) => l.trimEnd())
		.join("\n")
		.trimEnd();
}

export class Terminal implements AsyncDisposable {
	private readonly socket = `agent-test-${process.pid}-${Math.random().toString(36).slice(2)}`;

	constructor(world: TempWorld, argv: string[] = [], options: TerminalOptions = {}) {
		const env = Object.entries(world.environment({ TERM: "xterm-256color", ...options.env }))
			.map(([k, v]) => `${k}=${shellQuote(v)}`)
			.join(" ");
		const command = `env -i ${env} ${shellQuote(agentBinary())} ${argv.map(shellQuote).join(" ")}; echo EXIT=$?; sleep 60`;
		this.tmux(["new-session", "-d", "-x", String(options.width ?? 120), "-y", String(options.height ?? 40), "-c", options.cwd ?? world.cwd, command]);
	}

	private tmux(args: string[]): string {
		const r = Bun.spawnSync(["tmux", "-L", this.socket, ...args], { stdout: "pipe", stderr: "pipe" });
		return r.stdout.toString();
	}

	/** The visible screen. */
	screen(): string {
		return tidy(this.tmux(["capture-pane", "-p", "-J"]));
	}

	/** Everything printed so far, scrollback included. */
	transcript(): string {
		return tidy(this.tmux(["capture-pane", "-p", "-J", "-S", "-"]));
	}

	/** tmux key names (`Enter`, `Escape`, `C-c`, `M-Enter`, `Tab`) or literal words. */
	keys(...keys: string[]): void {
		this.tmux(["send-keys", ...keys]);
	}

	/** Type text exactly as given (no key-name lookup). */
	type(text: string): void {
		this.tmux(["send-keys", "-l", text]);
	}

	/** Type a line and press Enter. */
	submit(text: string): void {
		this.type(text);
		this.keys("Enter");
	}

	/** Wait until the transcript contains `text` (fails with the screen after 15 s). */
	async waitFor(text: string | RegExp, timeoutMs = 15_000): Promise<string> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const s = this.transcript();
			if (typeof text === "string" ? s.includes(text) : text.test(s)) return s;
			if (Date.now() > deadline) throw new Error(`timed out waiting for ${String(text)}; screen:\n${s}`);
			await Bun.sleep(40);
		}
	}

	/**
	 * Wait until the transcript ends with `text`: the screen has settled into that state (a check
	 * made right after a partial match could see half-typed input or a menu still filtering).
	 */
	async waitForEnd(text: string, timeoutMs = 15_000): Promise<string> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const s = this.transcript();
			if (s.endsWith(text)) return s;
			if (Date.now() > deadline) throw new Error(`timed out waiting for the screen to end with ${JSON.stringify(text)}; screen:\n${s}`);
			await Bun.sleep(40);
		}
	}

	/** Close the terminal under the program (like closing the window): tmux hangs up on it. */
	close(): void {
		this.tmux(["kill-server"]);
	}

	async [Symbol.asyncDispose](): Promise<void> {
		this.close();
	}
}
