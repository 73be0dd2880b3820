// The REPL's state and its live region: the input line with completions, status and widgets, the
// spinner; what Enter does (a built-in command, `!cmd`, or host.submit → extension command, input
// event, prompt); and the orderly way out. Keys are dispatched in keymap.ts.
import pc from "picocolors";
import type { ExtensionHost } from "../../core/extensions/host.ts";
import type { Extension, WidgetPlacement } from "../../core/extensions/types.ts";
import type { ImageContent } from "../../core/providers/types.ts";
import { builtinCommand, builtinEntries, builtinNames } from "./commands.ts";
import { CommandCompletion, SCOPE_MARKERS, type CommandEntry } from "./completion.ts";
import { Dialogs } from "./dialogs.ts";
import { LineEditor } from "./editor.ts";
import { ConversationRenderer, type RenderSurface } from "./renderer.ts";
import { startupIssues, startupLines } from "./startup.ts";
import type { StartupIssue } from "./startup-list.ts";
import type { LiveFrame, Terminal } from "./terminal.ts";

export const SPINNER_FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const MARGIN = " ";
const PROMPT = "› ";

export interface ReplOptions {
	terminal: Terminal;
	cwd: string;
	/** ctrl+o state at start (`--verbose`). */
	expanded: boolean;
	/** Context files as labelled in `[Context]`. */
	context: string[];
	/** Issues found while starting (discovery warnings, duplicate commands). */
	startupIssues: StartupIssue[];
	/** The extensions loaded at start-up, until the host (which owns them from then on) is bound. */
	extensions: Extension[];
}

export class Repl implements RenderSurface {
	readonly terminal: Terminal;
	readonly cwd: string;
	readonly editor = new LineEditor();
	readonly dialogs: Dialogs;
	readonly renderer: ConversationRenderer;
	readonly completion: CommandCompletion;
	readonly statuses = new Map<string, string>();
	readonly widgets = new Map<string, { lines: string[]; placement: WidgetPlacement }>();
	/** ctx.ui.onTerminalInput handlers: raw input first; returning true consumes it. */
	readonly inputHandlers = new Set<(data: string) => boolean | void>();
	expanded: boolean;
	hiddenThinkingLabel: string | undefined;
	workingMessage: string | undefined;
	workingVisible = true;
	spinnerFrames = SPINNER_FRAMES;
	spinnerIntervalMs = 80;
	/** Bound once the session exists (the UI context is needed to create it). */
	host: ExtensionHost | undefined;
	private readonly options: ReplOptions;
	/** A one-off line over the input ("Press ctrl+c again to exit"), cleared by the next key. */
	hint: string | undefined;
	private spinner: ReturnType<typeof setInterval> | undefined;
	private spinnerIndex = 0;
	/** A submission in flight (extension command, input event, run) and what was typed meanwhile. */
	private busy: Promise<void> | undefined;
	private waiting: { text: string; behavior: "steer" | "followUp" }[] = [];
	/** The running `!cmd`: its abort and the tail of its output. */
	bash: { controller: AbortController; tail: string[] } | undefined;
	private exiting = false;
	private finish!: (code: number) => void;
	readonly done: Promise<number>;

	constructor(options: ReplOptions) {
		this.options = options;
		this.terminal = options.terminal;
		this.cwd = options.cwd;
		this.expanded = options.expanded;
		this.renderer = new ConversationRenderer(this);
		this.completion = new CommandCompletion(
			() => this.commandEntries(),
			() => this.redraw(),
		);
		// ui_prompt_start / ui_prompt_end come from the host, which wraps every mode's ctx.ui.
		this.dialogs = new Dialogs(this.terminal, { start() {}, end() {} });
		this.done = new Promise((resolve) => (this.finish = resolve));
		this.terminal.setFrame(() => this.frame());
	}

	// ---- RenderSurface ---------------------------------------------------------------------------

	get columns(): number {
		return this.terminal.columns;
	}
	get hasOutput(): boolean {
		return this.terminal.hasOutput;
	}
	extensions(): Extension[] {
		return this.host?.extensions ?? this.options.extensions;
	}
	tool(name: string): unknown {
		return this.host?.session.getAllTools().find((t) => t.name === name);
	}
	print(lines: string[]): void {
		this.terminal.print(lines);
	}
	redraw(): void {
		this.terminal.redraw();
	}
	setWorking(working: boolean): void {
		clearInterval(this.spinner);
		this.spinner = working ? setInterval(() => this.tick(), this.spinnerIntervalMs) : undefined;
		this.redraw();
	}
	private tick(): void {
		this.spinnerIndex++;
		this.redraw();
	}

	// ---- output helpers --------------------------------------------------------------------------

	info(message: string): void {
		this.renderer.block(message.split("\n").map((l) => pc.dim(MARGIN + l)));
	}
	warn(message: string): void {
		this.renderer.block([pc.yellow(`${MARGIN}Warning: ${message}`)]);
	}
	error(message: string): void {
		this.renderer.block([pc.red(`${MARGIN}Error: ${message}`)]);
	}
	/** A thrown error as a red line; a run without a model says how to get one. */
	errorOf(error: unknown): void {
		const err = error instanceof Error ? error : new Error(String(error));
		if (err.name === "NoModelError") this.error("No model selected. Pick one with /model (the warning at start-up says how to configure one).");
		else this.error(err.message);
	}

	/** Statuses and widgets belong to the extensions of the moment; a reload or new session starts clean. */
	resetExtensionUi(): void {
		this.statuses.clear();
		this.widgets.clear();
		this.inputHandlers.clear();
		this.workingMessage = undefined;
		this.workingVisible = true;
		this.hiddenThinkingLabel = undefined;
		this.spinnerFrames = SPINNER_FRAMES;
	}

	/** The start-up sections in the current form (ctrl+o, /extensions), without the header. */
	startupSections(expanded: boolean): string[] {
		const extensions = this.extensions();
		const lines = startupLines({
			extensions,
			issues: startupIssues(extensions, this.options.startupIssues, builtinNames),
			context: this.options.context,
			expanded,
		});
		return lines.slice(2);
	}

	// ---- the live region -------------------------------------------------------------------------

	private frame(): LiveFrame {
		const spin = this.spinnerFrames[this.spinnerIndex % Math.max(1, this.spinnerFrames.length)] ?? "";
		const lines = ["", ...this.renderer.liveLines(spin, this.workingMessage, this.workingVisible)];
		if (this.bash) lines.push(...this.bash.tail.map((l) => pc.dim(`${MARGIN}  ${l}`)));
		for (const w of this.widgets.values()) if (w.placement === "aboveEditor") lines.push(...w.lines);
		if (this.statuses.size > 0) lines.push(pc.dim([...this.statuses.values()].join("  ")));
		if (this.hint) lines.push(pc.dim(this.hint));
		const editorAt = lines.length;
		const text = this.editor.text;
		lines.push(...text.split("\n").map((l, i) => (i === 0 ? pc.dim(PROMPT) : "  ") + l));
		const before = text.slice(0, this.editor.cursor);
		const row = before.split("\n").length - 1;
		const column = PROMPT.length + Bun.stringWidth(before.slice(before.lastIndexOf("\n") + 1));
		for (const w of this.widgets.values()) if (w.placement === "belowEditor") lines.push(...w.lines);
		lines.push(...this.completion.lines(this.columns));
		return { lines, cursor: { line: editorAt + row, column } };
	}

	// ---- commands and completion -----------------------------------------------------------------

	private commandEntries(): CommandEntry[] {
		const extension = (this.host?.resolvedCommands() ?? [])
			.filter((c) => !builtinNames.has(c.invocationName))
			.map((c) => ({ name: c.invocationName, description: c.description, marker: SCOPE_MARKERS[c.sourceInfo.scope], getArgumentCompletions: c.getArgumentCompletions }));
		return [...builtinEntries(), ...extension];
	}

	/** Enter (or Alt+Enter: a follow-up while streaming). */
	enter(followUp: boolean): void {
		if (!followUp && this.completion.isOpen) {
			const typed = this.editor.text;
			const accepted = this.completion.accept(true);
			// A command name is taken from the menu only when what was typed is its beginning.
			if (accepted !== undefined && (!accepted.startsWith("/") || typed.includes(" ") || accepted.startsWith(typed))) this.editor.setText(accepted);
		}
		this.completion.close();
		const text = this.editor.take();
		void this.submit(text, followUp ? "followUp" : "steer");
	}

	/** Run `fn`, showing a failure as a red line. */
	async guard(fn: () => Promise<void> | void): Promise<void> {
		try {
			await fn();
		} catch (error) {
			this.errorOf(error);
		}
		this.redraw();
	}

	async submit(text: string, behavior: "steer" | "followUp" = "steer", images?: ImageContent[]): Promise<void> {
		const trimmed = text.trim();
		if (!trimmed) return;
		if (trimmed.startsWith("!")) return this.runBash(trimmed);
		if (trimmed.startsWith("/")) {
			const space = trimmed.indexOf(" ");
			const command = builtinCommand(space < 0 ? trimmed.slice(1) : trimmed.slice(1, space));
			if (command) return this.guard(() => command.run(this, space < 0 ? "" : trimmed.slice(space + 1).trim()));
		}
		const host = this.host;
		if (!host) return;
		if (host.session.isStreaming) {
			return this.guard(async () => {
				const result = await host.submit(text, { source: "interactive", streamingBehavior: behavior });
				if (result.kind === "error") this.error(result.message);
			});
		}
		if (this.busy) {
			this.waiting.push({ text, behavior });
			return;
		}
		this.busy = this.guard(async () => {
			const result = await host.submit(text, { source: "interactive", images });
			if (result.kind === "error") this.error(result.message);
		});
		await this.busy;
		this.busy = undefined;
		if (!host.session.isStreaming) this.renderer.settle();
		const next = this.waiting.shift();
		if (next) await this.submit(next.text, next.behavior);
	}

	private async runBash(text: string): Promise<void> {
		const host = this.host;
		if (!host) return;
		const exclude = text.startsWith("!!");
		const command = text.slice(exclude ? 2 : 1).trim();
		if (!command) return;
		if (this.bash) return this.error("A command is already running; press Escape to stop it.");
		this.renderer.block([`${MARGIN}${pc.bold("$")} ${command}${exclude ? pc.dim("  (kept out of the model's context)") : ""}`]);
		const bash = { controller: new AbortController(), tail: [] as string[] };
		this.bash = bash;
		try {
			const message = await host.runUserBash(command, {
				excludeFromContext: exclude,
				signal: bash.controller.signal,
				onOutput: (output) => {
					bash.tail = output.replace(/\n$/, "").split("\n").slice(-5);
					this.redraw();
				},
			});
			this.bash = undefined;
			const lines = message.output.replace(/\n$/, "").split("\n");
			const shown = this.expanded || lines.length <= 20 ? lines : lines.slice(-20);
			const out = message.output === "" ? [] : shown.map((l) => `${MARGIN}  ${l}`);
			if (shown.length < lines.length) out.unshift(pc.dim(`${MARGIN}  … ${lines.length - shown.length} earlier lines (ctrl+o to show all)`));
			if (message.cancelled) out.push(pc.yellow(`${MARGIN}  Cancelled.`));
			else if (message.exitCode !== 0) out.push(pc.red(`${MARGIN}  exit code ${message.exitCode ?? "unknown"}`));
			if (message.truncated && message.fullOutputPath) out.push(pc.dim(`${MARGIN}  Full output: ${message.fullOutputPath}`));
			this.print(out);
		} catch (error) {
			this.bash = undefined;
			this.errorOf(error);
		}
	}

	/** Escape: close the menu, or stop the run, or stop the `!cmd`. */
	interrupt(): void {
		if (this.completion.isOpen) this.completion.close();
		else if (this.host?.session.isStreaming) void this.host.session.abort();
		else if (this.bash) this.bash.controller.abort();
		this.redraw();
	}

	/** ctrl+o: flip expanded and reprint the last collapsed thing (or the start-up list). */
	toggleExpanded(): void {
		this.expanded = !this.expanded;
		if (this.expanded && this.renderer.expandLast()) return;
		this.print(this.startupSections(this.expanded));
	}

	// ---- the way out -----------------------------------------------------------------------------

	/** ctx.shutdown(): leave once the current work is done. */
	requestShutdown(): void {
		void (async () => {
			await this.busy;
			await this.host?.session.waitForIdle();
			await this.exit(0);
		})();
	}

	async exit(code: number): Promise<void> {
		if (this.exiting) return;
		this.exiting = true;
		clearInterval(this.spinner);
		this.bash?.controller.abort();
		try {
			if (this.host?.session.isStreaming) await this.host.session.abort();
			await this.host?.shutdown();
		} catch (error) {
			this.errorOf(error);
		} finally {
			try {
				this.terminal.stop();
			} finally {
				this.finish(code);
			}
		}
	}
}
