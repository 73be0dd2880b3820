// A build transform (pi-tui-build-plugin.ts): pi-tui's top-level imports of node:child_process, node:url and node:perf_hooks
// become calls that load the built-in on first use. Interactive mode imports those pi-tui modules
// before its first frame and each built-in costs start-up (~0.5-1.5 ms apiece, measured), yet the
// functions run only for a tmux capability probe, `fd` for @file completion, an image hyperlink.
/** Built-in → what pi-tui imports from it. A function becomes a wrapper; `performance` is the global one (the same object). */
const LAZY: Record<string, readonly string[]> = {
	"node:child_process": ["execSync", "spawn"],
	"node:url": ["pathToFileURL", "fileURLToPath"],
	"node:perf_hooks": ["performance"],
};

const IMPORT = /^import \{ ([\w, ]+) \} from "((?:node:)?[\w_]+)";$/gm;

/** The source with those imports rewritten; throws when an import of a listed built-in has a name this plugin does not know. */
export function lazyNodeImports(source: string, file: string): string {
	return source.replace(IMPORT, (line, names: string, specifier: string) => {
		const builtin = specifier.startsWith("node:") ? specifier : `node:${specifier}`;
		const known = LAZY[builtin];
		if (!known) return line;
		return names
			.split(",")
			.map((n) => n.trim())
			.map((name) => {
				if (!known.includes(name)) throw new Error(`${file}: imports "${name}" from ${builtin}; scripts/lazy-node-imports.ts knows only ${known.join(", ")}`);
				if (name === "performance") return "const performance = globalThis.performance;";
				return `function ${name}(...args) { return require("${builtin}").${name}(...args); }`;
			})
			.join("\n");
	});
}
