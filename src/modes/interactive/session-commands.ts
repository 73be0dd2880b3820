// Built-ins that move between sessions or along the session tree: /new, /resume, /fork, /tree.
// Extensions may cancel each (session_before_*); after a move the transcript shows the
// conversation the session now holds.
import { SessionManager } from "../../core/session/session-manager.ts";
import type { SessionEntry, SessionTreeNode } from "../../core/session/session-entries.ts";
import type { InteractiveApp } from "./app.ts";
import type { BuiltinCommand } from "./commands.ts";
import { pickDialog } from "./dialogs.ts";
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

/** What a tree entry says in the picker; undefined for entries that are not worth a row. */
function entryLabel(entry: SessionEntry): string | undefined {
	if (entry.type === "message") {
		const m = entry.message;
		if (m.role === "user") return `user: ${preview(contentText(m.content))}`;
		if (m.role === "assistant") {
			const text = contentText(m.content.filter((c) => c.type === "text") as never);
			const tools = m.content.filter((c) => c.type === "toolCall").map((c) => (c as { name: string }).name);
			return `assistant: ${text.trim() ? preview(text) : `(${tools.join(", ") || "no text"})`}`;
		}
		return undefined;
	}
	if (entry.type === "branch_summary") return `summary: ${preview(entry.summary)}`;
	if (entry.type === "compaction") return `compaction: ${preview(entry.summary)}`;
	return undefined;
}

/** The tree flattened for a picker: indentation only where the tree branches. */
export function treeRows(roots: SessionTreeNode[], leafId: string | null): { id: string; label: string }[] {
	const rows: { id: string; label: string }[] = [];
	const walk = (nodes: SessionTreeNode[], depth: number) => {
		const branching = nodes.length > 1;
		for (const node of nodes) {
			const d = branching ? depth + 1 : depth;
			const label = entryLabel(node.entry);
			if (label) {
				const mark = node.entry.id === leafId ? " ← current" : "";
				const tag = node.label ? ` [${node.label}]` : "";
				rows.push({ id: node.entry.id, label: `${"  ".repeat(d)}${label}${tag}${mark}` });
			}
			walk(node.children, d);
		}
	};
	walk(roots, 0);
	return rows;
}

export const SESSION_COMMANDS: BuiltinCommand[] = [
	{
		name: "new",
		description: "Start a new session",
		run: async (repl) => {
			repl.resetExtensionUi();
			const { cancelled } = await hostOf(repl).session.newSession();
			if (cancelled) repl.info("New session cancelled by an extension.");
			else repl.showSession("New session started.");
		},
	},
	{
		name: "resume",
		description: "Resume an earlier session of this folder",
		run: async (repl) => {
			const host = hostOf(repl);
			const sm = host.session.session;
			const sessions = (await SessionManager.list(host.session.cwd, sm.getSessionDir() || undefined)).filter((s) => s.path !== sm.getSessionFile());
			if (sessions.length === 0) {
				repl.info("No other sessions in this folder yet.");
				return;
			}
			const path = await pickDialog(
				repl,
				"Resume a session",
				sessions.map((s) => ({ value: s.path, label: preview(s.name ?? s.firstMessage, 60), description: `${ago(s.modified)} · ${s.messageCount} messages` })),
			);
			if (!path) return;
			repl.resetExtensionUi();
			const { cancelled } = await host.session.switchSession(path);
			if (cancelled) repl.info("Resume cancelled by an extension.");
			else reprint(repl, `Resumed ${preview(sessions.find((s) => s.path === path)?.name ?? path, 60)}`);
		},
	},
	{
		name: "fork",
		description: "Fork from an earlier message into a new session",
		run: async (repl) => {
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
			repl.resetExtensionUi();
			const result = await host.session.fork(entryId, "before");
			if (result.cancelled) {
				repl.info("Fork cancelled by an extension.");
				return;
			}
			reprint(repl, "Forked into a new session. The message is back in the input: edit it and press Enter.");
			if (result.text !== undefined) repl.editor.setText(result.text);
		},
	},
	{
		name: "tree",
		description: "Show the session tree and move to another point in it",
		run: async (repl) => {
			const host = hostOf(repl);
			const sm = host.session.session;
			// The leaf may be a bookkeeping entry (a name, a model change): mark the message before it.
			const current = [...sm.getBranch()].reverse().find((e) => entryLabel(e))?.id ?? null;
			const rows = treeRows(sm.getTree(), current);
			if (rows.length === 0) {
				repl.info("The session tree is empty.");
				return;
			}
			const picked = await pickDialog(
				repl,
				"Session tree: move to",
				rows.map((r) => ({ value: r.id, label: r.label })),
				{ initial: current ?? undefined },
			);
			if (!picked || picked === current) return;
			// Moving to a user message goes to just before it, with its text back in the input to edit.
			const entry = sm.getEntry(picked);
			const userText = entry?.type === "message" && entry.message.role === "user" ? contentText(entry.message.content) : undefined;
			const target = userText !== undefined && entry?.parentId ? entry.parentId : picked;
			const { cancelled } = await host.createCommandContext().navigateTree(target);
			if (cancelled) {
				repl.info("Move cancelled by an extension.");
				return;
			}
			reprint(repl, `Moved to ${rows.find((r) => r.id === picked)?.label.trim() ?? picked}`);
			if (userText !== undefined && target !== picked) repl.editor.setText(userText);
		},
	},
];
