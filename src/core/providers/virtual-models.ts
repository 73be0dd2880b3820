// Virtual models (pi 1.6's registerVirtualModel): a selectable catalogue entry that picks a physical
// model for every request. The registry lists them and routes each request through `resolve`,
// which the extension host supplies (it builds the route request from the session and keeps the
// router's state on the session branch).
import type { AssistantMessage, Context, Model, StreamOptions, ThinkingLevel } from "./types.ts";

/** Why a request is made, as routers see it. */
export type ModelRouteReason = "user" | "continuation" | "retry" | "direct";

/** The custom entry type a router's state is kept under on the session branch (pi 1.6's). */
export const VIRTUAL_MODEL_STATE_ENTRY = "pi.virtual-model-state";

/** The api id virtual models carry: no wire protocol serves it, the registry routes it. */
export const VIRTUAL_API = "virtual";

/** pi 1.6's ExtensionVirtualModel, as an extension registers it. */
export interface VirtualModelDefinition<TState = unknown> {
	/** Any provider id, one with physical models included. */
	provider: string;
	/** Must not be a physical model's id of that provider. */
	id: string;
	name?: string;
	/** Levels offered for selection. Default ["off"]. */
	thinkingLevels?: ThinkingLevel[];
	contextWindow?: number;
	maxTokens?: number;
	/** Default text and images. */
	input?: ("text" | "image")[];
	route(request: ModelRouteRequest<TState>, ctx: unknown): ModelRoute<TState> | Promise<ModelRoute<TState>>;
}

export interface ModelRouteRequest<TState = unknown> {
	/** The selected virtual model and level. */
	model: Model;
	thinkingLevel: ThinkingLevel;
	reason: ModelRouteReason;
	/** Physical model (and level) of the latest successful response in `messages`. */
	previous?: { model: Model; thinkingLevel?: ThinkingLevel };
	/** For a retry: the failed request's physical model and its message. */
	failed?: { model: Model; thinkingLevel?: ThinkingLevel; message: AssistantMessage };
	/** What `route` last returned as state on this session branch (absent for direct requests). */
	state?: TState;
	/** The request's conversation, system messages included. */
	messages: unknown[];
	signal?: AbortSignal;
}

export interface ModelRoute<TState = unknown> {
	model: Model;
	thinkingLevel?: ThinkingLevel;
	/** JSON-serializable; kept on the session branch. Undefined (or the request's own state) keeps it. */
	state?: TState;
}

/** What the registry asks of the host for one request: the physical model and level to send it to. */
export type VirtualResolver = (model: Model, context: Context, options: StreamOptions) => Promise<{ model: Model; thinkingLevel?: ThinkingLevel }>;

interface Registration {
	definition: VirtualModelDefinition;
	resolve: VirtualResolver;
	owner: string;
}

/** The virtual models registered now, by `provider/id`. */
export class VirtualModels {
	private readonly byKey = new Map<string, Registration>();

	register(definition: VirtualModelDefinition, resolve: VirtualResolver, owner: string): void {
		if (!definition || typeof definition.provider !== "string" || !definition.provider || typeof definition.id !== "string" || !definition.id) {
			throw new Error("registerVirtualModel: a virtual model needs a provider and an id");
		}
		if (typeof definition.route !== "function") throw new Error(`registerVirtualModel("${definition.provider}/${definition.id}"): route must be a function`);
		this.byKey.set(`${definition.provider}/${definition.id}`, { definition, resolve, owner });
	}

	unregister(provider: string, id: string): boolean {
		return this.byKey.delete(`${provider}/${id}`);
	}

	/** Drop everything `owner` registered (a reload). */
	unregisterOwner(owner: string): void {
		for (const [key, r] of this.byKey) if (r.owner === owner) this.byKey.delete(key);
	}

	get(model: Pick<Model, "provider" | "id">): Registration | undefined {
		return this.byKey.get(`${model.provider}/${model.id}`);
	}

	/** Catalogue entries: the virtual models as models. */
	models(): Model[] {
		return [...this.byKey.values()].map(({ definition: d }) => {
			const levels = d.thinkingLevels ?? ["off"];
			return {
				id: d.id,
				name: d.name ?? d.id,
				api: VIRTUAL_API,
				provider: d.provider,
				baseUrl: "",
				reasoning: levels.some((l) => l !== "off"),
				input: d.input ?? ["text", "image"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: d.contextWindow ?? 0,
				maxTokens: d.maxTokens ?? 0,
				// Every offered level maps to itself, so the session keeps the level the user picked.
				thinkingLevelMap: Object.fromEntries(levels.map((l) => [l, l])),
			} satisfies Model;
		});
	}
}
