// ctx.ui in the line-based REPL (SPEC §7): clack dialogs, coloured notify lines, a status line and
// string widgets around the input, the terminal title, the input text. What needs a full-screen
// TUI (custom, setFooter, setHeader, setEditorComponent) returns undefined and says so once.
import pc from "picocolors";
import type { Extension, ExtensionUIContext, Theme } from "../../core/extensions/types.ts";
import { SPINNER_FRAMES, type Repl } from "./repl.ts";
import { terminalTheme } from "./theme.ts";

const MARGIN = " ";

/** The extension whose code is calling, found on the stack (jiti keeps the file names). */
function callerOf(extensions: Extension[]): Extension | undefined {
	const stack = new Error().stack ?? "";
	return extensions.find((e) => stack.includes(e.resolvedPath));
}

export function createInteractiveUI(repl: Repl): ExtensionUIContext {
	const noticed = new Set<string>();
	const unavailable = (method: string) => {
		const ext = callerOf(repl.extensions());
		const key = `${ext?.path ?? "?"}:${method}`;
		if (noticed.has(key)) return;
		noticed.add(key);
		const who = ext ? ` (${ext.path})` : "";
		repl.renderer.block([pc.dim(`${MARGIN}ctx.ui.${method}() needs a full-screen UI, which this terminal mode does not have${who}; it did nothing.`)]);
	};
	const widgetLines = (content: unknown): string[] | undefined => (Array.isArray(content) ? content.map(String) : undefined);

	return {
		select: (title, options, opts) => repl.dialogs.select(title, options, opts),
		confirm: (title, message, opts) => repl.dialogs.confirm(title, message, opts),
		input: (title, placeholder, opts) => repl.dialogs.input(title, placeholder, opts),
		editor: (title, prefill) => repl.dialogs.editor(title, prefill),
		notify(message, type = "info") {
			const lines = String(message).split("\n");
			if (type === "error") repl.renderer.block(lines.map((l, i) => pc.red(`${MARGIN}${i === 0 ? "Error: " : ""}${l}`)));
			else if (type === "warning") repl.renderer.block(lines.map((l, i) => pc.yellow(`${MARGIN}${i === 0 ? "Warning: " : ""}${l}`)));
			else repl.renderer.block(lines.map((l) => pc.dim(MARGIN + l)));
		},
		onTerminalInput(handler) {
			repl.inputHandlers.add(handler);
			return () => void repl.inputHandlers.delete(handler);
		},
		setStatus(key, text) {
			if (text === undefined || text === "") repl.statuses.delete(key);
			else repl.statuses.set(key, text);
			repl.redraw();
		},
		setWorkingMessage(message) {
			repl.workingMessage = message;
			repl.redraw();
		},
		setWorkingVisible(visible) {
			repl.workingVisible = visible;
			repl.redraw();
		},
		setWorkingIndicator(options) {
			if (options?.frames?.length) repl.spinnerFrames = options.frames;
			else if (!options) repl.spinnerFrames = SPINNER_FRAMES;
			if (options?.intervalMs && options.intervalMs > 0) repl.spinnerIntervalMs = options.intervalMs;
		},
		setHiddenThinkingLabel(label) {
			repl.hiddenThinkingLabel = label;
		},
		setWidget(key, content, options) {
			if (content === undefined) repl.widgets.delete(key);
			else {
				const lines = widgetLines(content);
				if (!lines) return unavailable("setWidget(factory)");
				repl.widgets.set(key, { lines, placement: options?.placement ?? "aboveEditor" });
			}
			repl.redraw();
		},
		setFooter: () => unavailable("setFooter"),
		setHeader: () => unavailable("setHeader"),
		setTitle(title) {
			repl.terminal.raw(`\x1b]0;${title.replace(/[\x00-\x1f]/g, "")}\x07`);
		},
		custom: async () => {
			unavailable("custom");
			return undefined;
		},
		pasteToEditor(text) {
			repl.editor.insert(text);
			repl.redraw();
		},
		setEditorText(text) {
			repl.editor.setText(text);
			repl.completion.update(text);
			repl.redraw();
		},
		getEditorText: () => repl.editor.text,
		addAutocompleteProvider() {},
		setEditorComponent: () => unavailable("setEditorComponent"),
		getEditorComponent: () => undefined,
		get theme(): Theme {
			return terminalTheme;
		},
		getAllThemes: () => [terminalTheme],
		getTheme: (name) => (name === terminalTheme.name ? terminalTheme : undefined),
		setTheme: () => ({ success: false, error: "Themes are not supported in the line-based terminal UI" }),
		getToolsExpanded: () => repl.expanded,
		setToolsExpanded(expanded) {
			repl.expanded = expanded;
		},
	};
}
