// host.renderers: what the modes draw with — message and entry renderers by custom type, Markdown
// transformers per surface, tool renderer resolvers with next() — looked up over the live
// extensions. Real extension files through the loader and createAgentSession.
import { describe, expect, test } from "bun:test";
import { discoverExtensions } from "../../../src/core/extensions/discovery.ts";
import { loadExtensions } from "../../../src/core/extensions/loader.ts";
import { ModelRegistry } from "../../../src/core/providers/registry.ts";
import { createAgentSession } from "../../../src/core/sdk.ts";
import { TempWorld } from "../../support/agent.ts";
import { plainTheme } from "../../../src/core/extensions/ui-noop.ts";

async function hostWith(world: TempWorld, files: Record<string, string>) {
	const paths = Object.entries(files).map(([name, body]) => world.write(`project/${name}`, body));
	const { entries } = discoverExtensions({
		cwd: world.cwd,
		projectDir: `${world.cwd}/.agent/extensions`,
		userDir: `${world.agentDir}/extensions`,
		projectSettingsPaths: [],
		userSettingsPaths: [],
		cliPaths: paths,
		noExtensions: true,
		projectTrusted: false,
	});
	const loaded = await loadExtensions(entries, { cwd: world.cwd });
	expect(loaded.errors.map((e) => e.message)).toEqual([]);
	const { host } = await createAgentSession({
		cwd: world.cwd,
		registry: ModelRegistry.create({ agentDir: world.agentDir, env: {} }),
		allowNoModel: true,
		noContextFiles: true,
		session: { kind: "memory" },
		extensions: { loaded, entries, projectTrusted: false },
	});
	return host;
}

const theme = plainTheme;

describe("host.renderers", () => {
	test("entry and message renderers by custom type: the first extension in load order wins", async () => {
		await using world = new TempWorld();
		const host = await hostWith(world, {
			"a.ts": `export default (pi) => {
	pi.registerEntryRenderer("card", (entry, { expanded }) => ({ render: () => [\`a:\${entry.data.text}:\${expanded}\`] }));
	pi.registerMessageRenderer("note", (m) => ({ render: () => [\`note:\${m.content}\`] }));
};`,
			"b.ts": `export default (pi) => { pi.registerEntryRenderer("card", () => ({ render: () => ["b"] })); };`,
		});
		const entry = host.renderers.entryRenderer("card");
		expect(entry?.extensionPath).toEndWith("/a.ts");
		const component = entry!.value({ type: "custom", id: "1", parentId: null, timestamp: "", customType: "card", data: { text: "hi" } }, { expanded: true, keyHint: (a) => a }, theme);
		expect(component?.render(80)).toEqual(["a:hi:true"]);
		const message = host.renderers.messageRenderer("note");
		expect(message!.value({ role: "custom", customType: "note", content: "x", display: true, timestamp: 0 }, { expanded: false, outputPad: 1, keyHint: (a) => a }, theme)?.render(80)).toEqual(["note:x"]);
		expect(host.renderers.entryRenderer("other")).toBeUndefined();
	});

	test("Markdown transformers run per surface, in load order; a throwing one is skipped and reported", async () => {
		await using world = new TempWorld();
		const host = await hostWith(world, {
			"a.ts": `export default (pi) => { pi.registerMarkdownTransformer((md) => md + " [a]"); };`,
			"b.ts": `export default (pi) => {
	pi.registerMarkdownTransformer((md) => { throw new Error("first"); });
	pi.registerMarkdownTransformer((md, ctx) => md.toUpperCase() + " " + ctx.messageType, { messageTypes: ["assistant", "custom"] });
};`,
			"c.ts": `export default (pi) => { pi.registerMarkdownTransformer(() => { throw new Error("broken"); }); };`,
		});
		const errors: string[] = [];
		const onError = (path: string, error: unknown) => errors.push(`${path.split("/").at(-1)}: ${(error as Error).message}`);
		const ctx = { isStreaming: false, availableWidth: 80 };
		expect(host.renderers.transformMarkdown("hi", { ...ctx, messageType: "assistant" }, onError)).toBe("HI [A] assistant");
		expect(host.renderers.transformMarkdown("hi", { ...ctx, messageType: "user" }, onError)).toBe("hi [a]");
		expect(host.renderers.transformMarkdown("hi", { ...ctx, messageType: "custom" }, onError)).toBe("HI custom");
		expect(errors).toEqual(["c.ts: broken", "c.ts: broken"]);
	});

	test("tool renderer resolvers chain with next(), ending at the tool's own renderers", async () => {
		await using world = new TempWorld();
		const host = await hostWith(world, {
			"a.ts": `export default (pi) => { pi.registerToolRenderer((name, next) => name === "read" ? { renderCall: () => ({ render: () => ["a-read"] }) } : next()); };`,
			"b.ts": `export default (pi) => { pi.registerToolRenderer((name, next) => name === "bash" ? { ...next(), renderShell: "self" } : undefined); };`,
		});
		const own = { renderResult: () => ({ render: () => ["own"], invalidate() {} }) };
		expect(host.renderers.toolRenderers("read", () => own)?.renderCall?.({}, theme as never, {} as never)?.render(80)).toEqual(["a-read"]);
		const bash = host.renderers.toolRenderers("bash", () => own);
		expect(bash?.renderShell).toBe("self");
		expect(bash?.renderResult).toBe(own.renderResult);
		expect(host.renderers.toolRenderers("write", () => own)).toBeUndefined();
		expect(host.renderers.toolRendererResolvers().map((r) => r.extensionPath.split("/").at(-1))).toEqual(["a.ts", "b.ts"]);
	});
});
