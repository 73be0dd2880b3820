// The `write` tool: create or overwrite a whole file, making parent directories as needed.
// Serialised per file with edit through withFileMutationQueue.
import { fsp } from "./fs-async.ts";
import { dirname } from "node:path";
import { AtomicWriteError, type AtomicWriteFs, saveFailureText, writeFileAtomic } from "./atomic-write.ts";
import { withFileMutationQueue } from "./file-mutation-queue.ts";
import { errorCode, fsError, resolveToolPath, shownPath, throwIfAborted } from "./paths.ts";
import type { AgentTool } from "./types.ts";
import description from "./write.md" with { type: "text" };
import { WriteParams } from "./params.ts";

export { WriteParams };

export interface WriteToolDetails {
	bytesWritten: number;
}

export interface WriteOperations {
	/** Replace or create the file; the default never leaves it half-written (temp file, fsync, rename). */
	writeFile(absolutePath: string, content: string): Promise<void>;
	/** Create a directory and its parents; succeed if it exists. */
	mkdir(dir: string): Promise<void>;
}

export interface WriteToolOptions {
	/** Default: the local filesystem. */
	operations?: WriteOperations;
}

/** The local filesystem; `fs` swaps the calls the atomic save makes (tests inject failures there). */
export function createLocalWriteOperations(fs?: AtomicWriteFs): WriteOperations {
	return {
		writeFile: (absolutePath, content) => writeFileAtomic(absolutePath, content, fs),
		mkdir: async (dir) => {
			await fsp().mkdir(dir, { recursive: true });
		},
	};
}

export function createWriteTool(cwd: string, options: WriteToolOptions = {}): AgentTool<typeof WriteParams, WriteToolDetails> {
	const ops = options.operations ?? createLocalWriteOperations();
	return {
		name: "write",
		label: "Write",
		description,
		parameters: WriteParams,
		promptSnippet: "Create or overwrite a file",
		promptGuidelines: ["Use write only for new files or complete rewrites; use edit to change part of a file"],
		async execute(_toolCallId, params, signal) {
			throwIfAborted(signal);
			const absolutePath = resolveToolPath(cwd, params.path);
			const shown = shownPath(params.path);
			return withFileMutationQueue(absolutePath, async () => {
				throwIfAborted(signal);
				try {
					await ops.mkdir(dirname(absolutePath));
					await ops.writeFile(absolutePath, params.content);
				} catch (error) {
					const code = errorCode(error);
					if (code === "EISDIR") throw new Error(`${shown} is a directory; write needs a file path`);
					if (code === "ENOTDIR" || code === "EEXIST") throw new Error(`Cannot write ${shown}: a parent of it is a file, not a directory`);
					if (error instanceof AtomicWriteError) throw new Error(saveFailureText(error, shown));
					throw fsError(error, shown, "write");
				}
				const bytesWritten = Buffer.byteLength(params.content, "utf8");
				return {
					content: [{ type: "text", text: `Wrote ${bytesWritten} bytes to ${shown}` }],
					details: { bytesWritten },
				};
			});
		},
	};
}
