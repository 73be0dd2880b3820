// The `pi` object and the one runtime all extensions share. Registration records into the
// extension; actions go through the runtime, whose slots throw until the session binds it.
// Each load is atomic: shared-state changes wait in a pending record until the factory returns.
import { execCommand } from "../exec.ts";
import { checkRegistration, McpServerRegistry, type RegisteredMcpServer } from "../mcp/registry.ts";
import type { EventBusController } from "./event-bus.ts";
import { EXTENSION_EVENT_NAMES } from "./event-types.ts";
import { checkProviderConfig } from "../providers/registry.ts";
import { isNativeProvider, nativeProviderProblem, type NativeProvider } from "../providers/native-provider.ts";
import { DEFAULT_MARKDOWN_TYPES } from "./renderers.ts";
import type {
	Extension,
	ExtensionActions,
	ExtensionAPI,
	ExtensionEventName,
	ExtensionHandler,
	ProviderConfig,
	SourceInfo,
	VirtualModelConfig,
} from "./types.ts";

export const NOT_INITIALIZED_MESSAGE = "Extension runtime not initialized. Action methods cannot be called during extension loading.";
export const SET_MODEL_NOT_INITIALIZED_MESSAGE = "Extension runtime not initialized";
export const STALE_MESSAGE =
	"This extension ctx is stale after session replacement or reload. Do not use a captured pi or command ctx after ctx.newSession(), ctx.fork(), ctx.switchSession(), or ctx.reload(). For newSession, fork, and switchSession, move post-replacement work into withSession and use the ctx passed to withSession. For reload, do not use the old ctx after await ctx.reload().";

export function failedApiMessage(path: string): string {
	return `Extension "${path}" failed to load and its API is no longer active.`;
}

export type ProviderChange =
	| { kind: "register"; name: string; config: ProviderConfig; extensionPath: string }
	/** pi 1.6's one-argument form: a pi-ai Provider object. */
	| { kind: "register-native"; name: string; provider: NativeProvider; extensionPath: string }
	| { kind: "unregister"; name: string; extensionPath: string }
	| { kind: "virtual-model"; config: VirtualModelConfig; extensionPath: string }
	| { kind: "unregister-virtual"; provider: string; id: string; extensionPath: string };

/** The shared runtime: action slots, flag values, the provider queue, and the stale switch. */
export class ExtensionRuntime {
	/** Flag values: defaults committed by extensions, then CLI values applied after load. */
	readonly flagValues = new Map<string, boolean | string>();
	/** Servers from `pi.registerMcpServer()`; the session's MCP manager connects them. */
	readonly mcpServers = new McpServerRegistry();
	private actions: ExtensionActions | undefined;
	private readonly pendingProviders: ProviderChange[] = [];
	private readonly busUnsubscribers = new Set<() => void>();
	private staleMessage: string | undefined;

	private reserved: ReadonlySet<string> | (() => ReadonlySet<string>);

	/**
	 * @param reservedFlags the CLI's own flag names (without dashes): an extension flag may not take one.
	 *   A function is called on first use: only an extension registering a flag needs the set.
	 */
	constructor(
		readonly cwd: string,
		reservedFlags: ReadonlySet<string> | (() => ReadonlySet<string>) = new Set(),
	) {
		this.reserved = reservedFlags;
	}

	/** The CLI's own flag names (without dashes). */
	get reservedFlags(): ReadonlySet<string> {
		if (typeof this.reserved === "function") this.reserved = this.reserved();
		return this.reserved;
	}

	get isBound(): boolean {
		return this.actions !== undefined;
	}

	get isStale(): boolean {
		return this.staleMessage !== undefined;
	}

	/** Throws the stale message once the runtime has been invalidated. */
	assertActive(): void {
		if (this.staleMessage !== undefined) throw new Error(this.staleMessage);
	}

	/** The bound actions; throws the load-time message before bind. */
	action(): ExtensionActions {
		this.assertActive();
		if (!this.actions) throw new Error(NOT_INITIALIZED_MESSAGE);
		return this.actions;
	}

	/** Light up every extension's action methods at once and flush queued provider registrations. */
	bind(actions: ExtensionActions): { errors: { extensionPath: string; error: Error }[] } {
		this.assertActive();
		this.actions = actions;
		const errors: { extensionPath: string; error: Error }[] = [];
		for (const change of this.pendingProviders.splice(0)) {
			try {
				this.applyProviderChange(change);
			} catch (error) {
				errors.push({ extensionPath: change.extensionPath, error: error instanceof Error ? error : new Error(String(error)) });
			}
		}
		return { errors };
	}

	/** Provider registrations waiting for bind, in order (for listings and for `--list-models` wiring). */
	queuedProviders(): readonly ProviderChange[] {
		return this.pendingProviders;
	}

	/** Queue a provider change, or apply it at once when already bound. */
	providerChange(change: ProviderChange): void {
		this.assertActive();
		if (!this.actions) {
			if (change.kind === "unregister") {
				// Before bind, unregistering drops what is still queued under that name.
				for (let i = this.pendingProviders.length - 1; i >= 0; i--) {
					const p = this.pendingProviders[i]!;
					if (p.kind === "register" && p.name === change.name) this.pendingProviders.splice(i, 1);
				}
			}
			this.pendingProviders.push(change);
			return;
		}
		this.applyProviderChange(change);
	}

	trackBusSubscription(unsubscribe: () => void): () => void {
		this.busUnsubscribers.add(unsubscribe);
		return () => {
			if (this.busUnsubscribers.delete(unsubscribe)) unsubscribe();
		};
	}

	/** After /reload or a session replacement: every call through old `pi`/`ctx` throws; bus listeners go. */
	invalidate(message: string = STALE_MESSAGE): void {
		this.staleMessage ??= message;
		for (const unsubscribe of this.busUnsubscribers) unsubscribe();
		this.busUnsubscribers.clear();
		this.pendingProviders.length = 0;
	}

	private applyProviderChange(change: ProviderChange): void {
		const actions = this.actions!;
		if (change.kind === "register") actions.registerProvider(change.name, change.config, change.extensionPath);
		else if (change.kind === "register-native") actions.registerProvider(change.provider, undefined, change.extensionPath);
		else if (change.kind === "unregister") actions.unregisterProvider(change.name, change.extensionPath);
		else if (change.kind === "unregister-virtual") actions.unregisterVirtualModel(change.provider, change.id, change.extensionPath);
		else actions.registerVirtualModel(change.config, change.extensionPath);
	}
}

export function createExtension(path: string, resolvedPath: string, sourceInfo: SourceInfo): Extension {
	return {
		path,
		resolvedPath,
		sourceInfo,
		status: "loading",
		handlers: new Map(),
		tools: new Map(),
		commands: new Map(),
		flags: new Map(),
		shortcuts: new Map(),
		messageRenderers: new Map(),
		entryRenderers: new Map(),
		toolRenderers: [],
		providers: [],
		virtualModels: [],
		warnings: [],
	};
}

export interface ExtensionLoad {
	api: ExtensionAPI;
	/** The factory returned: apply flag defaults, provider changes and keep bus listeners. */
	commit(): void;
	/** The factory failed: drop everything it did and make its API answer the failed message. */
	discard(): void;
}

const EVENT_NAMES = new Set<string>(EXTENSION_EVENT_NAMES);

/** Edit distance, for did-you-mean. */
function distance(a: string, b: string): number {
	let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const row = [i];
		for (let j = 1; j <= b.length; j++) row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
		prev = row;
	}
	return prev[b.length]!;
}

/** `Unknown event "x" in pi.on() …`, with the nearest known name when one is close. */
export function unknownEventMessage(event: string): string {
	let best: string | undefined;
	let bestDistance = Infinity;
	for (const name of EXTENSION_EVENT_NAMES) {
		const d = distance(event, name);
		if (d < bestDistance) [best, bestDistance] = [name, d];
	}
	const hint = best && bestDistance <= Math.max(2, Math.floor(event.length / 3)) ? ` (did you mean "${best}"?)` : "";
	return `Unknown event "${event}" in pi.on()${hint}: its handler never runs. This agent knows the events of pi 1.6.`;
}

/** Build the `pi` object for one extension. Registration writes into `extension`. */
export function createExtensionAPI(extension: Extension, runtime: ExtensionRuntime, bus: EventBusController): ExtensionLoad {
	const pending = {
		flagDefaults: new Map<string, boolean | string>(),
		providers: [] as ProviderChange[],
		busUnsubscribers: [] as (() => void)[],
		/** MCP servers registered (or, as null, unregistered) during the factory, by name. */
		mcpServers: new Map<string, RegisteredMcpServer | null>(),
	};
	const check = () => {
		if (extension.status === "failed") throw new Error(failedApiMessage(extension.path));
		runtime.assertActive();
	};
	const loading = () => extension.status === "loading";
	const queueProvider = (change: ProviderChange) => {
		if (loading()) pending.providers.push(change);
		else runtime.providerChange(change);
	};
	const act = () => {
		check();
		return runtime.action();
	};

	const api: ExtensionAPI = {
		on(event, handler) {
			check();
			if (typeof handler !== "function") throw new Error(`pi.on("${event}", handler): handler must be a function`);
			// A name we do not know (a newer pi's event, a typo) is a warning, not a load failure:
			// the handler is kept but never runs.
			if (!EVENT_NAMES.has(event) && !extension.warnings.some((w) => w.event === event)) extension.warnings.push({ event, message: unknownEventMessage(String(event)) });
			let list = extension.handlers.get(event);
			if (!list) extension.handlers.set(event, (list = []));
			const entry = handler as ExtensionHandler<any>;
			list.push(entry);
			return () => {
				const current = extension.handlers.get(event);
				const at = current?.indexOf(entry) ?? -1;
				if (at >= 0) current!.splice(at, 1);
			};
		},
		registerTool(tool) {
			check();
			if (!tool || typeof tool.name !== "string" || tool.name === "") throw new Error("registerTool: the tool needs a non-empty name");
			if (typeof tool.execute !== "function") throw new Error(`registerTool("${tool.name}"): execute must be a function`);
			extension.tools.set(tool.name, { definition: tool, sourceInfo: extension.sourceInfo });
			if (!loading() && runtime.isBound) runtime.action().refreshTools();
		},
		registerCommand(name, options) {
			check();
			const bare = name.startsWith("/") ? name.slice(1) : name;
			if (!bare || /\s/.test(bare)) throw new Error(`registerCommand("${name}"): a command name is one word without spaces`);
			if (typeof options?.handler !== "function") throw new Error(`registerCommand("${bare}"): handler must be a function`);
			extension.commands.set(bare, { name: bare, sourceInfo: extension.sourceInfo, ...options });
		},
		registerShortcut(shortcut, options) {
			check();
			extension.shortcuts.set(shortcut, { shortcut, extensionPath: extension.path, ...options });
		},
		registerFlag(name, options) {
			check();
			const bare = name.replace(/^--/, "");
			if (!/^[A-Za-z0-9][\w-]*$/.test(bare)) throw new Error(`registerFlag("${name}"): use letters, digits, "-" and "_"`);
			if (runtime.reservedFlags.has(bare)) throw new Error(`registerFlag("${bare}"): --${bare} is a built-in flag; give the extension's flag another name`);
			// pi: a flag without a type is a boolean.
			const type = options?.type ?? "boolean";
			if (type !== "boolean" && type !== "string") throw new Error(`registerFlag("${bare}"): type must be "boolean" or "string"`);
			if (options?.default !== undefined && typeof options.default !== type) {
				throw new Error(`registerFlag("${bare}"): the default must be a ${type}, not ${JSON.stringify(options.default)}`);
			}
			extension.flags.set(bare, { name: bare, extensionPath: extension.path, ...options, type });
			if (options?.default !== undefined) {
				if (loading()) pending.flagDefaults.set(bare, options.default);
				else if (!runtime.flagValues.has(bare)) runtime.flagValues.set(bare, options.default);
			}
		},
		getFlag(name) {
			check();
			const bare = name.replace(/^--/, "");
			if (!extension.flags.has(bare)) return undefined;
			if (runtime.flagValues.has(bare)) return runtime.flagValues.get(bare);
			// During the factory the default is not committed yet, but the extension sees it.
			return pending.flagDefaults.get(bare);
		},
		registerMessageRenderer(customType, renderer) {
			check();
			extension.messageRenderers.set(customType, renderer);
		},
		registerEntryRenderer(customType, renderer) {
			check();
			extension.entryRenderers.set(customType, renderer);
		},
		registerMarkdownTransformer(transformer, options) {
			check();
			if (typeof transformer !== "function") throw new Error("registerMarkdownTransformer: the transformer must be a function");
			extension.markdownTransformer = { transformer, messageTypes: new Set(options?.messageTypes ?? DEFAULT_MARKDOWN_TYPES) };
		},
		registerToolRenderer(resolver) {
			check();
			extension.toolRenderers.push(resolver);
		},
		registerProvider(nameOrProvider: string | NativeProvider, config?: ProviderConfig) {
			check();
			// Checked now, so a malformed config fails the extension's load naming its file (or the
			// call that made it, after load), instead of failing later without saying whose it was.
			if (typeof nameOrProvider === "string") {
				const problem = checkProviderConfig(nameOrProvider, config as ProviderConfig);
				if (problem) throw new Error(problem);
				if (!extension.providers.includes(nameOrProvider)) extension.providers.push(nameOrProvider);
				queueProvider({ kind: "register", name: nameOrProvider, config: config!, extensionPath: extension.path });
				return;
			}
			if (!isNativeProvider(nameOrProvider)) throw new Error("registerProvider: expected registerProvider(name, config) or a pi-ai Provider object (id, getModels(), stream or streamSimple)");
			const problem = nativeProviderProblem(nameOrProvider);
			if (problem) throw new Error(`registerProvider(provider): ${problem}`);
			if (!extension.providers.includes(nameOrProvider.id)) extension.providers.push(nameOrProvider.id);
			queueProvider({ kind: "register-native", name: nameOrProvider.id, provider: nameOrProvider, extensionPath: extension.path });
		},
		unregisterProvider(name) {
			check();
			queueProvider({ kind: "unregister", name, extensionPath: extension.path });
		},
		registerVirtualModel(config) {
			check();
			if (!config || typeof config.provider !== "string" || !config.provider || typeof config.id !== "string" || !config.id) {
				throw new Error("registerVirtualModel: a virtual model needs a provider and an id");
			}
			if (typeof config.route !== "function" && config.target === undefined) throw new Error(`registerVirtualModel("${config.provider}/${config.id}"): route must be a function`);
			extension.virtualModels.push(config as VirtualModelConfig);
			queueProvider({ kind: "virtual-model", config: config as VirtualModelConfig, extensionPath: extension.path });
		},
		unregisterVirtualModel(provider, id) {
			check();
			extension.virtualModels = extension.virtualModels.filter((v) => v.provider !== provider || v.id !== id);
			queueProvider({ kind: "unregister-virtual", provider, id, extensionPath: extension.path });
		},
		registerMcpServer(name, config) {
			check();
			const checked = checkRegistration(name, config);
			const owner = runtime.mcpServers.ownerOf(name);
			if (owner !== undefined && owner !== extension.path) throw new Error(`registerMcpServer("${name}"): the name is already registered by ${owner}`);
			const server = { name, config: checked, extensionPath: extension.path };
			if (loading()) pending.mcpServers.set(name, server);
			else runtime.mcpServers.register(server);
		},
		unregisterMcpServer(name) {
			check();
			if (loading()) pending.mcpServers.set(name, null);
			else runtime.mcpServers.unregister(name, extension.path);
		},
		getMcpServers() {
			check();
			const committed = runtime.mcpServers.list();
			if (!loading()) return committed;
			// While loading, the extension sees its own registrations, committed or not.
			const mine = [...pending.mcpServers.values()].filter((s): s is RegisteredMcpServer => s !== null);
			return [...committed.filter((s) => !pending.mcpServers.has(s.name)), ...mine.map((s) => structuredClone(s))];
		},
		exec(command, args, options) {
			check();
			return execCommand(command, args ?? [], runtime.cwd, options);
		},
		events: {
			emit(channel, data) {
				check();
				bus.emit(channel, data);
			},
			on(channel, handler) {
				check();
				const unsubscribe = runtime.trackBusSubscription(bus.on(channel, handler));
				if (loading()) pending.busUnsubscribers.push(unsubscribe);
				return unsubscribe;
			},
		},
		sendMessage: (message, options) => act().sendMessage(message, options),
		sendUserMessage: (content, options) => act().sendUserMessage(content, options),
		appendEntry: (customType, data) => act().appendEntry(customType, data),
		setSessionName: (name) => act().setSessionName(name),
		getSessionName: () => act().getSessionName(),
		setLabel: (entryId, label) => act().setLabel(entryId, label),
		getActiveTools: () => act().getActiveTools(),
		getAllTools: () => act().getAllTools(),
		setActiveTools: (names) => act().setActiveTools(names),
		getCommands: () => act().getCommands(),
		setModel(model) {
			try {
				check();
			} catch (error) {
				return Promise.reject(error);
			}
			if (!runtime.isBound) return Promise.reject(new Error(SET_MODEL_NOT_INITIALIZED_MESSAGE));
			return runtime.action().setModel(model);
		},
		getThinkingLevel: () => act().getThinkingLevel(),
		getSettings: () => act().getSettings(),
		setThinkingLevel: (level) => act().setThinkingLevel(level),
	};

	return {
		api,
		commit() {
			extension.status = "active";
			// Most extensions register no flag default, provider or MCP server: no Map iterator for those.
			if (pending.flagDefaults.size > 0) for (const [name, value] of pending.flagDefaults) if (!runtime.flagValues.has(name)) runtime.flagValues.set(name, value);
			for (const change of pending.providers) runtime.providerChange(change);
			if (pending.mcpServers.size > 0) {
				for (const [name, server] of pending.mcpServers) {
					if (server) runtime.mcpServers.register(server);
					else runtime.mcpServers.unregister(name, extension.path);
				}
			}
			pending.mcpServers.clear();
			pending.flagDefaults.clear();
			pending.providers.length = 0;
			pending.busUnsubscribers.length = 0;
		},
		discard() {
			extension.status = "failed";
			for (const unsubscribe of pending.busUnsubscribers) unsubscribe();
			pending.mcpServers.clear();
			pending.flagDefaults.clear();
			pending.providers.length = 0;
			pending.busUnsubscribers.length = 0;
		},
	};
}
