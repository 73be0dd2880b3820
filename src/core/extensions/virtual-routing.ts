// Routing a virtual model's requests (pi 1.6): build the route request from the session — the
// selected level, why the request is made, the model that answered last, the router's state on
// this branch — ask the extension's route(), keep the state it returns, check the model it chose.
import type { AgentSession } from "../agent-session.ts";
import type { ModelRegistry } from "../providers/registry.ts";
import { clampThinkingLevel } from "../providers/thinking.ts";
import { normalizeContext } from "../providers/transcript.ts";
import type { AssistantMessage, Context, Model, StreamOptions, ThinkingLevel } from "../providers/types.ts";
import { VIRTUAL_MODEL_STATE_ENTRY, type ModelRoute, type ModelRouteRequest, type VirtualModelDefinition, type VirtualResolver } from "../providers/virtual-models.ts";
import type { ExtensionContext, VirtualModelConfig } from "./types.ts";

interface StateData {
	provider: string;
	modelId: string;
	state: unknown;
}

/** The router's last state for `provider/id` on the session's current branch. */
function branchState(session: AgentSession, provider: string, id: string): unknown {
	const branch = session.session.getBranch();
	for (let i = branch.length - 1; i >= 0; i--) {
		const e = branch[i] as { type: string; customType?: string; data?: StateData };
		if (e.type === "custom" && e.customType === VIRTUAL_MODEL_STATE_ENTRY && e.data?.provider === provider && e.data.modelId === id) return e.data.state;
	}
	return undefined;
}

/** The physical model of the latest successful answer in the request. */
function previousAnswer(registry: ModelRegistry, context: Context): ModelRouteRequest["previous"] {
	for (let i = context.messages.length - 1; i >= 0; i--) {
		const m = context.messages[i]!;
		if (m.role !== "assistant") continue;
		const a = m as AssistantMessage;
		if (a.stopReason !== "stop" && a.stopReason !== "toolUse" && a.stopReason !== "length") continue;
		const model = registry.find(a.provider, a.model);
		return model ? { model } : undefined;
	}
	return undefined;
}

/** pi 1.6's definition from an extension's config (the older `target` shape becomes a route). */
export function virtualDefinition(config: VirtualModelConfig, registry: ModelRegistry, extensionPath: string): VirtualModelDefinition {
	if (typeof config.route === "function") return config as VirtualModelDefinition;
	const target = config.target;
	return {
		...config,
		route: (request) => {
			const name = typeof target === "function" ? target(contextOf(request.messages)) : String(target);
			const slash = name.indexOf("/");
			const model = slash > 0 ? registry.find(name.slice(0, slash), name.slice(slash + 1)) : undefined;
			if (!model) throw new Error(`target "${name}" (from ${extensionPath}) is not a known provider/model`);
			return { model };
		},
	};
}

function contextOf(messages: unknown[]): Context {
	return { messages: (messages as Context["messages"]).filter((m) => (m as { role: string }).role !== "system") };
}

export function createVirtualResolver(
	definition: VirtualModelDefinition,
	deps: { session: AgentSession; registry: ModelRegistry; context: () => ExtensionContext },
): VirtualResolver {
	return async (model: Model, context: Context, options: StreamOptions) => {
		const { session, registry } = deps;
		const reason = options.requestReason ?? "direct";
		const state = reason === "direct" ? undefined : branchState(session, definition.provider, definition.id);
		const request: ModelRouteRequest = {
			model,
			thinkingLevel: (options.reasoning ?? "off") as ThinkingLevel,
			reason,
			...(previousAnswer(registry, context) ? { previous: previousAnswer(registry, context) } : {}),
			...(state !== undefined ? { state } : {}),
			messages: normalizeContext(context).messages,
			...(options.signal ? { signal: options.signal } : {}),
		};
		const route = (await definition.route(request, deps.context())) as ModelRoute | undefined;
		if (!route || typeof route !== "object" || !route.model) throw new Error("route() must return { model, thinkingLevel }");
		// The catalogue's own model (a router may return a copy it changed).
		const physical = registry.find(route.model.provider, route.model.id) ?? route.model;
		if (registry.isVirtual(physical)) throw new Error(`it chose the virtual model ${physical.provider}/${physical.id}; route() must return a physical model`);
		if (!registry.hasConfiguredAuth(physical)) throw new Error(`it chose ${physical.provider}/${physical.id}, which has no API key configured`);
		// State is kept before the request goes out (and stays if it fails); direct requests keep none.
		if (reason !== "direct" && route.state !== undefined && route.state !== state) {
			const data: StateData = { provider: definition.provider, modelId: definition.id, state: route.state };
			session.session.appendCustomEntry(VIRTUAL_MODEL_STATE_ENTRY, data);
		}
		const level = route.thinkingLevel ?? request.thinkingLevel;
		return { model: physical, thinkingLevel: clampThinkingLevel(physical, level) };
	};
}
