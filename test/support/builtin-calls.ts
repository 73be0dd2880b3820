// Preloaded into the binary (BUN_OPTIONS="--preload …"): counts which of some JavaScriptCore builtins
// the run calls, and names them on stderr at exit ("Builtin calls: Array#flatMap String#replace/re …"),
// and those called by the end of start-up (the TUI's first frame, where the JIT policy is set back:
// core/jit-policy.ts) when that comes ("Builtin calls by the start-up's end: …").
// Each of these builtins is compiled on its first call, which costs 40–150 µs of a start; the start-up
// path avoids those it does not need (test/e2e/cold-builtins.test.ts). Behaviour is unchanged: each
// wrapper calls the original with the same receiver and arguments.
import { writeSync } from "node:fs";

const called = new Set<string>();

function wrap(target: object, name: string, label: string, when?: (args: unknown[]) => boolean): void {
	const original = (target as Record<string, unknown>)[name];
	if (typeof original !== "function") return;
	const wrapper = {
		[name](this: unknown, ...args: unknown[]) {
			if (!when || when(args)) called.add(label);
			return Reflect.apply(original, this, args);
		},
	}[name]!;
	Object.defineProperty(target, name, { value: wrapper, writable: true, configurable: true, enumerable: false });
}

for (const name of ["flatMap", "flat", "reduce", "reduceRight", "some", "every", "find", "findIndex", "findLast", "findLastIndex", "sort", "at", "entries", "forEach"]) {
	wrap(Array.prototype, name, `Array#${name}`);
}
wrap(Array, "from", "Array.from");
wrap(String, "raw", "String.raw");
wrap(Promise, "race", "Promise.race");
wrap(Object, "fromEntries", "Object.fromEntries");
// Replacing with a regex runs RegExp.prototype[Symbol.replace], a builtin of its own; with a string it does not.
wrap(String.prototype, "replace", "String#replace/re", (args) => args[0] instanceof RegExp);
wrap(String.prototype, "matchAll", "String#matchAll");
wrap(String.prototype, "padStart", "String#padStart");
// A generator's first run sets up its machinery (~0.15 ms of a start).
wrap(Object.getPrototypeOf(function* () {}).prototype, "next", "Generator#next");

// endStartup() sets the JIT policy back once, right after the TUI's first frame is drawn.
const unsafe = Bun.unsafe as { setJITPolicy?: (...args: unknown[]) => unknown };
const setJITPolicy = unsafe.setJITPolicy;
let startupEnded = false;
if (setJITPolicy) {
	unsafe.setJITPolicy = (...args: unknown[]) => {
		if (!startupEnded) writeSync(2, `Builtin calls by the start-up's end: ${[...called].join(" ")}\n`);
		startupEnded = true;
		return Reflect.apply(setJITPolicy, Bun.unsafe, args);
	};
}

process.on("exit", () => {
	writeSync(2, `Builtin calls: ${[...called].join(" ")}\n`);
});
