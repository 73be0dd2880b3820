// The built-in tools as one set: all seven factories behind one call, which tools start active,
// and the re-exports the public API (src/index.ts) takes from here.
import { type BashToolOptions, createBashTool } from "./bash.ts";
import { type EditToolOptions, createEditTool } from "./edit.ts";
import { type FindToolOptions, createFindTool } from "./find.ts";
import { type GrepToolOptions, createGrepTool } from "./grep.ts";
import { type LsToolOptions, createLsTool } from "./ls.ts";
import { type ReadToolOptions, createReadTool } from "./read.ts";
import { type AgentTool, markContextFree } from "./types.ts";
import { type WriteToolOptions, createWriteTool } from "./write.ts";

export const BUILTIN_TOOL_NAMES = ["read", "bash", "edit", "write", "grep", "find", "ls"] as const;
export type BuiltinToolName = (typeof BUILTIN_TOOL_NAMES)[number];

/** Active unless `--tools` says otherwise; grep, find and ls are opt-in (bash covers them). */
export const DEFAULT_ACTIVE_TOOL_NAMES: readonly BuiltinToolName[] = ["read", "bash", "edit", "write"];

export interface BuiltinToolsOptions {
	read?: ReadToolOptions;
	bash?: BashToolOptions;
	edit?: EditToolOptions;
	write?: WriteToolOptions;
	grep?: GrepToolOptions;
	find?: FindToolOptions;
	ls?: LsToolOptions;
}

export interface BuiltinTools {
	/** All seven, in BUILTIN_TOOL_NAMES order. */
	tools: AgentTool<any, any>[];
	/** Names of the tools active by default. */
	defaultActive: BuiltinToolName[];
}

/** None of the seven reads its ctx argument, so they are marked context-free (no per-call extension context). */
export function createBuiltinTools(cwd: string, options: BuiltinToolsOptions = {}): BuiltinTools {
	return {
		tools: [
			createReadTool(cwd, options.read),
			createBashTool(cwd, options.bash),
			createEditTool(cwd, options.edit),
			createWriteTool(cwd, options.write),
			createGrepTool(cwd, options.grep),
			createFindTool(cwd, options.find),
			createLsTool(cwd, options.ls),
		].map(markContextFree),
		defaultActive: [...DEFAULT_ACTIVE_TOOL_NAMES],
	};
}

export { executeBash, createBashTool, BashParams } from "./bash.ts";
export type { BashResult, BashSpawnContext, BashSpawnHook, BashToolDetails, BashToolOptions, ExecuteBashOptions } from "./bash.ts";
export { createEditTool, createLocalEditOperations, EditParams, prepareEditArguments } from "./edit.ts";
export type { EditOperations, EditToolDetails, EditToolOptions } from "./edit.ts";
export { createFindTool, createLocalFindOperations, FindParams } from "./find.ts";
export type { FindOperations, FindToolDetails, FindToolOptions } from "./find.ts";
export { createGrepTool, createLocalGrepOperations, GrepParams } from "./grep.ts";
export type { GrepOperations, GrepToolDetails, GrepToolOptions } from "./grep.ts";
export { createLsTool, createLocalLsOperations, LsParams } from "./ls.ts";
export type { LsOperations, LsToolDetails, LsToolOptions } from "./ls.ts";
export { createLocalReadOperations, createReadTool, ReadParams } from "./read.ts";
export type { ReadOperations, ReadToolDetails, ReadToolOptions } from "./read.ts";
export { createLocalWriteOperations, createWriteTool, WriteParams } from "./write.ts";
export type { WriteOperations, WriteToolDetails, WriteToolOptions } from "./write.ts";
export { createLocalBashOperations } from "./shell.ts";
export type { BashExecOptions, BashOperations } from "./shell.ts";
export { withFileMutationQueue } from "./file-mutation-queue.ts";
export { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, truncateHead, truncateLine, truncateTail } from "./truncate.ts";
export type { TruncationOptions, TruncationResult } from "./truncate.ts";
