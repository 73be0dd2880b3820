// What the editor completes: `/command` names (with `[p]`/`[u]`/`[t]` and the description) and
// their arguments (getArgumentCompletions), paths on Tab (pi-tui's provider), and `@file` anywhere
// in the text, fuzzy over the project's files (.gitignore honoured). Extensions stack their own
// providers on top with addAutocompleteProvider.
import { basename } from "node:path";
import { CombinedAutocompleteProvider } from "@earendil-works/pi-tui/dist/autocomplete.js";
import { fuzzyFilter } from "@earendil-works/pi-tui/dist/fuzzy.js";
import type { AutocompleteItem, AutocompleteProvider, AutocompleteSuggestions, SlashCommand } from "@earendil-works/pi-tui";
import { loadIgnore, walkFiles } from "../../core/tools/walk.ts";

/** Files listed for @-completion at most (a huge tree is cut here, not walked to the end). */
const MAX_FILES = 20_000;
/** The listing is reused this long before the tree is walked again. */
const FILES_TTL_MS = 5_000;
const MAX_SUGGESTIONS = 20;

/** The project's files (and their folders), listed on demand and briefly cached. */
class FileIndex {
	private listing: { at: number; paths: Promise<string[]> } | undefined;

	constructor(private readonly cwd: string) {}

	paths(): Promise<string[]> {
		if (this.listing && Date.now() - this.listing.at < FILES_TTL_MS) return this.listing.paths;
		const paths = (async () => {
			const files: string[] = [];
			const dirs = new Set<string>();
			for await (const path of walkFiles(this.cwd, { ignore: await loadIgnore(this.cwd, this.cwd) })) {
				files.push(path);
				for (let i = path.indexOf("/"); i >= 0; i = path.indexOf("/", i + 1)) dirs.add(`${path.slice(0, i)}/`);
				if (files.length >= MAX_FILES) break;
			}
			return [...dirs, ...files];
		})().catch(() => [] as string[]);
		this.listing = { at: Date.now(), paths };
		return paths;
	}
}

/** The `@…` token the cursor is in (`@src/ma`, `@"my fi`), or undefined. */
export function atPrefix(textBeforeCursor: string): string | undefined {
	return /(?:^|[\s([{<])(@(?:"[^"]*|[^\s"]*))$/u.exec(textBeforeCursor)?.[1];
}

function quoteIfNeeded(path: string): string {
	return /\s/.test(path) ? `@"${path}"` : `@${path}`;
}

export class AppAutocomplete implements AutocompleteProvider {
	readonly triggerCharacters = ["@"];
	private readonly files: FileIndex;

	constructor(
		private readonly cwd: string,
		private readonly commands: () => SlashCommand[],
	) {
		this.files = new FileIndex(cwd);
	}

	private base(): CombinedAutocompleteProvider {
		return new CombinedAutocompleteProvider(this.commands(), this.cwd, null);
	}

	async getSuggestions(lines: string[], cursorLine: number, cursorCol: number, options: { signal: AbortSignal; force?: boolean }): Promise<AutocompleteSuggestions | null> {
		const before = (lines[cursorLine] ?? "").slice(0, cursorCol);
		const at = atPrefix(before);
		if (at !== undefined) return this.fileSuggestions(at, options.signal);
		return this.base().getSuggestions(lines, cursorLine, cursorCol, options);
	}

	private async fileSuggestions(prefix: string, signal: AbortSignal): Promise<AutocompleteSuggestions | null> {
		const query = prefix.replace(/^@"?/, "");
		const paths = await this.files.paths();
		if (signal.aborted) return null;
		const matches = query ? fuzzyFilter(paths, query, (p) => p) : paths.filter((p) => !p.slice(0, -1).includes("/"));
		const items: AutocompleteItem[] = matches.slice(0, MAX_SUGGESTIONS).map((path) => {
			const isDir = path.endsWith("/");
			return { value: quoteIfNeeded(path), label: `${basename(path)}${isDir ? "/" : ""}`, description: path };
		});
		return items.length > 0 ? { items, prefix } : null;
	}

	applyCompletion(lines: string[], cursorLine: number, cursorCol: number, item: AutocompleteItem, prefix: string): { lines: string[]; cursorLine: number; cursorCol: number } {
		return this.base().applyCompletion(lines, cursorLine, cursorCol, item, prefix);
	}

	shouldTriggerFileCompletion(lines: string[], cursorLine: number, cursorCol: number): boolean {
		return this.base().shouldTriggerFileCompletion(lines, cursorLine, cursorCol);
	}
}
