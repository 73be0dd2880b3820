// The /tree navigator: the session's entries as a tree whose branches are drawn with their
// structure (├─ └─ │), the path to where the conversation is now marked, labels shown and set in
// place (shift+l), a search line (type to narrow), and filters (ctrl+o cycles: default, no tools,
// user only, labelled, all). Enter picks the entry to continue from; the caller moves there.
import { Input } from "@earendil-works/pi-tui/dist/components/input.js";
import { getKeybindings } from "@earendil-works/pi-tui/dist/keybindings.js";
import { matchesKey } from "@earendil-works/pi-tui/dist/keys.js";
import { truncateToWidth } from "@earendil-works/pi-tui/dist/utils.js";
import type { Component, Focusable } from "@earendil-works/pi-tui";
import type { SessionEntry, SessionTreeNode } from "../../core/session/session-entries.ts";
import { keyHint, rawKeyHint } from "./keybindings.ts";
import { currentTheme } from "./theme/styles.ts";
import { contentText } from "./transcript/custom-message.ts";

export type TreeFilter = "default" | "no-tools" | "user-only" | "labeled-only" | "all";
const FILTERS: TreeFilter[] = ["default", "no-tools", "user-only", "labeled-only", "all"];
const FILTER_NAMES: Record<TreeFilter, string> = { default: "default", "no-tools": "no tools", "user-only": "user only", "labeled-only": "labelled", all: "all" };

export interface TreeRow {
	id: string;
	/** The connectors in front of the entry (`│  ├─ `). */
	prefix: string;
	/** What the entry says, one line. */
	text: string;
	kind: "user" | "assistant" | "tool" | "summary" | "other";
	label: string | undefined;
	onPath: boolean;
}

function oneLine(text: string): string {
	return text.replace(/\s+/g, " ").trim();
}

/** What an entry says in the tree; undefined for entries never shown (the session header's kin). */
export function describeEntry(entry: SessionEntry): { text: string; kind: TreeRow["kind"] } {
	switch (entry.type) {
		case "message": {
			const m = entry.message;
			if (m.role === "user") return { text: `user: ${oneLine(contentText(m.content)) || "(empty)"}`, kind: "user" };
			if (m.role === "assistant") {
				const text = oneLine(contentText(m.content.filter((c) => c.type === "text") as never));
				const tools = m.content.filter((c) => c.type === "toolCall").map((c) => (c as { name: string }).name);
				return { text: `assistant: ${text || `(${tools.join(", ") || "no text"})`}`, kind: "assistant" };
			}
			if (m.role === "toolResult") return { text: `${(m as { toolName?: string }).toolName ?? "tool"} result: ${oneLine(contentText(m.content as never))}`, kind: "tool" };
			if (m.role === "bashExecution") return { text: `$ ${(m as { command?: string }).command ?? ""}`, kind: "tool" };
			return { text: `${m.role}`, kind: "other" };
		}
		case "branch_summary":
			return { text: `branch summary: ${oneLine(entry.summary)}`, kind: "summary" };
		case "compaction":
			return { text: `compaction: ${oneLine(entry.summary)}`, kind: "summary" };
		case "custom_message":
			return { text: `[${entry.customType}] ${oneLine(typeof entry.content === "string" ? entry.content : contentText(entry.content as never))}`, kind: "other" };
		case "model_change":
			return { text: `model: ${entry.provider}/${entry.modelId}`, kind: "other" };
		case "thinking_level_change":
			return { text: `thinking: ${entry.thinkingLevel}`, kind: "other" };
		case "session_info":
			return { text: `name: ${entry.name ?? ""}`, kind: "other" };
		case "label":
			return { text: `label: ${entry.label ?? "(removed)"}`, kind: "other" };
		default:
			return { text: entry.type, kind: "other" };
	}
}

function visible(node: SessionTreeNode, filter: TreeFilter): boolean {
	const { kind } = describeEntry(node.entry);
	switch (filter) {
		case "all":
			return true;
		case "user-only":
			return kind === "user";
		case "labeled-only":
			return node.label !== undefined;
		case "no-tools":
			return kind === "user" || kind === "summary" || (kind === "assistant" && !/^assistant: \(/.test(describeEntry(node.entry).text));
		default:
			return kind !== "other" || node.entry.type === "custom_message";
	}
}

/**
 * The rows of the tree under `filter`: hidden entries give their place to their children, a chain
 * stays at one depth, and where it forks each branch gets a connector.
 */
export function treeRows(roots: SessionTreeNode[], leafId: string | null, filter: TreeFilter = "default", path?: ReadonlySet<string>): TreeRow[] {
	const onPath = path ?? new Set<string>();
	const shown = (nodes: SessionTreeNode[]): SessionTreeNode[] => nodes.flatMap((n) => (visible(n, filter) ? [n] : shown(n.children)));
	const rows: TreeRow[] = [];
	const walk = (nodes: SessionTreeNode[], gutter: string) => {
		const forks = nodes.length > 1;
		// The branch holding the current leaf comes first (as pi draws it).
		const ordered = forks ? [...nodes].sort((a, b) => Number(onPath.has(b.entry.id)) - Number(onPath.has(a.entry.id))) : nodes;
		for (const [i, node] of ordered.entries()) {
			const last = i === ordered.length - 1;
			const connector = forks ? (last ? "└─ " : "├─ ") : "";
			const { text, kind } = describeEntry(node.entry);
			rows.push({ id: node.entry.id, prefix: gutter + connector, text, kind, label: node.label, onPath: onPath.has(node.entry.id) });
			walk(shown(node.children), forks ? gutter + (last ? "   " : "│  ") : gutter);
		}
	};
	walk(shown(roots), "");
	if (leafId) for (const row of rows) row.onPath ||= row.id === leafId;
	return rows;
}

export interface TreeViewOptions {
	tree: () => SessionTreeNode[];
	/** Ids from the root to the current leaf. */
	path: ReadonlySet<string>;
	/** The entry the conversation is at now (marked). */
	current: string | null;
	/** The entry the cursor starts on (default the current one). */
	initial?: string;
	rows: number;
	onSelect(id: string): void;
	onCancel(): void;
	/** Set (or with undefined remove) a label; the tree is read again after. */
	onLabel(id: string, label: string | undefined): void;
}

export class TreeView implements Component, Focusable {
	private filter: TreeFilter = "default";
	private readonly search = new Input({ prompt: "", placeholder: "type to search", placeholderStyle: (t) => currentTheme().fg("dim", t) });
	private labelInput: Input | undefined;
	private all: TreeRow[] = [];
	private rows: TreeRow[] = [];
	private index = 0;
	private _focused = false;

	constructor(private readonly options: TreeViewOptions) {
		this.reload(options.initial ?? options.current ?? undefined);
	}

	get focused(): boolean {
		return this._focused;
	}
	set focused(value: boolean) {
		this._focused = value;
		this.search.focused = value && !this.labelInput;
		if (this.labelInput) this.labelInput.focused = value;
	}

	/** Build the rows again (a filter, a label, a search), keeping the cursor on `keep` when it is still there. */
	private reload(keep = this.rows[this.index]?.id): void {
		this.all = treeRows(this.options.tree(), this.options.current, this.filter, this.options.path);
		const query = this.search.getValue().trim().toLowerCase();
		this.rows = query ? this.all.filter((r) => `${r.text} ${r.label ?? ""}`.toLowerCase().includes(query)) : this.all;
		const at = keep ? this.rows.findIndex((r) => r.id === keep) : -1;
		// Without the kept entry, the current one (or the nearest row before it) keeps the place.
		this.index = at >= 0 ? at : Math.max(0, this.rows.findLastIndex((r) => r.onPath));
	}

	invalidate(): void {}

	handleInput(data: string): void {
		const kb = getKeybindings();
		if (this.labelInput) {
			if (kb.matches(data, "tui.select.cancel")) this.closeLabel();
			else if (kb.matches(data, "tui.input.submit")) {
				const row = this.rows[this.index];
				const label = this.labelInput.getValue().trim();
				this.closeLabel();
				if (row) {
					this.options.onLabel(row.id, label || undefined);
					this.reload(row.id);
				}
			} else this.labelInput.handleInput(data);
			return;
		}
		const count = this.rows.length;
		const page = Math.max(1, this.options.rows - 1);
		if (kb.matches(data, "tui.select.up")) this.index = count ? (this.index - 1 + count) % count : 0;
		else if (kb.matches(data, "tui.select.down")) this.index = count ? (this.index + 1) % count : 0;
		else if (kb.matches(data, "tui.select.pageUp") || matchesKey(data, "left")) this.index = Math.max(0, this.index - page);
		else if (kb.matches(data, "tui.select.pageDown") || matchesKey(data, "right")) this.index = Math.max(0, Math.min(count - 1, this.index + page));
		else if (kb.matches(data, "tui.select.confirm")) {
			const row = this.rows[this.index];
			if (row) this.options.onSelect(row.id);
		} else if (matchesKey(data, "escape") || matchesKey(data, "ctrl+c")) {
			// Escape clears a search first, then closes.
			if (this.search.getValue()) {
				this.search.setValue("");
				this.reload();
			} else this.options.onCancel();
		} else if (matchesKey(data, "shift+l") || data === "L") this.openLabel();
		else if (matchesKey(data, "ctrl+o")) this.cycleFilter(1);
		else if (matchesKey(data, "shift+ctrl+o")) this.cycleFilter(-1);
		else {
			const before = this.search.getValue();
			this.search.handleInput(data);
			if (this.search.getValue() !== before) this.reload();
		}
	}

	private cycleFilter(step: number): void {
		this.filter = FILTERS[(FILTERS.indexOf(this.filter) + step + FILTERS.length) % FILTERS.length]!;
		this.reload();
	}

	private openLabel(): void {
		const row = this.rows[this.index];
		if (!row) return;
		this.labelInput = new Input({ prompt: "" });
		this.labelInput.setValue(row.label ?? "");
		this.labelInput.focused = this._focused;
		this.search.focused = false;
	}

	private closeLabel(): void {
		this.labelInput = undefined;
		this.search.focused = this._focused;
	}

	render(width: number): string[] {
		const theme = currentTheme();
		const border = theme.fg("borderAccent", "─".repeat(Math.max(1, width)));
		const filter = theme.fg("muted", `filter: ${FILTER_NAMES[this.filter]}`);
		const lines = [border, truncateToWidth(` ${theme.bold(theme.fg("accent", "Session tree"))}  ${filter}`, width)];
		const [search] = this.search.render(Math.max(1, width - 3));
		lines.push(`${theme.fg("muted", " ›")} ${search ?? ""}`, "");
		const height = this.options.rows;
		const start = Math.max(0, Math.min(this.index - Math.floor(height / 2), this.rows.length - height));
		if (this.rows.length === 0) lines.push(theme.fg("muted", this.all.length === 0 ? "   Nothing to show with this filter" : "   No entries match"));
		for (const [i, row] of this.rows.slice(start, start + height).entries()) {
			const selected = start + i === this.index;
			const cursor = selected ? theme.fg("accent", " → ") : "   ";
			const paint = (text: string) => {
				if (selected) return theme.fg("accent", text);
				if (!row.onPath) return theme.fg("muted", text);
				return row.kind === "user" ? theme.fg("text", text) : text;
			};
			const mark = row.onPath ? theme.fg("accent", "• ") : "  ";
			const label = row.label ? `${theme.fg("warning", `[${row.label}]`)} ` : "";
			const here = row.id === this.options.current ? theme.fg("success", " ← current") : "";
			lines.push(truncateToWidth(`${cursor}${theme.fg("dim", row.prefix)}${mark}${label}${paint(row.text)}${here}`, width));
		}
		if (this.rows.length > height) lines.push(theme.fg("dim", `   (${this.index + 1}/${this.rows.length})`));
		lines.push("");
		if (this.labelInput) {
			const [input] = this.labelInput.render(Math.max(1, width - 30));
			lines.push(truncateToWidth(` ${theme.fg("muted", "Label (empty to remove):")} ${input ?? ""}`, width));
			lines.push(truncateToWidth(` ${keyHint("tui.input.submit", "save")}  ${rawKeyHint("escape", "cancel")}`, width));
		} else {
			const hints = [rawKeyHint("↑↓", "move"), keyHint("tui.select.confirm", "continue from here"), rawKeyHint("shift+l", "label"), rawKeyHint("ctrl+o", "filter"), rawKeyHint("escape", "close")];
			lines.push(truncateToWidth(` ${hints.join("  ")}`, width));
		}
		lines.push(border);
		return lines;
	}
}
