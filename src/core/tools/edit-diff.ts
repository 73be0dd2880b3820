// A line-based unified diff of one file before and after an edit, for the UI and the session
// (details.diff), plus the first changed line so an editor can jump there.

export interface EditDiff {
	/** Unified diff with `--- a/<path>` / `+++ b/<path>` headers; "" when nothing changed. */
	diff: string;
	/** 1-based line in the new file where the first change is; undefined when nothing changed. */
	firstChangedLine: number | undefined;
}

export type DiffOp = { kind: " " | "-" | "+"; text: string };
type Op = DiffOp;

/** Past this many cells the middle is shown as a plain delete-then-add instead of an LCS. */
const MAX_LCS_CELLS = 4_000_000;

function lines(text: string): string[] {
	if (text === "") return [];
	const out = text.split("\n");
	if (out[out.length - 1] === "") out.pop();
	return out;
}

function middleOps(a: string[], b: string[]): Op[] {
	const n = a.length;
	const m = b.length;
	if (n * m > MAX_LCS_CELLS) {
		return [...a.map((text) => ({ kind: "-" as const, text })), ...b.map((text) => ({ kind: "+" as const, text }))];
	}
	// lcs[i * (m + 1) + j] = length of the longest common subsequence of a[i..] and b[j..]
	const lcs = new Uint32Array((n + 1) * (m + 1));
	for (let i = n - 1; i >= 0; i--) {
		for (let j = m - 1; j >= 0; j--) {
			lcs[i * (m + 1) + j] =
				a[i] === b[j] ? lcs[(i + 1) * (m + 1) + j + 1]! + 1 : Math.max(lcs[(i + 1) * (m + 1) + j]!, lcs[i * (m + 1) + j + 1]!);
		}
	}
	const ops: Op[] = [];
	let i = 0;
	let j = 0;
	while (i < n || j < m) {
		if (i < n && j < m && a[i] === b[j]) {
			ops.push({ kind: " ", text: a[i++]! });
			j++;
		} else if (j >= m || (i < n && lcs[(i + 1) * (m + 1) + j]! >= lcs[i * (m + 1) + j + 1]!)) {
			ops.push({ kind: "-", text: a[i++]! });
		} else {
			ops.push({ kind: "+", text: b[j++]! });
		}
	}
	return ops;
}

/** Line by line: kept (" "), removed ("-") and added ("+") lines, common prefix and suffix kept whole. */
export function diffLines(oldText: string, newText: string): { ops: DiffOp[]; prefix: number; newLineCount: number } {
	const a = lines(oldText);
	const b = lines(newText);
	let prefix = 0;
	while (prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
	let suffix = 0;
	while (suffix < a.length - prefix && suffix < b.length - prefix && a[a.length - 1 - suffix] === b[b.length - 1 - suffix]) suffix++;
	const ops: Op[] = [
		...a.slice(0, prefix).map((text) => ({ kind: " " as const, text })),
		...middleOps(a.slice(prefix, a.length - suffix), b.slice(prefix, b.length - suffix)),
		...a.slice(a.length - suffix).map((text) => ({ kind: " " as const, text })),
	];
	return { ops, prefix, newLineCount: b.length };
}

/**
 * A diff for people: each line with its number (old for removed and kept lines, new for added
 * ones), `contextLines` kept lines around each change and ` ...` for the ones left out.
 */
export function displayDiff(oldText: string, newText: string, contextLines = 4): EditDiff {
	const { ops } = diffLines(oldText, newText);
	const width = String(Math.max(lines(oldText).length, lines(newText).length, 1)).length;
	const changed = ops.map((op) => op.kind !== " ");
	const near = (i: number) => {
		for (let d = -contextLines; d <= contextLines; d++) if (changed[i + d]) return true;
		return false;
	};
	const out: string[] = [];
	let oldLine = 1;
	let newLine = 1;
	let firstChangedLine: number | undefined;
	let skipping = false;
	for (let i = 0; i < ops.length; i++) {
		const op = ops[i]!;
		if (op.kind === " " && !near(i)) {
			if (!skipping) out.push(` ${"".padStart(width)} ...`);
			skipping = true;
		} else {
			skipping = false;
			if (op.kind !== " ") firstChangedLine ??= newLine;
			const n = op.kind === "+" ? newLine : oldLine;
			out.push(`${op.kind}${String(n).padStart(width)} ${op.text}`);
		}
		if (op.kind !== "+") oldLine++;
		if (op.kind !== "-") newLine++;
	}
	if (firstChangedLine === undefined) return { diff: "", firstChangedLine: undefined };
	return { diff: out.join("\n"), firstChangedLine };
}

export function unifiedDiff(oldText: string, newText: string, path: string, contextLines = 3): EditDiff {
	const { ops, prefix, newLineCount } = diffLines(oldText, newText);
	const changed = ops.flatMap((op, index) => (op.kind === " " ? [] : [index]));
	if (changed.length === 0) return { diff: "", firstChangedLine: undefined };

	// Old and new line counts before each op, for hunk headers.
	const oldBefore: number[] = [];
	const newBefore: number[] = [];
	let oldCount = 0;
	let newCount = 0;
	for (const op of ops) {
		oldBefore.push(oldCount);
		newBefore.push(newCount);
		if (op.kind !== "+") oldCount++;
		if (op.kind !== "-") newCount++;
	}

	const out = [`--- a/${path}`, `+++ b/${path}`];
	let k = 0;
	while (k < changed.length) {
		let last = k;
		while (last + 1 < changed.length && changed[last + 1]! - changed[last]! <= 2 * contextLines + 1) last++;
		const from = Math.max(0, changed[k]! - contextLines);
		const to = Math.min(ops.length, changed[last]! + contextLines + 1);
		const hunk = ops.slice(from, to);
		const oldLen = hunk.filter((op) => op.kind !== "+").length;
		const newLen = hunk.filter((op) => op.kind !== "-").length;
		const oldStart = oldBefore[from]! + (oldLen > 0 ? 1 : 0);
		const newStart = newBefore[from]! + (newLen > 0 ? 1 : 0);
		out.push(`@@ -${oldStart},${oldLen} +${newStart},${newLen} @@`);
		for (const op of hunk) out.push(`${op.kind}${op.text}`);
		k = last + 1;
	}
	const firstChangedLine = Math.max(1, Math.min(prefix + 1, newLineCount));
	return { diff: `${out.join("\n")}\n`, firstChangedLine };
}
