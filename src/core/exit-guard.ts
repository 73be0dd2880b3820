// `process.exit()` called by extension code never ends the agent silently (issue 12, defect 4):
// while an extension loads it is a load failure; later it asks the mode for an orderly shutdown
// (abort, session_shutdown, flush) and unwinds the caller. Our own exits go through exitProcess.

const realExit: (code?: number) => never = process.exit.bind(process) as (code?: number) => never;

/** What an extension's process.exit throws, so the code after it does not run (as with a real exit). */
export class ExtensionExitError extends Error {
	constructor(
		readonly code: number,
		/** The extension whose code called it, when the stack says. */
		readonly extensionPath: string | undefined,
		readonly phase: "loading" | "running",
	) {
		super(
			phase === "loading"
				? `Extension called process.exit(${code})`
				: `Extension${extensionPath ? ` "${extensionPath}"` : ""} called process.exit(${code}): the run is stopped and the session shut down in order`,
		);
		this.name = "ExtensionExitError";
	}
}

export interface ExitRequest {
	code: number;
	extensionPath: string | undefined;
}

let installed = false;
let loading: string | undefined;
const extensionFiles = new Set<string>();
let listener: ((request: ExitRequest) => void) | undefined;
let request: ExitRequest | undefined;

/** End the process now with `code`: for the entry path and a second signal, never for extensions. */
export function exitProcess(code: number): never {
	return realExit(code);
}

function exitCodeOf(code: unknown): number {
	const n = typeof code === "string" ? Number.parseInt(code, 10) : typeof code === "number" ? code : 0;
	return Number.isInteger(n) ? n : 0;
}

/** The extension file nearest the top of the stack, if any. */
function callerExtension(stack: string | undefined): string | undefined {
	for (const line of (stack ?? "").split("\n").slice(1)) {
		for (const file of extensionFiles) if (line.includes(file)) return file;
	}
	return undefined;
}

/** Replace process.exit for the rest of the process; called once, before any extension code runs. */
export function installExitGuard(): void {
	if (installed) return;
	installed = true;
	process.exit = ((code?: number | string | null) => {
		const exitCode = exitCodeOf(code ?? process.exitCode ?? 0);
		if (loading !== undefined) throw new ExtensionExitError(exitCode, loading, "loading");
		const extensionPath = callerExtension(new Error().stack);
		// No mode to shut down in order (yet): exit as asked; the exit hook still ends running commands.
		if (!listener) return realExit(exitCode);
		if (!request) {
			request = { code: exitCode, extensionPath };
			listener(request);
		}
		throw new ExtensionExitError(exitCode, extensionPath, "running");
	}) as typeof process.exit;
}

/** Run an extension's import or factory: a process.exit inside it becomes an ExtensionExitError. */
export async function whileLoading<T>(extensionFile: string, fn: () => Promise<T>): Promise<T> {
	const previous = enterLoading(extensionFile);
	try {
		return await fn();
	} finally {
		leaveLoading(previous);
	}
}

/**
 * whileLoading's two halves, for a caller that awaits in between itself (the loader's loop: one
 * async frame less per stage of every file). Returns what leaveLoading must restore.
 */
export function enterLoading(extensionFile: string): string | undefined {
	extensionFiles.add(extensionFile);
	const previous = loading;
	loading = extensionFile;
	return previous;
}

export function leaveLoading(previous: string | undefined): void {
	loading = previous;
}

/**
 * The mode's shutdown for an extension's process.exit after loading: called once, with the first
 * request. Returns the function that removes it.
 */
export function onExtensionExit(handler: (request: ExitRequest) => void): () => void {
	listener = handler;
	return () => {
		if (listener === handler) listener = undefined;
	};
}

/** The first process.exit an extension asked for after loading, if any. */
export function extensionExitRequest(): ExitRequest | undefined {
	return request;
}
