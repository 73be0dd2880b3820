// Precompiled checks for the config files every run reads (models.json, auth.json): the build bakes
// typebox's generated code for them into the binary as a module (config-check-code.ts), so start-up
// needs neither typebox's value checker nor its first, cold run (2–5 ms measured), nor compiling the
// code from text. On a failed check the caller asks typebox why. From source the code is generated
// on first use.
import type { TSchema } from "typebox";
import { CHECKS } from "./config-check-code.ts";
import type { CheckedSchema } from "./config-check-source.ts";
import { AuthJson, ModelsJson, ProviderConfigJson } from "./provider-config.ts";

type Check = (value: unknown) => boolean;

const SCHEMAS: [TSchema, CheckedSchema][] = [
	[ModelsJson, "ModelsJson"],
	[AuthJson, "AuthJson"],
	[ProviderConfigJson, "ProviderConfigJson"],
];
const built = new Map<TSchema, Check>();

function generated(name: CheckedSchema): Check {
	if (CHECKS) return CHECKS[name];
	const { checkSource } = require("./config-check-source.ts") as typeof import("./config-check-source.ts");
	const { Guard } = require("typebox/guard") as typeof import("typebox/guard");
	return new Function("Guard", checkSource(name))(Guard) as Check;
}

/** The precompiled check of `schema`, or undefined for a schema without one. */
export function precompiledCheck(schema: TSchema): Check | undefined {
	const hit = built.get(schema);
	if (hit) return hit;
	const name = SCHEMAS.find(([s]) => s === schema)?.[1];
	if (name === undefined) return undefined;
	const check = generated(name);
	built.set(schema, check);
	return check;
}
