// Dialogs over the REPL (SPEC §7): clack select / confirm / text / multiline, one at a time, with
// a `timeout` countdown in the title and an AbortSignal; on expiry or abort they resolve to their
// default. The editor dialog uses $VISUAL / $EDITOR when set.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DialogOptions } from "../../core/extensions/types.ts";
import type { Terminal } from "./terminal.ts";

export type DialogMethod = "select" | "confirm" | "input" | "editor";

export interface DialogEvents {
	start(method: DialogMethod, title: string): void;
	end(method: DialogMethod, title: string, cancelled: boolean): void;
}

/** What clack needs from us: the options' common part, with a live message. */
interface ClackCommon {
	readonly message: string;
	signal: AbortSignal;
}

export class Dialogs {
	private queue: Promise<unknown> = Promise.resolve();

	constructor(
		private readonly terminal: Terminal,
		private readonly events: DialogEvents,
	) {}

	/** Run one dialog with the screen handed to clack; dialogs asked for meanwhile wait their turn. */
	private run<T>(method: DialogMethod, title: string, opts: DialogOptions | undefined, show: (common: ClackCommon) => Promise<T | symbol>): Promise<T | undefined> {
		const next = this.queue.then(() => this.open(method, title, opts, show));
		this.queue = next.catch(() => {});
		return next;
	}

	private async open<T>(method: DialogMethod, title: string, opts: DialogOptions | undefined, show: (common: ClackCommon) => Promise<T | symbol>): Promise<T | undefined> {
		if (opts?.signal?.aborted) return undefined;
		const controller = new AbortController();
		const abort = () => controller.abort();
		opts?.signal?.addEventListener("abort", abort, { once: true });
		const timeout = opts?.timeout && opts.timeout > 0 ? opts.timeout : undefined;
		const deadline = timeout ? Date.now() + timeout : 0;
		const timer = timeout ? setTimeout(abort, timeout) : undefined;
		// clack re-renders on a resize of its output; a tick once a second moves the countdown.
		const ticker = timeout ? setInterval(() => process.stdout.emit("resize"), 1000) : undefined;
		const common: ClackCommon = {
			get message() {
				return timeout ? `${title} (${Math.max(0, Math.ceil((deadline - Date.now()) / 1000))}s)` : title;
			},
			signal: controller.signal,
		};
		this.terminal.suspend();
		this.events.start(method, title);
		let cancelled = true;
		try {
			const result = await show(common);
			cancelled = typeof result === "symbol";
			return cancelled ? undefined : (result as T);
		} finally {
			clearTimeout(timer);
			clearInterval(ticker);
			opts?.signal?.removeEventListener("abort", abort);
			this.terminal.resume();
			this.events.end(method, title, cancelled);
		}
	}

	select(title: string, options: string[], opts?: DialogOptions): Promise<string | undefined> {
		return this.run<string>("select", title, opts, async (common) => {
			const { select } = await import("@clack/prompts");
			return select(withMessage(common, { options: options.map((o) => ({ value: o, label: o })), maxItems: 12 }));
		});
	}

	/** A select whose options carry a value, label and hint (the built-in pickers). */
	pick<T>(title: string, options: { value: T; label: string; hint?: string }[], initialValue?: T): Promise<T | undefined> {
		return this.run<T>("select", title, undefined, async (common) => {
			const { select } = await import("@clack/prompts");
			return select<T>(withMessage(common, { options: options as never, initialValue, maxItems: 12 }));
		});
	}

	async confirm(title: string, message: string, opts?: DialogOptions): Promise<boolean> {
		const answer = await this.run<boolean>("confirm", title, opts, async (common) => {
			const { confirm } = await import("@clack/prompts");
			return confirm(withMessage(common, { initialValue: false }, message));
		});
		return answer ?? false;
	}

	input(title: string, placeholder?: string, opts?: DialogOptions & { initialValue?: string }): Promise<string | undefined> {
		return this.run<string>("input", title, opts, async (common) => {
			const { text } = await import("@clack/prompts");
			return text(withMessage(common, { placeholder, initialValue: opts?.initialValue }));
		});
	}

	/** $VISUAL / $EDITOR on a temp file, else a multi-line prompt. */
	editor(title: string, prefill = ""): Promise<string | undefined> {
		const command = process.env.VISUAL || process.env.EDITOR;
		if (!command) {
			return this.run<string>("editor", title, undefined, async (common) => {
				const { multiline } = await import("@clack/prompts");
				return multiline(withMessage(common, { initialValue: prefill }));
			});
		}
		return this.run<string>("editor", title, undefined, async () => externalEditor(command, prefill));
	}
}

/**
 * clack's options with `message` as a getter, read on every render (the countdown). Built with
 * defineProperty: a spread would copy the getter's value once.
 */
function withMessage<T extends object>(common: ClackCommon, rest: T, second?: string): T & { readonly message: string; signal: AbortSignal } {
	const options = { ...rest, signal: common.signal };
	return Object.defineProperty(options, "message", {
		get: () => (second ? `${common.message}\n${second}` : common.message),
		enumerable: true,
	}) as T & { readonly message: string; signal: AbortSignal };
}

/** Edit `prefill` in the user's editor; undefined when it exits non-zero. */
export async function externalEditor(command: string, prefill: string): Promise<string | symbol> {
	const dir = mkdtempSync(join(tmpdir(), "agent-edit-"));
	const file = join(dir, "message.md");
	try {
		writeFileSync(file, prefill);
		const stdin = process.stdin;
		if (stdin.isTTY) stdin.setRawMode(false);
		stdin.pause();
		const proc = Bun.spawn(["sh", "-c", `${command} "$1"`, "sh", file], { stdin: "inherit", stdout: "inherit", stderr: "inherit" });
		const code = await proc.exited;
		if (code !== 0) return Symbol.for("cancel");
		return readFileSync(file, "utf8").replace(/\n$/, "");
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}
