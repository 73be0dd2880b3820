// The model registry of the running session, for code that has no handle on it: the pi-ai module
// extensions import (`getModel`, `stream`, `complete` on our catalogue and keys). A singleton on
// globalThis, because extensions' copies of modules must see the binary's instance.
import type { ModelRegistry } from "./registry.ts";

const KEY = Symbol.for("agent.providers.active-registry");

export function setActiveRegistry(registry: ModelRegistry | undefined): void {
	(globalThis as Record<symbol, unknown>)[KEY] = registry;
}

export function activeRegistry(): ModelRegistry | undefined {
	return (globalThis as Record<symbol, unknown>)[KEY] as ModelRegistry | undefined;
}
