// A temp world wired to the mock LLM: ~/.agent/models.json names two providers on the mock,
// one per wire protocol, so `--model mock/mock-model` or `--model mock-anthropic/mock-model` work.
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
							models: [{ id: "mock-model", contextWindow: 100000, maxTokens: 4096 }],
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

	override async [Symbol.asyncDispose](): Promise<void> {
		await this.mock.close();
		await super[Symbol.asyncDispose]();
	}
}

/** `await using world = await mockWorld()` — a temp HOME/cwd and a mock LLM, both cleaned up. */
export async function mockWorld(): Promise<MockWorld> {
	return new MockWorld(await startMockLlm());
}
