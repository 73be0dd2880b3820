// pi-tui's modules as the binary bundles them: the start-up transforms (lazy-node-imports.ts,
// lazy-segmenters.ts, unit-widths.ts, pi-tui-constants.ts) applied at build time. Extensions get this same module instance.
import type { BunPlugin } from "bun";
import { lazyNodeImports } from "./lazy-node-imports.ts";
import { lazySegmenters } from "./lazy-segmenters.ts";
import { piTuiConstants } from "./pi-tui-constants.ts";
import { unitWidthTable } from "./unit-widths.ts";

export const piTuiBuildPlugin: BunPlugin = {
	name: "pi-tui-start-up",
	setup(build) {
		build.onLoad({ filter: /[\\/]@earendil-works[\\/]pi-tui[\\/]dist[\\/].*\.js$/ }, async ({ path }) => {
			const source = piTuiConstants(lazyNodeImports(await Bun.file(path).text(), path), path);
			return { contents: /[\\/]dist[\\/]utils\.js$/.test(path) ? unitWidthTable(lazySegmenters(source, path), path) : source, loader: "js" };
		});
	},
};
