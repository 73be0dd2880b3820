// grep's fast path: run ripgrep with --json and read its events, stopping it once the match
// limit is passed so a broad pattern in a big tree costs no more than the lines we keep.
import type { GrepLine, GrepSearch, GrepSearchRequest } from "./grep-search.ts";
import { killProcessGroup } from "../process-groups.ts";

interface RgText {
	text?: string;
	bytes?: string;
}
interface RgEvent {
	type: "begin" | "match" | "context" | "end" | "summary";
	data: { path?: RgText; lines?: RgText; line_number?: number };
}

function rgText(value: RgText | undefined): string {
	if (!value) return "";
	// Non-UTF-8 paths and lines come base64-encoded.
	return value.text ?? Buffer.from(value.bytes ?? "", "base64").toString("utf8");
}

export function ripgrepArgs(request: GrepSearchRequest): string[] {
	// --sort path: a stable order (and the built-in search's), at the cost of rg's parallelism.
	const args = ["--json", "--sort", "path", "--hidden", "--no-require-git", "--glob", "!.git", "--glob", "!node_modules"];
	if (request.ignoreCase) args.push("--ignore-case");
	if (request.literal) args.push("--fixed-strings");
	if (request.context > 0) args.push("--context", String(request.context));
	if (request.glob) args.push("--glob", request.glob);
	args.push("--", request.pattern, request.path);
	return args;
}

export async function searchWithRipgrep(rgPath: string, request: GrepSearchRequest): Promise<GrepSearch> {
	const proc = Bun.spawn([rgPath, ...ripgrepArgs(request)], {
		cwd: request.cwd,
		stdin: "ignore",
		stdout: "pipe",
		stderr: "pipe",
		detached: true,
	});
	const onAbort = () => killProcessGroup(proc.pid);
	request.signal?.addEventListener("abort", onAbort, { once: true });

	const lines: GrepLine[] = [];
	let matches = 0;
	let limitReached = false;
	let lastMatch: { file: string; line: number } | undefined;
	const stderr = new Response(proc.stderr).text();
	const decoder = new TextDecoder();
	let buffered = "";
	let stopped = false;

	// Returns false once nothing more is wanted.
	const take = (event: RgEvent): boolean => {
		if (event.type === "begin" && matches === request.limit) {
			// rg announces only files that have a match, so this one holds a match past the limit.
			limitReached = true;
			return false;
		}
		if (event.type !== "match" && event.type !== "context") return true;
		const file = rgText(event.data.path);
		const line = event.data.line_number ?? 0;
		const text = rgText(event.data.lines).replace(/\r?\n$/, "");
		if (matches < request.limit) {
			if (event.type === "match") {
				matches++;
				lastMatch = { file, line };
			}
			lines.push({ file, line, text, match: event.type === "match" });
			return true;
		}
		// Past the limit: only the trailing context of the last kept match, in which a further
		// match shows as context (as grep -m does and as the built-in search does).
		// rg sends context only around matches, so anything here means there is another match.
		limitReached = true;
		if (file !== lastMatch?.file || line > lastMatch.line + request.context) return false;
		lines.push({ file, line, text, match: false });
		return true;
	};

	try {
		const reader = proc.stdout.getReader();
		while (!stopped) {
			const { done, value } = await reader.read();
			if (done) break;
			buffered += decoder.decode(value, { stream: true });
			let newline = buffered.indexOf("\n");
			while (newline !== -1 && !stopped) {
				const json = buffered.slice(0, newline);
				buffered = buffered.slice(newline + 1);
				if (json !== "" && !take(JSON.parse(json) as RgEvent)) stopped = true;
				newline = buffered.indexOf("\n");
			}
		}
		if (stopped) {
			killProcessGroup(proc.pid);
			reader.cancel().catch(() => {});
		}
		const exitCode = await proc.exited;
		if (request.signal?.aborted) throw new Error("Operation aborted");
		// 1 = no match; 2 = an error, which may come alongside matches (e.g. one unreadable file).
		if (!stopped && exitCode === 2 && lines.length === 0) {
			throw new Error(`grep failed: ${(await stderr).trim()}`);
		}
	} finally {
		request.signal?.removeEventListener("abort", onAbort);
	}
	return { lines, matches, limitReached };
}
