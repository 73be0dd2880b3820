// From command-line words to a model: `--model provider/id[:thinking]`, `--provider`, a bare or
// partial id, `--api-key`, or the first provider with a key; and what to say when there is none.
import { UserError } from "../errors.ts";
import { APP_NAME, tildify } from "../../config.ts";
import { BUILTIN_ENV_KEYS, DEFAULT_PROVIDER_ORDER } from "./catalogue.ts";
import { normalizeForMatch } from "./model-list.ts";
import type { ModelRegistry } from "./registry.ts";
import { clampThinkingLevel } from "./thinking.ts";
import { THINKING_LEVELS, type Model, type ThinkingLevel } from "./types.ts";

export interface ModelSelection {
	/** `--provider` */
	provider?: string;
	/** `--model` pattern */
	model?: string;
	/** `--thinking`; wins over a `:thinking` suffix on the pattern. */
	thinking?: ThinkingLevel;
	/** `--api-key`, for the selected model's provider. */
	apiKey?: string;
	/** A `provider/id` default (e.g. from settings), used when no flag names a model and it has a key. */
	defaultModel?: string;
	/** The default's provider (settings `defaultProvider`): alone, that provider's default model. */
	defaultProvider?: string;
	/** Where the default came from, for the warning when it cannot be used (`"defaultModel" in <file>`). */
	defaultSource?: string;
}

export interface ResolvedModel {
	model: Model;
	/** From `--thinking` or the pattern's suffix, clamped to what the model supports. */
	thinkingLevel?: ThinkingLevel;
	/** Something the user should hear about the choice (an id not in the catalogue). */
	warning?: string;
}

type Registry = Pick<ModelRegistry, "getAll" | "getProviders" | "hasConfiguredAuth" | "find" | "setRuntimeApiKey" | "missingKeyMessage" | "modelWithDefaults" | "modelsPath" | "authPath">;

/** The first line of noModelMessage(), which is also NoModelConfiguredError's message. */
export const NO_MODEL_CONFIGURED = "No model is configured. Set one up in any of these ways:";

/** No provider has a key and no model was named: the message explains every way to set one up. */
export class NoModelConfiguredError extends UserError {
	constructor(paths: { modelsPath: string; authPath: string }) {
		const [first, ...rest] = noModelMessage(paths).split("\n");
		super(first!, rest);
		this.name = "NoModelConfiguredError";
	}
}

/** The multi-line help for a user with no model configured. */
export function noModelMessage(paths: { modelsPath: string; authPath: string }): string {
	// The key table the catalogue's providers take theirs from: not the catalogue itself, whose models
	// are built on each call (twice before a first-time user's first frame).
	const envKeys = Object.values(BUILTIN_ENV_KEYS);
	const keys = `${envKeys.slice(0, -1).join(", ")} or ${envKeys[envKeys.length - 1]}`;
	return [
		NO_MODEL_CONFIGURED,
		`  - an API key in the environment: ${keys}`,
		`  - a key in ${tildify(paths.authPath)}: { "anthropic": { "type": "api_key", "key": "sk-ant-..." } }`,
		`  - a provider in ${tildify(paths.modelsPath)}, such as a local server (Ollama, llama.cpp, vLLM, LM Studio):`,
		'      { "providers": { "local": { "baseUrl": "http://localhost:8080/v1", "api": "openai-completions", "models": [{ "id": "my-model" }] } } }',
		`  - on the command line: ${APP_NAME} --model anthropic/claude-sonnet-5-5 --api-key sk-ant-...`,
		`    or, with Ollama running: ${APP_NAME} --model ollama/<model>`,
		`Then "${APP_NAME} --list-models" shows the models you can use.`,
	].join("\n");
}

/** Split a `:thinking` suffix off a pattern; ids such as `qwen3-coder:30b` keep their colon. */
export function splitThinkingSuffix(pattern: string): { text: string; thinking?: ThinkingLevel } {
	const colon = pattern.lastIndexOf(":");
	const suffix = pattern.slice(colon + 1) as ThinkingLevel;
	if (colon > 0 && THINKING_LEVELS.includes(suffix)) return { text: pattern.slice(0, colon), thinking: suffix };
	return { text: pattern };
}

export function resolveModel(registry: Registry, pattern: string, options: { provider?: string } = {}): ResolvedModel {
	const providers = registry.getProviders();
	const names = new Set(providers.map((p) => p.name));
	if (options.provider && !names.has(options.provider)) throw unknownProvider(options.provider, names, registry);
	const { text, thinking } = splitThinkingSuffix(pattern.trim());
	if (!text) throw new UserError(`--model needs a model id, e.g. --model anthropic/claude-sonnet-5-5`);

	// Readings of the pattern as (provider, id), most specific first. `anthropic/claude-sonnet-5.5`
	// may be Anthropic's model or OpenRouter's id with a slash; exact matches decide.
	const readings: { provider?: string; id: string }[] = [];
	if (options.provider) {
		readings.push({ provider: options.provider, id: text });
		if (text.startsWith(`${options.provider}/`)) readings.push({ provider: options.provider, id: text.slice(options.provider.length + 1) });
	} else {
		const slash = text.indexOf("/");
		if (slash > 0 && names.has(text.slice(0, slash))) readings.push({ provider: text.slice(0, slash), id: text.slice(slash + 1) });
		readings.push({ id: text });
	}
	const all = registry.getAll();
	const within = (r: { provider?: string }) => all.filter((m) => !r.provider || m.provider === r.provider);
	const finish = (model: Model, warning?: string): ResolvedModel => ({
		model,
		...(thinking ? { thinkingLevel: clampThinkingLevel(model, thinking) } : {}),
		...(warning ? { warning } : {}),
	});

	for (const r of readings) {
		const exact = within(r).filter((m) => m.id === r.id);
		const loose = exact.length > 0 ? exact : within(r).filter((m) => m.id.toLowerCase() === r.id.toLowerCase());
		if (loose.length > 0) return finish(best(loose, r.id, registry));
	}
	for (const r of readings) {
		const q = normalizeForMatch(r.id);
		const hits = q ? within(r).filter((m) => normalizeForMatch(m.id).includes(q) || normalizeForMatch(m.name).includes(q)) : [];
		if (hits.length > 0) return finish(best(hits, r.id, registry));
	}
	// A named provider serves ids we have never heard of (OpenRouter, a local server): use it with defaults.
	const named = readings.find((r) => r.provider);
	if (named?.provider) {
		const model = registry.modelWithDefaults(named.provider, named.id);
		if (model) {
			const warning = `Model "${named.id}" is not in the model list of "${named.provider}"; using it with default limits (context ${model.contextWindow}, max output ${model.maxTokens}). Add it to ${tildify(registry.modelsPath)} to set them.`;
			return finish(model, warning);
		}
	}
	throw new UserError(`No model matches "${pattern}".`, [`Run "${APP_NAME} --list-models" to see the models you can use, or name the provider: --model <provider>/<id>.`]);
}

/** Prefer models with a key, then an exact or prefix match, then provider order, then the shorter id. */
function best(models: Model[], query: string, registry: Registry): Model {
	// The usual case (`--model provider/id`): one match, nothing to rank.
	if (models.length === 1) return models[0]!;
	const q = normalizeForMatch(query);
	const order = (p: string) => {
		const i = (DEFAULT_PROVIDER_ORDER as readonly string[]).indexOf(p);
		return i < 0 ? DEFAULT_PROVIDER_ORDER.length : i;
	};
	const rank = (m: Model) => [
		registry.hasConfiguredAuth(m) ? 0 : 1,
		normalizeForMatch(m.id) === q ? 0 : 1,
		normalizeForMatch(m.id).startsWith(q) ? 0 : 1,
		order(m.provider),
		m.id.length,
	];
	return [...models].sort((a, b) => {
		const ra = rank(a);
		const rb = rank(b);
		for (let i = 0; i < ra.length; i++) if (ra[i] !== rb[i]) return ra[i]! - rb[i]!;
		return 0;
	})[0]!;
}

export function selectModel(registry: Registry, selection: ModelSelection): ResolvedModel {
	const resolved = selectModelIfAny(registry, selection);
	if (!resolved) throw new NoModelConfiguredError(registry);
	return resolved;
}

/**
 * selectModel, but undefined where it would throw NoModelConfiguredError (no model named, no provider
 * with a key): a start that may go on without a model (the TUI) builds no error it does not show.
 */
export function selectModelIfAny(registry: Registry, selection: ModelSelection): ResolvedModel | undefined {
	let resolved: ResolvedModel | undefined;
	if (selection.model) {
		resolved = resolveModel(registry, selection.model, { provider: selection.provider });
	} else if (selection.provider) {
		resolved = providerDefault(registry, selection.provider);
	} else {
		if (selection.apiKey) throw new UserError("--api-key needs --provider or --model to say which provider the key is for.");
		resolved = defaultModel(registry, selection);
		if (!resolved) return undefined;
	}
	if (selection.apiKey) registry.setRuntimeApiKey(resolved.model.provider, selection.apiKey);
	const missing = registry.missingKeyMessage(resolved.model);
	if (missing) throw new UserError(missing);
	const level = selection.thinking ?? resolved.thinkingLevel;
	if (level) resolved.thinkingLevel = clampThinkingLevel(resolved.model, level);
	return resolved;
}

/** The configured default if it has a key, else the first provider with a key, in a fixed order; undefined when none has one. */
function defaultModel(registry: Registry, selection: ModelSelection): ResolvedModel | undefined {
	const { defaultModel: configured, defaultProvider } = selection;
	let warning: string | undefined;
	if (configured || defaultProvider) {
		const named = configured ? `"${configured}"` : `provider "${defaultProvider}"`;
		try {
			const resolved = configured ? resolveModel(registry, configured, { provider: defaultProvider }) : providerDefault(registry, defaultProvider!);
			if (registry.hasConfiguredAuth(resolved.model)) return resolved;
			warning = `${named} has no API key`;
		} catch (error) {
			warning = error instanceof Error ? error.message.replace(/\.$/, "") : String(error);
		}
		warning = `${selection.defaultSource ?? "The default model"}: ${warning}; using the first provider with a key instead.`;
	}
	const fallback = firstWithKey(registry);
	return warning && fallback ? { ...fallback, warning } : fallback;
}

/** A provider's default model (`--provider`, settings `defaultProvider`). */
function providerDefault(registry: Registry, name: string): ResolvedModel {
	const providers = registry.getProviders();
	const info = providers.find((p) => p.name === name);
	if (!info) throw unknownProvider(name, new Set(providers.map((p) => p.name)), registry);
	const model = info.defaultModel ? registry.find(info.name, info.defaultModel) : undefined;
	if (!model) {
		throw new UserError(`Provider "${name}" has no models.`, [`Add some under "providers.${name}.models" in ${tildify(registry.modelsPath)}, or pass --model ${name}/<id>.`]);
	}
	return { model };
}

function firstWithKey(registry: Registry): ResolvedModel | undefined {
	const providers = registry.getProviders();
	const order = [...DEFAULT_PROVIDER_ORDER, ...providers.filter((p) => !(DEFAULT_PROVIDER_ORDER as readonly string[]).includes(p.name)).map((p) => p.name)];
	for (const name of order) {
		const info = providers.find((p) => p.name === name);
		// A keyless local server is used only when the user configured it; we never guess one is running.
		if (!info?.defaultModel || (info.keyless && !info.userConfigured)) continue;
		const model = registry.find(name, info.defaultModel);
		if (model && registry.hasConfiguredAuth(model)) return { model };
	}
	return undefined;
}

function unknownProvider(name: string, names: Set<string>, registry: Registry): UserError {
	return new UserError(`Unknown provider "${name}". Known providers: ${[...names].join(", ")}.`, [
		`Add a provider under "providers" in ${tildify(registry.modelsPath)}.`,
	]);
}
