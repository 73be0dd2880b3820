// A session as one self-contained HTML page: the current branch from its first entry to the leaf —
// messages with their markdown rendered, tool calls with their results, thinking, bash runs,
// compactions and model changes — with the styles inline and nothing loaded from the network.
// Serves rpc `export_html`, `agent --export` and the TUI's `/export`.
import { basename, dirname, resolve } from "node:path";
import { mkdirSync, writeFileSync } from "node:fs";
import { APP_NAME, VERSION } from "../../config.ts";
import type { AgentMessage } from "../agent/messages.ts";
import type { ImageContent, TextContent } from "../providers/types.ts";
import type { SessionEntry } from "../session/session-entries.ts";
import type { SessionManager } from "../session/session-manager.ts";
import { escapeHtml, renderMarkdown } from "./markdown-html.ts";
import styles from "./transcript.css" with { type: "text" };

/** What the page is built from: the reading half of a session. */
export type ExportableSession = Pick<SessionManager, "getHeader" | "getBranch" | "getSessionFile" | "getSessionName" | "getLabel">;

/**
 * Write the page for `session` and return its path. Default `outputPath`:
 * `<app>-session-<session file name>.html` in `cwd` (default: the process's folder).
 */
export function exportSessionToHtml(session: ExportableSession, outputPath?: string, cwd = process.cwd()): string {
	const file = session.getSessionFile();
	const stem = file ? basename(file).replace(/\.jsonl$/, "") : session.getHeader().id;
	const path = resolve(cwd, outputPath ?? `${APP_NAME}-session-${stem}.html`);
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, renderSessionHtml(session), "utf8");
	return path;
}

/** The whole page as a string. */
export function renderSessionHtml(session: ExportableSession): string {
	const header = session.getHeader();
	const branch = session.getBranch();
	const name = session.getSessionName();
	const title = name ?? firstUserText(branch) ?? `Session ${header.id}`;
	const body = branch.map((entry) => renderEntry(entry, session.getLabel(entry.id))).filter((html) => html !== "").join("\n");
	return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${escapeHtml(`${APP_NAME} ${VERSION}`)}">
<title>${escapeHtml(truncate(title, 120))}</title>
<style>
${styles}</style>
</head>
<body>
<header class="session">
<h1>${escapeHtml(truncate(title, 200))}</h1>
<dl>
${meta("Session", header.id)}${meta("Folder", header.cwd)}${meta("Started", header.timestamp)}${header.parentSession ? meta("Forked from", header.parentSession) : ""}${meta("Models", modelsOf(branch).join(", ") || "none")}${meta("Usage", usageOf(branch))}
</dl>
</header>
<main>
${body}
</main>
<footer>Exported by ${escapeHtml(APP_NAME)} ${escapeHtml(VERSION)}</footer>
</body>
</html>
`;
}

function meta(label: string, value: string): string {
	return `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>\n`;
}

function truncate(text: string, max: number): string {
	const line = text.replace(/\s+/g, " ").trim();
	return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function textOfContent(content: string | (TextContent | ImageContent)[]): string {
	return typeof content === "string" ? content : content.map((c) => (c.type === "text" ? c.text : "")).join("\n");
}

function firstUserText(branch: SessionEntry[]): string | undefined {
	for (const entry of branch) if (entry.type === "message" && entry.message.role === "user") return textOfContent(entry.message.content) || undefined;
	return undefined;
}

function modelsOf(branch: SessionEntry[]): string[] {
	const seen = new Set<string>();
	for (const entry of branch) {
		if (entry.type === "model_change") seen.add(`${entry.provider}/${entry.modelId}`);
		if (entry.type === "message" && entry.message.role === "assistant") seen.add(`${entry.message.provider}/${entry.message.model}`);
	}
	return [...seen];
}

function usageOf(branch: SessionEntry[]): string {
	let input = 0;
	let output = 0;
	let cost = 0;
	for (const entry of branch) {
		if (entry.type !== "message" || entry.message.role !== "assistant") continue;
		input += entry.message.usage.input + entry.message.usage.cacheRead;
		output += entry.message.usage.output;
		cost += entry.message.usage.cost.total;
	}
	return `${input.toLocaleString("en-US")} tokens in, ${output.toLocaleString("en-US")} out${cost > 0 ? `, $${cost.toFixed(4)}` : ""}`;
}

function time(iso: string): string {
	return `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.replace("T", " ").replace(/\.\d+Z$/, "Z"))}</time>`;
}

function block(kind: string, heading: string, inner: string, entry: SessionEntry, label?: string): string {
	const tag = label ? ` <span class="label">${escapeHtml(label)}</span>` : "";
	return `<section class="entry ${kind}" id="entry-${escapeHtml(entry.id)}">
<div class="meta"><span class="who">${heading}</span>${tag} ${time(entry.timestamp)}</div>
${inner}
</section>`;
}

function note(entry: SessionEntry, text: string): string {
	return `<p class="note" id="entry-${escapeHtml(entry.id)}">${escapeHtml(text)} ${time(entry.timestamp)}</p>`;
}

function images(content: string | (TextContent | ImageContent)[]): string {
	if (typeof content === "string") return "";
	return content
		.filter((c): c is ImageContent => c.type === "image")
		// Inline data: the page needs no file or server to show them.
		.map((c) => `<img class="attachment" alt="attached image" src="data:${escapeHtml(c.mimeType)};base64,${escapeHtml(c.data)}">`)
		.join("\n");
}

function pre(text: string, kind = "output"): string {
	return `<pre class="${kind}"><code>${escapeHtml(text)}</code></pre>`;
}

/** Long output folds away: the first lines show, the rest opens on a click. */
function foldable(summary: string, text: string, kind = "output"): string {
	const lines = text.split("\n");
	if (lines.length <= 12) return pre(text, kind);
	return `<details><summary>${escapeHtml(summary)} (${lines.length} lines)</summary>${pre(text, kind)}</details>`;
}

function renderEntry(entry: SessionEntry, label: string | undefined): string {
	switch (entry.type) {
		case "message":
			return renderMessage(entry, entry.message, label);
		case "custom_message":
			return entry.display ? block("custom", escapeHtml(entry.customType), `<div class="markdown">${renderMarkdown(textOfContent(entry.content))}</div>${images(entry.content)}`, entry, label) : "";
		case "compaction":
			return block("compaction", "Compaction", `<p class="note">Earlier turns (${entry.tokensBefore.toLocaleString("en-US")} tokens) were summarised for the model:</p><div class="markdown">${renderMarkdown(entry.summary)}</div>`, entry, label);
		case "branch_summary":
			return block("compaction", "Branch summary", `<div class="markdown">${renderMarkdown(entry.summary)}</div>`, entry, label);
		case "model_change":
			return note(entry, `Model: ${entry.provider}/${entry.modelId}`);
		case "thinking_level_change":
			return note(entry, `Thinking: ${entry.thinkingLevel}`);
		case "session_info":
			return entry.name ? note(entry, `Named: ${entry.name}`) : "";
		case "custom":
		case "label":
			return "";
	}
}

function renderMessage(entry: SessionEntry, message: AgentMessage, label: string | undefined): string {
	switch (message.role) {
		case "user":
			return block("user", "User", `<div class="markdown">${renderMarkdown(textOfContent(message.content))}</div>${images(message.content)}`, entry, label);
		case "assistant": {
			const parts: string[] = [];
			for (const c of message.content) {
				if (c.type === "text" && c.text.trim()) parts.push(`<div class="markdown">${renderMarkdown(c.text)}</div>`);
				else if (c.type === "thinking" && c.thinking.trim()) parts.push(`<details class="thinking"><summary>Thinking</summary><div class="markdown">${renderMarkdown(c.thinking)}</div></details>`);
				else if (c.type === "toolCall") parts.push(renderToolCall(c.name, c.arguments));
			}
			if (message.stopReason === "error") parts.push(`<p class="error">${escapeHtml(message.errorMessage ?? "The request failed.")}</p>`);
			if (message.stopReason === "aborted") parts.push(`<p class="error">Aborted</p>`);
			return block("assistant", `Assistant <span class="model">${escapeHtml(message.model)}</span>`, parts.join("\n"), entry, label);
		}
		case "toolResult": {
			const text = textOfContent(message.content);
			return block(message.isError ? "tool-result failed" : "tool-result", `Result of ${escapeHtml(message.toolName)}`, `${foldable("Output", text || "(no output)")}${images(message.content)}`, entry, label);
		}
		case "bashExecution": {
			const status = message.cancelled ? "cancelled" : `exit code ${message.exitCode ?? "unknown"}`;
			return block("bash", "Shell", `${pre(`$ ${message.command}`, "command")}${foldable("Output", message.output || "(no output)")}<p class="note">${escapeHtml(status)}${message.excludeFromContext ? " · not sent to the model" : ""}</p>`, entry, label);
		}
		case "custom":
			return message.display ? block("custom", escapeHtml(message.customType), `<div class="markdown">${renderMarkdown(textOfContent(message.content))}</div>`, entry, label) : "";
		case "branchSummary":
		case "compactionSummary":
			return block("compaction", "Summary", `<div class="markdown">${renderMarkdown(message.summary)}</div>`, entry, label);
		case "system":
			return "";
	}
}

function renderToolCall(name: string, args: Record<string, unknown>): string {
	// The common tools read best as what they do; anything else shows its arguments as JSON.
	if (name === "bash" && typeof args.command === "string") return `<div class="tool-call"><span class="tool">bash</span>${pre(`$ ${args.command}`, "command")}</div>`;
	if ((name === "read" || name === "write" || name === "edit" || name === "ls") && typeof args.path === "string" && Object.keys(args).length === 1) {
		return `<div class="tool-call"><span class="tool">${escapeHtml(name)}</span> <code>${escapeHtml(args.path)}</code></div>`;
	}
	return `<div class="tool-call"><span class="tool">${escapeHtml(name)}</span>${foldable("Arguments", JSON.stringify(args, null, 2), "arguments")}</div>`;
}
