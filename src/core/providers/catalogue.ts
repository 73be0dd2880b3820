// The built-in providers and a modest catalogue of their current models (context windows, output
// limits, $ per million tokens). models.json can add, re-point or override any of it.
import type { Api, Model, ThinkingLevel } from "./types.ts";

export interface BuiltinProvider {
	name: string;
	api: Api;
	baseUrl: string;
	/** Environment variable holding the key; undefined for a keyless local server. */
	envKey?: string;
	/** Used by `--provider <name>` without `--model`. */
	defaultModel: string;
	models: Model[];
}

/** Providers tried, in order, when no model is chosen. Keyless local servers are never guessed. */
export const DEFAULT_PROVIDER_ORDER = ["anthropic", "openai", "openrouter", "deepseek", "groq"] as const;

interface Spec {
	name?: string;
	ctx: number;
	out: number;
	/** input, output, cacheRead, cacheWrite */
	cost?: [number, number, number?, number?];
	reasoning?: boolean;
	images?: boolean;
	thinking?: Partial<Record<ThinkingLevel, string | number>>;
	compat?: Record<string, unknown>;
}

function models(provider: string, api: Api, baseUrl: string, compat: Record<string, unknown> | undefined, specs: Record<string, Spec>): Model[] {
	return Object.entries(specs).map(([id, s]) => ({
		id,
		name: s.name ?? id,
		api,
		provider,
		baseUrl,
		reasoning: s.reasoning ?? false,
		input: s.images ? ["text", "image"] : ["text"],
		cost: { input: s.cost?.[0] ?? 0, output: s.cost?.[1] ?? 0, cacheRead: s.cost?.[2] ?? 0, cacheWrite: s.cost?.[3] ?? 0 },
		contextWindow: s.ctx,
		maxTokens: s.out,
		...(compat || s.compat ? { compat: { ...compat, ...s.compat } } : {}),
		...(s.thinking ? { thinkingLevelMap: s.thinking } : {}),
	}));
}

// Cloud servers size the answer from max_tokens; asking for the model's full output is safe there.
const CLOUD = { sendMaxTokens: true };
const GPT_OSS_EFFORT = { minimal: "low" } as const;

/** A fresh copy of the built-in providers (callers may change what they get). */
export function builtinProviders(): BuiltinProvider[] {
	const openai = "https://api.openai.com/v1";
	const anthropic = "https://api.anthropic.com";
	const openrouter = "https://openrouter.ai/api/v1";
	const groq = "https://api.groq.com/openai/v1";
	const deepseek = "https://api.deepseek.com/v1";
	const ollama = "http://localhost:11434/v1";
	return [
		{
			name: "anthropic",
			api: "anthropic-messages",
			baseUrl: anthropic,
			envKey: "ANTHROPIC_API_KEY",
			defaultModel: "claude-sonnet-4-5",
			models: models("anthropic", "anthropic-messages", anthropic, undefined, {
				"claude-sonnet-4-5": { name: "Claude Sonnet 4.5", ctx: 200_000, out: 64_000, cost: [3, 15, 0.3, 3.75], reasoning: true, images: true },
				"claude-opus-4-5": { name: "Claude Opus 4.5", ctx: 200_000, out: 64_000, cost: [5, 25, 0.5, 6.25], reasoning: true, images: true },
				"claude-haiku-4-5": { name: "Claude Haiku 4.5", ctx: 200_000, out: 64_000, cost: [1, 5, 0.1, 1.25], reasoning: true, images: true },
				"claude-opus-4-1": { name: "Claude Opus 4.1", ctx: 200_000, out: 32_000, cost: [15, 75, 1.5, 18.75], reasoning: true, images: true },
			}),
		},
		{
			name: "openai",
			api: "openai-completions",
			baseUrl: openai,
			envKey: "OPENAI_API_KEY",
			defaultModel: "gpt-5.1",
			models: models("openai", "openai-completions", openai, CLOUD, {
				"gpt-5.1": { name: "GPT-5.1", ctx: 400_000, out: 128_000, cost: [1.25, 10, 0.125], reasoning: true, images: true, thinking: { minimal: "low" } },
				"gpt-5": { name: "GPT-5", ctx: 400_000, out: 128_000, cost: [1.25, 10, 0.125], reasoning: true, images: true },
				"gpt-5-mini": { name: "GPT-5 mini", ctx: 400_000, out: 128_000, cost: [0.25, 2, 0.025], reasoning: true, images: true },
				"gpt-4.1": { name: "GPT-4.1", ctx: 1_047_576, out: 32_768, cost: [2, 8, 0.5], images: true },
				"o4-mini": { name: "o4-mini", ctx: 200_000, out: 100_000, cost: [1.1, 4.4, 0.275], reasoning: true, images: true, thinking: { minimal: "low" } },
			}),
		},
		{
			name: "openrouter",
			api: "openai-completions",
			baseUrl: openrouter,
			envKey: "OPENROUTER_API_KEY",
			defaultModel: "anthropic/claude-sonnet-4.5",
			models: models("openrouter", "openai-completions", openrouter, CLOUD, {
				"anthropic/claude-sonnet-4.5": { name: "Claude Sonnet 4.5 (OpenRouter)", ctx: 1_000_000, out: 64_000, cost: [3, 15, 0.3, 3.75], reasoning: true, images: true },
				"openai/gpt-5": { name: "GPT-5 (OpenRouter)", ctx: 400_000, out: 128_000, cost: [1.25, 10, 0.125], reasoning: true, images: true },
				"google/gemini-2.5-pro": { name: "Gemini 2.5 Pro (OpenRouter)", ctx: 1_048_576, out: 65_536, cost: [1.25, 10, 0.125], reasoning: true, images: true },
				"qwen/qwen3-coder": { name: "Qwen3 Coder (OpenRouter)", ctx: 262_144, out: 65_536, cost: [0.22, 0.95] },
			}),
		},
		{
			name: "groq",
			api: "openai-completions",
			baseUrl: groq,
			envKey: "GROQ_API_KEY",
			defaultModel: "openai/gpt-oss-120b",
			models: models("groq", "openai-completions", groq, CLOUD, {
				"openai/gpt-oss-120b": { name: "GPT-OSS 120B (Groq)", ctx: 131_072, out: 65_536, cost: [0.15, 0.6], reasoning: true, thinking: GPT_OSS_EFFORT },
				"openai/gpt-oss-20b": { name: "GPT-OSS 20B (Groq)", ctx: 131_072, out: 65_536, cost: [0.075, 0.3], reasoning: true, thinking: GPT_OSS_EFFORT },
				"moonshotai/kimi-k2-instruct-0905": { name: "Kimi K2 (Groq)", ctx: 262_144, out: 16_384, cost: [1, 3] },
				"llama-3.3-70b-versatile": { name: "Llama 3.3 70B (Groq)", ctx: 131_072, out: 32_768, cost: [0.59, 0.79] },
			}),
		},
		{
			name: "deepseek",
			api: "openai-completions",
			baseUrl: deepseek,
			envKey: "DEEPSEEK_API_KEY",
			defaultModel: "deepseek-chat",
			models: models("deepseek", "openai-completions", deepseek, CLOUD, {
				"deepseek-chat": { name: "DeepSeek V3.2", ctx: 128_000, out: 8_192, cost: [0.28, 0.42, 0.028] },
				// The reasoner always thinks and takes no effort parameter.
				"deepseek-reasoner": { name: "DeepSeek V3.2 (thinking)", ctx: 128_000, out: 65_536, cost: [0.28, 0.42, 0.028], reasoning: true, compat: { thinkingFormat: "none" } },
			}),
		},
		{
			// Any OpenAI-compatible local server; llama.cpp, vLLM and LM Studio go in models.json with their baseUrl.
			name: "ollama",
			api: "openai-completions",
			baseUrl: ollama,
			defaultModel: "gpt-oss:20b",
			models: models("ollama", "openai-completions", ollama, undefined, {
				"gpt-oss:20b": { name: "GPT-OSS 20B (local)", ctx: 131_072, out: 32_768, reasoning: true, thinking: GPT_OSS_EFFORT },
				"qwen3-coder:30b": { name: "Qwen3 Coder 30B (local)", ctx: 262_144, out: 65_536 },
			}),
		},
	];
}
