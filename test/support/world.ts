// A temp world wired to the mock LLM: ~/.agent/models.json names two providers on the mock,
// one per wire protocol, so `--model mock/mock-model` or `--model mock-anthropic/mock-model` work.
// Also reads back the session files a run wrote.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { TempWorld } from "./agent.ts";
import { startMockLlm, type MockLlm } from "./mock-llm.ts";

export type Protocol = "openai" | "anthropic";

/** `--model` argument for each protocol. */
export const MODEL: Record<Protocol, string> = { openai: "mock/mock-model", anthropic: "mock-anthropic/mock-model" };

export class MockWorld extends TempWorld {
	constructor(readonly mock: MockLlm) {
		super();
		this.write(
			"home/.agent/models.json",
			JSON.stringify(
				{
					providers: {
						mock: {
							baseUrl: mock.openaiBaseUrl,
							api: "openai-completions",
							apiKey: "test-key",
							models: [
								{ id: "mock-model", contextWindow: 100000, maxTokens: 4096 },
								{ id: "mock-reasoner", contextWindow: 100000, maxTokens: 4096, reasoning: true },
							],
						},
						"mock-anthropic": {
							baseUrl: mock.anthropicBaseUrl,
							api: "anthropic-messages",
							apiKey: "test-key",
							models: [{ id: "mock-model", contextWindow: 100000, maxTokens: 4096, reasoning: true }],
						},
					},
				},
				null,
				2,
			),
		);
	}

	/** Every session file under ~/.agent/sessions, oldest first (names start with their creation time). */
	sessionFiles(): string[] {
		const root = join(this.agentDir, "sessions");
		if (!existsSync(root)) return [];
		return readdirSync(root, { recursive: true, encoding: "utf8" })
			.filter((name) => name.endsWith(".jsonl"))
			.sort((a, b) => a.split("/").at(-1)!.localeCompare(b.split("/").at(-1)!))
			.map((name) => join(root, name));
	}

	/** The only session file; throws when there is not exactly one. */
	onlySessionFile(): string {
		const files = this.sessionFiles();
		if (files.length !== 1) throw new Error(`expected one session file, found ${files.length}: ${files.join(", ")}`);
		return files[0]!;
	}

	override async [Symbol.asyncDispose](): Promise<void> {
		await this.mock.close();
		await super[Symbol.asyncDispose]();
	}
}

/** `await using world = await mockWorld()` — a temp HOME/cwd and a mock LLM, both cleaned up. */
export async function mockWorld(): Promise<MockWorld> {
	return new MockWorld(await startMockLlm());
}

/** The JSON lines of a session file (header first). */
export function readSessionLines(file: string): any[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.filter((line) => line !== "")
		.map((line) => JSON.parse(line));
}

/** The messages a session file holds, in order. */
export function sessionMessages(file: string): any[] {
	return readSessionLines(file)
		.filter((entry) => entry.type === "message")
		.map((entry) => entry.message);
}
