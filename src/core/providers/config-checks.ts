// Precompiled checks for the config files every run reads (models.json, auth.json): the build bakes
// typebox's generated code for them into the binary as a module (config-check-code.ts), so start-up
// needs neither typebox's value checker nor its first, cold run (2–5 ms measured), nor compiling the
// code from text. On a failed check the caller asks typebox why. From source the code is generated
// on first use.
import type { TSchema } from "typebox";
import { CHECKS } from "./config-check-code.ts";
import type { CheckedSchema } from "./config-check-source.ts";

export type { CheckedSchema };

type Check = (value: unknown) => boolean;

const built = new Map<CheckedSchema, Check>();

function generated(name: CheckedSchema): Check {
	if (CHECKS) return CHECKS[name];
	const { checkSource } = require("./config-check-source.ts") as typeof import("./config-check-source.ts");
	const { Guard } = require("typebox/guard") as typeof import("typebox/guard");
	return new Function("Guard", checkSource(name))(Guard) as Check;
}

/** The precompiled check of the schema named `name`. */
export function precompiledCheck(name: CheckedSchema): Check {
	const hit = built.get(name);
	if (hit) return hit;
	const check = generated(name);
	built.set(name, check);
	return check;
}

/**
 * The schema itself, for typebox to say why a value failed its check. Loaded on first need: a valid
 * file never evaluates the schemas (the frozen module costs ~0.4 ms of a `-p` run, measured).
 */
export function configSchema(name: CheckedSchema): TSchema {
	return (require("./provider-config.ts") as typeof import("./provider-config.ts"))[name];
}
