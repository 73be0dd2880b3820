// pi 1.6's example extensions, copied from the npm package into a test's temp folder and loaded by
// path with `-e` (pi-tui and the framework come from the binary; nothing of node_modules is in reach).
import { cpSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { TempWorld } from "../agent.ts";

export const EXAMPLES = resolve(import.meta.dir, "../../../node_modules/@earendil-works/pi-coding-agent/examples/extensions");

/** Copy one of pi's examples (a file or a folder) into the world; its path as `-e` takes it. */
export function example(world: TempWorld, name: string): string {
	const to = join(world.root, "examples", basename(name));
	cpSync(join(EXAMPLES, name), to, { recursive: true });
	return to;
}
