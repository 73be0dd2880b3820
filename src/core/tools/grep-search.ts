// The search behind the grep tool, minus the tool: request and result shapes shared with the
// ripgrep backend, and the built-in backend (Bun.Glob + RegExp) used when rg is absent.
import { join } from "node:path";
import { errorMessage, throwIfAborted } from "./paths.ts";
import { globMatcher } from "./walk.ts";

export interface GrepSearchRequest {
	pattern: string;
	/** Absolute file or directory to search. */
	path: string;
	isDirectory: boolean;
	cwd: string;
	glob?: string;
	ignoreCase: boolean;
	literal: boolean;
	context: number;
	limit: number;
	signal?: AbortSignal;
}

export interface GrepLine {
	/** As the backend names it: absolute, or relative to the request's cwd. */
	file: string;
	/** 1-based. */
	line: number;
	text: string;
	/** false for a context line. */
	match: boolean;
}

export interface GrepSearch {
	/** In output order: by file, then line. */
	lines: GrepLine[];
	matches: number;
	/** There were more matches than the limit. */
	limitReached: boolean;
}

/** What the built-in backend needs from the filesystem. */
export interface GrepFiles {
	readFile(absolutePath: string): Promise<string>;
	/** Files under a directory, relative to it, skipping ignored ones. */
	listFiles(root: string, signal?: AbortSignal): AsyncIterable<string>;
}

export function compilePattern(pattern: string, literal: boolean, ignoreCase: boolean): RegExp {
	const source = literal ? pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&") : pattern;
	try {
		return new RegExp(source, ignoreCase ? "i" : "");
	} catch (error) {
		throw new Error(`Invalid regex ${JSON.stringify(pattern)}: ${errorMessage(error)}. Set literal: true to search for the text as written`);
	}
}

function fileLines(content: string): string[] {
	const lines = content.split("\n");
	if (lines[lines.length - 1] === "") lines.pop();
	return lines.map((line) => (line.endsWith("\r") ? line.slice(0, -1) : line));
}

export async function searchBuiltin(files: GrepFiles, request: GrepSearchRequest): Promise<GrepSearch> {
	const regex = compilePattern(request.pattern, request.literal, request.ignoreCase);
	const matchesGlob = request.glob ? globMatcher(request.glob) : () => true;
	const result: GrepSearch = { lines: [], matches: 0, limitReached: false };

	const candidates = request.isDirectory ? files.listFiles(request.path, request.signal) : [""];
	for await (const rel of candidates) {
		throwIfAborted(request.signal);
		if (request.isDirectory && !matchesGlob(rel)) continue;
		const file = request.isDirectory ? join(request.path, rel) : request.path;
		let content: string;
		try {
			content = await files.readFile(file);
		} catch {
			continue;
		}
		if (content.slice(0, 8000).includes("\0")) continue; // binary
		const lines = fileLines(content);
		const hits: number[] = [];
		for (let i = 0; i < lines.length; i++) {
			if (!regex.test(lines[i]!)) continue;
			if (result.matches + hits.length === request.limit) {
				result.limitReached = true;
				break;
			}
			hits.push(i);
		}
		const hitSet = new Set(hits);
		let next = 0; // first line index not yet emitted for this file
		for (const hit of hits) {
			const from = Math.max(next, hit - request.context);
			const to = Math.min(lines.length - 1, hit + request.context);
			for (let i = from; i <= to; i++) result.lines.push({ file, line: i + 1, text: lines[i]!, match: hitSet.has(i) });
			next = to + 1;
		}
		result.matches += hits.length;
		if (result.limitReached) break;
	}
	return result;
}
