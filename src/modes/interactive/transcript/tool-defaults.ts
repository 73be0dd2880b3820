// How a built-in tool call reads when no renderer is registered for it: one line naming the call
// (`bash  npm test`, `edit src/a.ts (+3 −1)`), the result collapsed to one line or shown in full,
// an edit as a coloured diff, a file read or written highlighted by its language when expanded.
import { isAbsolute, relative } from "node:path";
import type { AgentToolResult } from "../../../core/tools/types.ts";
import { renderDiff } from "../components/diff.ts";
import { getLanguageFromPath, highlightCode } from "../theme/highlight.ts";
import { currentTheme } from "../theme/styles.ts";

/** A path as short as it can be said from cwd. */
export function shortPath(path: unknown, cwd: string): string {
	if (typeof path !== "string" || path === "") return ".";
	if (!isAbsolute(path)) return path;
	const rel = relative(cwd, path);
	return rel && !rel.startsWith("..") ? rel : path;
}

function firstLine(text: string, max = 160): string {
	const [line = ""] = text.split("\n");
	const more = text.includes("\n") ? " …" : "";
	return line.length > max ? `${line.slice(0, max - 1)}…` : line + more;
}

/** `+added −removed` of a unified diff (headers not counted). */
export function diffCounts(diff: string): { added: number; removed: number } {
	let added = 0;
	let removed = 0;
	for (const line of diff.split("\n")) {
		if (line.startsWith("+++") || line.startsWith("---")) continue;
		if (line.startsWith("+")) added++;
		else if (line.startsWith("-")) removed++;
	}
	return { added, removed };
}

function editCounts(args: Record<string, unknown>, details: unknown): { added: number; removed: number } | undefined {
	const diff = (details as { diff?: unknown } | undefined)?.diff;
	if (typeof diff === "string") return diffCounts(diff);
	const edits = Array.isArray(args.edits) ? (args.edits as { oldText?: unknown; newText?: unknown }[]) : [];
	if (edits.length === 0) return undefined;
	const count = (t: unknown) => (typeof t === "string" && t !== "" ? t.split("\n").length : 0);
	return { added: edits.reduce((n, e) => n + count(e.newText), 0), removed: edits.reduce((n, e) => n + count(e.oldText), 0) };
}

function argsOf(raw: unknown): Record<string, unknown> {
	return raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
}

/** The one line naming a call: tool name, then what it works on. `details` is known once it ran. */
export function toolCallLine(name: string, rawArgs: unknown, cwd: string, details?: unknown): string {
	const theme = currentTheme();
	const args = argsOf(rawArgs);
	const title = theme.bold(theme.fg("toolTitle", name));
	const path = (p: unknown) => theme.fg("accent", shortPath(p, cwd));
	switch (name) {
		case "bash":
			return `${title}  ${firstLine(String(args.command ?? ""))}`;
		case "read": {
			const from = typeof args.offset === "number" ? args.offset : undefined;
			const range = from !== undefined ? `:${from}${typeof args.limit === "number" ? `-${from + args.limit - 1}` : ""}` : "";
			return `${title} ${path(args.path)}${theme.fg("muted", range)}`;
		}
		case "write": {
			const lines = typeof args.content === "string" ? args.content.split("\n").length : 0;
			return `${title} ${path(args.path)} ${theme.fg("muted", `(${lines} ${lines === 1 ? "line" : "lines"})`)}`;
		}
		case "edit": {
			const counts = editCounts(args, details);
			const stat = counts ? ` ${theme.fg("muted", "(")}${theme.fg("toolDiffAdded", `+${counts.added}`)} ${theme.fg("toolDiffRemoved", `−${counts.removed}`)}${theme.fg("muted", ")")}` : "";
			return `${title} ${path(args.path)}${stat}`;
		}
		case "grep":
		case "find":
			return `${title} ${String(args.pattern ?? "")}${args.path ? ` ${theme.fg("muted", "in")} ${path(args.path)}` : ""}`;
		case "ls":
			return `${title} ${path(args.path)}`;
		default: {
			const json = JSON.stringify(args) ?? "";
			return `${title} ${theme.fg("muted", json.length > 120 ? `${json.slice(0, 119)}…` : json)}`;
		}
	}
}

/** The result's text; its images are drawn under it (tool-call.ts). */
export function resultText(result: AgentToolResult): string {
	return (result.content ?? [])
		.flatMap((c) => (c.type === "text" ? [c.text] : []))
		.join("\n")
		.replace(/\n+$/, "");
}

const hasImages = (result: AgentToolResult) => (result.content ?? []).some((c) => c.type === "image");

export const GUTTER = "  ⎿ ";
export const INDENT = "    ";

/**
 * The collapsed result: one line under the call. A command's last line says most (a test summary,
 * the exit status), so bash and errors show their last line; other tools their first. Writes say
 * nothing when they worked; an edit shows its diff (see resultLines).
 */
export function resultSummary(name: string, result: AgentToolResult, isError: boolean): string[] {
	const theme = currentTheme();
	const text = resultText(result);
	if (!isError && name === "write") return [];
	if (text === "" && hasImages(result)) return [];
	if (text === "" || text === "(no output)") return [theme.fg("muted", `${GUTTER}(no output)`)];
	const lines = text.split("\n");
	const meaningful = lines.filter((l) => l.trim() !== "");
	let pick = (isError || name === "bash" ? meaningful.at(-1) : meaningful[0]) ?? "";
	// A failed command ends with its status; the output line before it says what went wrong.
	if (name === "bash" && isError && meaningful.length > 1 && /^Command (exited|was killed|aborted|timed out)/.test(pick)) {
		pick = `${meaningful.at(-2)} · ${pick.replace(/^Command /, "")}`;
	}
	const count = lines.length > 1 ? theme.fg("dim", ` (${lines.length} lines, ctrl+o to expand)`) : "";
	const shown = pick.length > 160 ? `${pick.slice(0, 159)}…` : pick;
	if (name === "read" && !isError && !hasImages(result)) return [theme.fg("muted", `${GUTTER}${lines.length} ${lines.length === 1 ? "line" : "lines"} (ctrl+o to expand)`)];
	return [`${theme.fg("muted", GUTTER)}${isError ? theme.fg("error", shown) : theme.fg("toolOutput", shown)}${count}`];
}

/** The whole result under the call; a read or written file highlighted by its language. */
export function resultFull(name: string, args: unknown, result: AgentToolResult, isError: boolean): string[] {
	const theme = currentTheme();
	const text = resultText(result);
	if (text === "") return hasImages(result) ? [] : [theme.fg("muted", `${GUTTER}(no output)`)];
	const lang = !isError && name === "read" ? getLanguageFromPath(String(argsOf(args).path ?? "")) : undefined;
	const lines = lang ? highlightCode(text, lang, theme) : text.split("\n").map((l) => (isError ? theme.fg("error", l) : theme.fg("toolOutput", l)));
	return lines.map((l, i) => (i === 0 ? theme.fg("muted", GUTTER) : INDENT) + l);
}

/** Collapsed edits show this many diff lines; ctrl+o shows the rest. */
const DIFF_PREVIEW_LINES = 20;

/** What goes under the call line once the tool is done. */
export function resultLines(name: string, args: unknown, result: AgentToolResult, isError: boolean, expanded: boolean): string[] {
	const diff = (result.details as { diff?: unknown } | undefined)?.diff;
	if (name === "edit" && !isError && typeof diff === "string" && diff !== "") {
		const lines = renderDiff(diff).split("\n");
		if (expanded || lines.length <= DIFF_PREVIEW_LINES) return lines.map((l) => INDENT + l);
		const more = currentTheme().fg("dim", `${INDENT}… ${lines.length - DIFF_PREVIEW_LINES} more lines (ctrl+o to expand)`);
		return [...lines.slice(0, DIFF_PREVIEW_LINES).map((l) => INDENT + l), more];
	}
	if (name === "write" && !isError && expanded) {
		const content = String(argsOf(args).content ?? "");
		return highlightCode(content, getLanguageFromPath(String(argsOf(args).path ?? "")), currentTheme()).map((l) => INDENT + l);
	}
	return expanded ? resultFull(name, args, result, isError) : resultSummary(name, result, isError);
}
