// Context files: AGENTS.md (or CLAUDE.md) from ~/.agent and from each folder between the repo
// root (or /) and cwd, outermost first, so nearer instructions come last and weigh most.
import { dirname, join, resolve } from "node:path";
import { getAgentDir } from "../../config.ts";
import { pathExists, readTextFile } from "../file-reader.ts";

export interface ContextFile {
	path: string;
	content: string;
}

const NAMES = ["AGENTS.md", "CLAUDE.md"];

function readFirst(dir: string): ContextFile | undefined {
	for (const name of NAMES) {
		const path = join(dir, name);
		try {
			const content = readTextFile(path);
			if (content !== undefined) return { path, content };
		} catch {
			// Not a file one can read (a FIFO, a directory, no permission, too big): skip it, never hang.
		}
	}
	return undefined;
}

/** The folders from the repository root (the nearest ancestor with .git) or / down to cwd. */
function foldersToCwd(cwd: string): string[] {
	const chain: string[] = [];
	let dir = resolve(cwd);
	while (true) {
		chain.push(dir);
		if (pathExists(join(dir, ".git"))) break;
		const parent = dirname(dir);
		if (parent === dir) break;
		dir = parent;
	}
	return chain.reverse();
}

export function loadContextFiles(cwd: string): ContextFile[] {
	const files: ContextFile[] = [];
	const seen = new Set<string>();
	const add = (f: ContextFile | undefined) => {
		if (f && !seen.has(f.path)) {
			seen.add(f.path);
			files.push(f);
		}
	};
	add(readFirst(getAgentDir()));
	for (const dir of foldersToCwd(cwd)) add(readFirst(dir));
	return files;
}
