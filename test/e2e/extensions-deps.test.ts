// An extension's own npm dependencies inside the compiled binary (issue 13): bare imports resolve
// by package.json as in pi 1.6 — `main`, `module`, `exports` with import/default/node conditions,
// subpath exports, dependencies nested in a dependency — on the first load and after a reload
// (which goes through jiti). No node_modules of the agent is in reach: only the extension's own.
import { expect, test } from "bun:test";
import { runWith } from "../support/runtime.ts";
import { mockWorld, type MockWorld } from "../support/world.ts";

function writePackages(world: MockWorld): void {
	const nm = "project/ext/node_modules";
	world.write(`${nm}/tiny/package.json`, JSON.stringify({ name: "tiny", main: "./dist/index.js" }));
	world.write(`${nm}/tiny/dist/index.js`, 'export const tiny = "main";\n');
	world.write(`${nm}/modonly/package.json`, JSON.stringify({ name: "modonly", module: "./lib/m.mjs" }));
	world.write(`${nm}/modonly/lib/m.mjs`, 'export const mod = "module";\n');
	world.write(
		`${nm}/expo/package.json`,
		JSON.stringify({ name: "expo", type: "module", exports: { ".": { import: "./src/i.js", default: "./src/d.js" }, "./sub": { node: "./src/sub/n.js", default: "./src/sub/d.js" }, "./package.json": "./package.json" } }),
	);
	world.write(`${nm}/expo/src/i.js`, 'export const e = "exports-import";\n');
	world.write(`${nm}/expo/src/d.js`, 'export const e = "exports-default";\n');
	world.write(`${nm}/expo/src/sub/n.js`, 'export const s = "subpath-node";\n');
	world.write(`${nm}/expo/src/sub/d.js`, 'export const s = "subpath-default";\n');
	world.write(`${nm}/cjs/package.json`, JSON.stringify({ name: "cjs", main: "lib/index.js" }));
	world.write(`${nm}/cjs/lib/index.js`, 'exports.cjs = "commonjs-" + require("./part.js");\n');
	world.write(`${nm}/cjs/lib/part.js`, 'module.exports = "part";\n');
	world.write(`${nm}/nest/package.json`, JSON.stringify({ name: "nest", main: "main.js", type: "module" }));
	world.write(`${nm}/nest/main.js`, 'import { inner } from "inner";\nexport const nest = "nest+" + inner;\n');
	world.write(`${nm}/nest/node_modules/inner/package.json`, JSON.stringify({ name: "inner", exports: "./x.js", type: "module" }));
	world.write(`${nm}/nest/node_modules/inner/x.js`, 'export const inner = "inner";\n');
	world.write(
		"project/ext/index.ts",
		`import { appendFileSync } from "node:fs";
import { tiny } from "tiny";
import { mod } from "modonly";
import { e } from "expo";
import { s } from "expo/sub";
import { cjs } from "cjs";
import { nest } from "nest";
export default function (pi) {
	appendFileSync(process.env.EXT_LOG!, JSON.stringify([tiny, mod, e, s, cjs, nest]) + "\\n");
	pi.registerCommand("again", { handler: async (_a, ctx) => { await ctx.reload(); } });
}
`,
	);
}

test("main, module, exports (import / node conditions), subpaths, CommonJS and nested dependencies resolve, also after a reload", async () => {
	await using world = await mockWorld();
	writePackages(world);
	const r = await runWith(world, ["./ext/index.ts"], ["/again"], { mode: "print" });
	expect(r).toMatchObject({ code: 0, stdout: "", stderr: "" });
	const expected = ["main", "module", "exports-import", "subpath-node", "commonjs-part", "nest+inner"];
	expect(r.log).toEqual([expected, expected]);
});

test("a dependency that is not installed is named with the importing file", async () => {
	await using world = await mockWorld();
	world.write("project/ext/index.ts", 'import { x } from "not-installed";\nexport default function () { console.log(x); }\n');
	const r = await runWith(world, ["./ext/index.ts"], ["hi"], { mode: "print" });
	expect(r.code).toBe(1);
	expect(r.stderr).toContain('Cannot find module "not-installed"');
	expect(r.stderr).toContain("ext/index.ts");
});
