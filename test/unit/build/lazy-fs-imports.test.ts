// The build transform that makes our modules' node:fs and node:fs/promises imports load the built-in on
// first call: every such import in src/ is rewritten, the wrappers call the real functions (constants and
// realpathSync.native included), type imports stay types, and an import form it does not know stops the build.
import { describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { lazyFsImports } from "../../../scripts/lazy-fs-imports.ts";

const SRC = join(import.meta.dir, "../../../src");
/** An import of node:fs values (`import type { … }` is erased by the build). */
const EAGER = /^import \{[^}]*\} from "node:fs(\/promises)?";$/m;

function sources(dir = SRC): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : []));
}

describe("lazy-fs-imports", () => {
	test("no module in src/ keeps an import of a node:fs value", () => {
		const touched = sources().filter((f) => EAGER.test(readFileSync(f, "utf8")));
		// The project reads and writes files in many places: the transform sees them all.
		expect(touched.length).toBeGreaterThan(20);
		for (const file of touched) expect([file, EAGER.test(lazyFsImports(readFileSync(file, "utf8"), file))]).toEqual([file, false]);
	});

	test("the wrappers call node:fs; constants, realpathSync.native and node:fs/promises work; types stay types", async () => {
		const root = mkdtempSync(join(tmpdir(), "lazy-fs-"));
		try {
			mkdirSync(join(root, "src", "core"), { recursive: true });
			copyFileSync(join(SRC, "core", "lazy-fs.ts"), join(root, "src", "core", "lazy-fs.ts"));
			writeFileSync(join(root, "data.txt"), "hello");
			const file = join(root, "src", "mod.ts");
			const source = [
				`import { existsSync, readFileSync, constants, realpathSync, type Stats } from "node:fs";`,
				`import {\n\treadFile,\n\tstat,\n} from "node:fs/promises";`,
				`const size = (s: Stats) => s.size;`,
				`export const sync = () => [existsSync(${JSON.stringify(root)}), readFileSync(${JSON.stringify(join(root, "data.txt"))}, "utf8"), constants.O_RDONLY, realpathSync(${JSON.stringify(root)}), realpathSync.native(${JSON.stringify(root)})];`,
				`export const later = async () => [await readFile(${JSON.stringify(join(root, "data.txt"))}, "utf8"), size(await stat(${JSON.stringify(join(root, "data.txt"))}))];`,
			].join("\n");
			const out = lazyFsImports(source, file);
			expect(out).toContain(`import type { Stats } from "node:fs";`);
			expect(out).toContain(`from "./core/lazy-fs.ts";`);
			expect(out).not.toMatch(EAGER);
			writeFileSync(file, out);
			const mod = (await import(file)) as { sync(): unknown[]; later(): Promise<unknown[]> };
			const fs = require("node:fs") as typeof import("node:fs");
			expect(mod.sync()).toEqual([true, "hello", fs.constants.O_RDONLY, fs.realpathSync(root), fs.realpathSync.native(root)]);
			expect(await mod.later()).toEqual(["hello", 5]);
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	});

	test("the import path of lazy-fs.ts follows the module's folder; a rename stops the build", () => {
		const line = `import { existsSync } from "node:fs";`;
		expect(lazyFsImports(line, "/r/src/cli.ts")).toContain(`from "./core/lazy-fs.ts"`);
		expect(lazyFsImports(line, "/r/src/core/sdk.ts")).toContain(`from "../core/lazy-fs.ts"`);
		expect(lazyFsImports(line, "/r/src/modes/interactive/app.ts")).toContain(`from "../../core/lazy-fs.ts"`);
		expect(() => lazyFsImports(`import { existsSync as exists } from "node:fs";`, "/r/src/a.ts")).toThrow(`/r/src/a.ts: imports "existsSync as exists" from node:fs`);
		// Other modules are left as they are.
		expect(lazyFsImports(`import { join } from "node:path";`, "/r/src/a.ts")).toBe(`import { join } from "node:path";`);
	});
});
