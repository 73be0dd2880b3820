// The shapes users and extensions configure providers with: models.json (pi's format), auth.json,
// and registerProvider's ProviderConfig (reference §4.5). Schema and type share a name. The binary
// holds this module frozen (scripts/frozen-module.ts), so reading models.json evaluates no typebox:
// keep it data only.
import { type Static, Type } from "typebox";
import type { StreamFunction } from "./types.ts";

const Cost = Type.Object({
	input: Type.Number({ minimum: 0 }),
	output: Type.Number({ minimum: 0 }),
	cacheRead: Type.Optional(Type.Number({ minimum: 0 })),
	cacheWrite: Type.Optional(Type.Number({ minimum: 0 })),
});

const ThinkingLevelMap = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]));

const modelFields = {
	name: Type.Optional(Type.String()),
	api: Type.Optional(Type.String({ minLength: 1 })),
	baseUrl: Type.Optional(Type.String({ minLength: 1 })),
	reasoning: Type.Optional(Type.Boolean()),
	thinkingLevelMap: Type.Optional(ThinkingLevelMap),
	input: Type.Optional(Type.Array(Type.Union([Type.Literal("text"), Type.Literal("image")]))),
	cost: Type.Optional(Cost),
	contextWindow: Type.Optional(Type.Integer({ minimum: 1 })),
	maxTokens: Type.Optional(Type.Integer({ minimum: 1 })),
	headers: Type.Optional(Type.Record(Type.String(), Type.String())),
	compat: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
};

/** One model of a provider. Only `id` is required; the rest default as in `modelFromConfig`. */
export const ProviderModelConfig = Type.Object({ id: Type.String({ minLength: 1 }), ...modelFields });
export type ProviderModelConfig = Static<typeof ProviderModelConfig>;

/** Changes to a model that already exists (built-in or defined earlier), by id. */
export const ModelOverride = Type.Object(modelFields);
export type ModelOverride = Static<typeof ModelOverride>;

/** A provider entry in models.json. */
export const ProviderConfigJson = Type.Object({
	name: Type.Optional(Type.String()),
	baseUrl: Type.Optional(Type.String({ minLength: 1 })),
	api: Type.Optional(Type.String({ minLength: 1 })),
	/** A literal key, an env var name (`MY_KEY` or `$MY_KEY`), or `!command` whose output is the key. */
	apiKey: Type.Optional(Type.String()),
	headers: Type.Optional(Type.Record(Type.String(), Type.String())),
	/** Send `Authorization: Bearer <apiKey>` as a header. */
	authHeader: Type.Optional(Type.Boolean()),
	models: Type.Optional(Type.Array(ProviderModelConfig)),
	modelOverrides: Type.Optional(Type.Record(Type.String(), ModelOverride)),
	compat: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});
export type ProviderConfigJson = Static<typeof ProviderConfigJson>;

export const ModelsJson = Type.Object({ providers: Type.Optional(Type.Record(Type.String(), ProviderConfigJson)) });
export type ModelsJson = Static<typeof ModelsJson>;

/** auth.json: one credential per provider. Only `api_key` entries are used; others are kept as they are. */
export const AuthEntry = Type.Object({ type: Type.String({ minLength: 1 }), key: Type.Optional(Type.String()) });
export const AuthJson = Type.Record(Type.String(), AuthEntry);
export type AuthJson = Static<typeof AuthJson>;

/**
 * What `registerProvider(name, config)` takes: a models.json entry plus a stream function for a
 * custom `api` id. `models` replaces the provider's models; `baseUrl` alone re-points them.
 */
export interface ProviderConfig extends ProviderConfigJson {
	streamSimple?: StreamFunction;
	/** Accepted for pi compatibility; logging in with OAuth is not supported. */
	oauth?: unknown;
}
