// Built-ins that show or hand out what is there: /hotkeys (every key, extension shortcuts too),
// /copy (the last answer to the clipboard) and /export (the session as an HTML page, through the
// core exporter that rpc and `agent --export` use).
import { getKeybindings } from "@earendil-works/pi-tui/dist/keybindings.js";
import { tildify } from "../../config.ts";
import type { AssistantMessage } from "../../core/providers/types.ts";
import type { InteractiveApp } from "./app.ts";
import { copyToClipboard } from "./clipboard.ts";
import type { BuiltinCommand } from "./commands.ts";
import { APP_KEYBINDINGS } from "./keybindings.ts";
import { normalizeKeyId, resolveShortcuts } from "./shortcuts.ts";
import { currentTheme } from "./theme/styles.ts";

/** The editing keys worth listing (pi-tui's, minus the alt-screen viewer the main screen has no use for). */
const EDITOR_ACTIONS = [
	"tui.input.submit", "tui.input.newLine", "tui.input.tab", "tui.editor.cursorWordLeft", "tui.editor.cursorWordRight",
	"tui.editor.cursorLineStart", "tui.editor.cursorLineEnd", "tui.editor.deleteWordBackward", "tui.editor.deleteWordForward",
	"tui.editor.deleteToLineStart", "tui.editor.deleteToLineEnd", "tui.editor.yank", "tui.editor.yankPop", "tui.editor.undo",
	"tui.editor.jumpForward", "tui.editor.jumpBackward", "tui.editor.pageUp", "tui.editor.pageDown",
];

/** Scope markers of SPEC §9. */
const MARKERS: Record<string, string> = { project: "p", user: "u", temporary: "t" };

function hotkeys(app: InteractiveApp): void {
	const kb = getKeybindings();
	const theme = currentTheme();
	const rows = (ids: string[]) =>
		ids.flatMap((id) => {
			const keys = kb.getKeys(id as never);
			if (keys.length === 0) return [];
			return [[keys.join(", "), kb.getDefinition(id as never)?.description ?? id] as [string, string]];
		});
	const sections: [string, [string, string][]][] = [
		["App", rows(Object.keys(APP_KEYBINDINGS))],
		["Editor", rows(EDITOR_ACTIONS)],
	];
	const byPath = new Map(app.extensions().map((e) => [e.path, e]));
	const shortcuts = [...resolveShortcuts(app.extensions()).byKey.entries()].map(([key, s]) => {
		const ext = byPath.get(s.extensionPath);
		const marker = ext ? `[${MARKERS[ext.sourceInfo.scope] ?? "t"}] ` : "";
		const file = s.extensionPath.split("/").at(-1) === "index.ts" ? s.extensionPath.split("/").at(-2) : s.extensionPath.split("/").at(-1);
		return [normalizeKeyId(key), `${marker}${s.description ?? "(no description)"} ${theme.fg("dim", `(${file})`)}`] as [string, string];
	});
	if (shortcuts.length > 0) sections.push(["Extension shortcuts", shortcuts]);
	const width = Math.max(...sections.flatMap(([, r]) => r.map(([k]) => k.length))) + 2;
	const lines = [theme.bold("Keyboard shortcuts")];
	for (const [title, list] of sections) {
		lines.push("", theme.fg("accent", title));
		for (const [key, what] of list) lines.push(`  ${key.padEnd(width)}${theme.fg("muted", what)}`);
	}
	app.block(lines);
}

/** The text of the newest assistant answer in the conversation, or undefined. */
function lastAnswer(app: InteractiveApp): string | undefined {
	const messages = app.host?.session.messages ?? [];
	for (let i = messages.length - 1; i >= 0; i--) {
		const m = messages[i] as { role?: string; content?: AssistantMessage["content"] };
		if (m.role !== "assistant" || !Array.isArray(m.content)) continue;
		const text = m.content
			.filter((c) => c.type === "text")
			.map((c) => (c as { text: string }).text)
			.join("\n")
			.trim();
		if (text) return text;
	}
	return undefined;
}

async function copy(app: InteractiveApp): Promise<void> {
	const text = lastAnswer(app);
	if (!text) {
		app.error("Nothing to copy yet: there is no answer in this conversation.");
		return;
	}
	const how = await copyToClipboard(text, (data) => app.tui.terminal.write(data));
	const lines = text.split("\n").length;
	app.info(`Copied the last answer (${lines} line${lines === 1 ? "" : "s"}) to the clipboard${how === "OSC 52" ? " (through the terminal, OSC 52)" : ` with ${how}`}.`);
}

async function exportHtml(app: InteractiveApp, args: string): Promise<void> {
	const host = app.host;
	if (!host) throw new Error("The session is not ready yet.");
	const file = args.trim().replace(/^["']|["']$/g, "") || undefined;
	const { exportSessionToHtml } = await import("../../core/export/session-html.ts");
	const path = exportSessionToHtml(host.session.session, file, host.session.cwd);
	app.info(`Session exported to ${tildify(path)}`);
}

/** What /hotkeys, /copy and /export do (their names and descriptions are in commands.ts, which loads this on first use). */
export const INFO_RUNS = {
	hotkeys: (app: InteractiveApp) => hotkeys(app),
	copy: (app: InteractiveApp) => copy(app),
	export: (app: InteractiveApp, args: string) => exportHtml(app, args),
} satisfies Record<string, BuiltinCommand["run"]>;
