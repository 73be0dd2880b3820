// The build plugin that makes pi-tui's node:child_process, node:url, node:perf_hooks and node:os imports lazy:
// every such import in the installed pi-tui is rewritten, the wrappers call the real built-in, and an
// import it does not know stops the build instead of being left eager.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { lazyNodeImports } from "../../../scripts/lazy-node-imports.ts";

const DIST = join(import.meta.dir, "../../../node_modules/@earendil-works/pi-tui/dist");
const EAGER = /^import .* from "(node:)?(child_process|url|perf_hooks|os)";$/m;

function distFiles(dir = DIST): string[] {
	return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? distFiles(join(dir, e.name)) : e.name.endsWith(".js") ? [join(dir, e.name)] : []));
}

describe("lazy-node-imports", () => {
	test("no pi-tui module keeps a top-level import of the four built-ins", () => {
		const touched = distFiles().filter((f) => EAGER.test(readFileSync(f, "utf8")));
		expect(touched.map((f) => f.slice(DIST.length + 1)).sort()).toEqual(["autocomplete.js", "native-module-path.js", "terminal-image.js", "tui-main-screen.js", "tui.js"]);
		for (const file of touched) expect(lazyNodeImports(readFileSync(file, "utf8"), file)).not.toMatch(EAGER);
	});

	test("the wrappers call the real functions; performance is the global one", () => {
		const out = lazyNodeImports(`import { execSync } from "node:child_process";\nimport { pathToFileURL, fileURLToPath } from "node:url";\nimport { performance } from "node:perf_hooks";\nimport { homedir } from "os";\nimport { readFileSync } from "node:fs";\n`, "x.js");
		// Only the listed built-ins change.
		expect(out).toContain(`import { readFileSync } from "node:fs";`);
		expect(out).not.toMatch(EAGER);
		const run = new Function("require", `${out.replace(/^import .*$/m, "")}\nreturn [execSync("echo hi").toString(), pathToFileURL("/a b").href, fileURLToPath("file:///a%20b"), performance === globalThis.performance, homedir()];`);
		expect(run(require)).toEqual(["hi\n", "file:///a%20b", "/a b", true, require("node:os").homedir()]);
	});

	test("a namespace import becomes an object of wrappers for the members the file calls", () => {
		const out = lazyNodeImports(`import * as os from "node:os";\nconst dir = os.tmpdir();\nexport const home = () => os.homedir();\n`, "x.js");
		expect(out).not.toMatch(EAGER);
		const run = new Function("require", `${out.replace(/^export /m, "")}\nreturn [dir, home(), Object.keys(os).sort()];`);
		expect(run(require)).toEqual([require("node:os").tmpdir(), require("node:os").homedir(), ["homedir", "tmpdir"]]);
		// The namespace used as a value, or a member the plugin does not know, stops the build.
		expect(() => lazyNodeImports(`import * as os from "node:os";\nconsole.log(os);\n`, "dist/a.js")).toThrow(`dist/a.js: uses the node:os namespace "os" other than as os.<name>`);
		expect(() => lazyNodeImports(`import * as os from "node:os";\nos.cpus();\n`, "dist/b.js")).toThrow(`dist/b.js: imports "cpus" from node:os`);
	});

	test("a name it does not know fails the build, naming the file", () => {
		expect(() => lazyNodeImports(`import { exec } from "child_process";`, "dist/new.js")).toThrow(`dist/new.js: imports "exec" from node:child_process`);
	});
});
