// The compiled binary's config checks as code: scripts/build.ts replaces this module with typebox's
// generated check functions (config-check-source.ts), so they are bundled and bytecode-compiled like
// the rest instead of compiled from text at every start. From source it stays empty.
import type { CheckedSchema } from "./config-check-source.ts";

/** Each checked schema's check; undefined when running from source (config-checks.ts generates them). */
export const CHECKS: Record<CheckedSchema, (value: unknown) => boolean> | undefined = undefined;
