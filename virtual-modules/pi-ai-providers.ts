// `@earendil-works/pi-ai/providers/all`: reads of the built-in catalogue (ours: the providers and
// models the agent ships with). Image and classifier models do not exist here.
import { unsupported } from "../src/core/compat/unsupported.ts";
import { builtinProviders } from "../src/core/providers/catalogue.ts";
import type { Model } from "../src/core/providers/types.ts";

const all = (): Model[] => builtinProviders().flatMap((p) => p.models);

export function getBuiltinProviders(): string[] {
	return builtinProviders().map((p) => p.name);
}
export function getBuiltinModels(provider: string): Model[] {
	return all().filter((m) => m.provider === provider);
}
export function getBuiltinModel(provider: string, id: string): Model | undefined {
	return all().find((m) => m.provider === provider && m.id === id);
}
export function getAllBuiltinModels(): Model[] {
	return all();
}
export const builtinModels = getAllBuiltinModels;
export { builtinProviders };
export function getBuiltinImageModels(): Model[] {
	return [];
}
export function getBuiltinImageModel(): undefined {
	return undefined;
}
export function getBuiltinClassifierModels(): Model[] {
	return [];
}
export function getBuiltinClassifierModel(): undefined {
	return undefined;
}
export function getBuiltinModelDataGeneratedAt(): string | undefined {
	return undefined;
}
export const radiusProvider = unsupported("radiusProvider");
