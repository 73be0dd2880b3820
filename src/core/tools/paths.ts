// Turning a path a model wrote into an absolute one, and back into something short to show.
import { isAbsolute, relative, resolve } from "node:path";
import { expandHome } from "../../config.ts";

/**
 * Models sometimes write `@src/a.ts` (the mention syntax) or `~/x`; both mean the obvious file.
 * Relative paths are taken from the tool's cwd.
 */
export function resolveToolPath(cwd: string, path: string): string {
	const cleaned = path.startsWith("@") ? path.slice(1) : path;
	return resolve(cwd, expandHome(cleaned));
}

/** How a path the model gave is named back to it: as written, minus a leading `@`. */
export function shownPath(path: string): string {
	return path.startsWith("@") ? path.slice(1) : path;
}

/** Relative to cwd when inside it, else absolute; always with `/` separators. */
export function displayPath(cwd: string, absolutePath: string): string {
	const rel = relative(cwd, absolutePath);
	if (rel === "") return ".";
	if (rel.startsWith("..") || isAbsolute(rel)) return absolutePath;
	return rel.split("\\").join("/");
}

/** The error code of a failed fs call (ENOENT, EISDIR, …), if it has one. */
export function errorCode(error: unknown): string | undefined {
	return typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : undefined;
}

export function errorMessage(error: unknown): string {
	return error instanceof Error ? error.message : String(error);
}

/** Throw the model-facing abort error when the call was cancelled before it could start. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
	if (signal?.aborted) throw new Error("Operation aborted");
}

/**
 * The model-facing error for a failed filesystem call on `shown`: missing, not permitted, or the
 * system's own words. `notFound` lets file tools say "File not found" rather than "Path".
 */
export function fsError(error: unknown, shown: string, verb: string, notFound = `Path not found: ${shown}`): Error {
	const code = errorCode(error);
	if (code === "ENOENT" || code === "ENOTDIR") return new Error(notFound);
	if (code === "EACCES" || code === "EPERM") return new Error(`Permission denied: ${shown}`);
	return new Error(`Cannot ${verb} ${shown}: ${errorMessage(error)}`);
}
