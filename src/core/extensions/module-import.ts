// Turning an extension file into its factory. First load: Bun's own loader, with a runtime plugin
// serving the virtual-module table (measured ~10x faster than jiti inside the binary). Re-loads
// after /reload or a cwd change: jiti with its module cache off, because Bun's ESM cache cannot be
// cleared and a query-string cache-buster would re-evaluate only the entry, not its helpers.
import { readFileSync } from "node:fs";
import { runtimeShape } from "../../config.ts";
import { beforeForeignCode } from "../../stdio.ts";
import { detail } from "../timing.ts";

interface CacheEntry {
	token: string;
	factory: unknown;
}

const INSTALLED = Symbol.for("agent.extensions.virtual-modules-installed");
const cache = new Map<string, CacheEntry>();
/** Paths Bun's loader has already evaluated in this process: re-evaluation must go through jiti. */
const nativelyImported = new Set<string>();
let generation = 0;
let table: Promise<typeof import("../../../virtual-modules/index.ts")> | undefined;
let jitiInstance: Promise<{ import(id: string, opts?: { default?: boolean }): Promise<unknown> }> | undefined;

/** The cache token: a module is reused only for the same cwd and generation. */
export function cacheToken(cwd: string): string {
	return `${cwd}\0${generation}`;
}

/** `/reload`: every extension module (entry and helpers) is evaluated again on its next load. */
export function bumpExtensionGeneration(): number {
	cache.clear();
	return ++generation;
}

function virtualModuleTable() {
	table ??= import("../../../virtual-modules/index.ts");
	return table;
}

/**
 * Serve the virtual-module table to Bun's loader (once per process). The loader calls it before its
 * first file so the cost has a row of its own (AGENT_TIMING), not the first extension's import.
 */
export async function installNativeLoader(): Promise<number> {
	const g = globalThis as Record<symbol, unknown>;
	if (g[INSTALLED]) return 0;
	g[INSTALLED] = true;
	const started = performance.now();
	const table = await virtualModuleTable();
	let modules = table.virtualModules();
	if (runtimeShape() === "source") {
		// From source the table's require() calls resolve at run time and would hit this very
		// plugin; evaluate them first. In the binary they are bundled and stay lazy.
		const evaluated = table.materializeVirtualModules();
		modules = Object.fromEntries(Object.entries(evaluated).map(([k, v]) => [k, () => v]));
	}
	Bun.plugin({
		name: "agent-virtual-modules",
		setup(build) {
			// Called on an extension's first import of the specifier, so unused modules stay unevaluated.
			for (const [specifier, load] of Object.entries(modules)) {
				build.module(specifier, () => ({ exports: load() as Record<string, unknown>, loader: "object" }));
			}
		},
	});
	const ms = performance.now() - started;
	detail("load virtual modules", ms);
	return ms;
}

function jiti() {
	jitiInstance ??= (async () => {
		const modules = (await virtualModuleTable()).materializeVirtualModules();
		const started = performance.now();
		// The static entry, so Bun bundles jiti's transformer into the binary.
		const { createJiti } = await import("jiti/static");
		detail("load jiti", performance.now() - started);
		return createJiti(import.meta.url, {
			moduleCache: false,
			fsCache: false,
			virtualModules: modules,
			// Never hand back to Bun's loader: its cache would return the old module.
			tryNative: false,
			...(runtimeShape() === "source" ? { tsconfigPaths: true } : {}),
		});
	})();
	return jitiInstance;
}

/** The module's default export (unwrapping a CommonJS `exports.default`), or the module itself. */
function defaultExport(mod: unknown): unknown {
	if (mod && typeof mod === "object" && "default" in mod) {
		const d = (mod as { default: unknown }).default;
		if (d && typeof d === "object" && typeof (d as { default?: unknown }).default === "function") return (d as { default: unknown }).default;
		return d;
	}
	return mod;
}

/**
 * Import `resolvedPath` and return its default export. Cached per path for the same token. A first
 * import with the plugin installed (every file of a start) is one `import()` and one `then`, not an
 * async function with two awaits.
 */
export function importExtensionModule(resolvedPath: string, token: string): Promise<{ factory: unknown; cached: boolean }> {
	beforeForeignCode();
	const hit = cache.get(resolvedPath);
	if (hit && hit.token === token) return Promise.resolve({ factory: hit.factory, cached: true });
	if (!nativelyImported.has(resolvedPath) && (globalThis as Record<symbol, unknown>)[INSTALLED]) {
		nativelyImported.add(resolvedPath);
		return import(resolvedPath).then((mod: unknown) => remember(resolvedPath, token, defaultExport(mod)));
	}
	return importSlowly(resolvedPath, token);
}

function remember(resolvedPath: string, token: string, factory: unknown): { factory: unknown; cached: boolean } {
	cache.set(resolvedPath, { token, factory });
	return { factory, cached: false };
}

async function importSlowly(resolvedPath: string, token: string): Promise<{ factory: unknown; cached: boolean }> {
	let factory: unknown;
	if (!nativelyImported.has(resolvedPath)) {
		await installNativeLoader();
		nativelyImported.add(resolvedPath);
		factory = defaultExport(await import(resolvedPath));
	} else {
		const loader = await jiti();
		factory = await loader.import(resolvedPath, { default: true });
	}
	return remember(resolvedPath, token, factory);
}

// ---- Making import errors name file:line:column ----

interface Position {
	file?: string;
	line: number;
	column: number;
}

/** Where `specifier` is imported in `file` (1-based), for resolve errors that carry no position. */
function findImport(file: string, specifier: string): Position | undefined {
	let text: string;
	try {
		text = readFileSync(file, "utf8");
	} catch {
		return undefined;
	}
	for (const quote of ['"', "'", "`"]) {
		const at = text.indexOf(`${quote}${specifier}${quote}`);
		if (at < 0) continue;
		const before = text.slice(0, at);
		const line = before.split("\n").length;
		return { file, line, column: at - before.lastIndexOf("\n") };
	}
	return undefined;
}

/** The first stack frame outside the binary: where in the extension something was thrown. */
function locateInStack(stack: string | undefined): string | undefined {
	if (!stack) return undefined;
	for (const line of stack.split("\n").slice(1)) {
		const m = /\(?((?:file:\/\/)?\/[^():]+):(\d+):(\d+)\)?\s*$/.exec(line.trim());
		if (!m) continue;
		const file = m[1]!.replace(/^file:\/\//, "");
		if (file.includes("$bunfs") || file.includes("/node_modules/jiti/") || file.includes("/src/core/extensions/")) continue;
		return `${file}:${m[2]}:${m[3]}`;
	}
	return undefined;
}

/**
 * One line saying why an extension failed to import or run: syntax and import errors name
 * `file:line:column`; thrown errors name where they were thrown when the stack shows it.
 */
export function describeLoadError(error: unknown, entryFile: string): string {
	const e = error as Record<string, any> | undefined;
	if (e && Array.isArray(e.errors) && e.errors.length > 0 && e.errors.every((x: unknown) => x && typeof x === "object" && "position" in x)) {
		const first = describeLoadError(e.errors[0], entryFile);
		return e.errors.length > 1 ? `${first} (and ${e.errors.length - 1} more)` : first;
	}
	const name = e?.name ?? e?.constructor?.name;
	const message: string = e?.message ?? String(error);
	if (name === "BuildMessage" && e?.position) {
		const p = e.position;
		return `Syntax error at ${p.file ?? entryFile}:${p.line}:${p.column}: ${message}`;
	}
	if (name === "ResolveMessage") {
		const referrer: string = typeof e?.referrer === "string" && e.referrer ? e.referrer : entryFile;
		const specifier: string | undefined = typeof e?.specifier === "string" ? e.specifier : /'([^']+)'/.exec(message)?.[1];
		const pos = e?.position ? { line: e.position.line, column: e.position.column } : specifier ? findImport(referrer, specifier) : undefined;
		const where = pos ? `${referrer}:${pos.line}:${pos.column}` : referrer;
		const what = specifier ? `Cannot find module "${specifier}"` : message;
		return `${what} imported at ${where}`;
	}
	// Babel (jiti) syntax errors: `loc` is 1-based line, 0-based column; the message ends in "(l:c)".
	if (e?.loc && typeof e.loc.line === "number") {
		const file = typeof e.fileName === "string" ? e.fileName : entryFile;
		return `Syntax error at ${file}:${e.loc.line}:${e.loc.column + 1}: ${message.replace(/\s*\(\d+:\d+\)\s*$/, "")}`;
	}
	// jiti re-throws Babel's parse errors as "ParseError: <what>\n <file>:<line>:<0-based column>".
	const parse = /^(?:ParseError|SyntaxError): (.*?)\s*\n\s*(\/.+):(\d+):(\d+)\s*$/.exec(message);
	if (parse) return `Syntax error at ${parse[2]}:${parse[3]}:${Number(parse[4]) + 1}: ${parse[1]}`;
	if (e?.code === "MODULE_NOT_FOUND" || /^Cannot find module/.test(message)) {
		const specifier = /['"]([^'"]+)['"]/.exec(message)?.[1];
		const pos = specifier ? findImport(entryFile, specifier) : undefined;
		if (specifier && pos) return `Cannot find module "${specifier}" imported at ${entryFile}:${pos.line}:${pos.column}`;
		return message.split("\n")[0]!;
	}
	const where = locateInStack(e?.stack);
	const text = message.split("\n")[0]!;
	return where ? `${text} (at ${where})` : text;
}
