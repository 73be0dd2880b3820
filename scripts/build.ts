// Compile the CLI into one self-contained executable: dist/agent (or --outfile / --target for
// cross-compiling, used by release.ts). Minified, with bytecode and split chunks: measured to start faster.
// Beside dist/agent, dist/agent.chunks.json says which sources each chunk holds: with
// AGENT_DEBUG_CHUNKS=1 the binary names the chunks it loaded, so a test can tell which modules a run imported.
import { writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";
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
	/** No "built …" line on stderr (benchmarks build several binaries). */
	quiet?: boolean;
	/** Write the chunk map (chunk file → repo-relative sources) to this path. */
	chunkMap?: string;
}

/** What `<outfile>.chunks.json` holds. */
export interface ChunkMap {
	/** Source files (repo-relative, e.g. `src/main.ts`, `node_modules/jiti/dist/jiti.mjs`) per output file name. */
	chunks: Record<string, string[]>;
	/** The entry output's name: always loaded, never listed by the binary. */
	entry: string;
}

const repoRoot = resolve(import.meta.dir, "..");

function chunkMapOf(metafile: { outputs: Record<string, { inputs: Record<string, { bytesInOutput: number }> }> }): ChunkMap {
	const chunks: Record<string, string[]> = {};
	let entry = "";
	for (const [out, info] of Object.entries(metafile.outputs)) {
		const name = out.replace(/^\.\//, "");
		if (!name.startsWith("chunk-")) entry = name;
		// Input paths are relative to the working directory of the build.
		chunks[name] = Object.entries(info.inputs)
			.filter(([, i]) => i.bytesInOutput > 0)
			.map(([path]) => relative(repoRoot, resolve(path)));
	}
	return { chunks, entry };
}

export async function buildBinary(options: BuildOptions): Promise<void> {
	const started = performance.now();
	// The binary embeds the declarations `agent types` writes, generated from src/ (scripts/types.ts).
	if (!options.entrypoint) {
		const { files, bytes, cached } = await writeTypesBundle();
		console.error(`declarations: ${files} files, ${(bytes / 1024).toFixed(0)} KB gzipped, ${cached ? "unchanged sources, kept" : "emitted"} in ${Math.round(performance.now() - started)} ms`);
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
		metafile: options.chunkMap !== undefined,
	});
	if (!result.success) {
		throw new Error(`build failed for ${options.outfile}: ${result.logs.map(String).join("; ")}`);
	}
	if (options.chunkMap && result.metafile) {
		writeFileSync(options.chunkMap, `${JSON.stringify(chunkMapOf(result.metafile as never), null, 1)}\n`);
	}
	const ms = Math.round(performance.now() - started);
	if (!options.quiet) console.error(`built ${options.outfile}${options.target ? ` (${options.target})` : ""} in ${ms} ms`);
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
		chunkMap: `${values.outfile}.chunks.json`,
	});
}
