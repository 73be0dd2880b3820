// The loader with real extension files on disk: order, atomic failure, conflicts, the module
// cache and reload generations (entry and helper modules re-evaluated), inline factories.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { failedApiMessage } from "../../../src/core/extensions/api.ts";
import type { ExtensionEntry } from "../../../src/core/extensions/discovery.ts";
import { findConflict, loadExtensions, loadInlineExtensions } from "../../../src/core/extensions/loader.ts";
import { bumpExtensionGeneration } from "../../../src/core/extensions/module-import.ts";

const root = mkdtempSync(join(realpathSync(tmpdir()), "agent-loader-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let n = 0;
/** Write a file under a fresh folder (Bun's module registry is per process: never reuse a path). */
function write(name: string, text: string, dir = join(root, `case-${++n}`)): string {
	const path = join(dir, name);
	mkdirSync(dirname(path), { recursive: true });
	writeFileSync(path, text);
	return path;
}

function entry(path: string): ExtensionEntry {
	return { path, resolvedPath: path, sourceInfo: { path, source: "cli", scope: "temporary", origin: "top-level" }, group: "path", resolveMs: 0 };
}

const g = globalThis as unknown as { __agentTest: string[] };
g.__agentTest = [];

describe("loadExtensions", () => {
	test("runs factories in load order; handlers keep registration order; virtual modules resolve", async () => {
		g.__agentTest = [];
		const a = write("a.ts", `import { Type } from "typebox";\nimport { VERSION, defineTool } from "@scope/coding-agent";\nexport default function (pi) {\n globalThis.__agentTest.push("a:" + typeof Type.Object + ":" + typeof defineTool + ":" + VERSION);\n pi.on("agent_start", function a1() {});\n pi.on("agent_start", function a2() {});\n}`);
		const b = write("b.js", `module.exports = function (pi) { globalThis.__agentTest.push("b"); pi.on("agent_start", function b1() {}); };`);
		const c = write("c.ts", `import { Type } from "@sinclair/typebox";\nimport { StringEnum } from "@mariozechner/pi-ai";\nexport default async (pi) => { await new Promise((r) => setTimeout(r, 5)); globalThis.__agentTest.push("c:" + JSON.stringify(StringEnum(["x"]))); };`);
		const result = await loadExtensions([entry(a), entry(b), entry(c)], { cwd: root });
		expect(result.errors).toEqual([]);
		expect(g.__agentTest).toEqual(["a:function:function:0.1.0", "b", 'c:{"type":"string","enum":["x"]}']);
		expect(result.extensions.map((e) => e.path)).toEqual([a, b, c]);
		expect(result.extensions[0]!.handlers.get("agent_start")!.map((h) => h.name)).toEqual(["a1", "a2"]);
		expect(result.extensions.every((e) => e.status === "active")).toBe(true);
	});

	test("a failing extension is recorded with its reason and the rest still load", async () => {
		const bad = write("bad.ts", `export default function (pi) {\n  pi.registerFlag("keep", { type: "boolean", default: true });\n  pi.registerProvider("p", {});\n  throw new Error("boom");\n}`);
		const good = write("good.ts", `export default function (pi) { pi.registerFlag("ok", { type: "boolean", default: false }); }`);
		const result = await loadExtensions([entry(bad), entry(good)], { cwd: root });
		expect(result.errors.map((e) => [e.stage, e.message])).toEqual([["factory", `Failed to load extension "${bad}": boom (at ${bad}:4:13)`]]);
		expect(result.extensions.map((e) => e.path)).toEqual([good]);
		expect([...result.runtime.flagValues]).toEqual([["ok", false]]);
		expect(result.runtime.queuedProviders()).toEqual([]);
	});

	test("a captured API of a failed extension answers the failed message", async () => {
		const path = write("keeps-api.ts", `export default function (pi) { globalThis.__agentCaptured = pi; throw new Error("nope"); }`);
		await loadExtensions([entry(path)], { cwd: root });
		const captured = (globalThis as unknown as { __agentCaptured: { registerCommand(n: string, o: object): void } }).__agentCaptured;
		expect(() => captured.registerCommand("x", { handler() {} })).toThrow(failedApiMessage(path));
	});

	test("tool and flag names from two extensions conflict, naming both files", async () => {
		const tool = `import { Type } from "typebox";\nexport default function (pi) { pi.registerTool({ name: "greet", label: "G", description: "", parameters: Type.Object({}), execute: async () => ({ content: [], details: {} }) }); }`;
		const one = write("one.ts", tool);
		const two = write("two.ts", tool);
		const flag = write("flag.ts", `export default function (pi) { pi.registerFlag("plan", { type: "boolean", default: true }); }`);
		const flag2 = write("flag2.ts", `export default function (pi) { pi.registerFlag("plan", { type: "string", default: "x" }); }`);
		const result = await loadExtensions([entry(one), entry(two), entry(flag), entry(flag2)], { cwd: root });
		expect(result.errors.map((e) => e.message)).toEqual([
			`Failed to load extension "${two}": Tool "greet" conflicts with ${one}`,
			`Failed to load extension "${flag2}": Flag "--plan" conflicts with ${flag}`,
		]);
		expect(result.runtime.flagValues.get("plan")).toBe(true);
	});

	test("each file's top level, then its factory, then the next file's; an async factory or a thenable is awaited before the next file", async () => {
		g.__agentTest = [];
		const log = (what: string) => `globalThis.__agentTest.push(${JSON.stringify(what)});`;
		const sync = write("sync.ts", `${log("sync top")}\nPromise.resolve().then(() => { ${log("sync top microtask")} });\nexport default function () { ${log("sync factory")} }`);
		const later = write("later.ts", `${log("async top")}\nexport default async function () { await new Promise((r) => setTimeout(r, 5)); ${log("async factory done")} }`);
		const thenable = write("thenable.ts", `${log("thenable top")}\nexport default function () { return { then(resolve) { setTimeout(() => { ${log("thenable settled")} resolve(); }, 5); } }; }`);
		const last = write("last.ts", `${log("last top")}\nexport default function () { ${log("last factory")} }`);
		const result = await loadExtensions([entry(sync), entry(later), entry(thenable), entry(last)], { cwd: root });
		expect(result.errors).toEqual([]);
		expect(g.__agentTest).toEqual(["sync top", "sync top microtask", "sync factory", "async top", "async factory done", "thenable top", "thenable settled", "last top", "last factory"]);
	});

	test("a factory that throws at once fails its own load only, at the factory stage", async () => {
		const throws = write("throws.ts", `export default function () { throw new Error("no config"); }`);
		const ok = write("after-throw.ts", `export default function (pi) { pi.registerFlag("after-throw", { type: "boolean" }); }`);
		const result = await loadExtensions([entry(throws), entry(ok)], { cwd: root });
		expect(result.errors.map((e) => [e.stage, e.reason.split(" (at ")[0]])).toEqual([["factory", "no config"]]);
		expect(result.extensions.map((e) => e.path)).toEqual([ok]);
	});

	test("a thenable that never settles times out like a promise", async () => {
		const path = write("hang-thenable.ts", `export default function () { return { then() {} }; }`);
		const result = await loadExtensions([entry(path)], { cwd: root, timeoutMs: 50 });
		expect(result.errors.map((e) => e.reason)).toEqual(["Extension factory did not finish within 50 ms: it awaits something that never settles"]);
	});

	test("a factory that never settles times out with a clear message", async () => {
		const path = write("hang.ts", `export default function () { return new Promise(() => {}); }`);
		const result = await loadExtensions([entry(path)], { cwd: root, timeoutMs: 50 });
		expect(result.errors.map((e) => e.reason)).toEqual(["Extension factory did not finish within 50 ms: it awaits something that never settles"]);
	});

	test("an import that never settles times out with a clear message, and the next file still loads", async () => {
		const hang = write("hang-import.ts", `await new Promise(() => {});\nexport default function () {}`);
		const ok = write("after-hang.ts", `export default function (pi) { pi.registerFlag("after", { type: "boolean", default: true }); }`);
		const result = await loadExtensions([entry(hang), entry(ok)], { cwd: root, timeoutMs: 50 });
		expect(result.errors.map((e) => [e.stage, e.reason])).toEqual([["import", "Importing the extension did not finish within 50 ms (a top-level await that never settles?)"]]);
		expect(result.extensions.map((e) => e.path)).toEqual([ok]);
	});

	test("import errors name file:line:column", async () => {
		const syntax = write("syntax.ts", `export default function () {\n  const x = ;\n}`);
		const missing = write("missing.ts", `// a comment\nimport { x } from "not-installed-anywhere";\nexport default () => x;`);
		const notFn = write("named.ts", `export function hello() {}`);
		const result = await loadExtensions([entry(syntax), entry(missing), entry(notFn)], { cwd: root });
		expect(result.errors.map((e) => e.reason)).toEqual([
			`Syntax error at ${syntax}:2:13: Unexpected ;`,
			`Cannot find module "not-installed-anywhere" imported at ${missing}:2:19`,
			`Extension does not export a valid factory function: ${notFn}`,
		]);
	});

	test("module cache: same cwd and generation reuse the module, the factory runs again; a new generation re-evaluates entry and helpers", async () => {
		g.__agentTest = [];
		const dir = join(root, `case-${++n}`);
		const helper = write("helper.ts", `globalThis.__agentTest.push("helper eval 1");\nexport const value = 1;`, dir);
		const main = write("main.ts", `import { value } from "./helper.ts";\nglobalThis.__agentTest.push("main eval");\nexport default function () { globalThis.__agentTest.push("factory " + value); }`, dir);
		await loadExtensions([entry(main)], { cwd: root });
		await loadExtensions([entry(main)], { cwd: root });
		expect(g.__agentTest).toEqual(["helper eval 1", "main eval", "factory 1", "factory 1"]);
		writeFileSync(helper, `globalThis.__agentTest.push("helper eval 2");\nexport const value = 2;`);
		bumpExtensionGeneration();
		g.__agentTest = [];
		const result = await loadExtensions([entry(main)], { cwd: root });
		expect(result.errors).toEqual([]);
		expect(g.__agentTest).toEqual(["helper eval 2", "main eval", "factory 2"]);
	});

	test("inline factories load after files as <inline:N>", async () => {
		const result = await loadExtensions([], { cwd: root });
		await loadInlineExtensions([(pi) => void pi.registerCommand("inline", { handler() {} }), () => { throw new Error("inline broke"); }], result);
		expect(result.extensions.map((e) => e.path)).toEqual(["<inline:1>"]);
		expect(result.errors).toHaveLength(1);
		expect(result.errors[0]!.message).toStartWith('Failed to load extension "<inline:2>": inline broke (at ');
	});
});

describe("loadExtensions without promises of its own", () => {
	test("a factory that returns no promise runs at once after its import and arms no timer; one that does gets its deadline", async () => {
		g.__agentTest = [];
		const sync = write("sync.ts", `export default function (pi) { globalThis.__agentTest.push("sync factory"); pi.registerCommand("s", { handler() {} }); }`);
		const later = write("later.ts", `queueMicrotask(() => globalThis.__agentTest.push("later's microtask"));\nexport default async function (pi) { globalThis.__agentTest.push("async factory"); }`);
		const realSetTimeout = globalThis.setTimeout;
		const armed: number[] = [];
		globalThis.setTimeout = ((fn: () => void, ms?: number, ...rest: unknown[]) => {
			armed.push(ms ?? 0);
			return realSetTimeout(fn, ms, ...rest);
		}) as typeof setTimeout;
		let result: Awaited<ReturnType<typeof loadExtensions>>;
		try {
			result = await loadExtensions([entry(sync), entry(later)], { cwd: root, timeoutMs: 4321 });
		} finally {
			globalThis.setTimeout = realSetTimeout;
		}
		expect(result.errors).toEqual([]);
		expect(result.extensions.map((e) => e.status)).toEqual(["active", "active"]);
		// Two imports and the async factory: the sync factory's stage has no deadline timer.
		expect(armed).toEqual([4321, 4321, 4321]);
		expect(g.__agentTest).toEqual(["sync factory", "later's microtask", "async factory"]);
	});
});

describe("findConflict", () => {
	type Named = { path: string; tools: Map<string, unknown>; flags: Map<string, unknown> };
	/** The definition: the first earlier extension, in load order, with one of the names; its tools before its flags. */
	function pairwise(extension: Named, loaded: Named[]): string | undefined {
		for (const other of loaded) {
			for (const name of extension.tools.keys()) if (other.tools.has(name)) return `Tool "${name}" conflicts with ${other.path}`;
			for (const name of extension.flags.keys()) if (other.flags.has(name)) return `Flag "--${name}" conflicts with ${other.path}`;
		}
		return undefined;
	}

	test("names the same extension and name as comparing with each earlier extension in turn", () => {
		let seed = 7;
		const random = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
		const names = (prefix: string) => new Map(Array.from({ length: random(4) }, () => [`${prefix}${random(6)}`, {}]));
		let conflicts = 0;
		for (let round = 0; round < 300; round++) {
			const loaded = Array.from({ length: random(8) }, (_, i) => ({ path: `/x/${i}.ts`, tools: names("t"), flags: names("f") }));
			const extension = { path: "/x/new.ts", tools: names("t"), flags: names("f") };
			const expected = pairwise(extension, loaded);
			if (expected) conflicts++;
			expect(findConflict(extension, loaded)).toBe(expected);
		}
		expect(conflicts).toBeGreaterThan(100);
	});

	test("one list over a run: appended extensions, names an earlier one registers later, members replaced", () => {
		let seed = 11;
		const random = (n: number) => (seed = (seed * 48271) % 2147483647) % n;
		const names = (prefix: string) => new Map(Array.from({ length: random(3) }, () => [`${prefix}${random(8)}`, {}]));
		const loaded: Named[] = [];
		let conflicts = 0;
		for (let step = 0; step < 400; step++) {
			const action = random(10);
			if (action < 2 && loaded.length > 0) loaded[random(loaded.length)]!.tools.set(`t${random(8)}`, {});
			else if (action < 3 && loaded.length > 0) loaded[random(loaded.length)]!.flags.set(`f${random(8)}`, {});
			else if (action < 4 && loaded.length > 0) loaded[random(loaded.length)] = { path: `/x/r${step}.ts`, tools: names("t"), flags: names("f") };
			else if (action < 5 && loaded.length > 3) loaded.length = random(loaded.length);
			const extension = { path: `/x/${step}.ts`, tools: names("t"), flags: names("f") };
			const expected = pairwise(extension, loaded);
			if (expected) conflicts++;
			expect(findConflict(extension, loaded)).toBe(expected);
			if (!expected || random(4) === 0) loaded.push(extension);
		}
		expect(conflicts).toBeGreaterThan(50);
	});
});
