// What an extension's first `import … from "typebox"` loads in the binary: typebox's builders, guards
// and index in one chunk (each chunk a module of its own to load and link), never its checker, its
// compiler or its script parser (scripts/typebox-build-plugin.ts).
// With AGENT_DEBUG_CHUNKS=1 the binary names the chunks it loaded; dist/agent.chunks.json says what each holds.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { MODEL, mockWorld } from "../support/world.ts";

const repoRoot = resolve(import.meta.dir, "../..");
const TYPEBOX = "node_modules/typebox/build/";

function chunkMap(): Record<string, string[]> {
	const path = join(repoRoot, "dist", "agent.chunks.json");
	if (!existsSync(path)) throw new Error(`${path} is missing: build with "npm run build"`);
	return (JSON.parse(readFileSync(path, "utf8")) as { chunks: Record<string, string[]> }).chunks;
}

const chunkOf = (chunks: Record<string, string[]>, source: string) => Object.keys(chunks).find((name) => chunks[name]!.includes(source));

describe("typebox's chunks", () => {
	test("its guards and index share the chunk of the type builders; the script parser has a chunk of its own", () => {
		const chunks = chunkMap();
		const builders = chunkOf(chunks, `${TYPEBOX}type/types/object.mjs`);
		expect(builders).toBeDefined();
		expect(chunkOf(chunks, `${TYPEBOX}guard/guard.mjs`)).toBe(builders);
		expect(chunkOf(chunks, `${TYPEBOX}guard/emit.mjs`)).toBe(builders);
		expect(chunkOf(chunks, `${TYPEBOX}index.mjs`)).toBe(builders);
		const parser = chunkOf(chunks, `${TYPEBOX}type/script/parser.mjs`);
		expect(parser).not.toBe(builders);
		expect(chunkOf(chunks, `${TYPEBOX}type/script/mapping.mjs`)).toBe(parser);
	});

	test("an extension's first import loads one chunk of typebox besides the one start-up loads, without its checker or parser", async () => {
		await using world = await mockWorld();
		world.write("project/ext.ts", `import { Type } from "typebox";\nexport default function (pi) {\n  pi.registerCommand("schema", { handler: async (_a, ctx) => ctx.ui.notify(JSON.stringify(Type.Object({ text: Type.String() }))) });\n}\n`);
		const loaded = async (argv: string[]) => {
			const r = await world.run(["--no-session", "--model", MODEL.openai, ...argv], { env: { AGENT_DEBUG_CHUNKS: "1" } });
			expect(r.code).toBe(0);
			const line = r.stderr.split("\n").find((l) => l.startsWith("Loaded chunks: ")) ?? "";
			const chunks = chunkMap();
			return { stderr: r.stderr, typebox: line.slice("Loaded chunks: ".length).split(" ").filter((name) => chunks[name]?.some((s) => s.startsWith(TYPEBOX))) };
		};
		world.mock.script({ text: "hi" });
		const without = await loaded(["-ne", "-p", "hello"]);
		const withExtension = await loaded(["-ne", "-e", "./ext.ts", "-p", "/schema"]);
		expect(withExtension.stderr).toContain(`{"type":"object","required":["text"],"properties":{"text":{"type":"string"}}}`);
		const added = withExtension.typebox.filter((name) => !without.typebox.includes(name));
		expect(added).toHaveLength(1);
		const sources = added.flatMap((name) => chunkMap()[name]!);
		expect(sources).toContain(`${TYPEBOX}index.mjs`);
		expect(sources).toContain(`${TYPEBOX}type/types/object.mjs`);
		expect(sources.some((s) => /\/(value|compile|schema|format)\/|\/type\/script\/(parser|mapping)\.mjs$/.test(s))).toBe(false);
	}, 30_000);
});
