// Dispatch by `model.api` to a wire protocol: the two built in (each imported on first use, with its
// SDK) or one an extension registered with `streamSimple`. `complete` waits for the final message.
import { BUILTIN_ENV_KEYS } from "./catalogue.ts";
import { EventStream } from "./event-stream.ts";
import type { AssistantMessage, AssistantMessageEventStream, Context, Model, StreamFunction, StreamOptions } from "./types.ts";
import { fail, newAssistantMessage, ProtocolError } from "./wire.ts";

type Runner = (stream: EventStream, model: Model, context: Context, options: StreamOptions | undefined) => Promise<void>;

const BUILTIN_APIS = ["openai-completions", "anthropic-messages"] as const;

/** Each built-in protocol once imported: a request then starts without an import() of its own. */
const loaded = new Map<string, Runner>();

async function loadBuiltin(api: string): Promise<Runner | undefined> {
	let run = loaded.get(api);
	if (run) return run;
	if (api === "openai-completions") run = (await import("./openai-completions.ts")).runOpenAICompletions;
	else if (api === "anthropic-messages") run = (await import("./anthropic-messages.ts")).runAnthropicMessages;
	if (run) loaded.set(api, run);
	return run;
}

const custom = new Map<string, { fn: StreamFunction; owner: string }>();
/** Streams that serve every model of one provider, whatever its api (pi 1.6's registerProvider(provider)). */
const byProvider = new Map<string, { fn: StreamFunction; owner: string }>();

/** Serve `api` with `fn` (a provider's `streamSimple`); `owner` lets it be removed again. */
export function registerApiStream(api: string, fn: StreamFunction, owner: string): void {
	custom.set(api, { fn, owner });
}

/** Serve every model of `provider` with `fn`. */
export function registerProviderStream(provider: string, fn: StreamFunction, owner: string): void {
	byProvider.set(provider, { fn, owner });
}

export function unregisterApiStreams(owner: string): void {
	for (const [api, entry] of custom) if (entry.owner === owner) custom.delete(api);
	for (const [provider, entry] of byProvider) if (entry.owner === owner) byProvider.delete(provider);
}

export function hasProviderStream(provider: string): boolean {
	return byProvider.has(provider);
}

export function hasApiStream(api: string): boolean {
	return custom.has(api) || (BUILTIN_APIS as readonly string[]).includes(api);
}

/**
 * Stream one response from `model`. Never throws: failures arrive as a final `error` event. Without
 * `options.apiKey`, a built-in provider's env var is used (ModelRegistry.stream knows every source).
 */
export function stream(model: Model, context: Context, options?: StreamOptions): AssistantMessageEventStream {
	return dispatch(model, context, options, true);
}

/**
 * Stream by `model.api` alone, past a provider's own stream: what a provider object's stream calls
 * (pi-ai's `openAICompletionsApi().streamSimple`) to speak a wire protocol without calling itself.
 */
export function streamApi(model: Model, context: Context, options?: StreamOptions): AssistantMessageEventStream {
	return dispatch(model, context, options, false);
}

function dispatch(model: Model, context: Context, options: StreamOptions | undefined, byProviderFirst: boolean): AssistantMessageEventStream {
	const envKey = BUILTIN_ENV_KEYS[model.provider];
	if (options?.apiKey === undefined && envKey && process.env[envKey]) options = { ...options, apiKey: process.env[envKey] };
	const own = (byProviderFirst ? byProvider.get(model.provider) : undefined) ?? custom.get(model.api);
	if (own) {
		try {
			return own.fn(model, context, options);
		} catch (error) {
			return errorStream(model, error);
		}
	}
	const out = new EventStream();
	const ready = loaded.get(model.api);
	if (ready) {
		void ready(out, model, context, options);
		return out;
	}
	void loadBuiltin(model.api).then(
		(run) => {
			if (run) return run(out, model, context, options);
			const known = [...BUILTIN_APIS, ...custom.keys()].map((a) => `"${a}"`).join(", ");
			failWith(out, model, `No wire protocol for api "${model.api}" (model ${model.provider}/${model.id}); known: ${known}.`);
		},
		(error: unknown) => failWith(out, model, error),
	);
	return out;
}

/**
 * Open the connection (DNS, TCP, TLS) the next request to `model` will use, in the background (Bun's
 * fetch.preconnect), when a built-in protocol sends it: a run about to prompt saves the handshake,
 * which then overlaps the rest of its start. Not through a proxy (fetch would connect to the proxy).
 * `open` is fetch.preconnect (a test passes its own).
 */
export function preconnect(model: Model, env: Record<string, string | undefined> = process.env, open: (url: string) => void = fetch.preconnect): void {
	if (model.api !== "openai-completions" && model.api !== "anthropic-messages") return;
	if (byProvider.has(model.provider) || custom.has(model.api)) return;
	const url = model.baseUrl;
	if (!url.startsWith("https://") && !url.startsWith("http://")) return;
	if (env.HTTPS_PROXY || env.https_proxy || env.HTTP_PROXY || env.http_proxy) return;
	try {
		open(url);
	} catch {
		// A URL fetch cannot use: the request itself says what is wrong with it.
	}
}

/** The final message of one request (pi-ai's `complete`). */
export function complete(model: Model, context: Context, options?: StreamOptions): Promise<AssistantMessage> {
	return stream(model, context, options).result();
}

/** A stream that starts and fails at once with `error` as its message. */
export function errorStream(model: Model, error: unknown): EventStream {
	const out = new EventStream();
	failWith(out, model, error);
	return out;
}

function failWith(out: EventStream, model: Model, error: unknown): void {
	const message = newAssistantMessage(model);
	out.push({ type: "start", partial: message });
	fail(out, message, model, new ProtocolError(error instanceof Error ? error.message : String(error)));
}
