// Load extensions in order: import each module, run its factory with a fresh `pi`, commit or
// discard. A failure becomes an error record and loading goes on; whether that is fatal is the
// caller's decision (start-up: exit 1; /reload: show it and continue).
import { ENV } from "../../config.ts";
import { enterLoading, ExtensionExitError, leaveLoading } from "../exit-guard.ts";
import { detail, rowCursor, tile, timingEnabled } from "../timing.ts";
import { createExtension, createExtensionAPI, ExtensionRuntime, type ExtensionLoad } from "./api.ts";
import type { ExtensionEntry } from "./discovery.ts";
import { createEventBus, type EventBusController } from "./event-bus.ts";
import { cacheToken, describeLoadError, importExtensionModule, installNativeLoader } from "./module-import.ts";
import type { Extension, ExtensionFactory, SourceInfo } from "./types.ts";

export type LoadStage = "resolve" | "import" | "factory" | "conflict";

export class ExtensionLoadError extends Error {
	constructor(
		/** The path as given. */
		readonly path: string,
		readonly stage: LoadStage,
		/** The one-line reason (the part after `Failed to load extension "<path>": `). */
		readonly reason: string,
		readonly sourceInfo?: SourceInfo,
	) {
		super(`Failed to load extension "${path}": ${reason}`);
		this.name = "ExtensionLoadError";
	}
}

export interface LoadExtensionsOptions {
	cwd: string;
	/** The shared bus; it survives reloads, so pass the previous one on /reload. Default: a new bus. */
	eventBus?: EventBusController;
	/** Milliseconds an import or factory may take before it counts as hung. Default 10 000 or $AGENT_EXTENSION_TIMEOUT_MS. */
	timeoutMs?: number;
	/**
	 * Flag names the CLI has itself (without dashes): an extension registering one fails to load. A function
	 * is called only when an extension registers a flag.
	 */
	reservedFlags?: ReadonlySet<string> | (() => ReadonlySet<string>);
	/**
	 * AGENT_TIMING: the rows (set-up, one per file) tile the phase being timed, starting where its
	 * previous sub-row ended (start-up); otherwise they start here and are measured on their own (/reload).
	 */
	tiledRows?: boolean;
}

export interface LoadExtensionsResult {
	/** Loaded extensions in load order. */
	extensions: Extension[];
	errors: ExtensionLoadError[];
	/** The runtime all of them share; the session calls `runtime.bind()`. */
	runtime: ExtensionRuntime;
	eventBus: EventBusController;
}

export function defaultLoadTimeoutMs(): number {
	const fromEnv = Number(process.env[ENV.extensionTimeout]);
	return Number.isFinite(fromEnv) && fromEnv > 0 ? fromEnv : 10_000;
}

class LoadTimeout extends Error {}

/**
 * Race `promise` against the deadline; the loser is left to settle on its own. Written out rather
 * than Promise.race, which is what Promise.race does with the two: a builtin compiled on its first
 * call, and nothing else before the TUI's first frame calls it. Not an async function: one promise
 * and no await of its own per stage of every file.
 */
function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		const timer = setTimeout(() => reject(new LoadTimeout(what)), ms);
		promise.then(
			(value) => {
				clearTimeout(timer);
				resolve(value);
			},
			(error: unknown) => {
				clearTimeout(timer);
				reject(error);
			},
		);
	});
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
	return (typeof value === "object" || typeof value === "function") && value !== null && typeof (value as { then?: unknown }).then === "function";
}

function seconds(ms: number): string {
	return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

type Names = { tools: ReadonlyMap<string, unknown>; flags: ReadonlyMap<string, unknown> };

/**
 * A name registered by an earlier extension: `Tool "x" conflicts with <path>`. The new extension's
 * names are listed once, not by a Map iterator per earlier extension.
 */
export function findConflict(extension: Names, loaded: readonly (Names & { path: string })[]): string | undefined {
	if (loaded.length === 0 || (extension.tools.size === 0 && extension.flags.size === 0)) return undefined;
	// Loops, not spreads: spreading a Map iterator is compiled on its first use (~0.1 ms of a start),
	// and nothing else before the first frame spreads one.
	const tools: string[] = [];
	for (const name of extension.tools.keys()) tools.push(name);
	const flags: string[] = [];
	for (const name of extension.flags.keys()) flags.push(name);
	for (const other of loaded) {
		for (const name of tools) if (other.tools.has(name)) return `Tool "${name}" conflicts with ${other.path}`;
		for (const name of flags) if (other.flags.has(name)) return `Flag "--${name}" conflicts with ${other.path}`;
	}
	return undefined;
}

/**
 * Run one factory against a fresh API; commit on success, discard on any failure. Returns the ms
 * spent in the factory itself (the rest is our API set-up, conflict check and commit). The factory
 * is called at once, as pi does (`await factory(pi)`); only one that returns a promise (or another
 * thenable) gets a deadline, and only then is the result a promise: a start's twenty factories
 * cost no promise, timer or await of ours.
 */
export function initializeExtension(
	factory: ExtensionFactory,
	extension: Extension,
	runtime: ExtensionRuntime,
	bus: EventBusController,
	loaded: Extension[],
	timeoutMs: number,
): number | Promise<number> {
	const load = createExtensionAPI(extension, runtime, bus);
	const started = performance.now();
	let result: unknown;
	try {
		result = factory(load.api);
		if (!isThenable(result)) return commitLoad(load, extension, loaded, performance.now() - started);
	} catch (error) {
		load.discard();
		throw error;
	}
	return withDeadline(Promise.resolve(result), timeoutMs, "factory").then(
		() => {
			const factoryMs = performance.now() - started;
			try {
				return commitLoad(load, extension, loaded, factoryMs);
			} catch (error) {
				load.discard();
				throw error;
			}
		},
		(error: unknown) => {
			load.discard();
			throw error;
		},
	);
}

/** After the factory: a name an earlier extension has is a conflict (thrown); otherwise commit. Returns `factoryMs`. */
function commitLoad(load: ExtensionLoad, extension: Extension, loaded: Extension[], factoryMs: number): number {
	const conflict = findConflict(extension, loaded);
	if (conflict) throw new ExtensionLoadError(extension.path, "conflict", conflict, extension.sourceInfo);
	load.commit();
	return factoryMs;
}

function toLoadError(error: unknown, entry: ExtensionEntry, stage: LoadStage, timeoutMs: number): ExtensionLoadError {
	if (error instanceof ExtensionLoadError) return error;
	if (error instanceof ExtensionExitError) return new ExtensionLoadError(entry.path, stage, error.message, entry.sourceInfo);
	if (error instanceof LoadTimeout) {
		const reason =
			stage === "import"
				? `Importing the extension did not finish within ${seconds(timeoutMs)} (a top-level await that never settles?)`
				: `Extension factory did not finish within ${seconds(timeoutMs)}: it awaits something that never settles`;
		return new ExtensionLoadError(entry.path, stage, reason, entry.sourceInfo);
	}
	return new ExtensionLoadError(entry.path, stage, describeLoadError(error, entry.resolvedPath), entry.sourceInfo);
}

/** Load `entries` in order with one shared runtime. Never throws for an extension's failure. */
export async function loadExtensions(entries: ExtensionEntry[], options: LoadExtensionsOptions): Promise<LoadExtensionsResult> {
	const runtime = new ExtensionRuntime(options.cwd, options.reservedFlags);
	const eventBus = options.eventBus ?? createEventBus();
	const timeoutMs = options.timeoutMs ?? defaultLoadTimeoutMs();
	const token = cacheToken(options.cwd);
	const extensions: Extension[] = [];
	const errors: ExtensionLoadError[] = [];
	const virtualModulesMs = entries.length > 0 ? await installNativeLoader() : 0;
	// AGENT_TIMING: file rows tile the loop (each starts where the previous one ended), so the
	// bookkeeping between files, and a collection that lands there, is charged to a file, not lost.
	// At start-up they continue the phase's rows, after one for the runtime's set-up.
	const tiled = options.tiledRows === true;
	const timing = timingEnabled();
	if (tiled) tile("loader set-up", virtualModulesMs);
	let rowEnd = performance.now();
	for (const entry of entries) {
		if (entry.missing) {
			errors.push(new ExtensionLoadError(entry.path, "resolve", entry.missingReason ?? `Extension path does not exist: ${entry.resolvedPath}`, entry.sourceInfo));
			continue;
		}
		let stage: LoadStage = "import";
		const started = tiled ? rowCursor() : rowEnd;
		let imported = started;
		let factoryMs = 0;
		try {
			// whileLoading's halves around the await: a process.exit in the import is a load error.
			const previous = enterLoading(entry.resolvedPath);
			let factory: unknown;
			try {
				({ factory } = await withDeadline(importExtensionModule(entry.resolvedPath, token), timeoutMs, "import"));
			} finally {
				leaveLoading(previous);
			}
			imported = performance.now();
			if (typeof factory !== "function") {
				throw new ExtensionLoadError(entry.path, "import", `Extension does not export a valid factory function: ${entry.path}`, entry.sourceInfo);
			}
			stage = "factory";
			const extension = createExtension(entry.path, entry.resolvedPath, entry.sourceInfo);
			const before = enterLoading(entry.resolvedPath);
			try {
				const initialized = initializeExtension(factory as ExtensionFactory, extension, runtime, eventBus, extensions, timeoutMs);
				factoryMs = typeof initialized === "number" ? initialized : await initialized;
			} finally {
				leaveLoading(before);
			}
			extensions.push(extension);
		} catch (error) {
			errors.push(toLoadError(error, entry, stage, timeoutMs));
		} finally {
			const done = performance.now();
			if (stage === "import") imported = done;
			if (timing) {
				const parts: [string, number][] = [["resolve", entry.resolveMs], ["import", imported - started], ["factory", factoryMs], ["commit", done - imported - factoryMs]];
				if (tiled) tile(entry.resolvedPath, -entry.resolveMs, parts);
				else detail(entry.resolvedPath, entry.resolveMs + done - started, parts);
			}
			rowEnd = done;
		}
	}
	return { extensions, errors, runtime, eventBus };
}

/** Load SDK inline factories after the file-based ones (paths `<inline:N>`). */
export async function loadInlineExtensions(factories: ExtensionFactory[], into: LoadExtensionsResult, timeoutMs = defaultLoadTimeoutMs()): Promise<void> {
	for (const [i, factory] of factories.entries()) {
		const path = `<inline:${i + 1}>`;
		const sourceInfo: SourceInfo = { path, source: "sdk", scope: "temporary", origin: "top-level" };
		const extension = createExtension(path, path, sourceInfo);
		try {
			await initializeExtension(factory, extension, into.runtime, into.eventBus, into.extensions, timeoutMs);
			into.extensions.push(extension);
		} catch (error) {
			const entry: ExtensionEntry = { path, resolvedPath: path, sourceInfo, group: "path", resolveMs: 0 };
			into.errors.push(toLoadError(error, entry, "factory", timeoutMs));
		}
	}
}
