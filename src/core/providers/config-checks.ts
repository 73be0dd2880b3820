// Precompiled checks for the config files every run reads (models.json, auth.json): the build bakes
// typebox's generated code for them into the binary (AGENT_CONFIG_CHECKS, config-check-source.ts),
// so start-up needs neither typebox's value checker nor its first, cold run (2–5 ms measured). On a
// failed check the caller asks typebox why. From source the code is generated on first use.
import type { TSchema } from "typebox";
import { Guard } from "typebox/guard";
import type { CheckedSchema } from "./config-check-source.ts";
import { AuthJson, ModelsJson, ProviderConfigJson } from "./provider-config.ts";

/** Defined by scripts/build.ts; absent when running from source. */
declare const AGENT_CONFIG_CHECKS: Record<CheckedSchema, string> | undefined;

type Check = (value: unknown) => boolean;

const SCHEMAS: [TSchema, CheckedSchema][] = [
	[ModelsJson, "ModelsJson"],
	[AuthJson, "AuthJson"],
	[ProviderConfigJson, "ProviderConfigJson"],
];
const built = new Map<TSchema, Check>();

function sourceOf(name: CheckedSchema): string {
	if (typeof AGENT_CONFIG_CHECKS !== "undefined") return AGENT_CONFIG_CHECKS[name];
	return (require("./config-check-source.ts") as typeof import("./config-check-source.ts")).checkSource(name);
}

/** The precompiled check of `schema`, or undefined for a schema without one. */
export function precompiledCheck(schema: TSchema): Check | undefined {
	const hit = built.get(schema);
	if (hit) return hit;
	const name = SCHEMAS.find(([s]) => s === schema)?.[1];
	if (name === undefined) return undefined;
	const check = new Function("Guard", sourceOf(name))(Guard) as Check;
	built.set(schema, check);
	return check;
}
