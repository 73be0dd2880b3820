// A bordered list to choose from with a search line on top: typing narrows it (fuzzy, best match
// first), up/down/page keys move, Enter chooses, Escape closes. The built-in pickers (/model,
// /resume) are this with their own rows and keys; `open()` shows one in the editor's place.
import { Input } from "@earendil-works/pi-tui/dist/components/input.js";
import { fuzzyFilter } from "@earendil-works/pi-tui/dist/fuzzy.js";
import { getKeybindings } from "@earendil-works/pi-tui/dist/keybindings.js";
import { truncateToWidth } from "@earendil-works/pi-tui/dist/utils.js";
import type { Component, Focusable } from "@earendil-works/pi-tui";
import { keyHint } from "../keybindings.ts";
import { currentTheme } from "../theme/styles.ts";

export interface SearchListOptions<T> {
	title: string;
	items: T[];
	/** The text a query is matched against. */
	searchText(item: T): string;
	/** One row (without the cursor column); `selected` rows may be drawn differently. */
	row(item: T, selected: boolean, width: number): string;
	/** Lines between the title and the search line (a scope switch, a note). */
	header?(): string[];
	/** Key hints under the list (Enter/Escape are always there). */
	hints?: string[];
	/** Rows shown at once (default 10). */
	maxRows?: number;
	/** The item the cursor starts on. */
	initial?: T;
	/** What to say when nothing matches (default "No matches"). */
	empty?: string;
	/** Keys the picker handles itself before the list (true: taken). */
	onKey?(data: string, list: SearchList<T>): boolean;
	onSelect(item: T): void;
	onCancel(): void;
}

export class SearchList<T> implements Component, Focusable {
	private readonly input = new Input({ prompt: "", placeholder: "type to search", placeholderStyle: (t) => currentTheme().fg("dim", t) });
	private items: T[];
	private filtered: T[];
	private index = 0;
	private _focused = false;

	constructor(private readonly options: SearchListOptions<T>) {
		this.items = options.items;
		this.filtered = options.items;
		const at = options.initial === undefined ? -1 : options.items.indexOf(options.initial);
		if (at >= 0) this.index = at;
	}

	get focused(): boolean {
		return this._focused;
	}
	set focused(value: boolean) {
		this._focused = value;
		this.input.focused = value;
	}

	get query(): string {
		return this.input.getValue();
	}

	get selected(): T | undefined {
		return this.filtered[this.index];
	}

	/** New items (a scope switch, a reloaded list), keeping the query. */
	setItems(items: T[], keep?: T): void {
		this.items = items;
		this.refilter(keep ?? this.selected);
	}

	private refilter(keep?: T): void {
		const query = this.input.getValue().trim();
		this.filtered = query ? fuzzyFilter(this.items, query, (item) => this.options.searchText(item)) : this.items;
		const at = keep === undefined ? -1 : this.filtered.indexOf(keep);
		this.index = at >= 0 ? at : 0;
	}

	invalidate(): void {
		this.input.invalidate?.();
	}

	handleInput(data: string): void {
		if (this.options.onKey?.(data, this)) return;
		const kb = getKeybindings();
		const count = this.filtered.length;
		const page = this.options.maxRows ?? 10;
		if (kb.matches(data, "tui.select.up")) this.index = count ? (this.index - 1 + count) % count : 0;
		else if (kb.matches(data, "tui.select.down")) this.index = count ? (this.index + 1) % count : 0;
		else if (kb.matches(data, "tui.select.pageUp")) this.index = Math.max(0, this.index - page);
		else if (kb.matches(data, "tui.select.pageDown")) this.index = Math.max(0, Math.min(count - 1, this.index + page));
		else if (kb.matches(data, "tui.select.confirm")) {
			const item = this.selected;
			if (item !== undefined) this.options.onSelect(item);
		} else if (kb.matches(data, "tui.select.cancel")) this.options.onCancel();
		else {
			const before = this.input.getValue();
			this.input.handleInput(data);
			if (this.input.getValue() !== before) this.refilter();
		}
	}

	render(width: number): string[] {
		const theme = currentTheme();
		const border = theme.fg("borderAccent", "─".repeat(Math.max(1, width)));
		const lines = [border, truncateToWidth(` ${theme.bold(theme.fg("accent", this.options.title))}`, width)];
		for (const line of this.options.header?.() ?? []) lines.push(truncateToWidth(` ${line}`, width));
		const [search] = this.input.render(Math.max(1, width - 3));
		lines.push(`${theme.fg("muted", " ›")} ${search ?? ""}`, "");
		const rows = this.options.maxRows ?? 10;
		const start = Math.max(0, Math.min(this.index - Math.floor(rows / 2), this.filtered.length - rows));
		const shown = this.filtered.slice(start, start + rows);
		if (shown.length === 0) lines.push(theme.fg("muted", `   ${this.options.empty ?? "No matches"}`));
		for (const [i, item] of shown.entries()) {
			const selected = start + i === this.index;
			const cursor = selected ? theme.fg("accent", " → ") : "   ";
			lines.push(truncateToWidth(cursor + this.options.row(item, selected, width - 3), width));
		}
		if (this.filtered.length > rows) lines.push(theme.fg("dim", `   (${this.index + 1}/${this.filtered.length})`));
		const hints = [...(this.options.hints ?? []), keyHint("tui.select.confirm", "choose"), keyHint("tui.select.cancel", "cancel")];
		lines.push("", truncateToWidth(` ${hints.join("  ")}`, width), border);
		return lines;
	}
}
