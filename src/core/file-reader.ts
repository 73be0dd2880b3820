// The one way the agent reads its own files — settings, models, auth, trust, manifests, skills,
// templates, context files, sessions (issue 12): never blocks on a FIFO or device, bounds size and
// nesting, drops a BOM, treats a symlink loop as an error, and names the file (and line) in every error.
import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync, statSync, type Stats } from "node:fs";
import { tildify } from "../config.ts";
import { UserError } from "./errors.ts";
import { nodeFsLoaded } from "./lazy-fs.ts";
import { excessiveNesting, lineColumn, scanJson } from "./json-scan.ts";

/** Config files are small; past this a file is a mistake (or an attack), not a config. */
export const MAX_CONFIG_BYTES = 16 * 1024 * 1024;
/** Session files grow with a conversation; this bounds what one process holds in memory. */
export const MAX_SESSION_BYTES = 1024 * 1024 * 1024;
/** Deeper than any config needs, far shallower than a stack overflow. */
export const MAX_JSON_DEPTH = 200;

/** The default advice under a file error: the file is never rewritten. */
export function fixFileHint(): string {
	return "Fix the file and run again (it was not changed), or move it aside to start without it.";
}

/** A file that cannot be used: `path[:line:column]: problem`, and what to do. */
export class FileReadError extends UserError {
	constructor(
		readonly path: string,
		readonly problem: string,
		readonly line?: number,
		readonly column?: number,
		hints: string[] = [fixFileHint()],
	) {
		super(`${tildify(path)}${line === undefined ? "" : `:${line}:${column}`}: ${problem}`, hints);
		this.name = "FileReadError";
	}
}

export interface ReadTextOptions {
	/** Default MAX_CONFIG_BYTES. */
	maxBytes?: number;
}

function kindOfNode(stats: Stats): string {
	if (stats.isDirectory()) return "a directory";
	if (stats.isFIFO()) return "a FIFO (named pipe)";
	if (stats.isSocket()) return "a socket";
	if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
	return "not a regular file";
}

function sizeText(bytes: number): string {
	return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** What the system said, for a person: "permission denied (EACCES)". */
export function systemReason(error: unknown): string {
	const code = (error as NodeJS.ErrnoException)?.code;
	if (code === "EACCES" || code === "EPERM") return `permission denied (${code})`;
	if (code === "ELOOP") return "a symlink loop (too many levels of symbolic links)";
	if (code === "EIO") return "an I/O error (EIO)";
	if (code === "ENOSPC") return "no space left on device (ENOSPC)";
	if (code === "EROFS") return "the file system is read-only (EROFS)";
	const message = error instanceof Error ? error.message : String(error);
	return code ? `${message.replace(new RegExp(`^${code}:\\s*`), "").replace(/,\s*\w+\s+'.*'$/, "")} (${code})` : message;
}

/**
 * The text of `path` (a leading BOM dropped), or undefined when there is no such file. A FIFO,
 * device, socket or directory is refused without being opened; so is a file over `maxBytes`.
 * A config-sized file is read through Bun until something loads node:fs (see pathExists).
 */
export function readTextFile(path: string, options: ReadTextOptions = {}): string | undefined {
	const maxBytes = options.maxBytes ?? MAX_CONFIG_BYTES;
	const text = maxBytes <= MAX_CONFIG_BYTES && BUN_READS && !nodeFsLoaded() ? readThroughBun(path, maxBytes) : NOT_READ;
	return stripBom(text === NOT_READ ? readCheckedFile(path, maxBytes) : text);
}

function stripBom(text: string | undefined): string | undefined {
	return text !== undefined && text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * What Bun.file(path).lastModified is when the path cannot be stat'ed (absent, a dangling link, a
 * parent that is a file or cannot be searched): Bun's "not known" time, the largest it keeps.
 */
export const NO_STAT = 2 ** 52 - 1;

/**
 * Whether `path` exists (a stat of it succeeds, links followed), as existsSync answers. Asked of Bun
 * until something loads node:fs (1.5–2 ms of a compiled start, core/lazy-fs.ts): a start asks this of
 * files it mostly does not find; once node:fs is there, existsSync costs less.
 */
export function pathExists(path: string): boolean {
	if (nodeFsLoaded()) return existsSync(path);
	try {
		return Bun.file(path).lastModified !== NO_STAT;
	} catch {
		return false;
	}
}

/** Bun.mmap is not on Windows; there every read takes node:fs's path. */
const BUN_READS = process.platform !== "win32";
const NOT_READ = Symbol("not read");
let decoder: TextDecoder | undefined;

/**
 * A config-sized file read without node:fs: its size from Bun (Infinity for a FIFO, device or socket,
 * which are not opened), then the bytes mapped and decoded (UTF-8, malformed bytes replaced, as
 * readFileSync does). NOT_READ leaves the file to readCheckedFile, which names what it is.
 */
function readThroughBun(path: string, maxBytes: number): string | undefined | typeof NOT_READ {
	let size: number;
	try {
		size = Bun.file(path).size;
	} catch {
		return NOT_READ;
	}
	if (size === Infinity || size > maxBytes) return NOT_READ;
	let bytes: Uint8Array;
	try {
		bytes = Bun.mmap(path, { shared: false });
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		// Absent, or a parent that is a file: there is no such file to read.
		if (code === "ENOENT" || code === "ENOTDIR") return undefined;
		// An empty file has nothing to map (a directory says EISDIR first).
		if (code === "EINVAL" && size === 0) return "";
		if (code === "EISDIR") throw new FileReadError(path, "is a directory, not a file; it was not read");
		throw new FileReadError(path, `cannot be read: ${systemReason(error)}`);
	}
	// ignoreBOM: a BOM stays in the text, as readFileSync leaves it, for readTextFile to drop.
	decoder ??= new TextDecoder("utf-8", { ignoreBOM: true });
	return decoder.decode(bytes);
}

/** The file's text (UTF-8, malformed bytes replaced), once it is known to be a regular file within the size bound. */
function readCheckedFile(path: string, maxBytes: number): string | undefined {
	let stats: Stats | undefined;
	try {
		// An absent file (most settings, key and context files at a start) is an answer, not an error to build.
		stats = statSync(path, { throwIfNoEntry: false });
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		// Absent, or a parent that is a file: there is no such file to read.
		if (code === "ENOENT" || code === "ENOTDIR") return undefined;
		throw new FileReadError(path, `cannot be read: ${systemReason(error)}`);
	}
	if (stats === undefined) return undefined;
	if (!stats.isFile()) throw new FileReadError(path, `is ${kindOfNode(stats)}, not a file; it was not read`);
	if (stats.size > maxBytes) throw new FileReadError(path, `is too large to read (${sizeText(stats.size)}; the limit is ${sizeText(maxBytes)})`);
	let fd: number;
	try {
		// O_NONBLOCK: if a FIFO took the file's place since the stat, opening it still returns at once.
		fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
	} catch (error) {
		throw new FileReadError(path, `cannot be read: ${systemReason(error)}`);
	}
	try {
		const opened = fstatSync(fd);
		if (!opened.isFile()) throw new FileReadError(path, `is ${kindOfNode(opened)}, not a file; it was not read`);
		if (opened.size > maxBytes) throw new FileReadError(path, `is too large to read (${sizeText(opened.size)}; the limit is ${sizeText(maxBytes)})`);
		// Decoded as it is read, with no buffer of its own: half the time and memory of a long session's read.
		return readFileSync(fd, "utf8");
	} catch (error) {
		if (error instanceof FileReadError) throw error;
		throw new FileReadError(path, `cannot be read: ${systemReason(error)}`);
	} finally {
		closeSync(fd);
	}
}

/**
 * Open `path` for reading only if it is a regular file, never blocking (a FIFO is refused, not
 * waited on); undefined otherwise. For readers of part of a file (a session's first line). Close the fd.
 */
export function openRegularFile(path: string): number | undefined {
	let fd: number;
	try {
		fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
	} catch {
		return undefined;
	}
	try {
		if (fstatSync(fd).isFile()) return fd;
	} catch {
		// fall through: not usable
	}
	closeSync(fd);
	return undefined;
}

export interface JsonFileText {
	text: string;
	/** Undefined when the file is empty or only whitespace. */
	value: unknown;
}

/** Nesting past MAX_JSON_DEPTH is a FileReadError at its line and column (before any recursive scan). */
export function checkJsonNesting(path: string, text: string, hints?: string[]): void {
	const deep = excessiveNesting(text, MAX_JSON_DEPTH);
	if (deep === undefined) return;
	const at = lineColumn(text, deep);
	throw new FileReadError(path, `nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`, at.line, at.column, hints);
}

/**
 * Parse `text` as the JSON file `path`: nesting past MAX_JSON_DEPTH and syntax errors are
 * FileReadErrors with line and column.
 */
export function parseJsonText(path: string, text: string, hints?: string[]): unknown {
	checkJsonNesting(path, text, hints);
	try {
		return JSON.parse(text);
	} catch {
		const scan = scanJson(text);
		const at = lineColumn(text, scan.error?.offset ?? 0);
		throw new FileReadError(path, `invalid JSON: ${scan.error?.message ?? "cannot be parsed"}`, at.line, at.column, hints);
	}
}

/** readTextFile, then parseJsonText; undefined when there is no such file. */
export function readJsonFile(path: string, options: ReadTextOptions & { hints?: string[] } = {}): JsonFileText | undefined {
	const text = readTextFile(path, options);
	if (text === undefined) return undefined;
	return { text, value: text.trim() === "" ? undefined : parseJsonText(path, text, options.hints) };
}
