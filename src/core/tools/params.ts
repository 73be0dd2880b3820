// The built-in tools' parameter schemas (schema and type share a name). The binary holds this module
// frozen (scripts/frozen-module.ts): the objects TypeBox builds here, as literals, so a run that sends
// the tool list to a model does not evaluate typebox. Keep it data only.
import { type Static, Type } from "typebox";
import { DEFAULT_FIND_LIMIT, DEFAULT_GREP_LIMIT, DEFAULT_LS_LIMIT } from "./limits.ts";

export const ReadParams = Type.Object({
	path: Type.String({ description: "File to read (relative to the working directory, or absolute)" }),
	offset: Type.Optional(Type.Integer({ minimum: 1, description: "1-based line number to start reading from" })),
	limit: Type.Optional(Type.Integer({ minimum: 1, description: "Maximum number of lines to read" })),
});
export type ReadParams = Static<typeof ReadParams>;

export const BashParams = Type.Object({
	command: Type.String({ description: "The bash command to run" }),
	timeout: Type.Optional(Type.Number({ exclusiveMinimum: 0, description: "Timeout in seconds (none by default)" })),
});
export type BashParams = Static<typeof BashParams>;

export const EditBlock = Type.Object({
	oldText: Type.String({ description: "Exact text to replace; must occur exactly once in the file" }),
	newText: Type.String({ description: "Text to put in its place" }),
});
export type EditBlock = Static<typeof EditBlock>;

export const EditParams = Type.Object({
	path: Type.String({ description: "File to edit (relative to the working directory, or absolute)" }),
	edits: Type.Array(EditBlock, { description: "Replacements, each matched against the original file; they must not overlap" }),
});
export type EditParams = Static<typeof EditParams>;

export const WriteParams = Type.Object({
	path: Type.String({ description: "File to write (relative to the working directory, or absolute)" }),
	content: Type.String({ description: "The complete new content of the file" }),
});
export type WriteParams = Static<typeof WriteParams>;

export const GrepParams = Type.Object({
	pattern: Type.String({ description: "Regular expression to search for (plain text when literal is true)" }),
	path: Type.Optional(Type.String({ description: "File or directory to search (default: the working directory)" })),
	glob: Type.Optional(Type.String({ description: "Only search files matching this glob, e.g. '*.ts' or 'src/**/*.test.ts'" })),
	ignoreCase: Type.Optional(Type.Boolean({ description: "Match case-insensitively (default false)" })),
	literal: Type.Optional(Type.Boolean({ description: "Treat pattern as plain text, not a regex (default false)" })),
	context: Type.Optional(Type.Integer({ minimum: 0, description: "Lines to show before and after each match (default 0)" })),
	limit: Type.Optional(Type.Integer({ minimum: 1, description: `Maximum number of matches (default ${DEFAULT_GREP_LIMIT})` })),
});
export type GrepParams = Static<typeof GrepParams>;

export const FindParams = Type.Object({
	pattern: Type.String({ description: "Glob to match, e.g. '*.ts', 'package.json' or 'src/**/*.test.ts'" }),
	path: Type.Optional(Type.String({ description: "Directory to search (default: the working directory)" })),
	limit: Type.Optional(Type.Integer({ minimum: 1, description: `Maximum number of results (default ${DEFAULT_FIND_LIMIT})` })),
});
export type FindParams = Static<typeof FindParams>;

export const LsParams = Type.Object({
	path: Type.Optional(Type.String({ description: "Directory to list (default: the working directory)" })),
	limit: Type.Optional(Type.Integer({ minimum: 1, description: `Maximum number of entries (default ${DEFAULT_LS_LIMIT})` })),
});
export type LsParams = Static<typeof LsParams>;
