// `@earendil-works/pi-ai` (and `@mariozechner/pi-ai`, and their `/compat` entry) for extensions
// written for pi 1.6: every value pi-ai's compat entry exports, plus typebox's `Type`. Requests,
// the catalogue and keys are ours (the running session's registry); the transcript helpers follow
// pi-ai's system-message model; what we cannot honour throws `not supported by agent: <name>`.
import { Type, type TSchema, type TUnsafe } from "typebox";
import { NotSupportedError, unsupported } from "../src/core/compat/unsupported.ts";
import { validateToolArguments as validateArgs } from "../src/core/agent/validate.ts";
import { activeRegistry } from "../src/core/providers/active-registry.ts";
import { BUILTIN_ENV_KEYS, builtinProviders } from "../src/core/providers/catalogue.ts";
import { EventStream as AssistantEventStream } from "../src/core/providers/event-stream.ts";
import { isContextOverflow as overflows } from "../src/core/providers/overflow.ts";
import { parseStreamingJson as parsePartial } from "../src/core/providers/partial-json.ts";
import { hasApiStream, registerApiStream, stream as dispatch, streamApi, unregisterApiStreams } from "../src/core/providers/stream.ts";
import { clampThinkingLevel as clampLevel, supportedThinkingLevels } from "../src/core/providers/thinking.ts";
import { toLegacyContext, type TranscriptContext } from "../src/core/providers/transcript.ts";
import type { AssistantMessage, AssistantMessageEvent, Context, Model, StreamOptions, Tool, ToolCall, Usage } from "../src/core/providers/types.ts";

export * from "../src/core/providers/transcript.ts";
// pi-ai's message and model types, for extensions that import them (`import type { Message } …`).
export type {
	Api,
	AssistantMessage,
	AssistantMessageEvent,
	Context,
	ImageContent,
	KnownApi,
	Message,
	Model,
	ModelCost,
	StopReason,
	StreamFunction,
	StreamOptions,
	TextContent,
	ThinkingContent,
	ThinkingLevel,
	Tool,
	ToolCall,
	ToolResultMessage,
	Usage,
	UserMessage,
} from "../src/core/providers/types.ts";
export { Type };

// ---- schemas ----

/** A string enum as plain JSON Schema (`{ type: "string", enum }`), which every provider accepts. */
export function StringEnum<T extends readonly string[]>(values: T, options: { description?: string; default?: T[number] } = {}): TUnsafe<T[number]> {
	return Type.Unsafe<T[number]>({
		type: "string",
		enum: [...values],
		...(options.description ? { description: options.description } : {}),
		...(options.default ? { default: options.default } : {}),
	});
}

// ---- constants (pi-ai 1.6.0's values) ----

export const PI_AI_VERSION = "1.6.0";
export const PI_ATTRIBUTION = { name: "pi", url: "https://pi.dev", categories: ["cli-agent"] };
export const AI_TELEMETRY_SCHEMA = { version: 1, spans: {} };
export const ANTHROPIC_API_KEY_ENV = "ANTHROPIC_API_KEY";
export const ANTHROPIC_AUTH_TOKEN_ENV = "ANTHROPIC_AUTH_TOKEN";
export const ANTHROPIC_FEDERATION_RULE_ID_ENV = "ANTHROPIC_FEDERATION_RULE_ID";
export const ANTHROPIC_IDENTITY_TOKEN_FILE_ENV = "ANTHROPIC_IDENTITY_TOKEN_FILE";
export const ANTHROPIC_OAUTH_TOKEN_ENV = "ANTHROPIC_OAUTH_TOKEN";
export const ANTHROPIC_ORGANIZATION_ID_ENV = "ANTHROPIC_ORGANIZATION_ID";
export const ANTHROPIC_SERVICE_ACCOUNT_ID_ENV = "ANTHROPIC_SERVICE_ACCOUNT_ID";
export const ANTHROPIC_WORKSPACE_ID_ENV = "ANTHROPIC_WORKSPACE_ID";
/** The agent has no cache warming (cache_warming_decision never fires); the constants are pi's. */
export const CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY = 0.15;
export const CACHE_WARMING_MAX_AGE_MS = 3_600_000;
export const CACHE_WARMING_MAX_IDLE_AGE_MS = 1_800_000;
export const CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS = 0.05;
export const DEFAULT_MAX_AGENT_RETRY_DELAY_MS = 60_000;

// ---- ids, models, cost ----

export function uuidv7(): string {
	return Bun.randomUUIDv7();
}

/** Fills `usage.cost` from the model's prices ($ per million tokens) and returns it. */
export function calculateCost(model: Model, usage: Usage): Usage["cost"] {
	const p = model.cost;
	usage.cost.input = (p.input / 1e6) * usage.input;
	usage.cost.output = (p.output / 1e6) * usage.output;
	usage.cost.cacheRead = (p.cacheRead / 1e6) * usage.cacheRead;
	usage.cost.cacheWrite = (p.cacheWrite / 1e6) * usage.cacheWrite;
	usage.cost.total = usage.cost.input + usage.cost.output + usage.cost.cacheRead + usage.cost.cacheWrite;
	return usage.cost;
}

export function getSupportedThinkingLevels(model: Model): string[] {
	return supportedThinkingLevels(model);
}
export function clampThinkingLevel(model: Model, level: Parameters<typeof clampLevel>[1]): string {
	return clampLevel(model, level);
}
export function modelsAreEqual(a: Model | null | undefined, b: Model | null | undefined): boolean {
	return !!a && !!b && a.provider === b.provider && a.id === b.id;
}
export function hasApi(model: Model, api: string): boolean {
	return model.api === api;
}
export function getModelType(model: { type?: string }): string {
	return model.type ?? "chat";
}
export function isModelType(model: { type?: string }, type: string): boolean {
	return getModelType(model) === type;
}

/** Every model we know: the session's registry (built-ins, models.json, extensions), else the built-in catalogue. */
function catalogue(): Model[] {
	return activeRegistry()?.getAll() ?? builtinProviders().flatMap((p) => p.models);
}
export function getModel(provider: string, id: string): Model | undefined {
	return catalogue().find((m) => m.provider === provider && m.id === id);
}
export function getModels(provider: string): Model[] {
	return catalogue().filter((m) => m.provider === provider);
}
export function getProviders(): string[] {
	return [...new Set(catalogue().map((m) => m.provider))];
}
export function getEnvApiKey(provider: string): string | undefined {
	const name = BUILTIN_ENV_KEYS[provider];
	return name ? process.env[name] : undefined;
}
export function findEnvKeys(provider: string): string[] {
	const name = BUILTIN_ENV_KEYS[provider];
	return name && process.env[name] ? [name] : [];
}

// ---- streams ----

/** pi-ai's generic push stream: events in order, `result()` once `isComplete(event)` says so. */
export class EventStream<T, R = T> implements AsyncIterable<T> {
	private readonly queue: T[] = [];
	private readonly waiters: ((r: IteratorResult<T>) => void)[] = [];
	private done = false;
	private settle!: (value: R) => void;
	private readonly final = new Promise<R>((resolve) => (this.settle = resolve));

	constructor(
		private readonly isComplete: (event: T) => boolean = () => false,
		private readonly extractResult: (event: T) => R = (event) => event as unknown as R,
	) {}

	push(event: T): void {
		if (this.done) return;
		if (this.isComplete(event)) {
			this.done = true;
			this.settle(this.extractResult(event));
		}
		const waiter = this.waiters.shift();
		if (waiter) waiter({ value: event, done: false });
		else this.queue.push(event);
		if (this.done) for (const w of this.waiters.splice(0)) w({ value: undefined, done: true });
	}

	end(result?: R): void {
		this.done = true;
		if (result !== undefined) this.settle(result);
		for (const w of this.waiters.splice(0)) w({ value: undefined, done: true });
	}

	result(): Promise<R> {
		return this.final;
	}

	async *[Symbol.asyncIterator](): AsyncIterator<T> {
		for (;;) {
			const next = this.queue.shift();
			if (next !== undefined) yield next;
			else if (this.done) return;
			else {
				const r = await new Promise<IteratorResult<T>>((resolve) => this.waiters.push(resolve));
				if (r.done) return;
				yield r.value;
			}
		}
	}
}

/** The assistant-message stream custom providers build and push into. */
export class AssistantMessageEventStream extends AssistantEventStream {}

export function createAssistantMessageEventStream(): AssistantMessageEventStream {
	return new AssistantMessageEventStream();
}

type AnyContext = Context | TranscriptContext;

/** A request with the session's keys (models.json, auth.json, extensions) when there is a session. */
export function stream(model: Model, context: AnyContext, options?: StreamOptions): AssistantEventStream {
	const legacy = toLegacyContext(context);
	const registry = activeRegistry();
	return (registry ? registry.stream(model, legacy, options) : dispatch(model, legacy, options)) as AssistantEventStream;
}
export function complete(model: Model, context: AnyContext, options?: StreamOptions): Promise<AssistantMessage> {
	return stream(model, context, options).result();
}
/** pi-ai's "simple" options (`reasoning` as a thinking level) are ours already. */
export const streamSimple = stream;
export const completeSimple = complete;

/** One wire protocol as pi-ai's `ProviderStreams`, whatever `model.api` says. */
function apiStreams(api: string) {
	const run = (model: Model, context: AnyContext, options?: StreamOptions) => streamApi({ ...model, api }, toLegacyContext(context), options);
	return { stream: run, streamSimple: run };
}
export const anthropicMessagesApi = () => apiStreams("anthropic-messages");
export const openAICompletionsApi = () => apiStreams("openai-completions");
export const streamAnthropic = apiStreams("anthropic-messages").stream;
export const streamSimpleAnthropic = streamAnthropic;
export const streamOpenAICompletions = apiStreams("openai-completions").stream;
export const streamSimpleOpenAICompletions = streamOpenAICompletions;

// ---- the api registry (custom wire protocols) ----

interface ApiProvider {
	api: string;
	stream: (model: Model, context: TranscriptContext & Context, options?: StreamOptions) => AsyncIterable<AssistantMessageEvent> & { result(): Promise<AssistantMessage> };
	streamSimple?: ApiProvider["stream"];
}
const registeredApis = new Map<string, { provider: ApiProvider; sourceId: string }>();

export function registerApiProvider(provider: ApiProvider, sourceId = "pi-ai:registerApiProvider"): void {
	if (!provider?.api || typeof (provider.streamSimple ?? provider.stream) !== "function") throw new Error("registerApiProvider: a provider needs an api id and a stream function");
	registeredApis.set(provider.api, { provider, sourceId });
	registerApiStream(provider.api, (provider.streamSimple ?? provider.stream) as never, `api:${sourceId}`);
}
export function getApiProvider(api: string): { api: string; stream: unknown; streamSimple: unknown } | undefined {
	const own = registeredApis.get(api)?.provider;
	if (own) return { api, stream: own.stream, streamSimple: own.streamSimple ?? own.stream };
	return hasApiStream(api) ? { api, ...apiStreams(api) } : undefined;
}
export function getApiProviders(): { api: string }[] {
	return ["openai-completions", "anthropic-messages", ...registeredApis.keys()].map((api) => getApiProvider(api)!).filter(Boolean);
}
export function unregisterApiProviders(sourceId: string): void {
	for (const [api, entry] of registeredApis) if (entry.sourceId === sourceId) registeredApis.delete(api);
	unregisterApiStreams(`api:${sourceId}`);
}
export function resetApiProviders(): void {
	for (const { sourceId } of registeredApis.values()) unregisterApiStreams(`api:${sourceId}`);
	registeredApis.clear();
}
/** Our built-in protocols are always registered. */
export function registerBuiltInApiProviders(): void {}

// ---- providers (the one-argument pi.registerProvider form) ----

export interface ProviderAuthInput {
	apiKey?: { name: string; resolve(input: { ctx: { env(name: string): Promise<string | undefined> }; credential?: unknown; signal: AbortSignal }): Promise<{ auth: { apiKey?: string; headers?: Record<string, string>; baseUrl?: string } } | undefined> };
	oauth?: unknown;
}

/** Api-key auth read from the first of `envVars` that is set. */
export function envApiKeyAuth(name: string, envVars: string[]): NonNullable<ProviderAuthInput["apiKey"]> {
	return {
		name,
		async resolve({ ctx }) {
			for (const v of envVars) {
				const value = await ctx.env(v);
				if (value) return { auth: { apiKey: value } };
			}
			return undefined;
		},
	};
}

/** pi-ai's `createProvider`: a provider object from parts, as `pi.registerProvider(provider)` takes it. */
export function createProvider(input: {
	id: string;
	name?: string;
	baseUrl?: string;
	headers?: Record<string, string>;
	auth: ProviderAuthInput;
	models: Model[];
	api?: ApiProvider | Record<string, ApiProvider>;
}) {
	const pick = (model: Model): Pick<ApiProvider, "stream" | "streamSimple"> | undefined => {
		const api = input.api as Record<string, ApiProvider> | ApiProvider | undefined;
		if (!api) return undefined;
		if (typeof (api as ApiProvider).stream === "function" || typeof (api as ApiProvider).streamSimple === "function") return api as ApiProvider;
		return (api as Record<string, ApiProvider>)[model.api];
	};
	const run = (model: Model, context: TranscriptContext & Context, options?: StreamOptions) => {
		const impl = pick(model);
		if (!impl) throw new Error(`Provider "${input.id}" has no stream for api "${model.api}"`);
		return (impl.streamSimple ?? impl.stream)(model, context, options);
	};
	return {
		id: input.id,
		name: input.name ?? input.id,
		baseUrl: input.baseUrl,
		headers: input.headers,
		auth: input.auth,
		getModels: () => input.models.map((m) => ({ ...m, provider: m.provider ?? input.id, baseUrl: m.baseUrl ?? input.baseUrl ?? "" })),
		stream: run,
		streamSimple: run,
	};
}

export function defaultProviderAuthContext() {
	return { env: async (name: string) => process.env[name] };
}

// ---- parsing and validation ----

export function parseStreamingJson(text: string): Record<string, unknown> {
	return parsePartial(text);
}
export function parseJsonWithRepair(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return parsePartial(text);
	}
}
export const repairJson = (text: string): string => JSON.stringify(parseJsonWithRepair(text));
export function parseToolCallArguments(json: string): { arguments: Record<string, unknown>; argumentsError?: string } {
	if (!json?.trim()) return { arguments: {} };
	try {
		const parsed = parseJsonWithRepair(json);
		if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("Tool arguments must be a JSON object");
		return { arguments: parsed as Record<string, unknown> };
	} catch (error) {
		return { arguments: {}, argumentsError: error instanceof Error ? error.message : String(error) };
	}
}

/** Tool-call arguments as they stream in: partial objects while growing, one strict parse at the end. */
export class ToolCallArgumentsStream {
	#text = "";
	get text(): string {
		return this.#text;
	}
	append(delta: string): ToolCall["arguments"] {
		this.#text += delta;
		return parsePartial(this.#text);
	}
	replace(text: string): { readonly delta: string | undefined; readonly arguments: ToolCall["arguments"] } {
		const delta = text.startsWith(this.#text) ? text.slice(this.#text.length) : undefined;
		this.#text = text;
		return { delta, arguments: parsePartial(text) };
	}
	finish(): { arguments: ToolCall["arguments"]; argumentsError?: string } {
		return parseToolCallArguments(this.#text);
	}
}

/** The call's arguments checked against the tool's schema; throws with every problem listed. */
export function validateToolArguments(tool: Tool, toolCall: ToolCall & { argumentsError?: string }): Record<string, unknown> {
	if (toolCall.argumentsError) throw new Error(`Invalid arguments for tool "${toolCall.name}": ${toolCall.argumentsError}`);
	const result = validateArgs(toolCall.name, tool.parameters, structuredClone(toolCall.arguments));
	if (!result.ok) throw new Error(result.message);
	return result.value as Record<string, unknown>;
}
export function validateToolCall(tools: Tool[], toolCall: ToolCall): Record<string, unknown> {
	const tool = tools.find((t) => t.name === toolCall.name);
	if (!tool) throw new Error(`Tool "${toolCall.name}" not found`);
	return validateToolArguments(tool, toolCall);
}

export function isContextOverflow(message: AssistantMessage): boolean {
	return overflows(message);
}
export function formatThrownValue(value: unknown): string {
	if (value instanceof Error) return value.message || value.name;
	return typeof value === "string" ? value : String(value);
}

// ---- what we cannot honour ----

export { NotSupportedError };
export const InMemoryCredentialStore = unsupported("InMemoryCredentialStore");
export const InMemoryModelsStore = unsupported("InMemoryModelsStore");
export const ModelsError = unsupported("ModelsError");
export const StreamingJsonParser = unsupported("StreamingJsonParser");
export const appendAssistantMessageDiagnostic = unsupported("appendAssistantMessageDiagnostic");
export const azureOpenAIResponsesApi = unsupported("azureOpenAIResponsesApi");
export const bedrockConverseStreamApi = unsupported("bedrockConverseStreamApi");
export const cleanupSessionResources = unsupported("cleanupSessionResources");
export const createAssistantMessageDiagnostic = unsupported("createAssistantMessageDiagnostic");
export const createFauxCore = unsupported("createFauxCore");
export const createModels = unsupported("createModels");
export const evaluateCacheWarming = unsupported("evaluateCacheWarming");
export const extractDiagnosticError = unsupported("extractDiagnosticError");
export const fauxAssistantMessage = unsupported("fauxAssistantMessage");
export const fauxProvider = unsupported("fauxProvider");
export const fauxText = unsupported("fauxText");
export const fauxThinking = unsupported("fauxThinking");
export const fauxToolCall = unsupported("fauxToolCall");
export const formatUserAgent = unsupported("formatUserAgent");
export const generateImages = unsupported("generateImages");
export const generateImagesOpenRouter = unsupported("generateImagesOpenRouter");
export const getAttributionHeaders = unsupported("getAttributionHeaders");
export const getCacheWarmingDelayMs = unsupported("getCacheWarmingDelayMs");
export const getCacheWarmingRequestOptions = unsupported("getCacheWarmingRequestOptions");
export const getClientVersion = unsupported("getClientVersion");
export const getIdentityHeaders = unsupported("getIdentityHeaders");
export const getImageModel = unsupported("getImageModel");
export const getImageModels = unsupported("getImageModels");
export const getImageProviders = unsupported("getImageProviders");
export const getImagesApiProvider = unsupported("getImagesApiProvider");
export const getOpenCodeSessionHeaders = unsupported("getOpenCodeSessionHeaders");
export const getOverflowPatterns = unsupported("getOverflowPatterns");
export const getPromptCacheTtlMs = unsupported("getPromptCacheTtlMs");
export const googleGenerativeAIApi = unsupported("googleGenerativeAIApi");
export const googleVertexApi = unsupported("googleVertexApi");
export const isCacheWarmingReplayable = unsupported("isCacheWarmingReplayable");
export const isRecoverableLength = unsupported("isRecoverableLength");
export const isRetryableAssistantError = unsupported("isRetryableAssistantError");
export const lazyApi = unsupported("lazyApi");
export const lazyOAuth = unsupported("lazyOAuth");
export const lazyStream = unsupported("lazyStream");
export const mergeClientIdentity = unsupported("mergeClientIdentity");
export const mistralConversationsApi = unsupported("mistralConversationsApi");
export const openAICodexResponsesApi = unsupported("openAICodexResponsesApi");
export const openAIResponsesApi = unsupported("openAIResponsesApi");
export const piMessagesApi = unsupported("piMessagesApi");
export const registerBuiltInImagesApiProviders = unsupported("registerBuiltInImagesApiProviders");
export const registerFauxProvider = unsupported("registerFauxProvider");
export const registerImagesApiProvider = unsupported("registerImagesApiProvider");
export const registerSessionResourceCleanup = unsupported("registerSessionResourceCleanup");
export const resolveTranscriptTools = unsupported("resolveTranscriptTools");
export const retryAssistantCall = unsupported("retryAssistantCall");
export const retryDelayMs = unsupported("retryDelayMs");
export const setBedrockProviderLoader = unsupported("setBedrockProviderLoader");
export const setBedrockProviderModule = unsupported("setBedrockProviderModule");
export const streamAzureOpenAIResponses = unsupported("streamAzureOpenAIResponses");
export const streamGoogle = unsupported("streamGoogle");
export const streamGoogleVertex = unsupported("streamGoogleVertex");
export const streamMistral = unsupported("streamMistral");
export const streamOpenAICodexResponses = unsupported("streamOpenAICodexResponses");
export const streamOpenAIResponses = unsupported("streamOpenAIResponses");
export const streamSimpleAzureOpenAIResponses = unsupported("streamSimpleAzureOpenAIResponses");
export const streamSimpleGoogle = unsupported("streamSimpleGoogle");
export const streamSimpleGoogleVertex = unsupported("streamSimpleGoogleVertex");
export const streamSimpleMistral = unsupported("streamSimpleMistral");
export const streamSimpleOpenAICodexResponses = unsupported("streamSimpleOpenAICodexResponses");
export const streamSimpleOpenAIResponses = unsupported("streamSimpleOpenAIResponses");
export const withClientIdentity = unsupported("withClientIdentity");
