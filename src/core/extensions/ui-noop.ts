// ctx.ui where there is no one to ask (print and json modes): dialogs resolve to their defaults
// at once, everything else does nothing (SPEC §7).
import type { ExtensionUIContext, Theme } from "./types.ts";

const same = (text: string) => text;

/** A theme that colours nothing (no TUI, no terminal to colour). */
export const plainTheme: Theme = {
	name: "plain",
	fg: (_color, text) => text,
	bg: (_color, text) => text,
	style: same,
	bold: same,
	dim: same,
	italic: same,
	underline: same,
	inverse: same,
	strikethrough: same,
	getFgAnsi: () => "",
	getBgAnsi: () => "",
	getColorMode: () => "none",
	getThinkingBorderColor: () => same,
	getBashModeBorderColor: () => same,
};

/**
 * Print and json modes: like the no-op UI, but `notify` writes one line to stderr, prefixed with
 * its type (`Info: `, `Warning: `, `Error: `), so `agent -p /cmd` shows what the command said.
 */
export function createStderrUI(write: (text: string) => void): ExtensionUIContext {
	const prefix = { info: "Info: ", warning: "Warning: ", error: "Error: " } as const;
	return { ...createNoopUI(), notify: (message, type = "info") => write(`${prefix[type] ?? prefix.info}${message}\n`) };
}

export function createNoopUI(): ExtensionUIContext {
	return {
		select: async () => undefined,
		confirm: async () => false,
		input: async () => undefined,
		editor: async () => undefined,
		notify() {},
		onTerminalInput: () => () => {},
		setStatus() {},
		setWorkingMessage() {},
		setWorkingVisible() {},
		setWorkingIndicator() {},
		setHiddenThinkingLabel() {},
		setWidget() {},
		setFooter() {},
		setHeader() {},
		setTitle() {},
		// pi types custom() as Promise<T>; with no one to show it to, it resolves to undefined.
		custom: async () => undefined as never,
		pasteToEditor() {},
		setEditorText() {},
		getEditorText: () => "",
		addAutocompleteProvider() {},
		setEditorComponent() {},
		getEditorComponent: () => undefined,
		theme: plainTheme,
		getAllThemes: () => [],
		getTheme: () => undefined,
		setTheme: () => ({ success: false, error: "UI not available" }),
		getToolsExpanded: () => false,
		setToolsExpanded() {},
	};
}
