// The classic extension patterns (test/fixtures/extensions/, quoted in the README's authors'
// guide), each copied into a temp project and run through the compiled binary against the mock LLM.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { readMessages, readToolNames } from "../support/mock-llm.ts";
import { onlySession, readSession, sessionFiles, stable, transcript } from "../support/runtime.ts";
import { MODEL, type MockWorld, mockWorld } from "../support/world.ts";

const FIXTURES = join(import.meta.dir, "../fixtures/extensions");

/** Copy fixtures into the project (away from the repo's node_modules); returns their -e arguments. */
function use(world: MockWorld, ...names: string[]): string[] {
	return names.flatMap((name) => {
		world.write(`project/ext/${name}.ts`, readFileSync(join(FIXTURES, `${name}.ts`), "utf8"));
		return ["-e", `./ext/${name}.ts`];
	});
}

function run(world: MockWorld, argv: string[], env: Record<string, string> = {}) {
	return world.run(["-ne", "--model", MODEL.openai, ...argv], { env });
}

describe("protected paths", () => {
	test("writes to .env, .git/ and node_modules/ are blocked with a reason; others go through", async () => {
		await using world = await mockWorld();
		const calls = [".env", ".git/config", "node_modules/x/index.js", "src/ok.ts"].map((path, i) => ({ name: "write", arguments: { path, content: "x" }, id: `c${i}` }));
		world.mock.script({ toolCalls: calls }, { text: "done" });
		const r = await run(world, [...use(world, "protected-paths"), "-p", "write them"]);
		expect(r).toMatchObject({ stdout: "done\n", stderr: "", code: 0 });
		expect(
			readMessages(world.mock.lastRequest())
				.filter((m) => m.role === "toolResult")
				.map((m) => m.text),
		).toEqual([
			".env is protected: do not modify secrets, .git/ or node_modules/.",
			".git/config is protected: do not modify secrets, .git/ or node_modules/.",
			"node_modules/x/index.js is protected: do not modify secrets, .git/ or node_modules/.",
			"Wrote 1 bytes to src/ok.ts",
		]);
		expect(await Bun.file(`${world.cwd}/.env`).exists()).toBe(false);
		expect(await Bun.file(`${world.cwd}/src/ok.ts`).text()).toBe("x");
	});
});

describe("permission gate", () => {
	test("without a UI a dangerous command is blocked; a harmless one runs", async () => {
		await using world = await mockWorld();
		world.write("project/keep/file.txt", "precious");
		world.mock.script(
			{ toolCalls: [{ name: "bash", arguments: { command: "rm -rf keep" }, id: "c1" }, { name: "bash", arguments: { command: "echo harmless" }, id: "c2" }] },
			{ text: "ok" },
		);
		const r = await run(world, [...use(world, "permission-gate"), "-p", "clean up"]);
		expect(r).toMatchObject({ stdout: "ok\n", stderr: "", code: 0 });
		const results = readMessages(world.mock.lastRequest()).filter((m) => m.role === "toolResult");
		expect(results.map((m) => m.text)).toEqual(["Blocked a dangerous command (no one to confirm it): rm -rf keep", "harmless"]);
		expect(await Bun.file(`${world.cwd}/keep/file.txt`).text()).toBe("precious");
	});
});

describe("pirate", () => {
	test("/pirate toggles the system prompt addition for the runs that follow", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "plain" }, { text: "Arrr, matey" }, { text: "plain again" });
		const r = await run(world, [...use(world, "pirate"), "-p", "hello", "/pirate", "hello", "/pirate", "hello"]);
		expect(r).toMatchObject({ stdout: "plain again\n", stderr: "Info: Arrr! Pirate mode on.\nInfo: Pirate mode off.\n", code: 0 });
		const pirate = world.mock.requests.map((q) => readMessages(q)[0]!.text.endsWith('Answer like a pirate: say "Arrr" and call the user "matey".'));
		expect(pirate).toEqual([false, true, false]);
	});
});

describe("input transform", () => {
	test("?quick is rewritten; ping is answered without the model", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "Four." });
		const r = await run(world, [...use(world, "input-transform"), "-p", "ping", "?quick what is 2+2"]);
		expect(r).toMatchObject({ stdout: "Four.\n", stderr: "", code: 0 });
		expect(world.mock.requests.length).toBe(1);
		expect(readMessages(world.mock.lastRequest()).at(-1)!.text).toBe("what is 2+2\n\nAnswer in one short sentence.");
		expect(transcript(onlySession(world))).toEqual(["custom(pong): pong", "user: what is 2+2\n\nAnswer in one short sentence.", "assistant: Four."]);
	});
});

describe("inline bash", () => {
	test("!{cmd} is replaced by the command's output before the model sees the prompt", async () => {
		await using world = await mockWorld();
		world.write("project/VERSION", "1.2.3\n");
		world.mock.script({ text: "ok" });
		const r = await run(world, [...use(world, "inline-bash"), "-p", "version is !{cat VERSION}, status: !{exit 4}"]);
		expect(r).toMatchObject({ stdout: "ok\n", stderr: "", code: 0 });
		expect(readMessages(world.mock.lastRequest()).at(-1)!.text).toBe("version is 1.2.3, status:  (exit code 4)");
	});
});

describe("todo", () => {
	test("state lives in tool-result details and is rebuilt from the branch when the session continues", async () => {
		await using world = await mockWorld();
		const ext = use(world, "todo");
		world.mock.script(
			{ toolCalls: [{ name: "todo", arguments: { action: "add", text: "write tests" } }, { name: "todo", arguments: { action: "add", text: "ship" } }] },
			{ toolCalls: [{ name: "todo", arguments: { action: "done", index: 0 } }] },
			{ text: "noted" },
		);
		const first = await run(world, [...ext, "-p", "plan the work"]);
		expect(first).toMatchObject({ stdout: "noted\n", stderr: "", code: 0 });
		expect(readToolNames(world.mock.requests[0]!)).toContain("todo");
		expect(readMessages(world.mock.requests[0]!)[0]!.text).toContain("- todo: Track multi-step work in a todo list");

		world.mock.script({ toolCalls: [{ name: "todo", arguments: { action: "list" } }] }, { text: "one left" });
		const second = await run(world, [...ext, "--continue", "-p", "what is left?"]);
		expect(second).toMatchObject({ stdout: "one left\n", stderr: "", code: 0 });
		expect(readMessages(world.mock.lastRequest()).at(-1)!.text).toBe("0. [x] write tests\n1. [ ] ship");
		const results = onlySession(world).filter((e) => e.message?.toolName === "todo");
		expect(results.map((e) => e.message.details.todos.length)).toEqual([1, 2, 2, 2]);
	});
});

describe("plan mode", () => {
	test("--plan: read-only tools, a note in the system prompt, bash only for looking", async () => {
		await using world = await mockWorld();
		world.write("project/keep.txt", "kept\n");
		const calls = ["cat keep.txt", "rm keep.txt", "ls; rm keep.txt"].map((command, i) => ({ name: "bash", arguments: { command }, id: `c${i}` }));
		world.mock.script({ toolCalls: calls }, { text: "1. read\n2. change" });
		const r = await run(world, [...use(world, "plan-mode"), "-p", "--plan", "refactor the parser"]);
		expect(r).toMatchObject({ stdout: "1. read\n2. change\n", stderr: "", code: 0 });
		const first = world.mock.requests[0]!;
		expect(readToolNames(first)).toEqual(["read", "bash", "grep", "find", "ls"]);
		expect(readMessages(first)[0]!.text).toContain("Plan mode: explore with read-only tools");
		expect(readMessages(first).at(-1)!.text).toBe("refactor the parser");
		expect(
			readMessages(world.mock.lastRequest())
				.filter((m) => m.role === "toolResult")
				.map((m) => m.text),
		).toEqual(["kept", "Plan mode: only commands that read are allowed, not: rm keep.txt", "Plan mode: only commands that read are allowed, not: ls; rm keep.txt"]);
		expect(await Bun.file(`${world.cwd}/keep.txt`).text()).toBe("kept\n");
	});

	test("/plan toggles it off again and the earlier tools come back", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "planned" }, { text: "doing" });
		const r = await run(world, [...use(world, "plan-mode"), "-p", "--plan", "plan", "/plan", "do"]);
		expect(r.code).toBe(0);
		expect(world.mock.requests.map(readToolNames)).toEqual([
			["read", "bash", "grep", "find", "ls"],
			["read", "bash", "edit", "write"],
		]);
	});
});

describe("event bus pair", () => {
	test("two extensions talk over pi.events: request, reply, and the answer kept in the session", async () => {
		await using world = await mockWorld();
		world.mock.script({ toolCalls: [{ name: "ls", arguments: {} }, { name: "read", arguments: { path: "a" } }, { name: "ls", arguments: {} }] }, { text: "ok" });
		const r = await run(world, [...use(world, "bus-counter", "bus-reporter"), "-p", "look around"]);
		expect(r).toMatchObject({ stdout: "ok\n", stderr: 'tool stats: {"ls":2,"read":1}\n', code: 0 });
		expect(stable(onlySession(world)).filter((e) => e.type === "custom")).toEqual([{ type: "custom", customType: "tool-stats", data: { ls: 2, read: 1 } }]);
	});
});

describe("custom provider", () => {
	test("registerProvider from an extension, used with --model: the request reaches its baseUrl with its key and headers", async () => {
		await using world = await mockWorld();
		world.mock.script({ text: "via gateway" });
		const argv = ["-ne", ...use(world, "custom-provider"), "--model", "gateway/gateway-large", "-p", "hi"];
		const r = await world.run(argv, { env: { GATEWAY_URL: world.mock.openaiBaseUrl, GATEWAY_API_KEY: "gw-secret" } });
		expect(r).toMatchObject({ stdout: "via gateway\n", stderr: "", code: 0 });
		const request = world.mock.lastRequest();
		expect(request.body.model).toBe("gateway-large");
		expect(request.headers.authorization).toBe("Bearer gw-secret");
		expect(request.headers["x-team"]).toBe("platform");
		const [header, model] = readSession(sessionFiles(world)[0]!);
		expect(header.type).toBe("session");
		expect(model).toMatchObject({ type: "model_change", provider: "gateway", modelId: "gateway-large" });
	});
});
