// Compile the CLI into one self-contained executable: dist/agent (or --outfile / --target for
// cross-compiling, used by release.ts). Minified, with bytecode and split chunks: measured to start faster.
import { parseArgs } from "node:util";
import pkg from "../package.json" with { type: "json" };
import { writeTypesBundle } from "./types.ts";

export interface BuildOptions {
	outfile: string;
	/** Bun compile target, e.g. "bun-linux-arm64"; default: this machine. */
	target?: string;
	minify?: boolean;
	bytecode?: boolean;
	/** Source to compile (default src/cli.ts); the start-up bench compiles its floor with the same flags. */
	entrypoint?: string;
}

export async function buildBinary(options: BuildOptions): Promise<void> {
	const started = performance.now();
	// The binary embeds the declarations `agent types` writes, generated from src/ (scripts/types.ts).
	if (!options.entrypoint) {
		const { files, bytes } = await writeTypesBundle();
		console.error(`declarations: ${files} files, ${(bytes / 1024).toFixed(0)} KB gzipped, in ${Math.round(performance.now() - started)} ms`);
	}
	const result = await Bun.build({
		entrypoints: [options.entrypoint ?? new URL("../src/cli.ts", import.meta.url).pathname],
		compile: { outfile: options.outfile, ...(options.target ? { target: options.target as Bun.Build.CompileTarget } : {}) },
		minify: options.minify ?? true,
		bytecode: options.bytecode ?? true,
		// Lazily imported parts (provider SDKs, the extension loader, jiti, @clack/prompts) get chunks
		// of their own that load on first import, so their node: imports are not hoisted into
		// start-up: measured +24 ms and +11 MB on `--version`, ~10 ms on `-p`, without it.
		splitting: true,
		format: "esm",
		sourcemap: "none",
		define: { "process.env.AGENT_BUILD_VERSION": JSON.stringify(pkg.version) },
	});
	if (!result.success) {
		throw new Error(`build failed for ${options.outfile}: ${result.logs.map(String).join("; ")}`);
	}
	const ms = Math.round(performance.now() - started);
	console.error(`built ${options.outfile}${options.target ? ` (${options.target})` : ""} in ${ms} ms`);
}

if (import.meta.main) {
	const { values } = parseArgs({
		options: {
			outfile: { type: "string", default: "dist/agent" },
			target: { type: "string" },
			"no-minify": { type: "boolean", default: false },
			"no-bytecode": { type: "boolean", default: false },
		},
	});
	await buildBinary({
		outfile: values.outfile!,
		target: values.target,
		minify: !values["no-minify"],
		bytecode: !values["no-bytecode"],
	});
}
