// The `grep` tool: ripgrep when it is on PATH, else a built-in search; either way the same
// `file:line: text` output, match limit and truncation.
import { fsp } from "./fs-async.ts";
import { type SavedOutputDetails, limitOutput } from "./full-output.ts";
import description from "./grep.md" with { type: "text" };
import { type GrepFiles, type GrepLine, type GrepSearch, type GrepSearchRequest, searchBuiltin } from "./grep-search.ts";
import { displayPath, fsError, resolveToolPath, shownPath, throwIfAborted } from "./paths.ts";
import { searchWithRipgrep } from "./ripgrep.ts";
import { GREP_MAX_LINE_LENGTH, fillLimits, truncateLine } from "./truncate.ts";
import type { AgentTool } from "./types.ts";
import { localFileLister } from "./walk.ts";
import { GrepParams } from "./params.ts";
import { DEFAULT_GREP_LIMIT } from "./limits.ts";

export { GrepParams };

export interface GrepToolDetails extends SavedOutputDetails {
	/** The limit, when more matches than that existed. */
	matchLimitReached?: number;
	/** Some lines were cut to GREP_MAX_LINE_LENGTH characters. */
	linesTruncated?: boolean;
}

export interface GrepOperations extends GrepFiles {
	/** Whether the path is a directory; rejects (ENOENT) when it does not exist. */
	isDirectory(absolutePath: string): Promise<boolean>;
}

export interface GrepToolOptions {
	/** Default: the local filesystem. Custom operations always use the built-in search. */
	operations?: GrepOperations;
	/** Path to rg, or false for the built-in search. Default: rg on PATH, if any. */
	ripgrep?: string | false;
}

export function createLocalGrepOperations(cwd: string): GrepOperations {
	return {
		isDirectory: async (absolutePath) => (await fsp().stat(absolutePath)).isDirectory(),
		readFile: (absolutePath) => fsp().readFile(absolutePath, "utf8"),
		listFiles: localFileLister(cwd),
	};
}

function formatLines(cwd: string, lines: GrepLine[], context: number): { text: string; cut: boolean } {
	const out: string[] = [];
	let cut = false;
	let previous: GrepLine | undefined;
	for (const line of lines) {
		// With context, separate groups that are not contiguous, as grep does.
		if (context > 0 && previous && (previous.file !== line.file || previous.line + 1 !== line.line)) out.push("--");
		const { text, wasTruncated } = truncateLine(line.text, GREP_MAX_LINE_LENGTH);
		cut ||= wasTruncated;
		const file = displayPath(cwd, resolveToolPath(cwd, line.file));
		out.push(line.match ? `${file}:${line.line}: ${text}` : `${file}-${line.line}- ${text}`);
		previous = line;
	}
	return { text: out.join("\n"), cut };
}

export function createGrepTool(cwd: string, options: GrepToolOptions = {}): AgentTool<typeof GrepParams, GrepToolDetails> {
	const ops = options.operations ?? createLocalGrepOperations(cwd);
	// Looked up per call: PATH lookups are cheap and a tool created at start-up should not pay one.
	const ripgrepPath = () => (options.operations || options.ripgrep === false ? undefined : (options.ripgrep ?? Bun.which("rg") ?? undefined));

	return {
		name: "grep",
		label: "Grep",
		description: fillLimits(description).replaceAll("{{lineLength}}", String(GREP_MAX_LINE_LENGTH)),
		parameters: GrepParams,
		promptSnippet: "Search file contents by regex (respects .gitignore)",
		promptGuidelines: ["Use grep to search code rather than bash grep"],
		async execute(_toolCallId, params, signal) {
			throwIfAborted(signal);
			const shown = shownPath(params.path ?? ".");
			const absolutePath = resolveToolPath(cwd, params.path ?? ".");
			const isDirectory = await ops.isDirectory(absolutePath).catch((error) => {
				throw fsError(error, shown, "search");
			});
			const limit = params.limit ?? DEFAULT_GREP_LIMIT;
			const context = params.context ?? 0;
			const request: GrepSearchRequest = {
				pattern: params.pattern,
				path: absolutePath,
				isDirectory,
				cwd,
				glob: params.glob,
				ignoreCase: params.ignoreCase ?? false,
				literal: params.literal ?? false,
				context,
				limit,
				signal,
			};
			const rg = ripgrepPath();
			const found: GrepSearch = rg ? await searchWithRipgrep(rg, request) : await searchBuiltin(ops, request);
			if (found.matches === 0) return { content: [{ type: "text", text: "No matches found" }], details: {} };

			const { text, cut } = formatLines(cwd, found.lines, context);
			const limited = await limitOutput("grep", text);
			const notices: string[] = [];
			if (found.limitReached) notices.push(`[Stopped at ${limit} matches. Use limit=${limit * 2} for more, or narrow the pattern or path]`);
			if (cut) notices.push(`[Lines longer than ${GREP_MAX_LINE_LENGTH} characters were cut; read the file to see them whole]`);
			const details: GrepToolDetails = { ...limited.details };
			if (found.limitReached) details.matchLimitReached = limit;
			if (cut) details.linesTruncated = true;
			return {
				content: [{ type: "text", text: notices.length > 0 ? `${limited.text}\n\n${notices.join("\n")}` : limited.text }],
				details,
			};
		},
	};
}
