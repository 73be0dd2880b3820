// The model registry: built-in providers, then ~/.agent/models.json, then providers extensions
// register, merged into one model list; API keys per provider; streaming with the right key.
import { join } from "node:path";
import { getAgentDir, tildify } from "../../config.ts";
import { isSpecConfigured, KeyCommandError, parseKeySpec, resolveHeaderValue, resolveKeySpec, type KeySpec } from "./auth.ts";
import { builtinProviders, type BuiltinProvider } from "./catalogue.ts";
import { EventStream } from "./event-stream.ts";
import { checkValue, type ConfigProblem, pointerToPath, readJsonConfig, typeboxValue } from "./json-file.ts";
import { formatModelList } from "./model-list.ts";
import { noModelMessage, resolveModel, selectModel, type ModelSelection, type ResolvedModel } from "./model-resolver.ts";
// Types only: the schemas load when a file or registration fails its check (config-checks.ts).
import type { AuthJson, ModelOverride, ModelsJson, ProviderConfig, ProviderConfigJson, ProviderModelConfig } from "./provider-config.ts";
import { configSchema } from "./config-checks.ts";
import { createRetryPolicy, type RetryPolicy } from "./retry.ts";
import { errorStream, preconnect, registerApiStream, registerProviderStream, stream as streamModel, unregisterApiStreams } from "./stream.ts";
import { isNativeProvider, nativeProviderConfig, nativeProviderProblem, nativeProviderStream, type NativeProvider } from "./native-provider.ts";
import { toTranscriptContext } from "./transcript.ts";
import { VIRTUAL_API, VirtualModels, type VirtualModelDefinition, type VirtualResolver } from "./virtual-models.ts";
import { NotSupportedError } from "../compat/unsupported.ts";
import type { AssistantMessage, AssistantMessageEventStream, Context, Model, StreamOptions } from "./types.ts";

/** The shapes shown with a models.json or auth.json error. */
const MODELS_JSON_EXAMPLE =
	'{ "providers": { "local": { "baseUrl": "http://localhost:8080/v1", "api": "openai-completions", "apiKey": "MY_KEY_ENV", "models": [{ "id": "my-model" }] } } }';
const AUTH_JSON_EXAMPLE = '{ "anthropic": { "type": "api_key", "key": "sk-ant-..." } }';

export interface ModelRegistryOptions {
	/** Where models.json and auth.json live. Default: `getAgentDir()` (~/.agent). */
	agentDir?: string;
	/** Where API keys named by env var are read. Default: `process.env`. */
	env?: Record<string, string | undefined>;
}

/**
 * pi's shape. The failure side names no key, so a caller that only reads `apiKey` sends none, and
 * `stream` then reports `error` as the run's error.
 */
export type ApiKeyAndHeaders = { ok: true; apiKey?: string; headers?: Record<string, string> } | { ok: false; error: string; apiKey?: undefined; headers?: undefined };

/** What the registry knows about one provider after merging every source. */
export interface ProviderInfo {
	name: string;
	builtin: boolean;
	/** Named in models.json or registered by an extension. */
	userConfigured: boolean;
	/** The built-in env var for its key, if any. */
	envKey?: string;
	/** Needs no key at all (a local server). */
	keyless: boolean;
	defaultModel?: string;
}

interface ProviderState {
	name: string;
	api?: string;
	baseUrl?: string;
	envKey?: string;
	apiKey?: KeySpec;
	apiKeyFrom?: "models.json" | "extension";
	headers: Record<string, string>;
	authHeader: boolean;
	compat?: Record<string, unknown>;
	defaultModel?: string;
	builtin: boolean;
	userConfigured: boolean;
}

type KeySource =
	| { kind: "runtime"; key: string }
	| { kind: "auth.json"; spec: KeySpec }
	| { kind: "config"; spec: KeySpec; from: "models.json" | "extension" }
	| { kind: "env"; name: string }
	| { kind: "keyless" }
	| { kind: "none" };

export class ModelRegistry {
	/** Retry policy for requests that fail before streaming anything (the agent loop's `hooks.retry`). */
	retry: RetryPolicy = createRetryPolicy();
	readonly modelsPath: string;
	readonly authPath: string;
	private readonly env: Record<string, string | undefined>;
	/** The catalogue for its names and model ids (checks); its models may be the first rebuild's, changed in place. */
	private readonly builtins: BuiltinProvider[];
	/** A fresh catalogue copy not yet merged: the first rebuild takes its models as they are, later ones a new copy. */
	private freshCatalogue: BuiltinProvider[] | undefined;
	private readonly registered = new Map<string, ProviderConfig>();
	private readonly runtimeKeys = new Map<string, string>();
	private providers = new Map<string, ProviderState>();
	private models: Model[] = [];
	/** Virtual models (registerVirtualModel), listed after every physical model. */
	private readonly virtual = new VirtualModels();

	/** Read models.json and auth.json; a malformed file throws ConfigFileError (file:line:column and the fix). */
	static create(options: ModelRegistryOptions = {}): ModelRegistry {
		const dir = options.agentDir ?? getAgentDir();
		const modelsPath = join(dir, "models.json");
		const authPath = join(dir, "auth.json");
		const builtins = builtinProviders();
		const modelsJson = readJsonConfig(modelsPath, "ModelsJson", MODELS_JSON_EXAMPLE, (v: ModelsJson) => checkModelsJson(v, builtins)) as ModelsJson | undefined;
		const authJson = readJsonConfig(authPath, "AuthJson", AUTH_JSON_EXAMPLE) as AuthJson | undefined;
		return new ModelRegistry({ builtins, modelsJson, authJson, modelsPath, authPath, env: options.env ?? process.env });
	}

	private constructor(
		private readonly input: {
			builtins: BuiltinProvider[];
			modelsJson?: ModelsJson;
			authJson?: AuthJson;
			modelsPath: string;
			authPath: string;
			env: Record<string, string | undefined>;
		},
	) {
		this.builtins = input.builtins;
		this.freshCatalogue = input.builtins;
		this.modelsPath = input.modelsPath;
		this.authPath = input.authPath;
		this.env = input.env;
		this.rebuild();
	}

	find(provider: string, modelId: string): Model | undefined {
		return this.models.find((m) => m.provider === provider && m.id === modelId);
	}

	getAll(): Model[] {
		return [...this.models];
	}

	/** Models whose provider has a key configured (or needs none). */
	getAvailable(): Model[] {
		return this.models.filter((m) => this.hasConfiguredAuth(m));
	}

	getProviders(): ProviderInfo[] {
		return [...this.providers.values()].map((p) => ({
			name: p.name,
			builtin: p.builtin,
			userConfigured: p.userConfigured,
			...(p.envKey ? { envKey: p.envKey } : {}),
			keyless: this.keySource(p.name).kind === "keyless",
			...(p.defaultModel ? { defaultModel: p.defaultModel } : {}),
		}));
	}

	hasConfiguredAuth(model: Model): boolean {
		// A virtual model is always selectable: the model it routes to needs the key.
		if (this.isVirtual(model)) return true;
		const source = this.keySource(model.provider);
		switch (source.kind) {
			case "runtime":
			case "env":
			case "keyless":
				return true;
			case "auth.json":
			case "config":
				return isSpecConfigured(source.spec, this.env);
			case "none":
				return false;
		}
	}

	/** `--api-key`: a key for `provider` that wins over every other source, for this process only. */
	setRuntimeApiKey(provider: string, key: string): void {
		this.runtimeKeys.set(provider, key);
	}

	async getApiKeyAndHeaders(model: Model): Promise<ApiKeyAndHeaders> {
		const state = this.providers.get(model.provider);
		const source = this.keySource(model.provider);
		const label = `provider "${model.provider}"`;
		try {
			let apiKey: string | undefined;
			if (source.kind === "runtime") apiKey = source.key;
			else if (source.kind === "env") apiKey = this.env[source.name];
			else if (source.kind === "auth.json" || source.kind === "config") apiKey = await resolveKeySpec(source.spec, this.env, label);
			const headers: Record<string, string> = {};
			for (const [name, value] of Object.entries(state?.headers ?? {})) headers[name] = await resolveHeaderValue(value, this.env, label);
			if (state?.authHeader && apiKey) headers.Authorization = `Bearer ${apiKey}`;
			return { ok: true, ...(apiKey ? { apiKey } : {}), headers };
		} catch (error) {
			if (error instanceof KeyCommandError) return { ok: false, error: error.message };
			throw error;
		}
	}

	/**
	 * Add or change a provider (reference §4.5). `models` replaces the provider's models; `baseUrl`
	 * alone re-points them; `streamSimple` serves a custom `api` id. A second registration of the same
	 * name changes only what it names (pi: a proxy re-registers just `baseUrl` and keeps the rest).
	 * Throws on an invalid config. The one-argument form takes a pi-ai Provider object.
	 */
	registerProvider(nameOrProvider: string | NativeProvider, config?: ProviderConfig): void {
		if (typeof nameOrProvider !== "string") return this.registerNativeProvider(nameOrProvider);
		const name = nameOrProvider;
		if (!config || typeof config !== "object") throw new Error(`registerProvider("${name}"): a provider config object is required`);
		const problem = checkProviderConfig(name, config, this.builtins);
		if (problem) throw new Error(problem);
		const { streamSimple, oauth: _oauth, ...data } = config;
		const previous = this.registered.get(name);
		const merged: ProviderConfigJson = previous
			? { ...previous, ...data, headers: { ...previous.headers, ...data.headers }, models: data.models ?? previous.models }
			: data;
		if (streamSimple) {
			const api = merged.api;
			if (!api) throw new Error(`registerProvider("${name}"): "streamSimple" needs an "api" id for the models it serves`);
			// pi 1.6's custom providers read the prompt and tools from transcript system messages.
			registerApiStream(api, (model, context, options) => streamSimple(model, toTranscriptContext(context), options), `provider:${name}`);
		}
		this.registered.set(name, merged);
		this.rebuild();
	}

	/** pi 1.6's `registerProvider(provider)`: the provider's models, served by its own stream and auth. */
	private registerNativeProvider(provider: NativeProvider): void {
		if (!isNativeProvider(provider)) throw new Error("registerProvider(provider): expected a pi-ai Provider (id, getModels(), stream or streamSimple) or registerProvider(name, config)");
		const problem = nativeProviderProblem(provider);
		if (problem) throw new Error(`registerProvider(provider): ${problem}`);
		const config = nativeProviderConfig(provider);
		const checked = checkProviderConfig(provider.id, { ...config, models: config.models?.map((m) => ({ ...m, api: m.api ?? "native" })) }, this.builtins);
		if (checked) throw new Error(checked);
		registerProviderStream(provider.id, nativeProviderStream(provider, this.env), `provider:${provider.id}`);
		this.registered.set(provider.id, config);
		this.rebuild();
	}

	/** Remove an extension's provider; built-in models it overrode come back. */
	unregisterProvider(name: string): void {
		if (!this.registered.delete(name)) return;
		unregisterApiStreams(`provider:${name}`);
		this.rebuild();
	}

	/** A model that routes each request (pi 1.6's registerVirtualModel); `resolve` picks the physical model. */
	registerVirtualModel(definition: VirtualModelDefinition, resolve: VirtualResolver, owner: string): void {
		this.virtual.register(definition, resolve, owner);
		this.rebuild();
	}

	unregisterVirtualModel(provider: string, id: string): void {
		if (this.virtual.unregister(provider, id)) this.rebuild();
	}

	/** Drop the virtual models `owner` registered (before a reload registers them again). */
	unregisterVirtualModelsOf(owner: string): void {
		this.virtual.unregisterOwner(owner);
		this.rebuild();
	}

	isVirtual(model: Pick<Model, "provider" | "id" | "api">): boolean {
		return model.api === VIRTUAL_API && this.virtual.get(model) !== undefined;
	}

	/** pi 1.6's typed lookups: only chat models exist here. */
	findOfType(type: string, provider: string, modelId: string): Model | undefined {
		return type === "chat" ? this.find(provider, modelId) : undefined;
	}
	getModelOfType(type: string, provider: string, modelId: string): Model | undefined {
		return this.findOfType(type, provider, modelId);
	}
	getModelsOfType(type: string, provider?: string): Model[] {
		return type === "chat" ? this.models.filter((m) => !provider || m.provider === provider) : [];
	}
	classify(): never {
		throw new NotSupportedError("ModelRegistry.classify (there are no classifier models)");
	}
	generateImages(): never {
		throw new NotSupportedError("ModelRegistry.generateImages (there are no image models)");
	}

	/** `--model` pattern: `provider/id`, a bare id, or part of one, with an optional `:thinking` suffix. */
	resolveModel(pattern: string, options: { provider?: string } = {}): ResolvedModel {
		return resolveModel(this, pattern, options);
	}

	/** The model a run starts with, from `--provider` / `--model` / `--thinking` / `--api-key` or the defaults. */
	selectModel(selection: ModelSelection = {}): ResolvedModel {
		return selectModel(this, selection);
	}

	/** `--list-models [search]` output: a table of the available models, or how to configure one. */
	listModels(search?: string): string {
		return formatModelList(this.getAvailable(), search) ?? `${noModelMessage(this)}\n`;
	}

	/** A model of `provider` not in its list, with the provider's api and baseUrl and default limits. */
	modelWithDefaults(provider: string, id: string): Model | undefined {
		const state = this.providers.get(provider);
		if (!state?.api || !state.baseUrl) return undefined;
		return modelFromConfig(state, { id });
	}

	/** Stream with the provider's key and headers (unless `options.apiKey` is given). Never throws. */
	stream(model: Model, context: Context, options: StreamOptions = {}): AssistantMessageEventStream {
		if (options.reasoningEffort && options.reasoning === undefined) options = { ...options, reasoning: options.reasoningEffort };
		const out = new EventStream();
		// pipe reports failures as events; a throw here would be a bug, still reported as one.
		void this.pipe(out, model, context, options).catch((error: unknown) => forward(out, errorStream(model, error)));
		return out;
	}

	/** Open the connection a request to `model` will use (stream.ts's preconnect), when its key is configured. */
	preconnect(model: Model, open?: (url: string) => void): void {
		if (this.isVirtual(model) || this.missingKeyMessage(model) !== undefined) return;
		preconnect(model, this.env, open);
	}

	/** The final message of one request (pi-ai's `complete`), with this registry's keys. */
	complete(model: Model, context: Context, options?: StreamOptions): Promise<AssistantMessage> {
		return this.stream(model, context, options).result();
	}

	/** Why `model` cannot be used for lack of a key, and how to fix it; undefined when it can. */
	missingKeyMessage(model: Model): string | undefined {
		if (this.hasConfiguredAuth(model)) return undefined;
		const source = this.keySource(model.provider);
		const p = model.provider;
		const auth = tildify(this.authPath);
		if ((source.kind === "config" || source.kind === "auth.json") && source.spec.kind === "env") {
			const where = source.kind === "auth.json" ? auth : tildify(this.modelsPath);
			return `No API key for provider "${p}": set ${source.spec.name} (named in ${where}), or pass --api-key`;
		}
		const envKey = this.providers.get(p)?.envKey;
		return envKey
			? `No API key for provider "${p}": set ${envKey}, add it to ${auth}, or pass --api-key`
			: `No API key for provider "${p}": add it to ${auth}, set "apiKey" for "${p}" in ${tildify(this.modelsPath)}, or pass --api-key`;
	}

	private async pipe(out: EventStream, model: Model, context: Context, options: StreamOptions): Promise<void> {
		const virtual = this.virtual.get(model);
		if (virtual && model.api === VIRTUAL_API) {
			let target: Awaited<ReturnType<VirtualResolver>>;
			try {
				target = await virtual.resolve(model, context, options);
			} catch (error) {
				return forward(out, errorStream(model, `Virtual model ${model.provider}/${model.id} could not route the request: ${error instanceof Error ? error.message : String(error)}`));
			}
			const physical = target.model;
			if (!physical || this.isVirtual(physical)) return forward(out, errorStream(model, `Virtual model ${model.provider}/${model.id} routed to ${physical ? `the virtual model ${physical.provider}/${physical.id}` : "no model"}; route() must return a physical model`));
			const reasoning = target.thinkingLevel === undefined ? options.reasoning : target.thinkingLevel === "off" ? undefined : target.thinkingLevel;
			return this.pipe(out, physical, context, { ...options, reasoning });
		}
		let opts = options;
		if (opts.apiKey === undefined) {
			const missing = this.missingKeyMessage(model);
			const auth = missing ? { ok: false as const, error: missing } : await this.getApiKeyAndHeaders(model);
			if (!auth.ok) return forward(out, errorStream(model, auth.error));
			opts = { ...opts, apiKey: auth.apiKey, headers: { ...auth.headers, ...opts.headers } };
		}
		const inner = streamModel(model, context, opts);
		for await (const event of inner) {
			if (event.type === "error" && (event.error.errorStatus === 401 || event.error.errorStatus === 403)) {
				event.error.errorMessage = this.authFailureMessage(model.provider, event.error);
			}
			out.push(event);
		}
		out.end(await inner.result());
	}

	/** One line for a rejected key: which provider, and where its key came from. */
	private authFailureMessage(provider: string, message: AssistantMessage): string {
		const detail = (message.errorMessage ?? "").replace(/^Authentication failed for provider "[^"]*" \(\d+\): /, "");
		const source = this.keySource(provider);
		const auth = tildify(this.authPath);
		const models = tildify(this.modelsPath);
		const envKey = this.providers.get(provider)?.envKey;
		let hint: string;
		if (source.kind === "runtime") hint = "the key given with --api-key was rejected";
		else if (source.kind === "auth.json") hint = `check the "${provider}" key in ${auth}`;
		else if (source.kind === "config" && source.spec.kind === "env") hint = `check ${source.spec.name}`;
		else if (source.kind === "config") hint = source.from === "extension" ? `check the key the extension registered for "${provider}"` : `check "apiKey" for "${provider}" in ${models}`;
		else if (envKey) hint = `set ${envKey} or add it to ${auth}`;
		else hint = `add a key for "${provider}" to ${auth} or set "apiKey" in ${models}`;
		return `Authentication failed for provider "${provider}" (${message.errorStatus}): ${hint}${detail ? ` (server said: ${detail})` : ""}`;
	}

	private keySource(provider: string): KeySource {
		const runtime = this.runtimeKeys.get(provider);
		if (runtime) return { kind: "runtime", key: runtime };
		const entry = this.input.authJson?.[provider];
		if (entry?.type === "api_key" && entry.key) return { kind: "auth.json", spec: parseKeySpec(entry.key) };
		const state = this.providers.get(provider);
		if (state?.apiKey) return { kind: "config", spec: state.apiKey, from: state.apiKeyFrom ?? "models.json" };
		if (state?.envKey) return this.env[state.envKey] ? { kind: "env", name: state.envKey } : { kind: "none" };
		return { kind: "keyless" };
	}

	/** Merge the sources in order: built-ins, models.json, then extension registrations. */
	private rebuild(): void {
		this.providers = new Map();
		this.models = [];
		// models.json and extensions change models in place, so each rebuild starts from a catalogue copy
		// of its own: builtinProviders() makes one from a literal, and the first rebuild uses create()'s.
		const catalogue = this.freshCatalogue ?? builtinProviders();
		this.freshCatalogue = undefined;
		for (const b of catalogue) {
			this.providers.set(b.name, {
				name: b.name,
				api: b.api,
				baseUrl: b.baseUrl,
				...(b.envKey ? { envKey: b.envKey } : {}),
				headers: {},
				authHeader: false,
				defaultModel: b.defaultModel,
				builtin: true,
				userConfigured: false,
			});
			this.models.push(...b.models);
		}
		for (const [name, config] of Object.entries(this.input.modelsJson?.providers ?? {})) this.apply(name, config, "models.json");
		for (const [name, config] of this.registered) this.apply(name, config, "extension");
		// A virtual model hides a physical one of the same provider and id.
		const virtual = this.virtual.models();
		if (virtual.length > 0) {
			this.models = this.models.filter((m) => !virtual.some((v) => v.provider === m.provider && v.id === m.id));
			this.models.push(...virtual);
		}
		// A provider only virtual models belong to (`jev/auto`) is still a provider `--model` can name.
		for (const v of virtual) {
			if (!this.providers.has(v.provider)) this.providers.set(v.provider, { name: v.provider, api: VIRTUAL_API, headers: {}, authHeader: false, builtin: false, userConfigured: false });
		}
	}

	/** Where `provider`'s model `id` is in the merged list; -1 if absent. */
	private indexOf(provider: string, id: string): number {
		// A loop, not findIndex: this runs at every start, and a builtin's first call costs more than the search.
		for (let i = 0; i < this.models.length; i++) if (this.models[i]!.provider === provider && this.models[i]!.id === id) return i;
		return -1;
	}

	private apply(name: string, config: ProviderConfigJson, from: "models.json" | "extension"): void {
		let state = this.providers.get(name);
		if (!state) {
			state = { name, headers: {}, authHeader: false, builtin: false, userConfigured: true };
			this.providers.set(name, state);
		}
		state.userConfigured = true;
		if (config.api) state.api = config.api;
		if (config.baseUrl) state.baseUrl = config.baseUrl;
		if (config.apiKey !== undefined) {
			state.apiKey = parseKeySpec(config.apiKey);
			state.apiKeyFrom = from;
		}
		if (config.headers) state.headers = { ...state.headers, ...config.headers };
		if (config.authHeader !== undefined) state.authHeader = config.authHeader;
		if (config.compat) state.compat = { ...state.compat, ...config.compat };

		const own = (m: Model) => m.provider === name;
		// models.json adds to (and updates) a provider's models; registerProvider replaces them.
		if (config.models && from === "extension") this.models = this.models.filter((m) => !own(m));
		for (const m of this.models.filter(own)) {
			if (config.baseUrl) m.baseUrl = config.baseUrl;
			if (config.api && !config.models) m.api = config.api;
			if (config.compat) m.compat = { ...m.compat, ...config.compat };
		}
		for (const modelConfig of config.models ?? []) {
			const index = this.indexOf(name, modelConfig.id);
			const model = modelFromConfig(state, modelConfig, index >= 0 ? this.models[index] : undefined);
			if (index >= 0) this.models[index] = model;
			else this.models.push(model);
		}
		for (const [id, override] of Object.entries(config.modelOverrides ?? {})) {
			const index = this.indexOf(name, id);
			if (index >= 0) this.models[index] = modelFromConfig(state, { id, ...override }, this.models[index]);
		}
		// A local server runs what the user pulled: the first model they list is the one to use.
		if (!state.envKey && config.models?.[0]) state.defaultModel = config.models[0].id;
		if (!state.defaultModel || this.indexOf(name, state.defaultModel) < 0) {
			state.defaultModel = this.models.find(own)?.id;
		}
	}
}

const DEFAULT_CONTEXT_WINDOW = 128_000;
const DEFAULT_MAX_TOKENS = 16_384;

/** A model from its config; fields left out come from `base` (the model it updates) or the defaults. */
function modelFromConfig(provider: ProviderState, config: ProviderModelConfig | ({ id: string } & ModelOverride), base?: Model): Model {
	const compat = { ...provider.compat, ...base?.compat, ...config.compat };
	const headers = base?.headers || config.headers ? { ...base?.headers, ...config.headers } : undefined;
	const thinkingLevelMap = config.thinkingLevelMap ?? base?.thinkingLevelMap;
	return {
		id: config.id,
		name: config.name ?? base?.name ?? config.id,
		api: config.api ?? base?.api ?? provider.api ?? "",
		provider: provider.name,
		baseUrl: config.baseUrl ?? base?.baseUrl ?? provider.baseUrl ?? "",
		reasoning: config.reasoning ?? base?.reasoning ?? false,
		input: config.input ?? base?.input ?? ["text"],
		cost: config.cost
			? { input: config.cost.input, output: config.cost.output, cacheRead: config.cost.cacheRead ?? 0, cacheWrite: config.cost.cacheWrite ?? 0 }
			: (base?.cost ?? { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 }),
		contextWindow: config.contextWindow ?? base?.contextWindow ?? DEFAULT_CONTEXT_WINDOW,
		maxTokens: config.maxTokens ?? base?.maxTokens ?? DEFAULT_MAX_TOKENS,
		...(headers ? { headers } : {}),
		...(Object.keys(compat).length > 0 ? { compat } : {}),
		...(thinkingLevelMap ? { thinkingLevelMap: thinkingLevelMap as Model["thinkingLevelMap"] } : {}),
	};
}

/** Problems the schema cannot see: a new model must know its api and baseUrl. */
function modelProblems(name: string, config: ProviderConfigJson, builtin: BuiltinProvider | undefined): ConfigProblem | undefined {
	const models = config.models ?? [];
	for (let i = 0; i < models.length; i++) {
		const m = models[i]!;
		const known = builtin?.models.some((b) => b.id === m.id);
		if (!m.api && !config.api && !builtin && !known) {
			return { pointer: `/providers/${name}/models/${i}`, message: `model "${m.id}" of provider "${name}" has no "api": set "api" on the provider or the model ("openai-completions" or "anthropic-messages")` };
		}
		if (!m.baseUrl && !config.baseUrl && !builtin && !known) {
			return { pointer: `/providers/${name}/models/${i}`, message: `model "${m.id}" of provider "${name}" has no "baseUrl": set "baseUrl" on the provider or the model (e.g. "http://localhost:8080/v1")` };
		}
	}
	return undefined;
}

function checkModelsJson(value: ModelsJson, builtins: BuiltinProvider[]): ConfigProblem | undefined {
	for (const [name, config] of Object.entries(value.providers ?? {})) {
		// The name as a JSON pointer segment (RFC 6901); most names need no escape.
		const segment = name.includes("~") || name.includes("/") ? name.replace(/~/g, "~0").replace(/\//g, "~1") : name;
		let builtin: BuiltinProvider | undefined;
		for (const b of builtins) {
			if (b.name !== name) continue;
			builtin = b;
			break;
		}
		const problem = modelProblems(segment, config, builtin);
		if (problem) return problem;
	}
	return undefined;
}

/** Why `registerProvider(name, config)` would fail, as a message naming the call; undefined when it is fine. */
export function checkProviderConfig(name: string, config: ProviderConfig, builtins: BuiltinProvider[] = builtinProviders()): string | undefined {
	if (typeof name !== "string" || name === "") return "registerProvider(name, config): the provider needs a non-empty name";
	if (!config || typeof config !== "object" || Array.isArray(config)) return `registerProvider("${name}"): the config must be an object`;
	const { streamSimple, oauth: _oauth, ...data } = config;
	if (streamSimple !== undefined && typeof streamSimple !== "function") return `registerProvider("${name}"): "streamSimple" must be a function`;
	const problem = validateProviderConfig(name, data, builtins.find((b) => b.name === name));
	return problem ? `registerProvider("${name}"): ${problem}` : undefined;
}

function validateProviderConfig(name: string, config: ProviderConfigJson, builtin: BuiltinProvider | undefined): string | undefined {
	if (!checkValue("ProviderConfigJson", config)) {
		const first = typeboxValue().Errors(configSchema("ProviderConfigJson"), config)[0];
		return `${pointerToPath(first?.instancePath ?? "") || "config"} ${first?.message ?? "is not valid"}`;
	}
	return modelProblems(name, config, builtin)?.message;
}

async function forward(out: EventStream, from: AssistantMessageEventStream): Promise<void> {
	for await (const event of from) out.push(event);
	out.end(await from.result());
}
