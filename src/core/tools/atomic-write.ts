// Replacing a file so that it is either the old bytes or the new ones, never a mix: write a temp
// file beside the target, fsync it, rename it over. How `edit` and `write` save (issue 12).
import type * as FsPromises from "node:fs/promises";
import { fsp } from "./fs-async.ts";
import { basename, dirname, join, resolve } from "node:path";

/** The filesystem calls the writer makes; swap them to inject failures (tests) or run elsewhere. */
export type AtomicWriteFs = Pick<typeof FsPromises, "lstat" | "readlink" | "open" | "rename" | "unlink">;

/** A failed save. The target is untouched: `message` says what failed, where, and that nothing changed. */
export class AtomicWriteError extends Error {
	constructor(
		message: string,
		/** The file that was to be replaced (symlinks followed). */
		readonly path: string,
		/** The step that failed. */
		readonly stage: "resolve" | "create" | "write" | "sync" | "rename",
		/** The system's error code (ENOSPC, EACCES, …), when there is one. */
		readonly code: string | undefined,
		/** Whether the target existed (and so was left as it was) or nothing was written. */
		readonly existed: boolean,
	) {
		super(message);
		this.name = "AtomicWriteError";
	}
}

// Linux's own limit on symlinks followed while resolving one path.
const MAX_SYMLINKS = 40;

interface Target {
	path: string;
	/** Mode, owner and group of the existing file; undefined for a new one. */
	existing?: { mode: number; uid: number; gid: number };
}

function codeOf(error: unknown): string | undefined {
	const code = (error as { code?: unknown } | null)?.code;
	return typeof code === "string" ? code : undefined;
}

/** The model-facing sentence for a failed save of `shown`: what failed and that the file is intact. */
export function saveFailureText(error: unknown, shown: string): string {
	if (error instanceof AtomicWriteError) {
		return `Cannot write ${shown}: ${error.message}; ${error.existed ? `${shown} was left as it was` : "nothing was written"}`;
	}
	return `Cannot write ${shown}: ${describeFsFailure(error)}`;
}

/** The system's words for a failure, with its code: "no space left on device (ENOSPC)". */
export function describeFsFailure(error: unknown): string {
	const code = codeOf(error);
	const message = error instanceof Error ? error.message : String(error);
	// Node and Bun put "ENOSPC: no space left on device, write" in the message; keep the human part.
	const human = code ? message.replace(new RegExp(`^${code}:\\s*`), "").replace(/,\s*(open|write|fsync|rename|close)\b.*$/, "") : message;
	return code && !human.includes(code) ? `${human} (${code})` : human;
}

/** Follow symlinks to the file that really gets replaced; a dangling link names the file to create. */
async function resolveTarget(path: string, fs: AtomicWriteFs): Promise<Target> {
	let current = resolve(path);
	for (let hops = 0; hops <= MAX_SYMLINKS; hops++) {
		let stats: Awaited<ReturnType<typeof FsPromises.lstat>>;
		try {
			stats = await fs.lstat(current);
		} catch (error) {
			if (codeOf(error) === "ENOENT") return { path: current };
			throw new AtomicWriteError(describeFsFailure(error), current, "resolve", codeOf(error), true);
		}
		if (stats.isSymbolicLink()) {
			current = resolve(dirname(current), await fs.readlink(current));
			continue;
		}
		if (stats.isDirectory()) throw new AtomicWriteError("it is a directory", current, "resolve", "EISDIR", true);
		if (!stats.isFile()) throw new AtomicWriteError("it is not a regular file (a device, FIFO or socket), so it is not replaced", current, "resolve", undefined, true);
		return { path: current, existing: { mode: stats.mode & 0o7777, uid: stats.uid, gid: stats.gid } };
	}
	throw new AtomicWriteError(`too many levels of symbolic links (a symlink loop)`, resolve(path), "resolve", "ELOOP", true);
}

function tempName(target: string): string {
	const random = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(16).padStart(2, "0")).join("");
	return join(dirname(target), `.${basename(target)}.${random}.tmp`);
}

/**
 * Replace (or create) `path` with `content`. Mode is kept, and owner and group where the process
 * may set them; a symlink is followed and stays a symlink. On any failure the temp file is removed
 * and the target is exactly as it was; the error is an AtomicWriteError.
 */
export async function writeFileAtomic(path: string, content: string | Uint8Array, fs: AtomicWriteFs = fsp()): Promise<void> {
	const target = await resolveTarget(path, fs);
	const bytes = typeof content === "string" ? Buffer.from(content, "utf8") : content;
	const temp = tempName(target.path);
	let handle: Awaited<ReturnType<typeof FsPromises.open>>;
	try {
		// 0o666 for a new file lets the umask decide, as a plain write would.
		handle = await fs.open(temp, "wx", target.existing ? 0o600 : 0o666);
	} catch (error) {
		throw new AtomicWriteError(`cannot create a temporary file beside it: ${describeFsFailure(error)}`, target.path, "create", codeOf(error), target.existing !== undefined);
	}
	let stage: AtomicWriteError["stage"] = "write";
	try {
		for (let offset = 0; offset < bytes.length; ) {
			const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset, offset);
			if (bytesWritten <= 0) throw Object.assign(new Error("the write made no progress"), { code: "EIO" });
			offset += bytesWritten;
		}
		if (target.existing) {
			const { uid, gid, mode } = target.existing;
			if (uid !== process.getuid?.() || gid !== process.getgid?.()) await handle.chown(uid, gid).catch(() => {});
			// After chown, which may clear set-id bits.
			await handle.chmod(mode);
		}
		stage = "sync";
		await handle.sync();
		await handle.close();
		stage = "rename";
		await fs.rename(temp, target.path);
	} catch (error) {
		await handle.close().catch(() => {});
		await fs.unlink(temp).catch(() => {});
		throw new AtomicWriteError(describeFsFailure(error), target.path, stage, codeOf(error), target.existing !== undefined);
	}
	await syncDirectory(dirname(target.path), fs);
}

/** Make the rename itself durable; best effort (not every filesystem lets a directory be synced). */
async function syncDirectory(dir: string, fs: AtomicWriteFs): Promise<void> {
	try {
		const handle = await fs.open(dir, "r");
		await handle.sync().catch(() => {});
		await handle.close();
	} catch {
		// The new content is in place; only its durability across a power cut is less certain.
	}
}
