// The compiled binary in a real terminal: a tmux pane on a private socket, driven with send-keys
// and read with capture-pane — what a person would see (with `-e`, in colour). The TUI's screen
// splits at the editor: the conversation above it, the completion menu and footer below it.
// `await using` kills that tmux server only.
import { rmSync } from "node:fs";
import { join } from "node:path";
import { agentBinary, type TempWorld } from "./agent.ts";

export const hasTmux = Bun.which("tmux") !== null;

/** The screen around the editor: what is above its top border, inside it, and under its bottom one. */
export interface ScreenParts {
	above: string;
	editor: string;
	below: string;
}

/** An editor border: a full line of `─` (maybe with a "↑ 3 more" in it). */
const BORDER = /^(?:─{8,}|── \S.* ─{3,})(?: [↑↓] \d+ more ─*)?$/;

/** Split text at the last editor on it (the last two border lines); no editor: all of it is `above`. */
export function splitAtEditor(text: string): ScreenParts {
	const lines = text.split("\n");
	const borders = lines.flatMap((line, i) => (BORDER.test(line) ? [i] : []));
	if (borders.length < 2) return { above: text, editor: "", below: "" };
	const [top, bottom] = borders.slice(-2) as [number, number];
	return { above: lines.slice(0, top).join("\n").trimEnd(), editor: lines.slice(top + 1, bottom).join("\n"), below: lines.slice(bottom + 1).join("\n") };
}

export interface TerminalOptions {
	/** Extra environment for the binary (TERM is xterm-256color, NO_COLOR is set). */
	env?: Record<string, string | undefined>;
	width?: number;
	height?: number;
	/** Working directory (default the world's project). */
	cwd?: string;
	/** Pipe the binary's stdout through `cat` (stdout is then not a terminal). */
	pipeStdout?: boolean;
	/** A shell command run in the pane after the binary exits (e.g. `stty -a`, to see the terminal it left). */
	after?: string;
	/** Start it from an interactive bash with job control (as a person's shell: ctrl+z, `fg`). */
	jobControl?: boolean;
}

/** Captures in a row that must all pass before a screen that keeps changing is taken as it is. */
const ANIMATED = 6;

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
		const pipe = options.pipeStdout ? " | cat" : "";
		const after = options.after ? `; ${options.after}` : "";
		const run = `env -i ${env} ${shellQuote(agentBinary())} ${argv.map(shellQuote).join(" ")}${pipe}; echo EXIT=$?${after}`;
		const size = ["-x", String(options.width ?? 120), "-y", String(options.height ?? 40), "-c", options.cwd ?? world.cwd];
		if (options.jobControl) {
			// A quiet interactive bash; the command is typed into it, as a person would.
			this.tmux(["new-session", "-d", ...size, "env -i PS1='$ ' TERM=xterm-256color PATH=\"$PATH\" bash --norc --noprofile -i"]);
			this.tmux(["send-keys", "-l", `clear; ${run}`]);
			this.tmux(["send-keys", "Enter"]);
		} else this.tmux(["new-session", "-d", ...size, `${run}; sleep 60`]);
	}

	private tmux(args: string[]): string {
		const r = Bun.spawnSync(["tmux", "-L", this.socket, ...args], { stdout: "pipe", stderr: "pipe" });
		return r.stdout.toString();
	}

	/** Any tmux command on this terminal's server (`set-option …`, `show-buffer`); what it printed. */
	tmuxCommand(...args: string[]): string {
		return this.tmux(args);
	}

	/** The visible screen. */
	screen(): string {
		return tidy(this.tmux(["capture-pane", "-p", "-J"]));
	}

	/** Everything printed so far, scrollback included. */
	transcript(): string {
		return tidy(this.tmux(["capture-pane", "-p", "-J", "-S", "-"]));
	}

	/** The visible screen with its colours and attributes as escape sequences (`capture-pane -e`). */
	colouredScreen(): string {
		return tidy(this.tmux(["capture-pane", "-p", "-J", "-e"]));
	}

	/** The whole transcript split at the editor. */
	parts(): ScreenParts {
		return splitAtEditor(this.transcript());
	}

	/** A tmux format about the pane, e.g. `#{cursor_flag}` (1 while the cursor is shown). */
	paneFormat(format: string): string {
		return this.tmux(["display-message", "-p", format]).trim();
	}

	/** Resize the window (the program gets SIGWINCH). */
	resize(width: number, height: number): void {
		this.tmux(["resize-window", "-x", String(width), "-y", String(height)]);
	}

	/**
	 * Poll the transcript until `accept` gives a result for a settled capture: one that the next
	 * capture, taken at once, repeats. tmux parses a frame in chunks, so a single capture can land
	 * mid-redraw (the first lines new, the rest still old); a result is only taken from a capture
	 * the screen stayed on. `failure` describes the wait when it times out, with the screen.
	 */
	private async poll<T>(accept: (text: string) => T | undefined, failure: () => string, timeoutMs: number): Promise<T> {
		const deadline = Date.now() + timeoutMs;
		let previous: string | undefined;
		let streak = 0;
		for (;;) {
			const text = this.transcript();
			const result = accept(text);
			streak = result === undefined ? 0 : streak + 1;
			// A screen that never holds still (an animation) is taken once accepted on several captures in a row.
			if (result !== undefined && (text === previous || streak >= ANIMATED)) return result;
			if (Date.now() > deadline) throw new Error(`${failure()}; screen:\n${text}`);
			// Accepted but not yet seen twice: capture again at once; otherwise wait for the next frame.
			if (result === undefined) await Bun.sleep(40);
			previous = text;
		}
	}

	/** Wait until `check` holds for the transcript's parts (on a settled capture); fails with the screen after 15 s. */
	async waitUntil(what: string, check: (parts: ScreenParts, transcript: string) => boolean, timeoutMs = 15_000): Promise<ScreenParts> {
		return this.poll(
			(text) => {
				const parts = splitAtEditor(text);
				return check(parts, text) ? parts : undefined;
			},
			() => `timed out waiting for ${what}`,
			timeoutMs,
		);
	}

	/**
	 * Wait until `assertions` (expect() calls) all pass on one settled capture, and return its parts.
	 * Put there everything a frame must show, so nothing is asserted on a frame still being drawn;
	 * assert what it must not show afterwards, on the parts returned. Fails with the last assertion's
	 * message and the screen after 15 s.
	 */
	async waitToPass(what: string, assertions: (parts: ScreenParts, transcript: string) => void, timeoutMs = 15_000): Promise<ScreenParts> {
		let last: unknown;
		return this.poll(
			(text) => {
				const parts = splitAtEditor(text);
				try {
					assertions(parts, text);
					return parts;
				} catch (error) {
					last = error;
					return undefined;
				}
			},
			() => `timed out waiting for ${what}: ${last instanceof Error ? last.message : String(last)}`,
			timeoutMs,
		);
	}

	/** Wait until the editor is on the screen with something under it (the footer): keys are read. */
	async ready(timeoutMs?: number): Promise<ScreenParts> {
		return this.waitUntil("the editor", (p) => p.below !== "", timeoutMs);
	}

	/** Wait until what is above the editor ends with `text`: the conversation has settled there. */
	async waitForAbove(text: string, timeoutMs?: number): Promise<ScreenParts> {
		return this.waitUntil(`the conversation to end with ${JSON.stringify(text)}`, (p) => p.above.endsWith(text), timeoutMs);
	}

	/** Wait until the editor holds `text` exactly. */
	async waitForEditor(text: string, timeoutMs?: number): Promise<ScreenParts> {
		return this.waitUntil(`the editor to hold ${JSON.stringify(text)}`, (p) => p.editor.trimEnd() === text, timeoutMs);
	}

	/** Wait until what is under the editor (completions, footer) starts with `text`. */
	async waitForBelow(text: string, timeoutMs?: number): Promise<ScreenParts> {
		return this.waitUntil(`the editor to be followed by ${JSON.stringify(text)}`, (p) => p.below.startsWith(text), timeoutMs);
	}

	/** tmux key names (`Enter`, `Escape`, `C-c`, `M-Enter`, `Tab`) or literal words. */
	keys(...keys: string[]): void {
		this.tmux(["send-keys", ...keys]);
	}

	/** Type text exactly as given (no key-name lookup). */
	type(text: string): void {
		this.tmux(["send-keys", "-l", text]);
	}

	/** Paste text the way a terminal does: one bracketed paste, if the program asked for those. */
	paste(text: string): void {
		this.tmux(["set-buffer", "--", text]);
		this.tmux(["paste-buffer", "-p"]);
	}

	/** Type a line and press Enter. */
	submit(text: string): void {
		this.type(text);
		this.keys("Enter");
	}

	/** Wait until the transcript contains `text` (on a settled capture; fails with the screen after 15 s). */
	async waitFor(text: string | RegExp, timeoutMs = 15_000): Promise<string> {
		const found = (s: string) => (typeof text === "string" ? s.includes(text) : text.test(s));
		return this.poll((s) => (found(s) ? s : undefined), () => `timed out waiting for ${String(text)}`, timeoutMs);
	}

	/**
	 * Wait until the transcript ends with `text`: the screen has settled into that state (a check
	 * made right after a partial match could see half-typed input or a menu still filtering).
	 */
	async waitForEnd(text: string, timeoutMs = 15_000): Promise<string> {
		return this.poll((s) => (s.endsWith(text) ? s : undefined), () => `timed out waiting for the screen to end with ${JSON.stringify(text)}`, timeoutMs);
	}

	/** Close the terminal under the program (like closing the window): tmux hangs up on it. */
	close(): void {
		this.tmux(["kill-server"]);
		// tmux leaves its socket file behind when its server is killed.
		rmSync(join(process.env.TMUX_TMPDIR || "/tmp", `tmux-${process.getuid?.() ?? 0}`, this.socket), { force: true });
	}

	async [Symbol.asyncDispose](): Promise<void> {
		this.close();
	}
}
