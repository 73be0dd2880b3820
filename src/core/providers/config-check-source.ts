// typebox's generated check code for the config schemas, as the body of a function taking `Guard`.
// Run by scripts/build.ts, which bakes the code into the binary as config-check-code.ts; from source,
// on first use.
import { dirname, join } from "node:path";
import { Code } from "typebox/compile";
import * as schemas from "./provider-config.ts";

/** The config schemas with a precompiled check. */
export const CHECKED_SCHEMAS = ["ModelsJson", "AuthJson", "ProviderConfigJson"] as const;
export type CheckedSchema = (typeof CHECKED_SCHEMAS)[number];

/** The schema's check as function-body source: `new Function("Guard", source)(Guard)` is `(value) => boolean`. */
export function checkSource(name: CheckedSchema): string {
	const { Code: code, External } = Code(schemas[name]);
	const externals = External.variables.map((v: unknown) => {
		if (!(v instanceof RegExp)) throw new Error(`config checks: ${name} needs an external that is not a RegExp`);
		return String(v);
	});
	const body = code
		.split("\n")
		.filter((line) => !/^import |^\/\/ @ts-ignore|SetExternal|^let External/.test(line))
		.join("\n")
		.replace(/^export function Check\(value\) \{ return (check_\d+)\(value\) \}$/m, "return $1;");
	if (!/return check_\d+;/.test(body) || /\bHashing\./.test(body)) throw new Error(`config checks: unexpected code for ${name}`);
	return `const External = [${externals.join(", ")}];\n${body}`;
}

/**
 * config-check-code.ts as the build bundles it: every checked schema's check as code. The checks use
 * one member of typebox's Guard (CodePointCount, for minLength), so the module imports that function's
 * own file rather than typebox/guard: a run that reads models.json then evaluates no other guard module.
 */
export function checkModuleSource(): string {
	const entries = CHECKED_SCHEMAS.map((n) => `\t${n}: (function (Guard) {\n${checkSource(n)}\n})(Guard),`);
	const used = new Set(entries.join("\n").match(/\bGuard\.\w+/g));
	const unexpected = [...used].filter((m) => m !== "Guard.CodePointCount");
	if (unexpected.length > 0) throw new Error(`config checks: the generated code uses ${unexpected.join(", ")}; import it in checkModuleSource`);
	const unicode = join(dirname(Bun.resolveSync("typebox/guard", import.meta.dir)), "unicode", "unicode.mjs");
	return `import { CodePointCount } from ${JSON.stringify(unicode)};\nconst Guard = { CodePointCount };\nexport const CHECKS = {\n${entries.join("\n")}\n};\n`;
}
