// What pi 1.6's extensions import, served inside the binary (SPEC §2): the framework's tool
// definitions, diff, session, compaction, skills and settings helpers; pi-ai's catalogue, cost,
// ids, streams, transcript helpers and subpaths; pi-agent-core's values. A value we cannot honour
// loads and throws `not supported by agent: <name>` when used. Through dist/agent, against the mock.
import { expect, test } from "bun:test";
import { readMessages } from "../support/mock-llm.ts";
import { runWith, sessionFiles, writeExtension } from "../support/runtime.ts";
import { mockWorld } from "../support/world.ts";

/** Every value name the issue lists for the framework (pi 1.6's names). */
const FRAMEWORK = [
	"createBashToolDefinition", "createEditToolDefinition", "createFindToolDefinition", "createGrepToolDefinition", "createLsToolDefinition",
	"createReadToolDefinition", "createWriteToolDefinition", "createCodingTools", "createReadOnlyTools", "isBashToolResult", "isEditToolResult",
	"isFindToolResult", "isGrepToolResult", "isLsToolResult", "isReadToolResult", "isWriteToolResult", "formatReadLineRange", "generateDiffString",
	"generateUnifiedPatch", "CURRENT_SESSION_VERSION", "buildSessionContext", "parseSessionEntries", "estimateTokens", "calculateContextTokens",
	"getLastAssistantUsage", "DEFAULT_COMPACTION_SETTINGS", "shouldCompact", "findCutPoint", "compact", "loadSkills", "loadSkillsFromDir",
	"formatSkillsForPrompt", "SettingsManager", "getDocsPath", "getExamplesPath", "getReadmePath", "getPackageDir", "CONFIG_DIR_NAME",
	"ModelRuntime", "RpcClient", "createAgentSessionRuntime",
];
const PI_AI = [
	"uuidv7", "calculateCost", "getModel", "getModels", "getProviders", "complete", "stream", "completeSimple", "streamSimple",
	"createAssistantMessageEventStream", "collapseSystemMessages", "getCurrentSystemPrompt", "getCurrentTools", "ToolCallArgumentsStream",
	"StringEnum", "Type", "openAIResponsesApi", "registerFauxProvider",
];

test("pi 1.6's framework and pi-ai values load by name, work, or say they are not supported", async () => {
	await using world = await mockWorld();
	world.write("project/skills/review/SKILL.md", "---\nname: review\ndescription: Review a diff\n---\nLook closely.\n");
	const ext = writeExtension(
		world,
		"surface",
		`import { ${FRAMEWORK.join(", ")} } from "@earendil-works/pi-coding-agent";
import { ${PI_AI.join(", ")} } from "@earendil-works/pi-ai";
import { getModel as getModelCompat } from "@earendil-works/pi-ai/compat";
import { getBuiltinProviders } from "@earendil-works/pi-ai/providers/all";
import { calculateCost as costFromModels } from "@mariozechner/pi-ai/models";
import { Agent, DEFAULT_AGENT_IDENTITY, runAgentLoop } from "@earendil-works/pi-agent-core";
const notSupported = (fn) => { try { fn(); return "no error"; } catch (e) { return e.message; } };
export default function (pi) {
	pi.registerCommand("probe", {
		handler: async (_args, ctx) => {
			const read = createReadToolDefinition(ctx.cwd);
			const r = await read.execute("t1", { path: "a.txt", offset: 2, limit: 1 }, undefined, undefined, ctx);
			const entries = parseSessionEntries(
				'{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/x"}\\n' +
				'{"type":"message","id":"a","parentId":null,"timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"user","content":"hi","timestamp":1}}\\n' +
				'{"type":"message","id":"b","parentId":"a","timestamp":"2026-01-01T00:00:00.000Z","message":{"role":"assistant","content":[{"type":"text","text":"yo"}],"api":"x","provider":"p","model":"m","usage":{"input":3,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":5,"cost":{"input":0,"output":0,"cacheRead":0,"cacheWrite":0,"total":0}},"stopReason":"stop","timestamp":2}}\\n',
			);
			const context = buildSessionContext(entries);
			const usage = { input: 1000000, output: 500000, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
			const priced = { cost: { input: 3, output: 15, cacheRead: 0, cacheWrite: 0 } };
			const skills = loadSkillsFromDir({ dir: ctx.cwd + "/skills", source: "test" }).skills;
			const args = new ToolCallArgumentsStream();
			args.append('{"path": "x');
			const transcript = [
				{ role: "system", content: "base", sections: { rules: "<rules>be kind</rules>" }, toolsAdded: [{ name: "read", description: "r", parameters: {} }], timestamp: 0 },
				{ role: "user", content: "q", timestamp: 1 },
				{ role: "system", content: "", sections: { rules: null }, toolsRemoved: [{ name: "read" }], timestamp: 2 },
			];
			const answer = await complete(ctx.model, { messages: [{ role: "system", content: "Be terse.", timestamp: 0 }, { role: "user", content: "summarise", timestamp: 1 }] });
			log({
				read: r.content[0].text,
				readOnly: createReadOnlyTools(ctx.cwd).map((t) => t.name),
				coding: createCodingTools(ctx.cwd).map((t) => t.name),
				isBash: [isBashToolResult({ toolName: "bash" }), isReadToolResult({ toolName: "bash" })],
				range: [formatReadLineRange(5, 10), formatReadLineRange(undefined, undefined), formatReadLineRange(3)],
				diff: generateDiffString("a\\nb\\nc\\n", "a\\nB\\nc\\n"),
				patch: generateUnifiedPatch("f.txt", "a\\n", "b\\n"),
				version: CURRENT_SESSION_VERSION,
				context: context.messages.map((m) => m.role),
				tokens: [estimateTokens({ role: "user", content: "12345678", timestamp: 0 }), calculateContextTokens(entries[1].message.usage)],
				lastUsage: getLastAssistantUsage(entries)?.totalTokens,
				compactNow: [shouldCompact(90000, 100000, DEFAULT_COMPACTION_SETTINGS), shouldCompact(1000, 100000, DEFAULT_COMPACTION_SETTINGS)],
				cut: findCutPoint(entries, 0, entries.length, 1),
				skills: skills.map((s) => s.name),
				skillsPrompt: formatSkillsForPrompt(skills).includes("<name>review</name>"),
				settings: SettingsManager.inMemory({ compaction: { reserveTokens: 5 } }).getCompactionSettings(),
				paths: [typeof getDocsPath(), typeof getReadmePath(), CONFIG_DIR_NAME],
				uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-7/.test(uuidv7()),
				cost: calculateCost(priced, usage).total === costFromModels(priced, usage).total ? usage.cost.total : "differs",
				model: [getModel("mock", "mock-model")?.contextWindow, getModels("mock").length, getProviders().includes("mock"), getModelCompat("mock", "mock-model")?.id],
				builtin: getBuiltinProviders().includes("anthropic"),
				stream: typeof createAssistantMessageEventStream().push,
				system: [getCurrentSystemPrompt(transcript), getCurrentTools(transcript).length, collapseSystemMessages({ messages: transcript }).messages.map((m) => m.role)],
				partialArgs: args.append('yz"}'),
				schema: [StringEnum(["a"]).enum, Type.String().type],
				answer: answer.content.map((c) => c.text).join(""),
				core: [typeof DEFAULT_AGENT_IDENTITY, typeof Agent],
				unsupported: [notSupported(() => new ModelRuntime()), notSupported(() => RpcClient.create()), notSupported(() => openAIResponsesApi()), notSupported(() => runAgentLoop([])), notSupported(() => registerFauxProvider()), notSupported(() => createAgentSessionRuntime())],
			});
		},
	});
}
`,
	);
	world.write("project/a.txt", "one\ntwo\nthree\n");
	world.mock.script({ text: "a summary" });
	const r = await runWith(world, [ext], ["/probe"], { mode: "print" });
	expect(r.stderr).toBe("");
	expect(r.code).toBe(0);
	expect(r.log).toEqual([
		{
			read: "2\ttwo\n\n[1 more line in a.txt. Use offset=3 to continue.]",
			readOnly: ["read", "grep", "find", "ls"],
			coding: ["read", "bash", "edit", "write"],
			isBash: [true, false],
			range: [":5-14", "", ":3"],
			diff: { diff: " 1 a\n-2 b\n+2 B\n 3 c", firstChangedLine: 2 },
			patch: "--- a/f.txt\n+++ b/f.txt\n@@ -1,1 +1,1 @@\n-a\n+b\n",
			version: 3,
			context: ["user", "assistant"],
			tokens: [2, 5],
			lastUsage: 5,
			compactNow: [true, false],
			cut: { firstKeptEntryIndex: 1, turnStartIndex: 0, isSplitTurn: true },
			skills: ["review"],
			skillsPrompt: true,
			settings: { enabled: true, reserveTokens: 5, keepRecentTokens: 20000 },
			paths: ["string", "string", ".agent"],
			uuid: true,
			cost: 10.5,
			model: [100000, 2, true, "mock-model"],
			builtin: true,
			stream: "function",
			system: ["base", 0, ["system", "user"]],
			partialArgs: { path: "xyz" },
			schema: [["a"], "string"],
			answer: "a summary",
			core: ["object", "function"],
			unsupported: [
				"not supported by agent: ModelRuntime",
				"not supported by agent: RpcClient.create",
				"not supported by agent: openAIResponsesApi",
				"not supported by agent: runAgentLoop",
				"not supported by agent: registerFauxProvider",
				"not supported by agent: createAgentSessionRuntime",
			],
		},
	]);
	// pi-ai's complete() went through the session's registry (the key from models.json), with the
	// transcript's system message as the request's system prompt.
	const request = world.mock.lastRequest();
	expect(request.headers.authorization).toBe("Bearer test-key");
	expect(readMessages(request).map((m) => `${m.role}: ${m.text}`)).toEqual(["system: Be terse.", "user: summarise"]);
	// A command adds nothing to the conversation, so no session file is written.
	expect(sessionFiles(world)).toEqual([]);
});
