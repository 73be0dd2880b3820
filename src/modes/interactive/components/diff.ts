// A diff as coloured, numbered lines (pi 1.6's renderDiff): removed red, added green, context dim,
// the words that changed in a one-line replacement in inverse. Reads our edit tool's unified diff
// (`@@` hunks) and pi's numbered form (`+12 text`, `-12 text`, ` 12 text`).
import { currentTheme } from "../theme/styles.ts";
import type { Theme } from "../theme/theme.ts";

export interface RenderDiffOptions {
	/** Kept for pi compatibility; the path plays no part in the rendering. */
	filePath?: string;
}

interface DiffLine {
	kind: "+" | "-" | " " | "gap";
	number: string;
	text: string;
}

function parseUnified(text: string): DiffLine[] {
	const out: DiffLine[] = [];
	let oldNo = 0;
	let newNo = 0;
	for (const line of text.split("\n")) {
		if (line.startsWith("--- ") || line.startsWith("+++ ")) continue;
		const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
		if (hunk) {
			if (out.length > 0) out.push({ kind: "gap", number: "", text: "" });
			oldNo = Number(hunk[1]);
			newNo = Number(hunk[2]);
			continue;
		}
		if (line === "" || line.startsWith("\\")) continue;
		const kind = line[0] as "+" | "-" | " ";
		if (kind === "+") out.push({ kind, number: String(newNo++), text: line.slice(1) });
		else if (kind === "-") out.push({ kind, number: String(oldNo++), text: line.slice(1) });
		else {
			out.push({ kind: " ", number: String(newNo), text: line.slice(1) });
			oldNo++;
			newNo++;
		}
	}
	return out;
}

function parseNumbered(text: string): DiffLine[] {
	return text.split("\n").flatMap((line): DiffLine[] => {
		const m = /^([+\- ])(\s*\d*)\s(.*)$/.exec(line);
		if (!m) return line.trim() === "..." || line.trim() === "" ? [] : [{ kind: " ", number: "", text: line }];
		return [{ kind: m[1] as "+" | "-" | " ", number: m[2]!.trim(), text: m[3]! }];
	});
}

/** Words (and the spaces between) of a line, for a word-level comparison. */
function words(text: string): string[] {
	return text.match(/\s+|[\p{L}\p{N}_]+|[^\s\p{L}\p{N}_]/gu) ?? [];
}

/** Marks, per side, which words are not in the longest common subsequence of the two lines. */
function changedWords(a: string[], b: string[]): [boolean[], boolean[]] {
	const m = b.length;
	const lcs = new Uint16Array((a.length + 1) * (m + 1));
	for (let i = a.length - 1; i >= 0; i--)
		for (let j = m - 1; j >= 0; j--) lcs[i * (m + 1) + j] = a[i] === b[j] ? lcs[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(lcs[(i + 1) * (m + 1) + j]!, lcs[i * (m + 1) + j + 1]!);
	const inA = a.map(() => true);
	const inB = b.map(() => true);
	let i = 0;
	let j = 0;
	while (i < a.length && j < m) {
		if (a[i] === b[j]) {
			inA[i++] = false;
			inB[j++] = false;
		} else if (lcs[(i + 1) * (m + 1) + j]! >= lcs[i * (m + 1) + j + 1]!) i++;
		else j++;
	}
	return [inA, inB];
}

function paintWords(parts: string[], changed: boolean[], theme: Theme): string {
	return parts.map((w, k) => (changed[k] && w.trim() ? theme.inverse(w) : w)).join("");
}

/** The diff as one string of coloured lines, ready for a Text component. */
export function renderDiff(diffText: string, _options: RenderDiffOptions = {}, theme: Theme = currentTheme()): string {
	const lines = /^@@ /m.test(diffText) ? parseUnified(diffText) : parseNumbered(diffText);
	const width = Math.max(1, ...lines.map((l) => l.number.length));
	const out: string[] = [];
	for (let k = 0; k < lines.length; k++) {
		const line = lines[k]!;
		const text = line.text.replace(/\t/g, "   ");
		if (line.kind === "gap") {
			out.push(theme.fg("toolDiffContext", `${" ".repeat(width + 1)}⋮`));
			continue;
		}
		const gutter = `${line.kind}${line.number.padStart(width)} `;
		const next = lines[k + 1];
		const isPair = line.kind === "-" && next?.kind === "+" && lines[k - 1]?.kind !== "-" && lines[k + 2]?.kind !== "+";
		if (isPair && text.length <= 500 && next.text.length <= 500) {
			const a = words(text);
			const b = words(next.text.replace(/\t/g, "   "));
			const [ca, cb] = changedWords(a, b);
			out.push(theme.fg("toolDiffRemoved", gutter + paintWords(a, ca, theme)));
			out.push(theme.fg("toolDiffAdded", `+${next.number.padStart(width)} ${paintWords(b, cb, theme)}`));
			k++;
			continue;
		}
		const token = line.kind === "+" ? "toolDiffAdded" : line.kind === "-" ? "toolDiffRemoved" : "toolDiffContext";
		out.push(theme.fg(token, gutter + text));
	}
	return out.join("\n");
}
