// A tool call whose arguments were cut off is never executed (issue 12, defect 1): a response that
// stops at the output limit inside a call, or whose arguments are not whole JSON, gets an error
// result written for the model, and the command's prefix does not run. Both wire protocols.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { readMessages } from "../support/mock-llm.ts";
import { MODEL, type MockWorld, mockWorld, type Protocol } from "../support/world.ts";

const PROTOCOLS: Protocol[] = ["openai", "anthropic"];

/** Tool results the model was sent in the newest request. */
function toolResults(world: MockWorld): string[] {
	return readMessages(world.mock.lastRequest())
		.filter((m) => m.role === "toolResult")
		.map((m) => m.text);
}

for (const protocol of PROTOCOLS) {
	const model = ["-ne", "--model", MODEL[protocol]];

	describe(`cut-off tool calls (${protocol})`, () => {
		test("a response stopped at the output limit inside a bash command runs nothing; the model is told to call again", async () => {
			await using world = await mockWorld();
			mkdirSync(join(world.cwd, "build", "cache"), { recursive: true });
			// Salvaged, this would be `touch marker && rm -rf build`: the prefix of a different command.
			world.mock.script(
				{ toolCalls: [{ id: "call_1", name: "bash", argumentsText: '{"command":"touch marker && rm -rf build' }], stopReason: "length" },
				{ text: "I will try again." },
			);
			const r = await world.run([...model, "-p", "clean the cache"]);
			expect(r).toEqual({ stdout: "I will try again.\n", stderr: "", code: 0 });
			expect(existsSync(join(world.cwd, "marker"))).toBe(false);
			expect(existsSync(join(world.cwd, "build", "cache"))).toBe(true);
			expect(toolResults(world)).toEqual([
				'Tool call "bash" was not executed: its arguments were cut off by the output limit; call the tool again with complete arguments.',
			]);
		});

		test("every call of a response stopped at the output limit is refused, even one whose JSON happens to be whole", async () => {
			await using world = await mockWorld();
			world.mock.script(
				{
					toolCalls: [
						{ id: "call_1", name: "bash", arguments: { command: "touch first" } },
						{ id: "call_2", name: "bash", argumentsText: '{"command":"touch second"}' },
					],
					stopReason: "length",
				},
				{ text: "Again, then." },
			);
			const r = await world.run([...model, "-p", "touch"]);
			expect(r.code).toBe(0);
			expect(existsSync(join(world.cwd, "first"))).toBe(false);
			expect(existsSync(join(world.cwd, "second"))).toBe(false);
			expect(toolResults(world)).toHaveLength(2);
			for (const text of toolResults(world)) expect(text).toContain("was not executed: its arguments were cut off by the output limit");
		});

		test("arguments that are not whole JSON under a normal tool-use stop run nothing; the model sees what arrived", async () => {
			await using world = await mockWorld();
			world.mock.script(
				{ toolCalls: [{ id: "call_1", name: "bash", argumentsText: '{"command":"touch marker; rm -rf build/cache' }], stopReason: "toolUse" },
				{ text: "Retrying." },
			);
			const r = await world.run([...model, "-p", "clean"]);
			expect(r).toEqual({ stdout: "Retrying.\n", stderr: "", code: 0 });
			expect(existsSync(join(world.cwd, "marker"))).toBe(false);
			const [text] = toolResults(world);
			expect(text).toStartWith('Tool call "bash" was not executed: its arguments are not complete JSON (');
			expect(text).toContain("; call the tool again with complete arguments.\nReceived: {\"command\":\"touch marker; rm -rf build/cache");
		});

		test("a complete call still runs (the refusal is not a blanket one)", async () => {
			await using world = await mockWorld();
			world.mock.script({ toolCalls: [{ id: "call_1", name: "bash", argumentsText: '{"command":"touch marker"}' }] }, { text: "Done." });
			const r = await world.run([...model, "-p", "touch"]);
			expect(r.code).toBe(0);
			expect(existsSync(join(world.cwd, "marker"))).toBe(true);
		});
	});
}
