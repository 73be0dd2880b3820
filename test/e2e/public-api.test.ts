// What `@scope/coding-agent` and the pi-ai alias serve to extensions inside the binary (SPEC §2):
// tool factories, truncation helpers, SessionManager, parseFrontmatter, and pi-ai's complete()
// reaching a real provider with the key from ctx.modelRegistry.
import { expect, test } from "bun:test";
import { runWith, writeExtension } from "../support/runtime.ts";
import { mockWorld } from "../support/world.ts";

test("an extension uses the embedded public API and pi-ai complete()", async () => {
	await using world = await mockWorld();
	world.write("project/notes.txt", "line one\nline two\n");
	const ext = writeExtension(
		world,
		"api",
		`import { createReadTool, truncateHead, DEFAULT_MAX_LINES, formatSize, SessionManager, parseFrontmatter, VERSION } from "@scope/coding-agent";
import { complete, StringEnum } from "@mariozechner/pi-ai";
export default function (pi) {
	pi.registerCommand("probe", {
		handler: async (_args, ctx) => {
			const read = createReadTool(ctx.cwd);
			const r = await read.execute("t1", { path: "notes.txt" }, undefined, undefined, ctx);
			const fm = parseFrontmatter("---\\nname: x\\n---\\nbody");
			const model = ctx.model;
			const auth = await ctx.modelRegistry.getApiKeyAndHeaders(model);
			const answer = await complete(model, { messages: [{ role: "user", content: "summarise", timestamp: 1 }] }, { apiKey: auth.apiKey });
			log({
				read: r.content[0].text,
				trunc: truncateHead("a\\nb\\nc", { maxLines: 2 }).content,
				lines: DEFAULT_MAX_LINES,
				size: formatSize(2048),
				session: typeof SessionManager.inMemory,
				fm: [fm.frontmatter.name, fm.body],
				version: typeof VERSION,
				enumType: StringEnum(["a", "b"]).type,
				answer: answer.content.map((c) => c.text).join(""),
			});
		},
	});
}
`,
	);
	world.mock.script({ text: "a summary" });
	const r = await runWith(world, [ext], ["/probe"], { mode: "print" });
	expect(r.stderr).toBe("");
	expect(r.code).toBe(0);
	expect(r.log).toEqual([
		{
			read: "1\tline one\n2\tline two",
			trunc: "a\nb\n",
			lines: 2000,
			size: "2.0KB",
			session: "function",
			fm: ["x", "body"],
			version: "string",
			enumType: "string",
			answer: "a summary",
		},
	]);
	expect(world.mock.lastRequest().headers.authorization).toBe("Bearer test-key");
});
