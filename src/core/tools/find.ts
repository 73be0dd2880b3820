// The `find` tool: files whose name or path matches a glob, listed with Bun.Glob over the
// shared walker (no fd needed), stopping at the result limit.
import { fsp } from "./fs-async.ts";
import description from "./find.md" with { type: "text" };
import { type SavedOutputDetails, limitOutput } from "./full-output.ts";
import { displayPath, fsError, resolveToolPath, shownPath, throwIfAborted } from "./paths.ts";
import type { AgentTool } from "./types.ts";
import { globMatcher, localFileLister } from "./walk.ts";
import { FindParams } from "./params.ts";
import { DEFAULT_FIND_LIMIT } from "./limits.ts";

export { FindParams };

export interface FindToolDetails extends SavedOutputDetails {
	/** The limit, when more files matched than that. */
	resultLimitReached?: number;
}

export interface FindOperations {
	/** Whether the path is a directory; rejects (ENOENT) when it does not exist. */
	isDirectory(absolutePath: string): Promise<boolean>;
	/** Files under a directory, relative to it with `/` separators, skipping ignored ones. */
	listFiles(root: string, signal?: AbortSignal): AsyncIterable<string>;
}

export interface FindToolOptions {
	/** Default: the local filesystem. */
	operations?: FindOperations;
}

export function createLocalFindOperations(cwd: string): FindOperations {
	return {
		isDirectory: async (absolutePath) => (await fsp().stat(absolutePath)).isDirectory(),
		listFiles: localFileLister(cwd),
	};
}

export function createFindTool(cwd: string, options: FindToolOptions = {}): AgentTool<typeof FindParams, FindToolDetails> {
	const ops = options.operations ?? createLocalFindOperations(cwd);
	return {
		name: "find",
		label: "Find",
		description,
		parameters: FindParams,
		promptSnippet: "Find files by glob pattern (respects .gitignore)",
		async execute(_toolCallId, params, signal) {
			throwIfAborted(signal);
			const shown = shownPath(params.path ?? ".");
			const root = resolveToolPath(cwd, params.path ?? ".");
			const isDirectory = await ops.isDirectory(root).catch((error) => {
				throw fsError(error, shown, "search");
			});
			if (!isDirectory) throw new Error(`Not a directory: ${shown}`);

			const limit = params.limit ?? DEFAULT_FIND_LIMIT;
			const matches = globMatcher(params.pattern);
			const found: string[] = [];
			let limitReached = false;
			for await (const rel of ops.listFiles(root, signal)) {
				if (!matches(rel)) continue;
				if (found.length === limit) {
					limitReached = true;
					break;
				}
				found.push(displayPath(cwd, resolveToolPath(root, rel)));
			}
			if (found.length === 0) return { content: [{ type: "text", text: `No files found matching ${params.pattern}` }], details: {} };

			const limited = await limitOutput("find", found.join("\n"));
			const details: FindToolDetails = { ...limited.details };
			let text = limited.text;
			if (limitReached) {
				details.resultLimitReached = limit;
				text += `\n\n[Stopped at ${limit} results. Use limit=${limit * 2} for more, or narrow the pattern]`;
			}
			return { content: [{ type: "text", text }], details };
		},
	};
}
