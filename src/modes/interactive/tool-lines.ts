// How a tool call reads in the conversation: one line per call (`bash  npm test`,
// `edit src/a.ts (+3 −1)`), its result collapsed to a one-line summary or shown in full.
import { isAbsolute, relative } from "node:path";
import pc from "picocolors";
import type { AgentToolResult } from "../../core/tools/types.ts";

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

/** The one line naming a call: tool name, then what it works on. `details` is known once it ran. */
export function toolCallLine(name: string, rawArgs: unknown, cwd: string, details?: unknown): string {
	const args = (rawArgs && typeof rawArgs === "object" ? rawArgs : {}) as Record<string, unknown>;
	const title = pc.bold(name);
	switch (name) {
		case "bash":
			return `${title}  ${firstLine(String(args.command ?? ""))}`;
		case "read": {
			const from = typeof args.offset === "number" ? args.offset : undefined;
			const range = from !== undefined ? `:${from}${typeof args.limit === "number" ? `-${from + args.limit - 1}` : ""}` : "";
			return `${title} ${shortPath(args.path, cwd)}${range}`;
		}
		case "write": {
			const lines = typeof args.content === "string" ? args.content.split("\n").length : 0;
			return `${title} ${shortPath(args.path, cwd)} ${pc.dim(`(${lines} ${lines === 1 ? "line" : "lines"})`)}`;
		}
		case "edit": {
			const counts = editCounts(args, details);
			return `${title} ${shortPath(args.path, cwd)}${counts ? ` ${pc.dim("(")}${pc.green(`+${counts.added}`)} ${pc.red(`−${counts.removed}`)}${pc.dim(")")}` : ""}`;
		}
		case "grep":
		case "find":
			return `${title} ${String(args.pattern ?? "")}${args.path ? ` ${pc.dim("in")} ${shortPath(args.path, cwd)}` : ""}`;
		case "ls":
			return `${title} ${shortPath(args.path, cwd)}`;
		default: {
			const json = JSON.stringify(args);
			return `${title} ${pc.dim(json.length > 120 ? `${json.slice(0, 119)}…` : json)}`;
		}
	}
}

export function resultText(result: AgentToolResult): string {
	return result.content
		.map((c) => (c.type === "text" ? c.text : `[image ${c.mimeType}]`))
		.join("\n")
		.replace(/\n+$/, "");
}

const GUTTER = "   ⎿ ";
const INDENT = "     ";

/**
 * The collapsed result: one line under the call. A command's last line says most (a test summary,
 * the exit status), so bash and errors show their last line; other tools their first. Edits and
 * writes say nothing when they worked.
 */
export function resultSummary(name: string, result: AgentToolResult, isError: boolean): string[] {
	const text = resultText(result);
	if (!isError && (name === "edit" || name === "write")) return [];
	if (text === "" || text === "(no output)") return [pc.dim(`${GUTTER}(no output)`)];
	const lines = text.split("\n");
	const meaningful = lines.filter((l) => l.trim() !== "");
	let pick = (isError || name === "bash" ? meaningful.at(-1) : meaningful[0]) ?? "";
	// A failed command ends with its status; the output line before it says what went wrong.
	if (name === "bash" && isError && meaningful.length > 1 && /^Command (exited|was killed|aborted|timed out)/.test(pick)) {
		pick = `${meaningful.at(-2)} · ${pick.replace(/^Command /, "")}`;
	}
	const count = lines.length > 1 ? pc.dim(` (${lines.length} lines, ctrl+o to expand)`) : "";
	const shown = pick.length > 160 ? `${pick.slice(0, 159)}…` : pick;
	if (name === "read" && !isError) return [pc.dim(`${GUTTER}${lines.length} ${lines.length === 1 ? "line" : "lines"} (ctrl+o to expand)`)];
	return [`${pc.dim(GUTTER)}${isError ? pc.red(shown) : pc.dim(shown)}${count}`];
}

/** The whole result under the call (expanded); an edit shows its diff. */
export function resultFull(name: string, result: AgentToolResult, isError: boolean): string[] {
	const diff = (result.details as { diff?: unknown } | undefined)?.diff;
	if (name === "edit" && !isError && typeof diff === "string") {
		return diff.split("\n").map((l) => INDENT + (l.startsWith("+") && !l.startsWith("+++") ? pc.green(l) : l.startsWith("-") && !l.startsWith("---") ? pc.red(l) : pc.dim(l)));
	}
	const text = resultText(result);
	if (text === "") return [pc.dim(`${GUTTER}(no output)`)];
	return text.split("\n").map((l, i) => (i === 0 ? GUTTER : INDENT) + (isError ? pc.red(l) : pc.dim(l)));
}
