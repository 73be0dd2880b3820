// A build transform (pi-tui-build-plugin.ts): pi-tui's top-level imports of node:child_process, node:url,
// node:perf_hooks and node:os become calls that load the built-in on first use. Interactive mode imports
// those pi-tui modules before its first frame and each built-in costs start-up (~0.5-1.5 ms apiece, measured),
// yet the functions run only for a tmux capability probe, `fd` for @file completion, an image hyperlink,
// a `~/` path completed, a crash log.
/** Built-in → what pi-tui imports from it. A function becomes a wrapper; `performance` is the global one (the same object). */
const LAZY: Record<string, readonly string[]> = {
	"node:child_process": ["execSync", "spawn"],
	"node:url": ["pathToFileURL", "fileURLToPath"],
	"node:perf_hooks": ["performance"],
	"node:os": ["homedir", "tmpdir"],
};

const IMPORT = /^import \{ ([\w, ]+) \} from "((?:node:)?[\w_]+)";$/gm;
/** `import * as os from "node:os"`: the namespace becomes an object of wrappers for the members the file uses. */
const NAMESPACE = /^import \* as (\w+) from "((?:node:)?[\w_]+)";$/gm;

/** A function that loads `builtin` on its first call and forwards to its `name`. */
function wrapper(builtin: string, name: string): string {
	return `function ${name}(...args) { return require("${builtin}").${name}(...args); }`;
}

function unknown(file: string, name: string, builtin: string, known: readonly string[]): Error {
	return new Error(`${file}: imports "${name}" from ${builtin}; scripts/lazy-node-imports.ts knows only ${known.join(", ")}`);
}

/** The source with those imports rewritten; throws when an import of a listed built-in has a name this plugin does not know. */
export function lazyNodeImports(source: string, file: string): string {
	const named = source.replace(IMPORT, (line, names: string, specifier: string) => {
		const builtin = specifier.startsWith("node:") ? specifier : `node:${specifier}`;
		const known = LAZY[builtin];
		if (!known) return line;
		return names
			.split(",")
			.map((n) => n.trim())
			.map((name) => {
				if (!known.includes(name)) throw unknown(file, name, builtin, known);
				if (name === "performance") return "const performance = globalThis.performance;";
				return wrapper(builtin, name);
			})
			.join("\n");
	});
	return named.replace(NAMESPACE, (line, ns: string, specifier: string) => {
		const builtin = specifier.startsWith("node:") ? specifier : `node:${specifier}`;
		const known = LAZY[builtin];
		if (!known) return line;
		const rest = named.replace(line, "");
		const uses = [...rest.matchAll(new RegExp(`\\b${ns}\\b(\\.(\\w+))?`, "g"))];
		// The namespace passed around as a value (or a member read some other way) cannot be wrapped.
		const bare = uses.find((u) => u[2] === undefined);
		if (bare) throw new Error(`${file}: uses the ${builtin} namespace "${ns}" other than as ${ns}.<name>; scripts/lazy-node-imports.ts wraps only calls`);
		const members = [...new Set(uses.map((u) => u[2]!))];
		for (const name of members) if (!known.includes(name)) throw unknown(file, name, builtin, known);
		return `const ${ns} = { ${members.map((name) => `${name}: ${wrapper(builtin, name).replace(/^function \w+/, "function ")}`).join(", ")} };`;
	});
}
