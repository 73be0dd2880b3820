// `--list-models [search]`: the available models as a table (provider, model, context, max out,
// thinking, images), optionally narrowed by a search.
import type { Model } from "./types.ts";

/** Lowercase letters and digits only, so "sonnet 4.5" finds "claude-sonnet-4-5". */
export function normalizeForMatch(text: string): string {
	return text.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** Every word of `search` appears in the model's provider, id or name. */
export function matchesSearch(model: Model, search: string): boolean {
	const haystack = normalizeForMatch(`${model.provider}/${model.id} ${model.name}`);
	return search
		.split(/\s+/)
		.map(normalizeForMatch)
		.filter(Boolean)
		.every((word) => haystack.includes(word));
}

/** 200000 → "200K", 1050000 → "1.05M", 131072 → "131K". */
export function formatTokenCount(n: number): string {
	if (n >= 1_000_000) return `${Number((n / 1_000_000).toFixed(2))}M`;
	if (n >= 1000) return `${Math.round(n / 1000)}K`;
	return String(n);
}

/**
 * The table, sorted by provider then id. Returns undefined when there is nothing to list, so the
 * caller can explain how to configure a model instead.
 */
export function formatModelList(models: Model[], search?: string): string | undefined {
	if (models.length === 0) return undefined;
	const shown = (search ? models.filter((m) => matchesSearch(m, search)) : [...models]).sort(
		(a, b) => a.provider.localeCompare(b.provider) || a.id.localeCompare(b.id),
	);
	if (shown.length === 0) return `No models match "${search}".\n`;
	const rows = [
		["provider", "model", "context", "max-out", "thinking", "images"],
		...shown.map((m) => [
			m.provider,
			m.id,
			formatTokenCount(m.contextWindow),
			formatTokenCount(m.maxTokens),
			m.reasoning ? "yes" : "no",
			m.input.includes("image") ? "yes" : "no",
		]),
	];
	const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
	return `${rows.map((r) => r.map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col]!))).join("  ")).join("\n")}\n`;
}
