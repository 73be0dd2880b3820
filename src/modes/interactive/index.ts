// Interactive mode: create the app, then the session with this mode's UI; the first frame is drawn
// once the session file and model are chosen, before the tools, MCP and extensions are built and get
// session_start (their dialogs need a screen). It starts without a model, saying how to configure one,
// and ends with the terminal as it was and a line saying how to resume.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { createAgentSession, type CreateAgentSessionOptions } from "../../core/sdk.ts";
import { NO_MODEL_CONFIGURED, noModelMessage } from "../../core/providers/model-resolver.ts";
import type { ExtensionErrorReport } from "../../core/extensions/runner.ts";
import { installedPackageFiles } from "../../core/packages/configured.ts";
import type { ImageContent } from "../../core/providers/types.ts";
import { peekSettingsFile, projectSettingsPath, userSettingsPath, type RunSettings } from "../../core/resources/settings.ts";
import { endStartup } from "../../core/jit-policy.ts";
import { mark } from "../../core/timing.ts";
import { APP_NAME } from "../../config.ts";
import { writeStdout } from "../../stdio.ts";
import { InteractiveApp } from "./app.ts";
import type { StartupIssue } from "./startup-list.ts";
import { applyUserKeybindings } from "./keybindings.ts";
import { guardTerminal } from "./terminal-guard.ts";
import { holdTmuxHyperlinks } from "./tmux-hyperlinks.ts";
import { loadMarkdown } from "./transcript/markdown.ts";
import { readThemeSetting, ThemeRegistry, type ThemeSources } from "./theme/themes.ts";
import { createUiContext } from "./ui-bridge.ts";

export interface InteractiveModeOptions {
	/** What createAgentSession needs, except what this mode supplies (mode, ui, error sink, shutdown). */
	session: CreateAgentSessionOptions;
	/** Issues found while loading extensions (discovery warnings, duplicate commands). */
	issues?: StartupIssue[];
	/** `--verbose`: the start-up list starts expanded and is shown even with quietStartup. */
	verbose?: boolean;
	/** Messages from the command line (the first with @file text), sent once the prompt is ready. */
	prompts?: string[];
	/** Images from @file arguments, attached to the first prompt. */
	images?: ImageContent[];
	/** `--resume`: pick a session first. */
	resume?: boolean;
}

/**
 * The settings files the app reads before the session (quietStartup, the theme, packages' themes),
 * read once; the project's only when trusted. An unreadable file counts as absent here: the session's
 * own read reports it.
 */
function appSettings(cwd: string, projectTrusted: boolean): RunSettings {
	return { user: peekSettingsFile(userSettingsPath()), project: projectTrusted ? peekSettingsFile(projectSettingsPath(cwd)) : undefined };
}

/** `quietStartup` from settings (project over user). */
function quietStartup(settings: RunSettings): boolean {
	return (settings.project?.data.quietStartup ?? settings.user?.data.quietStartup) === true;
}

function reportExtensionError(app: InteractiveApp, report: ExtensionErrorReport): void {
	if (report.event === "load") return app.error(report.error);
	const stack = (report.stack ?? "").split("\n").slice(1, 4).map((l) => `  ${l.trim()}`);
	app.conversation.notice([`Extension "${report.extensionPath}" error: ${report.error}`, ...stack].join("\n"), "plain");
}

/** Extensions print with console.*: their lines join the transcript instead of tearing the screen. */
function captureConsole(app: InteractiveApp): () => void {
	const saved = { log: console.log, info: console.info, warn: console.warn, error: console.error, debug: console.debug };
	// node:util's format is loaded on the first print: binding it at import costs a few ms of start-up.
	const print = (...args: unknown[]) => app.block((require("node:util") as typeof import("node:util")).format(...args).split("\n"));
	Object.assign(console, { log: print, info: print, warn: print, error: print, debug: print });
	return () => Object.assign(console, saved);
}

/** The `theme` setting applied before the first frame; problems with theme files come back as warnings. */
function applyThemeSetting(app: InteractiveApp, sources: ThemeSources, settings: RunSettings): string[] {
	const name = readThemeSetting(settings);
	// Theme folders are read only when there are any (or a setting names a theme that is not built in).
	if (!ThemeRegistry.hasFiles(sources) && (!name || name === "dark")) return [];
	const failed = app.themes.applySetting(name);
	return failed ? [...app.themes.issues.filter((i) => !failed.startsWith(i)), failed] : [...app.themes.issues];
}

export async function runInteractiveMode(options: InteractiveModeOptions): Promise<number> {
	const cwd = resolve(options.session.cwd ?? process.cwd());
	const extensions = options.session.extensions?.loaded?.extensions ?? [];
	const projectTrusted = options.session.extensions?.projectTrusted ?? false;
	const settings = appSettings(cwd, projectTrusted);
	let packageThemes: string[] | undefined;
	const themeSources: ThemeSources = { cwd, projectTrusted, packageThemes: () => (packageThemes ??= installedPackageFiles("themes", cwd, projectTrusted, options.session.packageSources, settings)) };
	const app = new InteractiveApp({
		cwd,
		expanded: options.verbose ?? false,
		startupIssues: options.issues ?? [],
		extensions,
		quiet: !options.verbose && quietStartup(settings),
		projectTrusted,
		packageThemes: themeSources.packageThemes,
	});
	const themeWarnings = [...applyThemeSetting(app, themeSources, settings), ...applyUserKeybindings(app.keybindings)];
	mark("create app");
	const restoreConsole = captureConsole(app);
	const guard = guardTerminal(app);
	// Its handlers are where Bun builds process.stdin and process.stdout (tty streams and their modules).
	mark("terminal streams");
	// Under tmux, links wait for tmux's answer; a screen already drawn is drawn again if they turn on.
	let drawn = false;
	const redrawWithLinks = () => {
		if (!drawn) return;
		app.tui.invalidate();
		app.tui.requestRender(true);
	};
	try {
		const { session } = await createAgentSession({
			...options.session,
			cwd,
			mode: "tui",
			ui: createUiContext(app, app.ui),
			hasUI: true,
			allowNoModel: true,
			onExtensionError: (report) => reportExtensionError(app, report),
			onShutdown: () => app.requestShutdown(),
			// A server that fails or stops is one warning line in the transcript.
			onMcpNotice: (message) => app.warn(message),
			// The first frame as soon as what it shows is known: the tools, the session, MCP and the
			// extension host are built after it, in the same start-up (a key typed meanwhile waits for them).
			onSessionChosen: async ({ sessionManager, model, hasMessages, warnings, resources, registry, session: build }) => {
				app.resources = resources;
				// The footer's context use (a model's) and a resumed conversation (its tools draw their calls) need the session.
				const early = model || hasMessages ? build() : undefined;
				app.early = { manager: sessionManager, session: early };
				// A resumed session shows where it was (its Markdown is drawn from the first frame); the warnings come after it.
				const resumed = (early?.messages.length ?? 0) > 0;
				const askTmux = holdTmuxHyperlinks();
				if (resumed) {
					await Promise.all([loadMarkdown(), askTmux?.(redrawWithLinks)]);
					app.showSession();
					app.seedHistory();
				}
				// The no-model warning comes with how to configure one.
				for (const w of warnings) app.conversation.notice(w === NO_MODEL_CONFIGURED && !model ? noModelMessage(registry) : w, "warning");
				if (!model && !warnings.includes(NO_MODEL_CONFIGURED)) app.info("Pick a model with /model.");
				for (const w of themeWarnings) app.warn(w);
				mark("interactive ready");
				app.start();
				drawn = true;
				mark("first frame");
				// A new session's first frame holds no link: tmux is asked once it is out.
				if (!resumed) void askTmux?.(redrawWithLinks);
			},
			onSessionCreated: (_s, { host, mcp }) => {
				app.host = host;
				app.mcp = mcp;
				app.early = undefined;
				// Start-up code runs once and is not worth compiling (core/jit-policy.ts); from here on
				// the UI repeats its work (keys, frames, streamed answers): the normal JIT policy.
				endStartup();
			},
		});
		session.session.setWriteErrorHandler((error) => app.warn(error.message));
		session.setLoadWarningHandler((w) => app.warn(w.message));
		session.subscribe((event) => app.conversation.handle(event));
		// However the session was replaced (/new, /resume, /fork, an extension's ctx.newSession), the
		// screen shows the new one, and the old extensions' statuses and widgets go before the new ones start.
		session.onReplaced(() => {
			app.resetExtensionUi();
			app.showSession();
		});
		app.refreshFooter();
		app.sessionReady(app.host);

		const [first, ...rest] = options.prompts ?? [];
		void (async () => {
			if (options.resume) await app.submit("/resume");
			if (first) await app.submit(first, false, options.images);
			for (const p of rest) await app.submit(p);
		})();
		const code = await app.done;
		guard.release();
		restoreConsole();
		const sm = session.session;
		const file = sm.getSessionFile();
		if (file && existsSync(file)) writeStdout(`\nTo resume this session: ${APP_NAME} --session ${sm.getSessionId()}\n`);
		return code;
	} catch (error) {
		app.sessionReady(undefined);
		guard.release();
		restoreConsole();
		await app.exit(1);
		throw error;
	}
}
