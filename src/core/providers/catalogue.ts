// The built-in providers and a modest catalogue of their current models (context windows, output
// limits, $ per million tokens). models.json can add, re-point or override any of it.
// The binary holds it frozen into one literal (scripts/frozen-catalogue.ts): keep builtinProviders() plain data.
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

/** The environment variable holding each built-in provider's key. */
export const BUILTIN_ENV_KEYS: Readonly<Record<string, string>> = {
	anthropic: "ANTHROPIC_API_KEY",
	openai: "OPENAI_API_KEY",
	openrouter: "OPENROUTER_API_KEY",
	groq: "GROQ_API_KEY",
	deepseek: "DEEPSEEK_API_KEY",
};

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
// OpenAI's reasoning models take max_completion_tokens and a developer message.
const OPENAI = { ...CLOUD, maxTokensField: "max_completion_tokens", supportsDeveloperRole: true };
// Current Claude models think adaptively: an effort level, not a token budget.
const ADAPTIVE = { thinkingFormat: "adaptive" };
const ALWAYS_ON = { thinkingFormat: "adaptive", thinkingAlwaysOn: true };
const GPT6_EFFORT = { minimal: "low", xhigh: "xhigh", max: "max" } as const;
const GPT6_EFFORT_OFF = { off: "none", ...GPT6_EFFORT } as const;
const CLAUDE_EFFORT = { xhigh: "xhigh", max: "max" } as const;
const GPT_OSS_EFFORT = { minimal: "low" } as const;

/**
 * A fresh copy of the built-in providers (callers may change what they get). Prices and limits as
 * published in November 2026; models.json `modelOverrides` corrects any that have moved.
 */
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
			envKey: BUILTIN_ENV_KEYS.anthropic,
			defaultModel: "claude-sonnet-5-5",
			models: models("anthropic", "anthropic-messages", anthropic, undefined, {
				"claude-sonnet-5-5": { name: "Claude Sonnet 5.5", ctx: 1_000_000, out: 128_000, cost: [2, 10, 0.2, 2.5], reasoning: true, images: true, thinking: CLAUDE_EFFORT, compat: ADAPTIVE },
				"claude-opus-5-5": { name: "Claude Opus 5.5", ctx: 1_000_000, out: 128_000, cost: [4, 20, 0.4, 5], reasoning: true, images: true, thinking: CLAUDE_EFFORT, compat: ALWAYS_ON },
				// Haiku 5.5 bills more above 100K prompt tokens; this is the short-prompt rate.
				"claude-haiku-5-5": { name: "Claude Haiku 5.5", ctx: 1_000_000, out: 128_000, cost: [0.1, 0.5, 0.01, 0.125], reasoning: true, images: true, thinking: CLAUDE_EFFORT, compat: ADAPTIVE },
				"claude-fable-5-2": { name: "Claude Fable 5.2", ctx: 1_000_000, out: 128_000, cost: [8, 40, 0.8, 10], reasoning: true, images: true, thinking: CLAUDE_EFFORT, compat: ALWAYS_ON },
			}),
		},
		{
			name: "openai",
			api: "openai-completions",
			baseUrl: openai,
			envKey: BUILTIN_ENV_KEYS.openai,
			defaultModel: "gpt-6.1-sol",
			models: models("openai", "openai-completions", openai, OPENAI, {
				"gpt-6.1-sol": { name: "GPT-6.1 Sol", ctx: 1_050_000, out: 128_000, cost: [2, 10, 0.1], reasoning: true, images: true, thinking: GPT6_EFFORT },
				"gpt-6.1-terra": { name: "GPT-6.1 Terra", ctx: 1_050_000, out: 128_000, cost: [1, 5, 0.05], reasoning: true, images: true, thinking: GPT6_EFFORT_OFF },
				"gpt-6-astra": { name: "GPT-6 Astra", ctx: 1_050_000, out: 128_000, cost: [10, 50, 1], reasoning: true, images: true, thinking: GPT6_EFFORT },
				"gpt-6-luna": { name: "GPT-6 Luna", ctx: 1_050_000, out: 128_000, cost: [0.1, 0.5, 0.01], reasoning: true, images: true, thinking: GPT6_EFFORT_OFF },
			}),
		},
		{
			name: "openrouter",
			api: "openai-completions",
			baseUrl: openrouter,
			envKey: BUILTIN_ENV_KEYS.openrouter,
			defaultModel: "anthropic/claude-sonnet-5.5",
			models: models("openrouter", "openai-completions", openrouter, CLOUD, {
				"anthropic/claude-sonnet-5.5": { name: "Claude Sonnet 5.5 (OpenRouter)", ctx: 1_000_000, out: 128_000, cost: [2, 10, 0.2, 2.5], reasoning: true, images: true },
				"openai/gpt-6.1-sol": { name: "GPT-6.1 Sol (OpenRouter)", ctx: 1_050_000, out: 128_000, cost: [2, 10, 0.1], reasoning: true, images: true, thinking: GPT6_EFFORT },
				"openai/gpt-6.1-terra": { name: "GPT-6.1 Terra (OpenRouter)", ctx: 1_050_000, out: 128_000, cost: [1, 5, 0.05], reasoning: true, images: true, thinking: GPT6_EFFORT },
			}),
		},
		{
			name: "groq",
			api: "openai-completions",
			baseUrl: groq,
			envKey: BUILTIN_ENV_KEYS.groq,
			defaultModel: "openai/gpt-oss-120b",
			models: models("groq", "openai-completions", groq, CLOUD, {
				"openai/gpt-oss-120b": { name: "GPT-OSS 120B (Groq)", ctx: 131_072, out: 65_536, cost: [0.15, 0.6], reasoning: true, thinking: GPT_OSS_EFFORT },
				"openai/gpt-oss-20b": { name: "GPT-OSS 20B (Groq)", ctx: 131_072, out: 65_536, cost: [0.075, 0.3], reasoning: true, thinking: GPT_OSS_EFFORT },
				"llama-3.3-70b-versatile": { name: "Llama 3.3 70B (Groq)", ctx: 131_072, out: 32_768, cost: [0.59, 0.79] },
			}),
		},
		{
			name: "deepseek",
			api: "openai-completions",
			baseUrl: deepseek,
			envKey: BUILTIN_ENV_KEYS.deepseek,
			defaultModel: "deepseek-chat",
			models: models("deepseek", "openai-completions", deepseek, CLOUD, {
				"deepseek-chat": { name: "DeepSeek Chat", ctx: 128_000, out: 8_192, cost: [0.28, 0.42, 0.028] },
				// The reasoner always thinks, takes no effort parameter, and wants its reasoning back between tool calls.
				"deepseek-reasoner": {
					name: "DeepSeek Reasoner",
					ctx: 128_000,
					out: 65_536,
					cost: [0.28, 0.42, 0.028],
					reasoning: true,
					compat: { thinkingFormat: "none", sendReasoningContent: true },
				},
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
