// The schemas of models.json (pi's format), auth.json and registerProvider's config, written with
// TypeBox. Never imported at run time: provider-config.ts takes build-time snapshots of them
// (../schema-snapshot.ts), so reading the config files does not evaluate typebox.
import { Type } from "typebox";

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

/** Changes to a model that already exists (built-in or defined earlier), by id. */
export const ModelOverride = Type.Object(modelFields);

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

export const ModelsJson = Type.Object({ providers: Type.Optional(Type.Record(Type.String(), ProviderConfigJson)) });

/** auth.json: one credential per provider. Only `api_key` entries are used; others are kept as they are. */
export const AuthEntry = Type.Object({ type: Type.String({ minLength: 1 }), key: Type.Optional(Type.String()) });
export const AuthJson = Type.Record(Type.String(), AuthEntry);
