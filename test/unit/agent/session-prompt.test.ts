// The session's system prompt is asked for before every request and tool batch; it is built again
// whenever anything it is built from changed: the active tools, a tool's snippet or guidelines, the
// prompt options, this run's options, an override, the date.
import { afterEach, expect, setSystemTime, test } from "bun:test";
import { Type } from "typebox";
import { AgentSession, type ModelAccess } from "../../../src/core/agent-session.ts";
import { buildSystemPrompt } from "../../../src/core/agent/system-prompt.ts";
import { SessionManager } from "../../../src/core/session/session-manager.ts";
import type { AgentTool } from "../../../src/core/tools/types.ts";
import { testModel } from "../../support/scripted-stream.ts";

function tool(name: string, snippet: string, guidelines: string[] = []): AgentTool {
	return {
		name,
		label: name,
		description: `The ${name} tool`,
		parameters: Type.Object({}),
		promptSnippet: snippet,
		promptGuidelines: guidelines,
		async execute() {
			return { content: [], details: undefined };
		},
	} as AgentTool;
}

afterEach(() => setSystemTime());

test("the prompt follows every change it is built from, and is the same string while nothing changed", () => {
	const models: ModelAccess = { stream: (() => undefined) as never, getApiKeyAndHeaders: async () => ({}), find: () => undefined };
	const session = new AgentSession({
		cwd: "/work",
		model: testModel,
		thinkingLevel: "off",
		models,
		session: SessionManager.inMemory("/work"),
		tools: [tool("alpha", "does alpha", ["Prefer alpha."]), tool("beta", "does beta")],
		activeTools: ["alpha"],
		systemPrompt: { cwd: "/work" },
	});
	const expected = () => buildSystemPrompt(session.systemPromptOptions());
	const first = session.getSystemPrompt();
	expect(first).toBe(expected());
	expect(first).toContain("- alpha: does alpha");
	expect(first).toContain("- Prefer alpha.");
	expect(session.getSystemPrompt()).toBe(first);

	session.setActiveTools(["alpha", "beta"]);
	expect(session.getSystemPrompt()).toContain("- beta: does beta");
	session.addTool(tool("beta", "does beta better", ["Use beta with care."]));
	expect(session.getSystemPrompt()).toContain("- beta: does beta better");
	expect(session.getSystemPrompt()).toContain("- Use beta with care.");
	session.removeTool("alpha");
	expect(session.getSystemPrompt()).not.toContain("alpha");
	session.updateSystemPromptOptions({ appendSystemPrompt: "APPENDED" });
	expect(session.getSystemPrompt()).toContain("APPENDED");
	session.setRunPromptOptions({ cwd: "/work", sections: { rules: "RUN RULES" } });
	expect(session.getSystemPrompt()).toContain("<rules>\nRUN RULES\n</rules>");
	session.overrideSystemPrompt("WHOLE PROMPT");
	expect(session.getSystemPrompt()).toBe("WHOLE PROMPT");
	session.overrideSystemPrompt(undefined);
	session.setRunPromptOptions(undefined);
	expect(session.getSystemPrompt()).toBe(expected());
	expect(session.getSystemPrompt()).not.toContain("RUN RULES");

	setSystemTime(new Date("2031-05-06T12:00:00Z"));
	expect(session.getSystemPrompt()).toContain("Current date: 2031-05-06");
	setSystemTime(new Date("2031-05-07T12:00:00Z"));
	expect(session.getSystemPrompt()).toContain("Current date: 2031-05-07");
	expect(session.getSystemPrompt()).toBe(expected());
});
