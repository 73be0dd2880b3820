// The one table of module specifiers served to extensions from inside the binary (SPEC §2).
// Each entry is a literal `require()` so Bun bundles the module into the binary but evaluates it
// only when an extension first imports that specifier (typebox/compile alone costs milliseconds).
// This file itself is imported lazily, only when an extension is loaded from disk.
/* eslint-disable @typescript-eslint/no-require-imports */

export type ModuleLoader = () => object;

const codingAgent: ModuleLoader = () => require("../src/index.ts");
const typebox: ModuleLoader = () => require("typebox");
const typeboxCompile: ModuleLoader = () => require("typebox/compile");
const typeboxValue: ModuleLoader = () => require("typebox/value");
const piAi: ModuleLoader = () => require("./pi-ai.ts");
const piAiProviders: ModuleLoader = () => require("./pi-ai-providers.ts");
// The TUI library itself: the very instance interactive mode renders with (SPEC §2).
const piTui: ModuleLoader = () => require("@earendil-works/pi-tui");
const piAgentCore: ModuleLoader = () => require("./pi-agent-core.ts");

/** pi-ai's entry points extensions import; the root, `/compat`, `/models` and `/oauth` are one module (a superset of each). */
function piAiEntries(scope: string): Record<string, ModuleLoader> {
	return {
		[`${scope}/pi-ai`]: piAi,
		[`${scope}/pi-ai/compat`]: piAi,
		[`${scope}/pi-ai/models`]: piAi,
		[`${scope}/pi-ai/oauth`]: piAi,
		[`${scope}/pi-ai/providers/all`]: piAiProviders,
	};
}

/** Specifier → module loader. Aliases share a loader, so they get the same module object. */
export function virtualModules(): Record<string, ModuleLoader> {
	return {
		"@scope/coding-agent": codingAgent,
		typebox,
		"typebox/compile": typeboxCompile,
		"typebox/value": typeboxValue,
		"@sinclair/typebox": typebox,
		"@sinclair/typebox/compile": typeboxCompile,
		"@sinclair/typebox/value": typeboxValue,
		// pi compatibility: extensions written for pi load unchanged.
		"@mariozechner/pi-coding-agent": codingAgent,
		"@earendil-works/pi-coding-agent": codingAgent,
		...piAiEntries("@mariozechner"),
		...piAiEntries("@earendil-works"),
		"@mariozechner/pi-agent-core": piAgentCore,
		"@earendil-works/pi-agent-core": piAgentCore,
		"@mariozechner/pi-tui": piTui,
		"@earendil-works/pi-tui": piTui,
	};
}

/**
 * Every module as a plain object, for loaders that need those (jiti): each evaluated the first time
 * its specifier is read, once, so a /reload in print mode does not evaluate the TUI library.
 */
export function materializeVirtualModules(): Record<string, object> {
	const out: Record<string, object> = {};
	const done = new Map<ModuleLoader, object>();
	for (const [specifier, load] of Object.entries(virtualModules())) {
		const get = () => done.get(load) ?? done.set(load, load()).get(load)!;
		Object.defineProperty(out, specifier, { get, enumerable: true });
	}
	return out;
}

/**
 * The npm package names served from inside the binary (`typebox`, `@scope/coding-agent`, the pi
 * names): a package's own copy of one is never used, and installs never fetch them.
 */
export function hostPackageNames(): string[] {
	const name = (specifier: string) => specifier.split("/").slice(0, specifier.startsWith("@") ? 2 : 1).join("/");
	return [...new Set(Object.keys(virtualModules()).map(name))];
}
