// The module cache and reload generations inside a compiled binary (SPEC §5): the same generation
// reuses the module but runs the factory again; a new generation re-evaluates the entry and its
// relative helpers (through jiti); an import error there still names file:line:column.
import { afterAll, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { runAgent, TempWorld } from "../support/agent.ts";

const dir = mkdtempSync(join(realpathSync(tmpdir()), "agent-reload-bin-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("reload re-evaluates entry and helpers in the compiled binary", async () => {
	const harness = join(dir, "reload-harness");
	const built = await Bun.build({
		entrypoints: [resolve(import.meta.dir, "../support/reload-harness.ts")],
		compile: { outfile: harness },
		minify: true,
		bytecode: true,
		format: "esm",
		splitting: true,
	});
	expect(built.success).toBe(true);
	chmodSync(harness, 0o755);
	await using world = new TempWorld();
	const helper = world.write("project/ext/helper.ts", 'console.log("helper evaluated: 1");\nexport const value = 1;\n');
	const entry = world.write(
		"project/ext/main.ts",
		'import { Type } from "typebox";\nimport { value } from "./helper.ts";\nconsole.log("entry evaluated");\nexport default function () { console.log(`factory ran with ${value} ${typeof Type.String}`); }\n',
	);
	const v2 = 'console.log("helper evaluated: 2");\nexport const value = 2;\n';
	const broken = "export const value = ;\n";
	const r = await runAgent([entry, helper, v2, broken], { cwd: world.cwd, env: world.environment(), binary: harness });
	expect(r.stderr).toBe("");
	expect(r.stdout).toBe(
		[
			"helper evaluated: 1",
			"entry evaluated",
			"factory ran with 1 function",
			"first: 1 loaded",
			"factory ran with 1 function",
			"same generation: 1 loaded",
			"helper evaluated: 2",
			"entry evaluated",
			"factory ran with 2 function",
			"after reload: 1 loaded",
			`broken helper: 0 loaded; Syntax error at ${helper}:1:22: Unexpected token`,
			"",
		].join("\n"),
	);
});
