// The `ls` tool: one directory's entries, sorted, directories with a trailing `/`.
import { fsp } from "./fs-async.ts";
import { join } from "node:path";
import { type SavedOutputDetails, limitOutput } from "./full-output.ts";
import description from "./ls.md" with { type: "text" };
import { fsError, resolveToolPath, shownPath, throwIfAborted } from "./paths.ts";
import type { AgentTool } from "./types.ts";
import { LsParams } from "./params.ts";
import { DEFAULT_LS_LIMIT } from "./limits.ts";

export { LsParams };

export interface LsToolDetails extends SavedOutputDetails {
	/** The limit, when the directory had more entries than that. */
	entryLimitReached?: number;
}

export interface LsOperations {
	/** Rejects (ENOENT) when the path does not exist. */
	stat(absolutePath: string): Promise<{ isDirectory(): boolean }>;
	/** Entry names, in any order. */
	readdir(absolutePath: string): Promise<string[]>;
}

export interface LsToolOptions {
	/** Default: the local filesystem. */
	operations?: LsOperations;
}

export function createLocalLsOperations(): LsOperations {
	return { stat: (absolutePath) => fsp().stat(absolutePath), readdir: (absolutePath) => fsp().readdir(absolutePath) };
}

/** Case-insensitive name order, ties broken by the exact name so the order is total. */
function byName(a: string, b: string): number {
	const [x, y] = [a.toLowerCase(), b.toLowerCase()];
	if (x !== y) return x < y ? -1 : 1;
	return a < b ? -1 : a > b ? 1 : 0;
}

export function createLsTool(cwd: string, options: LsToolOptions = {}): AgentTool<typeof LsParams, LsToolDetails> {
	const ops = options.operations ?? createLocalLsOperations();
	return {
		name: "ls",
		label: "ls",
		description,
		parameters: LsParams,
		promptSnippet: "List a directory (directories end with /)",
		async execute(_toolCallId, params, signal) {
			throwIfAborted(signal);
			const shown = shownPath(params.path ?? ".");
			const dir = resolveToolPath(cwd, params.path ?? ".");
			const isDirectory = await ops.stat(dir).then(
				(s) => s.isDirectory(),
				(error) => {
					throw fsError(error, shown, "list");
				},
			);
			if (!isDirectory) throw new Error(`Not a directory: ${shown}`);
			const names = await ops.readdir(dir).catch((error) => {
				throw fsError(error, shown, "list");
			});
			if (names.length === 0) return { content: [{ type: "text", text: "(empty directory)" }], details: {} };

			const limit = params.limit ?? DEFAULT_LS_LIMIT;
			const shownNames = names.sort(byName).slice(0, limit);
			const entries = await Promise.all(
				shownNames.map(async (name) => {
					// A dangling link or a vanished entry is listed as a plain name.
					const isDirectory = await ops.stat(join(dir, name)).then((s) => s.isDirectory(), () => false);
					return isDirectory ? `${name}/` : name;
				}),
			);
			const limited = await limitOutput("ls", entries.join("\n"));
			const details: LsToolDetails = { ...limited.details };
			let text = limited.text;
			if (names.length > limit) {
				details.entryLimitReached = limit;
				text += `\n\n[Showing ${limit} of ${names.length} entries. Use limit=${names.length} to see all]`;
			}
			return { content: [{ type: "text", text }], details };
		},
	};
}
