// A build transform (build.ts): our modules' top-level imports from node:fs and node:fs/promises become
// functions that load the built-in on their first call (src/core/lazy-fs.ts). Loading node:fs costs
// 1.5–2 ms of a compiled start and node:fs/promises ~1.5 (measured alone, in a binary with the build's
// flags), and a start that only looks for its files and reads a few asks Bun instead (core/file-reader.ts),
// so a `-p` run that writes no file loads neither. Sources and a run from source keep their imports.

/** `import { a, b, type C } from "node:fs";`, on one line or several. */
const IMPORT = /^import \{([^}]*)\} from "(node:fs(?:\/promises)?)";$/gm;

/** The source with those imports rewritten; throws on an import form the transform does not know. */
export function lazyFsImports(source: string, file: string): string {
	return source.replace(IMPORT, (_line, list: string, builtin: string) => {
		const names = list
			.split(",")
			.map((n) => n.trim())
			.filter((n) => n !== "");
		const types = names.filter((n) => n.startsWith("type ")).map((n) => n.slice(5));
		const out = types.length > 0 ? [`import type { ${types.join(", ")} } from "${builtin}";`] : [];
		const loader = builtin === "node:fs" ? "nodeFs" : "nodeFsPromises";
		const values = names.filter((n) => !n.startsWith("type "));
		if (values.length > 0) out.push(`import { ${loader} as __${loader} } from "${lazyFsModule(file)}";`);
		for (const name of values) {
			if (!/^\w+$/.test(name)) throw new Error(`${file}: imports "${name}" from ${builtin}; scripts/lazy-fs-imports.ts rewrites only plain names`);
			if (name === "constants") {
				// Read as constants.O_RDONLY when a call needs it: an object whose members load node:fs.
				out.push(`const constants: any = new Proxy({}, { get: (_t, key) => (__${loader}().constants as any)[key] });`);
				continue;
			}
			out.push(`function ${name}(...args: any[]): any { return (__${loader}() as any).${name}(...args); }`);
			// realpathSync.native is a function of its own.
			if (name === "realpathSync") out.push(`realpathSync.native = (...args: any[]): any => (__${loader}() as any).realpathSync.native(...args);`);
		}
		return out.join("\n");
	});
}

/** The import specifier of src/core/lazy-fs.ts as seen from `file` (an absolute path under src/). */
function lazyFsModule(file: string): string {
	const normalized = file.replaceAll("\\", "/");
	const src = normalized.lastIndexOf("/src/");
	if (src < 0) throw new Error(`${file}: not under src/`);
	const depth = normalized.slice(src + 5).split("/").length - 1;
	return `${depth === 0 ? "./" : "../".repeat(depth)}core/lazy-fs.ts`;
}
