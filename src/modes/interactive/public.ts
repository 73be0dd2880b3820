// The TUI helpers of the framework package (pi 1.6's names), as one module so that tui-exports.ts
// can load them all at once, and only when an extension first uses one of them.
export { BorderedLoader } from "./components/bordered-loader.ts";
export { CustomEditor } from "./components/custom-editor.ts";
export { DynamicBorder } from "./components/dynamic-border.ts";
export { renderDiff, type RenderDiffOptions } from "./components/diff.ts";
export { keyHint, keyText, rawKeyHint } from "./keybindings.ts";
export { getLanguageFromPath } from "./theme/highlight.ts";
export { currentTheme, getEditorTheme, getMarkdownTheme, getSelectListTheme, getSettingsListTheme } from "./theme/styles.ts";
export { Theme } from "./theme/theme.ts";
export { KeybindingsManager } from "@earendil-works/pi-tui/dist/keybindings.js";
import { wrapTextWithAnsi } from "@earendil-works/pi-tui/dist/utils.js";
import { highlightCode as highlightWith } from "./theme/highlight.ts";
import { currentTheme } from "./theme/styles.ts";

/** Code as lines coloured for `lang` with the theme in use (pi 1.6's highlightCode). */
export function highlightCode(code: string, lang?: string): string[] {
	return highlightWith(code, lang, currentTheme());
}

/** `text` wrapped to `width` and cut to `maxVisualLines` rows from the start or the end (pi 1.6's helper). */
export function truncateToVisualLines(text: string, maxVisualLines: number, width: number, paddingX = 0, keep: "start" | "end" = "end"): { visualLines: readonly string[]; skippedCount: number } {
	if (!text) return { visualLines: [], skippedCount: 0 };
	const pad = " ".repeat(paddingX);
	const all = wrapTextWithAnsi(text, Math.max(1, width - paddingX * 2)).map((line) => pad + line);
	if (all.length <= maxVisualLines) return { visualLines: all, skippedCount: 0 };
	return { visualLines: keep === "start" ? all.slice(0, maxVisualLines) : all.slice(-maxVisualLines), skippedCount: all.length - maxVisualLines };
}
