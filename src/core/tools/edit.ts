// The `edit` tool: exact-text replacements that must each match once, applied together,
// keeping the file's line endings and BOM. The result carries a unified diff in details.
import { constants } from "node:fs";
import { fsp } from "./fs-async.ts";
import { type AtomicWriteFs, saveFailureText, writeFileAtomic } from "./atomic-write.ts";
import { unifiedDiff } from "./edit-diff.ts";
import description from "./edit.md" with { type: "text" };
import { withFileMutationQueue } from "./file-mutation-queue.ts";
import { errorCode, fsError, resolveToolPath, shownPath, throwIfAborted } from "./paths.ts";
import type { AgentTool } from "./types.ts";
import { EditBlock, EditParams } from "./params.ts";

export { EditBlock, EditParams };

export interface EditToolDetails {
	/** Unified diff of the change. */
	diff: string;
	/** 1-based line of the first change in the new file. */
	firstChangedLine?: number;
}

export interface EditOperations {
	readFile(absolutePath: string): Promise<Buffer>;
	/** Replace the file; the default never leaves it half-written (temp file, fsync, rename). */
	writeFile(absolutePath: string, content: string): Promise<void>;
	/** Resolves when the file exists and can be read and written. */
	access(absolutePath: string): Promise<void>;
}

export interface EditToolOptions {
	/** Default: the local filesystem. */
	operations?: EditOperations;
}

/** The local filesystem; `fs` swaps the calls the atomic save makes (tests inject failures there). */
export function createLocalEditOperations(fs?: AtomicWriteFs): EditOperations {
	return {
		readFile: (absolutePath) => fsp().readFile(absolutePath),
		writeFile: (absolutePath, content) => writeFileAtomic(absolutePath, content, fs),
		access: (absolutePath) => fsp().access(absolutePath, constants.R_OK | constants.W_OK),
	};
}

/**
 * Accept the older single-edit form `{ path, oldText, newText }` (pi's earlier schema, still in
 * old sessions and habits of some models) by folding it into `edits`, and `edits` sent as a JSON
 * string, which some models do for nested arrays.
 */
export function prepareEditArguments(args: unknown): EditParams {
	if (typeof args !== "object" || args === null) return args as EditParams;
	const { oldText, newText, ...rest } = args as Record<string, unknown>;
	let edits = rest.edits;
	if (typeof edits === "string") {
		try {
			edits = JSON.parse(edits);
		} catch {
			// left as it is: schema validation will explain what is wrong
		}
	}
	if (typeof oldText === "string" && typeof newText === "string") {
		edits = [...(Array.isArray(edits) ? edits : []), { oldText, newText }];
	}
	return (edits === undefined ? rest : { ...rest, edits }) as EditParams;
}

interface Match {
	index: number;
	start: number;
	end: number;
	replacement: string;
}

/** Start offsets of every occurrence, overlapping ones included (they make a match ambiguous too). */
function occurrences(haystack: string, needle: string): number[] {
	const found: number[] = [];
	for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) found.push(at);
	return found;
}

/** True when every line starts like read's output (`  12\t…`), i.e. the model copied the prefixes. */
function hasLineNumberPrefixes(text: string): boolean {
	return text.split("\n").every((line) => /^\s*\d+\t/.test(line));
}

function findMatch(body: string, crlf: boolean, edit: EditBlock, index: number, count: number, shown: string): Match {
	const label = count > 1 ? `edits[${index}].oldText` : "oldText";
	const oldLf = edit.oldText.replaceAll("\r\n", "\n");
	const newLf = edit.newText.replaceAll("\r\n", "\n");
	if (oldLf === "") throw new Error(`${label} is empty; give the exact text to replace in ${shown}`);
	// In a CRLF file try the CRLF spelling first; a mixed file may still hold LF-only lines.
	const variants = crlf && oldLf.includes("\n") ? ["\r\n", "\n"] : ["\n"];
	for (const eol of variants) {
		const needle = oldLf.replaceAll("\n", eol);
		const at = occurrences(body, needle);
		if (at.length === 1) return { index, start: at[0]!, end: at[0]! + needle.length, replacement: newLf.replaceAll("\n", eol) };
		if (at.length > 1) {
			throw new Error(`${label} matches ${at.length} places in ${shown}; it must be unique, so include more surrounding lines`);
		}
	}
	const hint = hasLineNumberPrefixes(oldLf) ? " (leave out the line-number prefixes that read adds)" : "";
	throw new Error(`${label} not found in ${shown}; it must match exactly, including whitespace${hint}`);
}

export function createEditTool(cwd: string, options: EditToolOptions = {}): AgentTool<typeof EditParams, EditToolDetails> {
	const ops = options.operations ?? createLocalEditOperations();
	return {
		name: "edit",
		label: "Edit",
		description,
		parameters: EditParams,
		promptSnippet: "Replace exact text in a file (each oldText must be unique)",
		promptGuidelines: [
			"Use edit for targeted changes: read the file first and copy oldText exactly",
			"Keep each oldText small but unique; merge nearby changes into one edit",
		],
		prepareArguments: prepareEditArguments,
		async execute(_toolCallId, rawParams, signal) {
			throwIfAborted(signal);
			const params = prepareEditArguments(rawParams);
			const shown = shownPath(params.path);
			const edits = Array.isArray(params.edits) ? params.edits : [];
			if (edits.length === 0) throw new Error(`No edits given for ${shown}; pass edits: [{ oldText, newText }]`);
			const absolutePath = resolveToolPath(cwd, params.path);

			return withFileMutationQueue(absolutePath, async () => {
				throwIfAborted(signal);
				const raw = (await readForEdit(ops, absolutePath, shown)).toString("utf8");
				const bom = raw.startsWith("\uFEFF");
				const body = bom ? raw.slice(1) : raw;
				const firstNewline = body.indexOf("\n");
				const crlf = firstNewline > 0 && body[firstNewline - 1] === "\r";

				const matches = edits
					.map((edit, index) => findMatch(body, crlf, edit, index, edits.length, shown))
					.sort((x, y) => x.start - y.start);
				for (let i = 1; i < matches.length; i++) {
					const [a, b] = [matches[i - 1]!, matches[i]!];
					if (b.start < a.end) {
						const [first, second] = [Math.min(a.index, b.index), Math.max(a.index, b.index)];
						throw new Error(`edits[${first}] and edits[${second}] overlap in ${shown}; merge them into one edit`);
					}
				}
				let updated = body;
				for (let i = matches.length - 1; i >= 0; i--) {
					const m = matches[i]!;
					updated = updated.slice(0, m.start) + m.replacement + updated.slice(m.end);
				}
				if (updated === body) throw new Error(`No changes made to ${shown}: newText is identical to oldText`);

				try {
					await ops.writeFile(absolutePath, (bom ? "\uFEFF" : "") + updated);
				} catch (error) {
					throw new Error(saveFailureText(error, shown));
				}
				const { diff, firstChangedLine } = unifiedDiff(body.replaceAll("\r\n", "\n"), updated.replaceAll("\r\n", "\n"), shown);
				const where = firstChangedLine ? ` (first change at line ${firstChangedLine})` : "";
				const n = edits.length;
				return {
					content: [{ type: "text", text: `Applied ${n} edit${n === 1 ? "" : "s"} to ${shown}${where}` }],
					details: { diff, firstChangedLine },
				};
			});
		},
	};
}

async function readForEdit(ops: EditOperations, absolutePath: string, shown: string): Promise<Buffer> {
	try {
		await ops.access(absolutePath);
		return await ops.readFile(absolutePath);
	} catch (error) {
		if (errorCode(error) === "EISDIR") throw new Error(`${shown} is a directory, not a file`);
		throw fsError(error, shown, "read", `File not found: ${shown}`);
	}
}
