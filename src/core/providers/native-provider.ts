// pi 1.6's one-argument `pi.registerProvider(provider)`: a pi-ai Provider object (`id`, `name`,
// `getModels()`, `stream`/`streamSimple`, `auth`) turned into what the registry keeps, a provider
// config with the models and a stream that resolves the provider's own auth first.
import { toTranscriptContext } from "./transcript.ts";
import type { AssistantMessageEventStream, Context, Model, StreamFunction, StreamOptions } from "./types.ts";
import type { ProviderConfigJson } from "./provider-config.ts";

type Stream = (model: Model, context: unknown, options?: StreamOptions) => AssistantMessageEventStream;

export interface NativeProvider {
	id: string;
	name?: string;
	baseUrl?: string;
	headers?: Record<string, string>;
	auth?: {
		apiKey?: {
			resolve?(input: { ctx: { env(name: string): Promise<string | undefined> }; credential?: unknown; signal: AbortSignal }): Promise<{ auth?: { apiKey?: string; headers?: Record<string, string> } } | undefined>;
		};
	};
	getModels(): readonly Model[];
	stream?: Stream;
	streamSimple?: Stream;
}

export function isNativeProvider(value: unknown): value is NativeProvider {
	const v = value as Partial<NativeProvider> | null;
	return !!v && typeof v === "object" && typeof v.id === "string" && typeof v.getModels === "function";
}

/** Why `value` cannot be registered as a provider, or undefined. */
export function nativeProviderProblem(value: NativeProvider): string | undefined {
	if (!value.id) return "the provider needs an id";
	if (typeof (value.streamSimple ?? value.stream) !== "function") return `provider "${value.id}" needs a stream or streamSimple function`;
	let models: readonly Model[];
	try {
		models = value.getModels();
	} catch (error) {
		return `getModels() of provider "${value.id}" failed: ${error instanceof Error ? error.message : String(error)}`;
	}
	if (!Array.isArray(models)) return `getModels() of provider "${value.id}" must return an array of models`;
	const bad = models.findIndex((m) => !m || typeof m.id !== "string" || !m.id);
	return bad >= 0 ? `model ${bad} of provider "${value.id}" has no id` : undefined;
}

/** The registry's config for `provider` (its models, endpoint, headers; no key: its auth resolves per request). */
export function nativeProviderConfig(provider: NativeProvider): ProviderConfigJson {
	return {
		...(provider.name ? { name: provider.name } : {}),
		...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}),
		...(provider.headers ? { headers: provider.headers } : {}),
		models: provider.getModels().map((m) => ({
			id: m.id,
			name: m.name ?? m.id,
			...(m.api ? { api: m.api } : {}),
			...(m.baseUrl ? { baseUrl: m.baseUrl } : {}),
			reasoning: m.reasoning ?? false,
			input: m.input ?? ["text"],
			...(m.cost ? { cost: m.cost } : {}),
			...(m.contextWindow ? { contextWindow: m.contextWindow } : {}),
			...(m.maxTokens ? { maxTokens: m.maxTokens } : {}),
			...(m.headers ? { headers: m.headers } : {}),
			...(m.compat ? { compat: m.compat } : {}),
			...(m.thinkingLevelMap ? { thinkingLevelMap: m.thinkingLevelMap } : {}),
		})),
	} as ProviderConfigJson;
}

/** The provider's stream for its models: its auth first (unless a key is given), then its own streamSimple with pi's transcript context. */
export function nativeProviderStream(provider: NativeProvider, env: Record<string, string | undefined>): StreamFunction {
	const run = (provider.streamSimple ?? provider.stream)!;
	return (model: Model, context: Context, options: StreamOptions = {}) => {
		const resolve = provider.auth?.apiKey?.resolve;
		if (options.apiKey !== undefined || !resolve) return run(model, toTranscriptContext(context), options);
		// Resolve the key, then hand over the provider's stream (events forwarded as they come).
		const out = new ForwardStream();
		void (async () => {
			const resolved = await resolve({ ctx: { env: async (name) => env[name] }, signal: options.signal ?? new AbortController().signal }).catch(() => undefined);
			const auth = resolved?.auth;
			out.forward(run(model, toTranscriptContext(context), { ...options, ...(auth?.apiKey ? { apiKey: auth.apiKey } : {}), headers: { ...auth?.headers, ...options.headers } }));
		})();
		return out;
	};
}

/** A stream whose events come from another, set later. */
class ForwardStream implements AssistantMessageEventStream {
	private source: Promise<AssistantMessageEventStream>;
	private set!: (s: AssistantMessageEventStream) => void;
	constructor() {
		this.source = new Promise((resolve) => (this.set = resolve));
	}
	forward(stream: AssistantMessageEventStream): void {
		this.set(stream);
	}
	async result() {
		return (await this.source).result();
	}
	async *[Symbol.asyncIterator]() {
		yield* await this.source;
	}
}
