// The interactive app: the TUI and its regions, what Enter does (a built-in command, `!cmd`, or
// host.submit → extension command, input event, prompt), Escape, ctrl+c, ctrl+o, and the orderly
// way out. Rendering lives in the components; the extension UI in ui-bridge.ts. What only a key or
// a command needs (the pickers, the clipboard, the external editor) loads on first use.
import { Text } from "@earendil-works/pi-tui/dist/components/text.js";
import { ProcessTerminal } from "@earendil-works/pi-tui/dist/terminal.js";
import { Screen } from "./screen.ts";
import type { Component, Container, Terminal, TUI } from "@earendil-works/pi-tui";
import { basename } from "node:path";
import { APP_NAME } from "../../config.ts";
import type { AgentSession } from "../../core/agent-session.ts";
import type { ExtensionHost } from "../../core/extensions/host.ts";
import type { SessionManager } from "../../core/session/session-manager.ts";
import type { McpSession } from "../../core/mcp/manager.ts";
import { textOf } from "../../core/agent/messages.ts";
import { ExtensionRenderers } from "../../core/extensions/renderers.ts";
import { endAllProcessGroups } from "../../core/process-groups.ts";
import type { Extension } from "../../core/extensions/types.ts";
import type { ImageContent } from "../../core/providers/types.ts";
import { AppAutocomplete } from "./autocomplete.ts";
import { builtinCommand, builtinNames, commandEntries } from "./commands.ts";
import type { DialogHost } from "./dialogs.ts";
import { EditorBridge } from "./editor-bridge.ts";
import { FooterData, FooterView, type FooterFigures } from "./footer.ts";
import { HeaderView } from "./header.ts";
import { createKeybindings, keyText } from "./keybindings.ts";
import { Layout } from "./layout.ts";
import { startupHeader, startupIssues, startupLines } from "./startup.ts";
import type { StartupIssue } from "./startup-list.ts";
import { currentTheme, onThemeChange } from "./theme/styles.ts";
import { ThemeRegistry } from "./theme/themes.ts";
import { LinesBlock } from "./transcript/block.ts";
import { loadMarkdown } from "./transcript/markdown.ts";
import { Conversation } from "./transcript/conversation.ts";
import { Transcript } from "./transcript/transcript.ts";
import type { ViewContext } from "./transcript/view-context.ts";
import { UiBridge } from "./ui-bridge.ts";
import { suspend } from "./terminal-guard.ts";
import { WorkingIndicator } from "./working.ts";

/**
 * Whether a region draws no line: asked of its components (the header's cache them), not by rendering
 * the region's container a second time in the frame, where pi-tui compares it with the frame's first
 * render and calls Array#every, a builtin compiled on its first call that the first frame makes nowhere else.
 */
function drawsNothing(region: Container, width: number): boolean {
	for (const child of region.children) if (child.render(width).length > 0) return false;
	return true;
}

/** A second ctrl+c within this many ms of the first (on an empty input) exits. */
const DOUBLE_PRESS_MS = 2000;

export interface AppOptions {
	cwd: string;
	/** ctrl+o state at start (`--verbose`). */
	expanded: boolean;
	/** Issues found while starting (discovery warnings, duplicate commands). */
	startupIssues: StartupIssue[];
	/** The extensions loaded at start-up, until the host (which owns them from then on) is bound. */
	extensions: Extension[];
	/** `quietStartup`: only problems in the header. */
	quiet: boolean;
	/** Default: the process's terminal. */
	terminal?: Terminal;
	/** Whether the project folder is trusted (its `.agent/themes` load only then). */
	projectTrusted?: boolean;
	/** Theme files of the run's installed packages (read on first need). */
	packageThemes?: () => string[];
}

export class InteractiveApp implements ViewContext, DialogHost {
	readonly tui: TUI;
	readonly cwd: string;
	readonly keybindings = createKeybindings();
	readonly layout: Layout;
	readonly conversation: Conversation;
	readonly editor: EditorBridge;
	readonly working: WorkingIndicator;
	readonly footerData: FooterData;
	readonly footer: FooterView;
	/** The name and key hints; an extension's setHeader replaces only these. */
	readonly header: HeaderView;
	readonly sections: HeaderView;
	readonly ui: UiBridge;
	readonly themes: ThemeRegistry;
	/** What extensions registered for drawing, over the extensions of the moment. */
	readonly renderers = new ExtensionRenderers(() => this.extensions());
	expanded: boolean;
	hiddenThinkingLabel: string | undefined;
	/** ctrl+t: thinking in full (true) or collapsed (false) regardless of ctrl+o; undefined follows ctrl+o. */
	thinkingShown: boolean | undefined;
	/** What Escape stops while a built-in command works (a branch summary being written). */
	escapeHandler: (() => void) | undefined;
	/** Bound once the session exists (the UI context is needed to create it). */
	host: ExtensionHost | undefined;
	/**
	 * Until the host is bound (the first frame is drawn before): the session file, and the session
	 * when what the frame shows needed it built (a model's context use, a resumed conversation).
	 */
	early: { manager: SessionManager; session: AgentSession | undefined } | undefined;
	/** The session's MCP servers (/mcp); undefined with --no-mcp. */
	mcp: McpSession | undefined;
	/** The start-up list's resource sections need the session's resources. */
	resources: Parameters<typeof startupLines>[0]["resources"];
	private readonly options: AppOptions;
	private lastCtrlC = 0;
	/** A submission in flight (extension command, input event, run) and what was typed meanwhile. */
	private busy: Promise<void> | undefined;
	private waiting: { text: string; followUp: boolean }[] = [];
	/** The running `!cmd`, to stop it with Escape. */
	private bash: AbortController | undefined;
	private exiting = false;
	private finish!: (code: number) => void;
	readonly done: Promise<number>;
	/** Settles once the session is ready for input (index.ts): the host, or undefined when start-up failed. */
	private readonly ready: Promise<ExtensionHost | undefined>;
	private settleReady!: (host: ExtensionHost | undefined) => void;

	constructor(options: AppOptions) {
		this.options = options;
		this.cwd = options.cwd;
		this.expanded = options.expanded;
		this.tui = new Screen(options.terminal ?? new ProcessTerminal());
		this.done = new Promise((resolve) => (this.finish = resolve));
		this.ready = new Promise((resolve) => (this.settleReady = resolve));
		const transcript = new Transcript();
		transcript.atTop = () => drawsNothing(this.layout.header, this.tui.terminal.columns) && drawsNothing(this.layout.sections, this.tui.terminal.columns);
		this.conversation = new Conversation(this, transcript, {
			working: (on) => this.working.setWorking(on),
			queued: (steering, followUp) => this.showQueued(steering, followUp),
			usage: () => this.refreshFooter(),
		});
		this.editor = new EditorBridge({
			tui: this.tui,
			keybindings: this.keybindings,
			slot: () => this.layout.editorSlot,
			submit: (text, followUp) => void this.submit(text, followUp),
			actions: this.actions(),
			extensions: () => this.extensions(),
			editorChanged: () => this.working.editorChanged(),
			runShortcut: (shortcut) => {
				const run = (host: ExtensionHost | undefined) => {
					if (!host) return;
					const ctx = host.createContext();
					void this.guard(async () => {
						try {
							await shortcut.handler(ctx);
						} catch (error) {
							this.error(`Shortcut handler error: ${error instanceof Error ? error.message : String(error)}`);
						}
					});
				};
				if (this.host) run(this.host);
				else void this.ready.then(run);
			},
		});
		this.layout = new Layout(this.tui, transcript, this.editor.defaultEditor);
		this.working = new WorkingIndicator(this.tui, this.layout.working, () => this.layout.editorSlot.editorComponent);
		this.footerData = new FooterData(this.cwd);
		this.footer = new FooterView(this.footerData, () => this.footerFigures());
		// The header is the list's first lines, which never change: the sections alone build the list.
		this.header = new HeaderView(() => startupHeader().slice(0, this.headerLines), this.expanded);
		this.sections = new HeaderView((expanded) => this.startupList(expanded).slice(this.headerLines), this.expanded, this.headerLines);
		Layout.fill(this.layout.header, this.header);
		Layout.fill(this.layout.sections, this.sections);
		Layout.fill(this.layout.footer, this.footer);
		this.ui = new UiBridge(this);
		this.themes = new ThemeRegistry({ cwd: this.cwd, projectTrusted: options.projectTrusted ?? false, ...(options.packageThemes ? { packageThemes: options.packageThemes } : {}) });
		// A new theme recolours everything on the screen, not just what is drawn next.
		onThemeChange(() => {
			this.tui.invalidate();
			this.tui.requestRender(true);
		});
		this.editor.setAutocompleteProvider(new AppAutocomplete(this.cwd, () => commandEntries(this)));
	}

	// ---- ViewContext -----------------------------------------------------------------------------

	extensions(): Extension[] {
		return this.host?.extensions ?? this.options.extensions;
	}

	tool(name: string): unknown {
		return this.session?.getAllTools().find((t) => t.name === name);
	}

	/** The session the screen shows: the host's, or the one built for the first frame before it. */
	private get session(): AgentSession | undefined {
		return this.host?.session ?? this.early?.session;
	}

	/** The session is ready for input (its host bound, its events shown): what waited for it goes on. */
	sessionReady(host: ExtensionHost | undefined): void {
		this.settleReady(host);
	}

	// ---- DialogHost ------------------------------------------------------------------------------

	open(component: Component): () => void {
		return this.layout.editorSlot.open(component);
	}

	toggleToolsExpanded(): void {
		this.setExpanded(!this.expanded);
	}

	async externalEditor(text: string): Promise<string | undefined> {
		return (await import("./external-editor.ts")).editExternally(this.tui, text);
	}

	// ---- output ----------------------------------------------------------------------------------

	/** A status line; back-to-back ones replace each other. */
	info(message: string): void {
		this.conversation.status(message);
	}
	warn(message: string): void {
		this.conversation.notice(message, "warning");
	}
	error(message: string): void {
		this.conversation.notice(message, "error");
	}
	/** Lines under a blank line, with the one-column margin unless `margin` is "" (start-up sections). */
	block(lines: string[], margin?: string): void {
		this.conversation.transcript.addChild(new LinesBlock(lines, margin));
		this.tui.requestRender();
	}
	/** A thrown error as a red line; a run without a model says how to get one. */
	errorOf(error: unknown): void {
		const err = error instanceof Error ? error : new Error(String(error));
		if (err.name === "NoModelError") this.error("No model selected. Pick one with /model (the warning at start-up says how to configure one).");
		else this.error(err.message);
	}

	/** A one-off line above the editor ("Press ctrl+c again to exit"), gone with the next key. */
	hint(text: string | undefined): void {
		Layout.fill(this.layout.queued, text ? new Text(currentTheme().fg("dim", text), 1, 0) : undefined);
		this.tui.requestRender();
	}

	private showQueued(steering: readonly string[], followUp: readonly string[]): void {
		const theme = currentTheme();
		const lines = [...steering.map((t) => `↳ steer: ${t}`), ...followUp.map((t) => `↳ follow-up: ${t}`)];
		Layout.fill(this.layout.queued, lines.length > 0 ? new Text(theme.fg("dim", lines.join("\n")), 1, 0) : undefined);
		this.tui.requestRender();
	}

	/** Statuses, widgets, factories belong to the extensions of the moment; a reload or new session starts clean. */
	resetExtensionUi(): void {
		this.ui.reset();
	}

	/** The transcript becomes the conversation the session holds now (resume, /tree, /fork, /new). */
	showSession(title?: string): void {
		this.conversation.clear();
		if (title) this.info(title);
		const sm = this.session?.session;
		if (sm) this.conversation.replay(sm.getBranch());
		this.refreshFooter();
	}

	/** A resumed session's prompts become the editor's history (↑ brings back the last), as pi's do. */
	seedHistory(): void {
		const sm = this.session?.session;
		if (!sm) return;
		for (const entry of sm.getBranch()) {
			if (entry.type === "message" && entry.message.role === "user") this.editor.addToHistory(textOf(entry.message.content));
		}
	}

	// ---- header and footer -----------------------------------------------------------------------

	/** How many of the start-up list's lines are the header (name and hints): none when quiet. */
	private get headerLines(): number {
		return this.options.quiet && !this.options.expanded ? 0 : 2;
	}

	private startupList(expanded: boolean): string[] {
		const extensions = this.extensions();
		return startupLines({
			extensions,
			issues: startupIssues(extensions, this.options.startupIssues, builtinNames),
			resources: this.host?.resources ?? this.resources,
			expanded,
			quiet: this.options.quiet && !this.options.expanded,
		});
	}

	/** The start-up sections in the current form (/reload, /extensions), without the header lines. */
	startupSections(expanded: boolean): string[] {
		const extensions = this.extensions();
		return startupLines({ extensions, issues: startupIssues(extensions, this.options.startupIssues, builtinNames), resources: this.host?.resources, expanded }).slice(2);
	}

	private footerFigures(): FooterFigures {
		const session = this.session;
		const stats = session?.getSessionStats();
		const usage = session?.getContextUsage();
		const model = session?.model;
		return {
			cwd: this.cwd,
			sessionName: (session?.session ?? this.early?.manager)?.getSessionName(),
			model: model ? `${model.provider}/${model.id}` : undefined,
			thinking: model?.reasoning ? session?.thinkingLevel : undefined,
			tokens: stats?.tokens ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			cost: stats?.cost ?? 0,
			context: usage ? { percent: usage.percent, window: usage.contextWindow } : undefined,
		};
	}

	refreshFooter(): void {
		this.footer.refresh();
		this.footerData.refresh();
		this.tui.requestRender();
	}

	// ---- keys ------------------------------------------------------------------------------------

	private actions(): Record<string, () => void> {
		return {
			"app.interrupt": () => this.interrupt(),
			"app.clear": () => this.clearOrExit(),
			"app.exit": () => void this.exit(0),
			"app.tools.expand": () => this.toggleExpanded(),
			"app.suspend": () => suspend(this),
			"app.thinking.cycle": () => this.cycleThinking(),
			"app.thinking.toggle": () => this.toggleThinking(),
			"app.message.dequeue": () => this.dequeue(),
			"app.message.copy": () => void this.guard(() => builtinCommand("copy")!.run(this, "")),
			"app.clipboard.pasteImage": () => void this.guard(() => this.pasteClipboard()),
			"app.session.new": () => void this.guard(() => builtinCommand("new")!.run(this, "")),
			"app.session.tree": () => void this.guard(() => builtinCommand("tree")!.run(this, "")),
			"app.session.fork": () => void this.guard(() => builtinCommand("fork")!.run(this, "")),
			"app.session.resume": () => void this.guard(() => builtinCommand("resume")!.run(this, "")),
			"app.model.select": () => void this.guard(() => builtinCommand("model")!.run(this, "")),
			"app.model.cycleForward": () => void this.guard(async () => (await import("./model-picker.ts")).cycleModel(this, 1)),
			"app.model.cycleBackward": () => void this.guard(async () => (await import("./model-picker.ts")).cycleModel(this, -1)),
			"app.editor.external": () =>
				void this.guard(async () => {
					const text = await this.externalEditor(this.editor.getText());
					if (text !== undefined) this.editor.setText(text);
				}),
		};
	}

	private clearOrExit(): void {
		if (this.editor.getText()) {
			this.editor.setText("");
			return;
		}
		if (Date.now() - this.lastCtrlC < DOUBLE_PRESS_MS) {
			void this.exit(0);
			return;
		}
		this.lastCtrlC = Date.now();
		this.hint(`Press ${keyText("app.clear")} again to exit`);
		setTimeout(() => {
			if (Date.now() - this.lastCtrlC >= DOUBLE_PRESS_MS) this.hint(undefined);
		}, DOUBLE_PRESS_MS).unref();
	}

	/** Escape: stop what a command is doing (a branch summary), the run, or the `!cmd`. */
	interrupt(): void {
		if (this.escapeHandler) this.escapeHandler();
		else if (this.host?.session.isStreaming) void this.host.session.abort();
		else if (this.bash) this.bash.abort();
	}

	/** ctrl+o: the header, thinking, tool output and summaries all expand or collapse. */
	toggleExpanded(): void {
		this.setExpanded(!this.expanded);
	}

	/** ctrl+t: thinking shown in full or collapsed to its one line, whatever ctrl+o says (until ctrl+o is pressed again). */
	toggleThinking(): void {
		this.thinkingShown = !(this.thinkingShown ?? this.expanded);
		this.tui.invalidate();
		this.info(`Thinking: ${this.thinkingShown ? "shown in full" : "collapsed"}`);
	}

	/** ctrl+v: an image on the clipboard goes in as the path of a temporary file (the model reads it), else its text. */
	private async pasteClipboard(): Promise<void> {
		const { readClipboard, saveClipboardImage } = await import("./clipboard-paste.ts");
		const content = await readClipboard();
		const editor = this.editor.editor;
		if (!content) return this.hint("No clipboard program found (wl-paste, xclip, pngpaste or pbpaste): paste with the terminal instead.");
		if (content.kind === "empty") return this.hint("The clipboard is empty.");
		const inserted = content.kind === "image" ? saveClipboardImage(content.bytes, content.mimeType) : content.text;
		if (editor.insertTextAtCursor) editor.insertTextAtCursor(inserted);
		else this.editor.paste(inserted);
		this.tui.requestRender();
	}

	/** alt+up: the messages waiting for the agent come back into the input, above what is typed there. */
	private dequeue(): void {
		const queued = this.host?.session.clearQueue() ?? { steering: [], followUp: [] };
		const texts = [...queued.steering, ...queued.followUp, ...this.waiting.splice(0).map((w) => w.text)].filter((t) => t.trim());
		if (texts.length === 0) {
			this.hint("No queued messages.");
			return;
		}
		this.editor.setText([...texts, this.editor.getText()].filter((t) => t.trim()).join("\n\n"));
		this.hint(`${texts.length === 1 ? "1 queued message" : `${texts.length} queued messages`} back in the input.`);
	}

	setExpanded(expanded: boolean): void {
		if (expanded === this.expanded) return;
		this.expanded = expanded;
		this.thinkingShown = undefined;
		this.header.setExpanded(expanded);
		this.sections.setExpanded(expanded);
		this.conversation.transcript.setExpanded(expanded);
		this.info(`Tool output: ${expanded ? "expanded" : "collapsed"}`);
	}

	private cycleThinking(): void {
		const host = this.host;
		if (!host) return void this.ready.then((h) => h && this.cycleThinking());
		// Only the levels this model has ("xhigh" and "max" where it maps them).
		const next = host.session.nextThinkingLevel();
		if (next) host.setThinkingLevel(next);
		const level = host.session.thinkingLevel;
		this.hint(`Thinking level: ${level}${next ? "" : host.session.model ? " (this model does not think)" : " (no model selected)"}`);
		this.refreshFooter();
	}

	// ---- input -----------------------------------------------------------------------------------

	/** Run `fn`, showing a failure as a red line. */
	async guard(fn: () => Promise<void> | void): Promise<void> {
		try {
			await fn();
		} catch (error) {
			this.errorOf(error);
		}
		this.refreshFooter();
	}

	async submit(text: string, followUp = false, images?: ImageContent[]): Promise<void> {
		this.hint(undefined);
		const trimmed = text.trim();
		if (!trimmed) return;
		// Typed before the session was ready: it runs once it is, in the order it was typed.
		if (!this.host && !(await this.ready)) return;
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
				const result = await host.submit(text, { source: "interactive", streamingBehavior: followUp ? "followUp" : "steer" });
				if (result.kind === "error") this.error(result.message);
			});
		}
		if (this.busy) {
			this.waiting.push({ text, followUp });
			return;
		}
		this.busy = this.guard(async () => {
			const result = await host.submit(text, { source: "interactive", images });
			if (result.kind === "error") this.error(result.message);
		});
		await this.busy;
		this.busy = undefined;
		if (!host.session.isStreaming) this.working.setWorking(false);
		const next = this.waiting.shift();
		if (next) await this.submit(next.text, next.followUp);
	}

	private async runBash(text: string): Promise<void> {
		const host = this.host;
		if (!host) return;
		const exclude = text.startsWith("!!");
		const command = text.slice(exclude ? 2 : 1).trim();
		if (!command) return;
		if (this.bash) return this.error("A command is already running; press Escape to stop it.");
		const view = this.conversation.bash(command, exclude);
		const controller = new AbortController();
		this.bash = controller;
		try {
			const message = await host.runUserBash(command, { excludeFromContext: exclude, signal: controller.signal, onOutput: (output) => view.output(output) });
			view.finish(message);
		} catch (error) {
			this.errorOf(error);
		} finally {
			this.bash = undefined;
			// The command may have switched branches (`!git checkout …`): the footer reads it again.
			this.refreshFooter();
		}
	}

	// ---- start and the way out -------------------------------------------------------------------

	start(): void {
		this.tui.start();
		// The window's title names the folder, as pi's does; extensions may change it (setTitle).
		this.tui.terminal.setTitle(`${APP_NAME} - ${basename(this.cwd)}`);
		this.layout.editorSlot.focus();
		// The first frame now, not on a timer after the extensions' session_start handlers.
		this.tui.renderNow();
		// Then what an empty screen does not need: text drawn before it came is drawn again.
		void loadMarkdown(() => {
			this.tui.invalidate();
			this.tui.requestRender();
		});
	}

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
		// Commands still running (the bash tool, a `!cmd`) end with the agent.
		endAllProcessGroups();
		this.bash?.abort();
		try {
			// Before the session is ready (ctrl+d right after the first frame): its host is shut down once it is.
			const host = this.host ?? (await this.ready);
			if (host?.session.isStreaming) await host.session.abort();
			await host?.shutdown();
		} catch (error) {
			this.errorOf(error);
		} finally {
			this.working.reset();
			this.hint(undefined);
			try {
				this.tui.requestRender();
				this.tui.renderNow?.();
				// What the terminal still owes (its answers to pi-tui's start-up queries, keys typed meanwhile) is
				// read and dropped before the terminal is handed back, as pi does: the shell would get it as typed text.
				await this.tui.terminal.drainInput(1000);
				this.tui.stop();
			} finally {
				this.finish(code);
			}
		}
	}
}
