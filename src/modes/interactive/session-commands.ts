// Built-ins that move between sessions or along the session tree: /new, /resume, /fork, /tree.
// Extensions may cancel each (session_before_*); after a move the transcript shows the
// conversation the session now holds.
import { SessionManager } from "../../core/session/session-manager.ts";
import { statSync } from "node:fs";
import type { Component } from "@earendil-works/pi-tui";
import type { SessionInfo } from "../../core/session/session-entries.ts";
import type { InteractiveApp } from "./app.ts";
import type { BuiltinCommand } from "./commands.ts";
import { SearchList } from "./components/search-list.ts";
import { editorDialog, pickDialog, selectDialog } from "./dialogs.ts";
import { rawKeyHint } from "./keybindings.ts";
import { currentTheme } from "./theme/styles.ts";
import { describeEntry, TreeView } from "./tree-view.ts";
import { contentText } from "./transcript/custom-message.ts";

type Repl = InteractiveApp;

function hostOf(repl: Repl) {
	if (!repl.host) throw new Error("The session is not ready yet.");
	return repl.host;
}

function preview(text: string, max = 70): string {
	const line = text.replace(/\s+/g, " ").trim();
	return line.length > max ? `${line.slice(0, max - 1)}…` : line || "(empty)";
}

function ago(date: Date): string {
	const s = Math.max(0, Math.round((Date.now() - date.getTime()) / 1000));
	if (s < 60) return `${s}s ago`;
	if (s < 3600) return `${Math.round(s / 60)}m ago`;
	if (s < 86_400) return `${Math.round(s / 3600)}h ago`;
	return `${Math.round(s / 86_400)}d ago`;
}

/** The transcript becomes the conversation the session now holds, under `title`. */
function reprint(repl: Repl, title: string): void {
	repl.showSession(title);
}

/** A file size as people read it. */
function size(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function fileSize(path: string): number {
	try {
		return statSync(path).size;
	} catch {
		return 0;
	}
}

/** Show `component` in the editor's place until it calls `finish`. */
function openPanel<T>(repl: Repl, make: (finish: (value: T | undefined) => void) => Component): Promise<T | undefined> {
	return new Promise((resolve) => {
		let close: () => void = () => {};
		const finish = (value: T | undefined) => {
			close();
			repl.tui.requestRender();
			resolve(value);
		};
		close = repl.open(make(finish));
	});
}

/** The /resume picker: this folder's sessions, newest first, searchable by name and text. */
async function pickSession(repl: Repl, sessions: SessionInfo[]): Promise<SessionInfo | undefined> {
	const theme = currentTheme();
	const sizes = new Map(sessions.map((s) => [s.path, fileSize(s.path)]));
	return openPanel<SessionInfo>(repl, (finish) =>
		new SearchList<SessionInfo>({
			title: "Resume a session",
			items: sessions,
			searchText: (s) => `${s.name ?? ""} ${s.firstMessage} ${s.allMessagesText}`,
			row: (s, selected, width) => {
				const meta = `${ago(s.modified)} · ${s.messageCount} message${s.messageCount === 1 ? "" : "s"} · ${size(sizes.get(s.path) ?? 0)}`;
				const name = s.name ? `${s.name}: ` : "";
				const text = preview(`${name}${s.firstMessage}`, Math.max(10, width - meta.length - 4));
				const gap = " ".repeat(Math.max(2, width - text.length - meta.length - 1));
				return `${selected ? theme.fg("accent", text) : text}${gap}${theme.fg("muted", meta)}`;
			},
			hints: [rawKeyHint("↑↓", "move")],
			empty: "No sessions match",
			onSelect: (s) => finish(s),
			onCancel: () => finish(undefined),
		}),
	);
}

/** How many messages moving to `target` would leave behind on the current branch. */
function leftBehind(sm: ReturnType<typeof hostOf>["session"]["session"], target: string): number {
	const targetPath = new Set(sm.getBranch(target).map((e) => e.id));
	return sm.getBranch().filter((e) => !targetPath.has(e.id) && e.type === "message").length;
}

type SummaryChoice = { summarize: false } | { summarize: true; customInstructions?: string } | "back";

/** pi's question before leaving a branch: no summary, a summary, or one with your own instructions. */
async function askSummary(repl: Repl, left: number): Promise<SummaryChoice> {
	if (left === 0) return { summarize: false };
	for (;;) {
		const answer = await selectDialog(repl, "Summarize branch?", ["No summary", "Summarize", "Summarize with custom prompt"]);
		if (answer === undefined) return "back";
		if (answer === "No summary") return { summarize: false };
		if (answer === "Summarize") return { summarize: true };
		const instructions = await editorDialog(repl, "Custom summarization instructions");
		if (instructions !== undefined) return { summarize: true, customInstructions: instructions };
	}
}

/** Move, writing the summary first when asked (Escape stops it: "aborted"). */
async function moveInTree(repl: Repl, target: string, choice: Exclude<SummaryChoice, "back">): Promise<"moved" | "cancelled" | "aborted"> {
	const host = hostOf(repl);
	const controller = new AbortController();
	if (choice.summarize) {
		repl.working.setMessage("Summarizing the branch you are leaving…");
		repl.working.setWorking(true);
		repl.escapeHandler = () => controller.abort();
	}
	try {
		const result = await host.navigateTree(target, { ...choice, signal: controller.signal });
		return result.aborted ? "aborted" : result.cancelled ? "cancelled" : "moved";
	} finally {
		if (choice.summarize) {
			repl.escapeHandler = undefined;
			repl.working.setWorking(false);
			repl.working.setMessage(undefined);
		}
	}
}

/** The /tree navigator over the session, closing with the entry picked. */
function pickTreeEntry(repl: Repl, current: string | null, path: ReadonlySet<string>, initial?: string): Promise<string | undefined> {
	const sm = hostOf(repl).session.session;
	return openPanel<string>(repl, (finish) =>
		new TreeView({
			tree: () => sm.getTree(),
			path,
			current,
			initial,
			rows: Math.max(5, Math.min(20, repl.tui.terminal.rows - 12)),
			onSelect: (id) => finish(id),
			onCancel: () => finish(undefined),
			onLabel: (id, label) => {
				sm.appendLabelChange(id, label);
				repl.tui.requestRender();
			},
		}),
	);
}

/** What /new, /resume, /fork and /tree do (their names and descriptions are in commands.ts, which loads this on first use). */
export const SESSION_RUNS = {
	new: async (repl: Repl) => {
		const { cancelled } = await hostOf(repl).session.newSession();
		// Cancelled by an extension: it says why, as in pi.
		if (!cancelled) repl.showSession("New session started.");
	},
	resume: async (repl: Repl) => {
		const host = hostOf(repl);
		const sm = host.session.session;
		const sessions = (await SessionManager.list(host.session.cwd, sm.getSessionDir() || undefined)).filter((s) => s.path !== sm.getSessionFile());
		if (sessions.length === 0) {
			repl.info("No other sessions in this folder yet.");
			return;
		}
		const picked = await pickSession(repl, sessions);
		if (!picked) return;
		const { cancelled } = await host.session.switchSession(picked.path);
		if (cancelled) repl.info("Resume cancelled by an extension.");
		else {
			reprint(repl, `Resumed ${preview(picked.name ?? picked.firstMessage, 60)}`);
			repl.seedHistory();
		}
	},
	fork: async (repl: Repl) => {
		const host = hostOf(repl);
		const messages = host.session.forkMessages();
		if (messages.length === 0) {
			repl.info("Nothing to fork from yet: no messages in this session.");
			return;
		}
		const entryId = await pickDialog(
			repl,
			"Fork from which message?",
			messages.map((m) => ({ value: m.entryId, label: preview(m.text) })).reverse(),
		);
		if (!entryId) return;
		const result = await host.session.fork(entryId, "before");
		if (result.cancelled) {
			repl.info("Fork cancelled by an extension.");
			return;
		}
		reprint(repl, "Forked into a new session. The message is back in the input: edit it and press Enter.");
		if (result.text !== undefined) repl.editor.setText(result.text);
	},
	tree: async (repl: Repl) => {
		const host = hostOf(repl);
		const sm = host.session.session;
		const branch = sm.getBranch();
		if (branch.length === 0) {
			repl.info("The session tree is empty.");
			return;
		}
		// The leaf may be a bookkeeping entry (a name, a model change): mark the message before it.
		const current = [...branch].reverse().find((e) => e.type === "message" || e.type === "branch_summary" || e.type === "compaction")?.id ?? sm.getLeafId();
		const path = new Set(branch.map((e) => e.id));
		let initial: string | undefined;
		for (;;) {
			const picked = await pickTreeEntry(repl, current, path, initial);
			if (!picked) return;
			if (picked === current) {
				repl.info("Already at this point.");
				return;
			}
			// Moving to a user message goes to just before it, with its text back in the input to edit.
			const entry = sm.getEntry(picked);
			const userText = entry?.type === "message" && entry.message.role === "user" ? contentText(entry.message.content) : undefined;
			const target = userText !== undefined && entry?.parentId ? entry.parentId : picked;
			const choice = await askSummary(repl, sm.getLeafId() ? leftBehind(sm, target) : 0);
			if (choice === "back") {
				initial = picked;
				continue;
			}
			const moved = await moveInTree(repl, target, choice);
			if (moved === "aborted") {
				repl.info("Branch summary cancelled.");
				initial = picked;
				continue;
			}
			if (moved === "cancelled") return repl.info("Move cancelled by an extension.");
			reprint(repl, `Moved to ${entry ? preview(describeEntry(entry).text) : picked}`);
			if (userText !== undefined && target !== picked) repl.editor.setText(userText);
			return;
		}
	},
} satisfies Record<string, BuiltinCommand["run"]>;
