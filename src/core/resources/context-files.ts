// Context files: AGENTS.md (or CLAUDE.md) from ~/.agent and from each folder between the repo
// root (or /) and cwd, outermost first, so nearer instructions come last and weigh most.
import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { getAgentDir } from "../../config.ts";

export interface ContextFile {
	path: string;
	content: string;
}

const NAMES = ["AGENTS.md", "CLAUDE.md"];

function readFirst(dir: string): ContextFile | undefined {
	for (const name of NAMES) {
		const path = join(dir, name);
		try {
			if (existsSync(path) && statSync(path).isFile()) return { path, content: readFileSync(path, "utf8") };
		} catch {
			// Unreadable: skip it rather than fail start-up.
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
		if (existsSync(join(dir, ".git"))) break;
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
