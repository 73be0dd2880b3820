// Slash-command completion under the input line (SPEC §9): `→ name   [p|u|t] description`, built-ins
// first with no marker, extension commands with their source marker; after `/name ` the command's
// getArgumentCompletions supplies the items.
import pc from "picocolors";
import type { AutocompleteItem, SourceScope } from "../../core/extensions/types.ts";

export interface CommandEntry {
	name: string;
	description?: string;
	/** `p`, `u` or `t` for extension commands; none for built-ins. */
	marker?: string;
	getArgumentCompletions?: (prefix: string) => AutocompleteItem[] | null | Promise<AutocompleteItem[] | null>;
}

export const SCOPE_MARKERS: Record<SourceScope, string> = { project: "p", user: "u", temporary: "t" };

interface Item {
	/** What goes into the input line. */
	value: string;
	label: string;
	marker?: string;
	description?: string;
}

const VISIBLE = 5;
const MIN_COLUMN = 12;

/** Prefix matches first, then names holding the query's letters in order. */
function matches(entries: CommandEntry[], query: string): CommandEntry[] {
	const q = query.toLowerCase();
	const prefix = entries.filter((e) => e.name.toLowerCase().startsWith(q));
	const fuzzy = entries.filter((e) => {
		if (prefix.includes(e)) return false;
		let i = 0;
		for (const ch of e.name.toLowerCase()) if (ch === q[i]) i++;
		return i === q.length;
	});
	return [...prefix, ...fuzzy];
}

export class CommandCompletion {
	private items: Item[] = [];
	private selected = 0;
	/** Set when completing a command's argument: the `/name ` part. */
	private head: string | undefined;
	private generation = 0;

	constructor(
		private readonly entries: () => CommandEntry[],
		private readonly changed: () => void,
	) {}

	get isOpen(): boolean {
		return this.items.length > 0;
	}

	close(): void {
		this.items = [];
		this.selected = 0;
		this.generation++;
	}

	/** Recompute for the input line's text. Argument completions may arrive later (then `changed`). */
	update(text: string): void {
		const generation = ++this.generation;
		this.selected = 0;
		this.items = [];
		if (!text.startsWith("/") || text.includes("\n")) return;
		const space = text.indexOf(" ");
		if (space < 0) {
			this.head = undefined;
			this.items = matches(this.entries(), text.slice(1)).map((e) => ({ value: e.name, label: e.name, marker: e.marker, description: e.description }));
			return;
		}
		const name = text.slice(1, space);
		const entry = this.entries().find((e) => e.name === name);
		if (!entry?.getArgumentCompletions) return;
		this.head = text.slice(0, space + 1);
		const show = (found: AutocompleteItem[] | null) => {
			if (generation !== this.generation) return;
			this.items = (found ?? []).map((i) => ({ value: i.value, label: i.label || i.value, description: i.description }));
			this.changed();
		};
		try {
			const found = entry.getArgumentCompletions(text.slice(space + 1));
			if (found instanceof Promise) found.then(show, () => {});
			else show(found);
		} catch {
			// A throwing completer offers nothing.
		}
	}

	move(delta: number): void {
		if (this.items.length === 0) return;
		this.selected = (this.selected + delta + this.items.length) % this.items.length;
	}

	/** The input line with the selected item put in; `final` (Enter) leaves no trailing space. */
	accept(final: boolean): string | undefined {
		const item = this.items[this.selected];
		if (!item) return undefined;
		this.close();
		if (this.head !== undefined) return this.head + item.value;
		return final ? `/${item.value}` : `/${item.value} `;
	}

	/** Whether the menu is completing a command name (not an argument). */
	get completingName(): boolean {
		return this.isOpen && this.head === undefined;
	}

	lines(columns: number): string[] {
		if (this.items.length === 0) return [];
		const width = Math.max(MIN_COLUMN, ...this.items.map((i) => Bun.stringWidth(i.label) + 2));
		const start = Math.min(Math.max(0, this.selected - Math.floor(VISIBLE / 2)), Math.max(0, this.items.length - VISIBLE));
		const out = this.items.slice(start, start + VISIBLE).map((item, i) => {
			const selected = start + i === this.selected;
			const marker = item.marker ? `[${item.marker}] ` : "";
			const line = `${selected ? "→ " : "  "}${item.label.padEnd(width)}${marker}${item.description ?? ""}`;
			const fitted = Bun.stringWidth(line) > columns - 1 ? `${line.slice(0, Math.max(0, columns - 2))}…` : line;
			return selected ? pc.cyan(fitted) : fitted;
		});
		if (this.items.length > VISIBLE) out.push(pc.dim(`  (${this.selected + 1}/${this.items.length})`));
		return out;
	}
}
