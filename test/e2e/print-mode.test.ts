// `agent -p` through the compiled binary against the mock LLM, once per wire protocol: a text
// answer, real tool round trips, parallel calls, argument validation, and how a run ends when the
// provider or the user cuts it short (exit codes, stderr, what the session file keeps).
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { agentBinary } from "../support/agent.ts";
import { processAlive, until } from "../support/processes.ts";
import { readMessages, readToolNames, type SeenMessage } from "../support/mock-llm.ts";
import { MODEL, type MockWorld, mockWorld, type Protocol, sessionMessages } from "../support/world.ts";

const PROTOCOLS: Protocol[] = ["openai", "anthropic"];

/** The conversation of the newest request, without the system prompt. */
function conversation(world: MockWorld): SeenMessage[] {
	return readMessages(world.mock.lastRequest()).filter((m) => m.role !== "system");
}

/** Tool results in the newest request, as [id, text] pairs in the order sent. */
function toolResults(world: MockWorld): [string | undefined, string][] {
	return conversation(world)
		.filter((m) => m.role === "toolResult")
		.map((m) => [m.toolCallId, m.text]);
}

for (const protocol of PROTOCOLS) {
	const model = ["-ne", "--model", MODEL[protocol]];
	const provider = protocol === "openai" ? "mock" : "mock-anthropic";

	describe(`agent -p (${protocol})`, () => {
		test("a text answer is printed on stdout and the run exits 0", async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "Hello from the mock." });
			const r = await world.run([...model, "-p", "say hello"]);
			expect(r).toEqual({ stdout: "Hello from the mock.\n", stderr: "", code: 0 });
			expect(world.mock.requests).toHaveLength(1);
			expect(conversation(world)).toEqual([{ role: "user", text: "say hello" }]);
			expect(readToolNames(world.mock.lastRequest())).toEqual(["read", "bash", "edit", "write"]);
		});

		test("bash runs and its output reaches the model", async () => {
			await using world = await mockWorld();
			world.mock.script({ toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "printf 'six times seven is %s' $((6*7))" } }] }, { text: "It is 42." });
			const r = await world.run([...model, "-p", "compute"]);
			expect(r).toEqual({ stdout: "It is 42.\n", stderr: "", code: 0 });
			expect(toolResults(world)).toEqual([["call_1", "six times seven is 42"]]);
		});

		test("a failing bash command reaches the model as an error with its exit code", async () => {
			await using world = await mockWorld();
			world.mock.script({ toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "echo oops; exit 3" } }] }, { text: "It failed." });
			const r = await world.run([...model, "-p", "run it"]);
			expect(r.code).toBe(0);
			const [result] = conversation(world).filter((m) => m.role === "toolResult");
			expect(result!.text).toBe("oops\n\nCommand exited with code 3");
			if (protocol === "anthropic") expect(result!.isError).toBe(true);
		});

		test("edit changes the file on disk and the model sees the outcome", async () => {
			await using world = await mockWorld();
			world.write("project/src/a.ts", "export const answer = 41;\n");
			world.mock.script(
				{ toolCalls: [{ id: "call_1", name: "edit", arguments: { path: "src/a.ts", edits: [{ oldText: "41", newText: "42" }] } }] },
				{ text: "Fixed." },
			);
			const r = await world.run([...model, "-p", "fix it"]);
			expect(r).toEqual({ stdout: "Fixed.\n", stderr: "", code: 0 });
			expect(readFileSync(join(world.cwd, "src/a.ts"), "utf8")).toBe("export const answer = 42;\n");
			expect(toolResults(world)).toEqual([["call_1", "Applied 1 edit to src/a.ts (first change at line 1)"]]);
		});

		test("an edit whose text is missing leaves the file alone and tells the model why", async () => {
			await using world = await mockWorld();
			world.write("project/a.txt", "alpha\n");
			world.mock.script({ toolCalls: [{ id: "call_1", name: "edit", arguments: { path: "a.txt", edits: [{ oldText: "beta", newText: "gamma" }] } }] }, { text: "Sorry." });
			const r = await world.run([...model, "-p", "edit"]);
			expect(r.code).toBe(0);
			expect(readFileSync(join(world.cwd, "a.txt"), "utf8")).toBe("alpha\n");
			expect(toolResults(world)).toEqual([["call_1", "oldText not found in a.txt; it must match exactly, including whitespace"]]);
		});

		test("write creates a file, then read returns it with line numbers", async () => {
			await using world = await mockWorld();
			world.mock.script(
				{ toolCalls: [{ id: "call_w", name: "write", arguments: { path: "notes/todo.txt", content: "one\ntwo\n" } }] },
				{ toolCalls: [{ id: "call_r", name: "read", arguments: { path: "notes/todo.txt" } }] },
				{ text: "Done." },
			);
			const r = await world.run([...model, "-p", "take notes"]);
			expect(r).toEqual({ stdout: "Done.\n", stderr: "", code: 0 });
			expect(readFileSync(join(world.cwd, "notes/todo.txt"), "utf8")).toBe("one\ntwo\n");
			expect(toolResults(world)).toEqual([
				["call_w", "Wrote 8 bytes to notes/todo.txt"],
				["call_r", "1\tone\n2\ttwo"],
			]);
		});

		test("two tool calls in one turn run at the same time; results go back in call order", async () => {
			await using world = await mockWorld();
			// The first call can only finish once the second has run: sequential execution would
			// leave it waiting, and it would report "first: no go file".
			const first = "for i in $(seq 500); do [ -f go ] && break; sleep 0.01; done; [ -f go ] && echo 'first: saw go' || echo 'first: no go file'";
			world.mock.script(
				{
					toolCalls: [
						{ id: "call_a", name: "bash", arguments: { command: first } },
						{ id: "call_b", name: "bash", arguments: { command: "touch go && echo 'second: made go'" } },
					],
				},
				{ text: "Both ran." },
			);
			const r = await world.run([...model, "-p", "run both"]);
			expect(r).toEqual({ stdout: "Both ran.\n", stderr: "", code: 0 });
			expect(world.mock.requests).toHaveLength(2);
			expect(toolResults(world)).toEqual([
				["call_a", "first: saw go"],
				["call_b", "second: made go"],
			]);
		});

		test("arguments that fail the tool's schema go back to the model as an error, and the tool does not run", async () => {
			await using world = await mockWorld();
			world.mock.script({ toolCalls: [{ id: "call_1", name: "write", arguments: { content: "x", path: ["not", "a", "string"] } }] }, { text: "Retrying." });
			const r = await world.run([...model, "-p", "write"]);
			expect(r).toEqual({ stdout: "Retrying.\n", stderr: "", code: 0 });
			const [result] = conversation(world).filter((m) => m.role === "toolResult");
			expect(result!.text).toBe(
				[
					'Invalid arguments for tool "write":',
					"  - path: must be string",
					'Received: {"content":"x","path":["not","a","string"]}',
					"Call the tool again with arguments that match its schema.",
				].join("\n"),
			);
			if (protocol === "anthropic") expect(result!.isError).toBe(true);
		});

		test("a tool the model invents is answered with the list of real ones", async () => {
			await using world = await mockWorld();
			world.mock.script({ toolCalls: [{ id: "call_1", name: "deploy", arguments: {} }] }, { text: "OK." });
			const r = await world.run([...model, "-p", "ship"]);
			expect(r.code).toBe(0);
			expect(toolResults(world)).toEqual([["call_1", 'Tool "deploy" not found. Available tools: read, bash, edit, write.']]);
		});

		test("401: one line naming the provider and the key to set, exit 1", async () => {
			await using world = await mockWorld();
			// A built-in provider pointed at the mock, keyed from its environment variable.
			const builtin = protocol === "openai" ? "openai" : "anthropic";
			const envKey = protocol === "openai" ? "OPENAI_API_KEY" : "ANTHROPIC_API_KEY";
			const baseUrl = protocol === "openai" ? world.mock.openaiBaseUrl : world.mock.anthropicBaseUrl;
			world.write("home/.agent/models.json", JSON.stringify({ providers: { [builtin]: { baseUrl } } }));
			world.mock.script({ status: 401, message: "bad key" });
			const r = await world.run(["-ne", "--provider", builtin, "-p", "hi"], { env: { [envKey]: "wrong-key" } });
			expect(r).toEqual({
				stdout: "",
				stderr: `Error: Authentication failed for provider "${builtin}" (401): set ${envKey} or add it to ~/.agent/auth.json (server said: bad key)\n`,
				code: 1,
			});
			expect(world.mock.requests).toHaveLength(1);
		});

		test("a malformed stream ends the run with exit 1; the session keeps everything up to it", async () => {
			await using world = await mockWorld();
			world.mock.script({ toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "echo ran" } }] }, { text: "The answer is forty-two.", malformed: true });
			const r = await world.run([...model, "-p", "go"]);
			const error = `Malformed stream from ${provider}: an event was not valid JSON (JSON Parse error: Unterminated string)`;
			expect(r).toEqual({ stdout: "", stderr: `Error: ${error}\n`, code: 1 });
			const messages = sessionMessages(world.onlySessionFile());
			expect(messages.map((m) => m.role)).toEqual(["user", "assistant", "toolResult", "assistant"]);
			expect(messages[2].content).toEqual([{ type: "text", text: "ran" }]);
			const last = messages[3];
			expect(last.stopReason).toBe("error");
			expect(last.errorMessage).toBe(error);
			// What streamed before the bad line is kept.
			const partial = last.content.map((c: any) => c.text).join("");
			expect(partial.length).toBeGreaterThan(0);
			expect("The answer is forty-two.".startsWith(partial)).toBe(true);
		});

		test("a dropped connection ends the run with exit 1; the session keeps everything up to it", async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "This reply is cut in the middle.", drop: true });
			const r = await world.run([...model, "-p", "go"]);
			const error = `The connection to ${provider} was lost before the response finished (ECONNRESET)`;
			expect(r).toEqual({ stdout: "", stderr: `Error: ${error}\n`, code: 1 });
			// Content had streamed, so the request is not retried.
			expect(world.mock.requests).toHaveLength(1);
			const messages = sessionMessages(world.onlySessionFile());
			expect(messages.map((m) => [m.role, m.stopReason])).toEqual([
				["user", undefined],
				["assistant", "error"],
			]);
			expect(messages[1].errorMessage).toBe(error);
		});

		test("SIGINT during a stalled response: exit 130, the connection is closed, the prompt is saved", async () => {
			await using world = await mockWorld();
			world.mock.script({ text: "I will never finish", hang: true });
			const proc = Bun.spawn([agentBinary(), ...model, "-p", "wait for it"], { cwd: world.cwd, env: world.environment(), stdout: "pipe", stderr: "pipe" });
			try {
				await until(() => world.mock.openStreams === 1, "the response to start");
				proc.kill("SIGINT");
				const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
				expect({ stdout, code }).toEqual({ stdout: "", code: 130 });
				await until(() => world.mock.openStreams === 0, "the mock to see the connection close");
				expect(sessionMessages(world.onlySessionFile())[0]).toMatchObject({ role: "user", content: "wait for it" });
			} finally {
				proc.kill("SIGKILL");
			}
		});

		test("SIGINT while bash runs: exit 130 and the command is killed", async () => {
			await using world = await mockWorld();
			world.mock.script({ toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "echo $$ > pid; exec sleep 60" } }] });
			const proc = Bun.spawn([agentBinary(), ...model, "-p", "sleep"], { cwd: world.cwd, env: world.environment(), stdout: "pipe", stderr: "pipe" });
			const pidFile = join(world.cwd, "pid");
			try {
				await until(() => existsSync(pidFile) && readFileSync(pidFile, "utf8").endsWith("\n"), "bash to start");
				const pid = Number(readFileSync(pidFile, "utf8"));
				expect(processAlive(pid)).toBe(true);
				proc.kill("SIGINT");
				expect(await proc.exited).toBe(130);
				await until(() => !processAlive(pid), `sleep (pid ${pid}) to be killed`);
				// The model was never asked again.
				expect(world.mock.requests).toHaveLength(1);
			} finally {
				proc.kill("SIGKILL");
			}
		});
	});
}
