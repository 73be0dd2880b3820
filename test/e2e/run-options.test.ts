// What the flags of a run change in the request the model receives: tools (--tools, -nt, -nbt),
// the system prompt (--system-prompt, --append-system-prompt, AGENTS.md / CLAUDE.md, -nc), the
// prompt (@file, piped stdin, several messages), thinking; and --list-models, no model configured.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TempWorld } from "../support/agent.ts";
import { readMessages, readToolNames } from "../support/mock-llm.ts";
import { MODEL, type MockWorld, mockWorld, type Protocol } from "../support/world.ts";

const PROTOCOLS: Protocol[] = ["openai", "anthropic"];

function systemPrompt(world: MockWorld): string {
	const [first] = readMessages(world.mock.lastRequest());
	if (first?.role !== "system") throw new Error("the request has no system prompt");
	// The date changes; everything else is exact.
	return first.text.replace(/^Current date: \d{4}-\d{2}-\d{2}$/m, "Current date: <today>");
}

function userTexts(world: MockWorld): string[] {
	return readMessages(world.mock.lastRequest())
		.filter((m) => m.role === "user")
		.map((m) => m.text);
}

const GUIDELINES = [
	"Guidelines:",
	"- Use read to look at files, not bash cat or sed",
	"- Use bash for builds, tests, git and searching (rg, fd, ls); use read and edit for files",
	"- Use edit for targeted changes: read the file first and copy oldText exactly",
	"- Keep each oldText small but unique; merge nearby changes into one edit",
	"- Use write only for new files or complete rewrites; use edit to change part of a file",
	"- Be concise. Show file paths clearly when referring to code.",
].join("\n");

for (const protocol of PROTOCOLS) {
	const model = ["-ne", "--model", MODEL[protocol]];

	describe(`tools offered to the model (${protocol})`, () => {
		test("by default: read, bash, edit, write", async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "ok" });
			await world.run([...model, "-p", "hi"]);
			expect(readToolNames(world.mock.lastRequest())).toEqual(["read", "bash", "edit", "write"]);
		});

		test("--tools picks the tools, opt-in ones included, in the order given", async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "ok" });
			await world.run([...model, "--tools", "ls,read", "-p", "hi"]);
			expect(readToolNames(world.mock.lastRequest())).toEqual(["ls", "read"]);
			expect(systemPrompt(world)).toContain("Available tools:\n- ls: List a directory (directories end with /)\n- read: Read a file (text with line numbers, or an image)\n\n");
		});

		test("-nt offers no tools and the system prompt lists none", async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "ok" });
			await world.run([...model, "-nt", "-p", "hi"]);
			expect(world.mock.lastRequest().body.tools).toBeUndefined();
			expect(systemPrompt(world)).not.toContain("Available tools");
		});

		test("-nbt leaves out the built-in tools", async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "ok" });
			await world.run([...model, "-nbt", "-p", "hi"]);
			expect(readToolNames(world.mock.lastRequest())).toEqual([]);
		});
	});

	describe(`system prompt (${protocol})`, () => {
		test("the default prompt lists the tools, their guidelines once each, and the working directory", async () => {
			await using world = await mockWorld();
			mkdirSync(join(world.root, ".git"));
			world.mock.script({ text: "ok" });
			await world.run([...model, "-p", "hi"]);
			expect(systemPrompt(world)).toBe(
				[
					"You are an expert coding assistant working inside a software project through a command-line agent. You help the user by reading files, running commands, editing code and writing new files.",
					"",
					"Available tools:",
					"- read: Read a file (text with line numbers, or an image)",
					"- bash: Run a bash command in the working directory (output tail, exit code)",
					"- edit: Replace exact text in a file (each oldText must be unique)",
					"- write: Create or overwrite a file",
					"",
					GUIDELINES,
					"",
					"Current date: <today>",
					`Current working directory: ${world.cwd}`,
				].join("\n"),
			);
		});

		test("AGENTS.md / CLAUDE.md from ~/.agent, the parent folder and cwd, outermost first", async () => {
			await using world = await mockWorld();
			// The repository root stops the walk up, so nothing outside the world is read.
			mkdirSync(join(world.root, ".git"));
			world.write("home/.agent/AGENTS.md", "Global rule.\n");
			world.write("AGENTS.md", "Parent rule.\n");
			world.write("project/CLAUDE.md", "Project rule.\n");
			world.mock.script({ text: "ok" });
			await world.run([...model, "-p", "hi"]);
			expect(systemPrompt(world)).toContain(
				[
					"# Project context",
					"",
					"Instructions from context files; nearer folders come later and take precedence.",
					"",
					`## ${join(world.agentDir, "AGENTS.md")}`,
					"",
					"Global rule.",
					"",
					`## ${join(world.root, "AGENTS.md")}`,
					"",
					"Parent rule.",
					"",
					`## ${join(world.cwd, "CLAUDE.md")}`,
					"",
					"Project rule.",
					"",
					"Current date: <today>",
				].join("\n"),
			);
		});

		test("AGENTS.md wins over CLAUDE.md in the same folder", async () => {
			await using world = await mockWorld();
			mkdirSync(join(world.cwd, ".git"));
			world.write("project/AGENTS.md", "From AGENTS.\n");
			world.write("project/CLAUDE.md", "From CLAUDE.\n");
			world.mock.script({ text: "ok" });
			await world.run([...model, "-p", "hi"]);
			expect(systemPrompt(world)).toContain(`## ${join(world.cwd, "AGENTS.md")}\n\nFrom AGENTS.\n\n`);
			expect(systemPrompt(world)).not.toContain("From CLAUDE.");
		});

		test("--system-prompt replaces the opening; --append-system-prompt adds text and files; -nc drops context files", async () => {
			await using world = await mockWorld();
			mkdirSync(join(world.root, ".git"));
			world.write("AGENTS.md", "Parent rule.\n");
			world.write("project/extra.md", "Appended from a file.\n");
			world.mock.script({ text: "ok" });
			const r = await world.run([...model, "--system-prompt", "You are terse.", "--append-system-prompt", "Appended text.", "--append-system-prompt", "extra.md", "-nc", "-p", "hi"]);
			expect(r.code).toBe(0);
			expect(systemPrompt(world)).toBe(
				["You are terse.", "", "Appended text.", "", "Appended from a file.", "", "Current date: <today>", `Current working directory: ${world.cwd}`].join("\n"),
			);
		});

		test("--system-prompt reads a file when given a path", async () => {
			await using world = await mockWorld();
			world.write("project/prompt.md", "Prompt from a file.");
			world.mock.script({ text: "ok" });
			await world.run([...model, "-nc", "--system-prompt", "prompt.md", "-p", "hi"]);
			expect(systemPrompt(world)).toStartWith("Prompt from a file.\n\nCurrent date: <today>");
		});
	});

	describe(`thinking (${protocol})`, () => {
		const reasoner = protocol === "openai" ? "mock/mock-reasoner" : "mock-anthropic/mock-model";
		/** What the request says about thinking, in the protocol's own field. */
		const thinkingOf = (world: MockWorld) => {
			const body = world.mock.lastRequest().body;
			return protocol === "openai" ? body.reasoning_effort : body.thinking;
		};

		test("--model provider/id:high reaches the request", async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "ok" });
			expect((await world.run(["-ne", "--model", `${reasoner}:high`, "-p", "think"])).code).toBe(0);
			// Anthropic: the high budget (16384) is cut to leave 1024 of max_tokens (4096) for the answer.
			expect(thinkingOf(world)).toEqual(protocol === "openai" ? "high" : { type: "enabled", budget_tokens: 3072 });
		});

		test("--thinking wins over the suffix; without either no thinking is asked for", async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "ok" }, { text: "ok" });
			await world.run(["-ne", "--model", `${reasoner}:high`, "--thinking", "minimal", "-p", "think"]);
			expect(thinkingOf(world)).toEqual(protocol === "openai" ? "minimal" : { type: "enabled", budget_tokens: 1024 });
			await world.run(["-ne", "--model", reasoner, "-p", "think"]);
			expect(thinkingOf(world)).toBeUndefined();
		});

		test("a model without reasoning gets no thinking, whatever was asked", async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "ok" });
			const plain = protocol === "openai" ? "mock/mock-model" : "mock-anthropic/mock-model";
			if (protocol === "anthropic") {
				// mock-anthropic/mock-model reasons; turn it off for this test.
				world.write(
					"home/.agent/models.json",
					JSON.stringify({ providers: { "mock-anthropic": { baseUrl: world.mock.anthropicBaseUrl, api: "anthropic-messages", apiKey: "k", models: [{ id: "mock-model" }] } } }),
				);
			}
			expect((await world.run(["-ne", "--model", `${plain}:high`, "-p", "think"])).code).toBe(0);
			expect(thinkingOf(world)).toBeUndefined();
		});
	});
}

describe("the prompt", () => {
	const model = ["-ne", "--model", MODEL.openai];

	test("@file contents, then piped stdin, then the message, in one user message", async () => {
		await using world = await mockWorld();
		world.write("project/notes.txt", "file body\n");
		world.mock.script({ text: "ok" });
		const r = await world.run([...model, "@notes.txt", "-p", "summarize"], { stdin: "piped text\n" });
		expect(r).toEqual({ stdout: "ok\n", stderr: "", code: 0 });
		expect(userTexts(world)).toEqual(['<file name="notes.txt">\nfile body\n\n</file>\n\npiped text\n\nsummarize']);
	});

	test("piped stdin alone is the prompt, without -p", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "from stdin" });
		const r = await world.run(model, { stdin: "what is in stdin?\n" });
		expect(r).toEqual({ stdout: "from stdin\n", stderr: "", code: 0 });
		expect(userTexts(world)).toEqual(["what is in stdin?"]);
	});

	test("several messages are sent in turn; the output is the last answer", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "first answer" }, { text: "second answer" });
		const r = await world.run([...model, "-p", "first", "second"]);
		expect(r).toEqual({ stdout: "second answer\n", stderr: "", code: 0 });
		expect(userTexts(world)).toEqual(["first", "second"]);
	});

	test("a missing @file exits 1 before any request", async () => {
		await using world = await mockWorld();
		const r = await world.run([...model, "@nope.txt", "-p", "hi"]);
		expect(r).toEqual({ stdout: "", stderr: `Error: File not found: @nope.txt\nCheck the path (relative to ${world.cwd}).\n`, code: 1 });
		expect(world.mock.requests).toHaveLength(0);
	});
});

describe("tools at work", () => {
	const model = ["-ne", "--model", MODEL.openai];

	test("long bash output is cut to its tail and the full output is saved to a file the model is told about", async () => {
		await using world = await mockWorld();
		world.mock.script({ toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "seq 1 3000" } }] }, { text: "ok" });
		expect((await world.run([...model, "-p", "count"])).code).toBe(0);
		const result = readMessages(world.mock.lastRequest()).find((m) => m.role === "toolResult")!.text;
		const match = /\n3000\n\n\[Showing the last 2000 of 3000 lines\. Full output: (\/\S+)\]$/.exec(result);
		expect(match).not.toBeNull();
		expect(result.startsWith("1001\n1002\n")).toBe(true);
		expect(readFileSync(match![1]!, "utf8")).toBe(`${Array.from({ length: 3000 }, (_, i) => i + 1).join("\n")}\n`);
	});

	test("--tools with an unknown name exits 1 and lists the tools there are", async () => {
		await using world = await mockWorld();
		const r = await world.run([...model, "--tools", "read,deploy", "-p", "hi"]);
		expect(r).toEqual({ stdout: "", stderr: "Error: Unknown tool in --tools: deploy\nAvailable tools: read, bash, edit, write, grep, find, ls\n", code: 1 });
	});
});

describe("models", () => {
	test("--list-models shows the models there are keys for (and local servers), sorted; a search narrows them", async () => {
		await using world = await mockWorld();
		const r = await world.run(["--list-models"]);
		expect(r).toEqual({
			stdout: [
				"provider        model            context  max-out  thinking  images",
				"mock            mock-model       100K     4K       no        no",
				"mock            mock-reasoner    100K     4K       yes       no",
				"mock-anthropic  mock-model       100K     4K       yes       no",
				"ollama          gpt-oss:20b      131K     33K      yes       no",
				"ollama          qwen3-coder:30b  262K     66K      no        no",
				"",
			].join("\n"),
			stderr: "",
			code: 0,
		});
		const search = await world.run(["--list-models", "reasoner"]);
		expect(search.stdout).toBe(["provider  model          context  max-out  thinking  images", "mock      mock-reasoner  100K     4K       yes       no", ""].join("\n"));
		expect((await world.run(["--list-models", "nothing-like-it"])).stdout).toBe('No models match "nothing-like-it".\n');
	});

	test("a key in the environment makes a built-in provider's models available", async () => {
		await using world = new TempWorld();
		const r = await world.run(["--list-models", "deepseek"], { env: { DEEPSEEK_API_KEY: "sk-test" } });
		expect(r.stdout).toBe(
			[
				"provider  model              context  max-out  thinking  images",
				"deepseek  deepseek-chat      128K     8K       no        no",
				"deepseek  deepseek-reasoner  128K     66K      yes       no",
				"",
			].join("\n"),
		);
	});

	test("no model configured: the message says every way to set one up, exit 1", async () => {
		await using world = new TempWorld();
		const r = await world.run(["-p", "hi"]);
		expect(r).toEqual({
			stdout: "",
			stderr: [
				"Error: No model is configured. Set one up in any of these ways:",
				"  - an API key in the environment: ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY, GROQ_API_KEY or DEEPSEEK_API_KEY",
				'  - a key in ~/.agent/auth.json: { "anthropic": { "type": "api_key", "key": "sk-ant-..." } }',
				"  - a provider in ~/.agent/models.json, such as a local server (Ollama, llama.cpp, vLLM, LM Studio):",
				'      { "providers": { "local": { "baseUrl": "http://localhost:8080/v1", "api": "openai-completions", "models": [{ "id": "my-model" }] } } }',
				"  - on the command line: agent --model anthropic/claude-sonnet-5-5 --api-key sk-ant-...",
				"    or, with Ollama running: agent --model ollama/<model>",
				'Then "agent --list-models" shows the models you can use.',
				"",
			].join("\n"),
			code: 1,
		});
	});

	test("a key in auth.json and --api-key each make a run work", async () => {
		await using world = await mockWorld();
		// The mock provider without a key of its own.
		world.write("home/.agent/models.json", JSON.stringify({ providers: { local: { baseUrl: world.mock.openaiBaseUrl, api: "openai-completions", apiKey: "LOCAL_KEY", models: [{ id: "m" }] } } }));
		world.write("home/.agent/auth.json", JSON.stringify({ local: { type: "api_key", key: "from-auth-json" } }));
		world.mock.script({ text: "one" }, { text: "two" });
		expect((await world.run(["-ne", "--model", "local/m", "-p", "hi"])).code).toBe(0);
		expect(world.mock.lastRequest().headers.authorization).toBe("Bearer from-auth-json");
		expect((await world.run(["-ne", "--model", "local/m", "--api-key", "from-flag", "-p", "hi"])).code).toBe(0);
		expect(world.mock.lastRequest().headers.authorization).toBe("Bearer from-flag");
	});
});
