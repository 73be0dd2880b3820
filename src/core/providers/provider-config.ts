// The shapes users and extensions configure providers with: models.json (pi's format), auth.json,
// and registerProvider's ProviderConfig (reference §4.5). Schema and type share a name; the schemas
// are build-time snapshots of provider-config-schemas.ts, so reading them costs no typebox.
import type { Static } from "typebox";
import { schemaSnapshot } from "../schema-snapshot.ts" with { type: "macro" };
import { thawSchema } from "../schema-snapshot.ts";
import type * as Schemas from "./provider-config-schemas.ts";
import type { StreamFunction } from "./types.ts";

/** One model of a provider. Only `id` is required; the rest default as in `modelFromConfig`. */
export const ProviderModelConfig = thawSchema<typeof Schemas.ProviderModelConfig>(schemaSnapshot("providers/provider-config-schemas.ts", "ProviderModelConfig"));
export type ProviderModelConfig = Static<typeof ProviderModelConfig>;

/** Changes to a model that already exists (built-in or defined earlier), by id. */
export const ModelOverride = thawSchema<typeof Schemas.ModelOverride>(schemaSnapshot("providers/provider-config-schemas.ts", "ModelOverride"));
export type ModelOverride = Static<typeof ModelOverride>;

/** A provider entry in models.json. */
export const ProviderConfigJson = thawSchema<typeof Schemas.ProviderConfigJson>(schemaSnapshot("providers/provider-config-schemas.ts", "ProviderConfigJson"));
export type ProviderConfigJson = Static<typeof ProviderConfigJson>;

export const ModelsJson = thawSchema<typeof Schemas.ModelsJson>(schemaSnapshot("providers/provider-config-schemas.ts", "ModelsJson"));
export type ModelsJson = Static<typeof ModelsJson>;

export const MODELS_JSON_EXAMPLE =
	'{ "providers": { "local": { "baseUrl": "http://localhost:8080/v1", "api": "openai-completions", "apiKey": "MY_KEY_ENV", "models": [{ "id": "my-model" }] } } }';

/** auth.json: one credential per provider. Only `api_key` entries are used; others are kept as they are. */
export const AuthEntry = thawSchema<typeof Schemas.AuthEntry>(schemaSnapshot("providers/provider-config-schemas.ts", "AuthEntry"));
export const AuthJson = thawSchema<typeof Schemas.AuthJson>(schemaSnapshot("providers/provider-config-schemas.ts", "AuthJson"));
export type AuthJson = Static<typeof AuthJson>;

export const AUTH_JSON_EXAMPLE = '{ "anthropic": { "type": "api_key", "key": "sk-ant-..." } }';

/**
 * What `registerProvider(name, config)` takes: a models.json entry plus a stream function for a
 * custom `api` id. `models` replaces the provider's models; `baseUrl` alone re-points them.
 */
export interface ProviderConfig extends ProviderConfigJson {
	streamSimple?: StreamFunction;
	/** Accepted for pi compatibility; logging in with OAuth is not supported. */
	oauth?: unknown;
}
