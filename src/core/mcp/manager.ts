// The session's MCP servers (SPEC §11): mcp.json's and those extensions register, started in the
// background, their tools declared as they connect. Only servers with direct tools delay the first
// request (each at most its timeout); the SDK loads once a server connects. Failures are reported once.
import type { AgentSessionEvent } from "../agent-session.ts";
import type { ImageContent } from "../providers/types.ts";
import type { AgentTool } from "../tools/types.ts";
import type { SlashCommandInfo } from "../extensions/types.ts";
import { McpConnection } from "./connection.ts";
import { formatProblem, type LoadedMcpConfig, type McpServerEntry } from "./mcp-config.ts";
import { parsePromptCommand, promptArguments, promptCommandName } from "./prompt-commands.ts";
import type { RegisteredMcpServer } from "./registry.ts";
import { mayHaveDirectTools, serverKey } from "./server-config.ts";
import { createReadResourceTool, createServerTool } from "./tool-bridge.ts";
import { filterAllows, READ_RESOURCE_TOOL, type McpToolFilter } from "./tool-names.ts";
import { mapPromptMessages } from "./tool-result.ts";
import { statusOf, type McpServerStatus } from "./status.ts";

/** What the manager needs of the session (AgentSession has it). */
export interface McpToolHost {
	addTool(tool: AgentTool<any, any, any>, activate?: boolean): void;
	removeTool(name: string): void;
	getAllTools(): AgentTool<any, any, any>[];
	/** True once the active set was chosen explicitly (setActiveTools): tools that arrive later stay off. */
	readonly explicitToolSelection: boolean;
	subscribe(listener: (event: AgentSessionEvent) => void | Promise<void>): () => void;
	/** Awaited at the start of every run, before the tools are read. */
	readonly beforeRun: (() => Promise<void>)[];
}

export interface McpManagerOptions {
	cwd: string;
	session: McpToolHost;
	/** Reads mcp.json (again on /reload). Throws ConfigFileError for a file that is not JSON. */
	loadConfig(): LoadedMcpConfig;
	/** Which MCP tools `--tools` / `-nt` let through. Default all. */
	toolFilter?: McpToolFilter;
	/** A server failed, stopped, or an entry was skipped: one line for the user. */
	onNotice(message: string): void;
	/**
	 * With no direct servers: how long an idle session (interactive, rpc) waits before connecting
	 * anyway, in ms. Default: never (print mode sends its prompt at once: servers start once it is out).
	 */
	idleConnectMs?: number;
}

/** What the extension host (ExtensionHostOptions.mcp) and modes (/mcp) use of the session's MCP servers. */
export interface McpSession {
	bind(registered: RegisteredMcpServer[]): void;
	setRegistered(registered: RegisteredMcpServer[]): void;
	reload(): Promise<void>;
	shutdown(): Promise<void>;
	commandInfos(): SlashCommandInfo[];
	expandPrompt(text: string): Promise<{ text: string; images: ImageContent[] } | undefined>;
	isMcpTool(name: string): boolean;
	status(): McpServerStatus[];
	reconnect(name?: string): Promise<void>;
	onChange(listener: () => void): () => void;
}

export class McpManager implements McpSession {
	private readonly options: McpManagerOptions;
	private readonly connections = new Map<string, McpConnection>();
	/** Agent tool names declared for each server (by server key). */
	private readonly declared = new Map<string, Set<string>>();
	private fileEntries: McpServerEntry[] = [];
	private registered: RegisteredMcpServer[] = [];
	/** Registered servers a mcp.json server of the same name shadows (listed, not started). */
	private shadowed: RegisteredMcpServer[] = [];
	private begun = false;
	private idleTimer: ReturnType<typeof setTimeout> | undefined;
	private unsubscribe: (() => void) | undefined;
	private readonly listeners = new Set<() => void>();
	private closed = false;

	constructor(options: McpManagerOptions) {
		this.options = options;
	}

	get toolFilter(): McpToolFilter {
		return this.options.toolFilter ?? "all";
	}

	/** Read mcp.json, report skipped entries, and arrange for the servers to start. */
	start(): void {
		this.loadFiles();
		this.sync();
		this.options.session.beforeRun.push(() => this.beforeRun());
		this.arm();
	}

	private loadFiles(): void {
		const loaded = this.options.loadConfig();
		this.fileEntries = loaded.servers;
		for (const problem of loaded.problems) this.options.onNotice(`${formatProblem(problem)}; the server is skipped.`);
	}

	/** Connect now if something may wait for a server; otherwise once the first request is out or the session idles. */
	private arm(): void {
		if (this.begun || this.closed) return;
		if ([...this.connections.values()].some((c) => c.state !== "disabled" && mayHaveDirectTools(c.entry.config))) {
			this.begin();
			return;
		}
		if (this.connections.size === 0) return;
		if (this.options.idleConnectMs !== undefined) {
			this.idleTimer ??= setTimeout(() => this.begin(), this.options.idleConnectMs);
			this.idleTimer.unref?.();
		}
		this.unsubscribe ??= this.options.session.subscribe((event) => {
			if ((event.type === "message_start" && event.message.role === "assistant") || event.type === "agent_end") this.begin();
		});
	}

	/** Start every server that is not running yet. */
	private begin(): void {
		if (this.closed) return;
		this.begun = true;
		clearTimeout(this.idleTimer);
		this.idleTimer = undefined;
		this.unsubscribe?.();
		this.unsubscribe = undefined;
		for (const connection of this.connections.values()) if (connection.state === "idle") void connection.connect();
	}

	/** Every run: wait for servers that may have direct tools and are still connecting, each at most its timeout. */
	private async beforeRun(): Promise<void> {
		if (!this.begun) {
			// A run is starting: the idle timer would only race the request.
			clearTimeout(this.idleTimer);
			this.idleTimer = undefined;
			return;
		}
		const waiting = [...this.connections.values()].filter((c) => c.state === "connecting" && mayHaveDirectTools(c.entry.config));
		await Promise.all(waiting.map((c) => settleWithin(c.ready(), c.timeoutMs)));
	}

	/** The entries that should run: mcp.json servers, then registered ones no file server shadows. */
	private desiredEntries(): McpServerEntry[] {
		const taken = new Set(this.fileEntries.map((e) => serverKey(e.name)));
		this.shadowed = this.registered.filter((r) => taken.has(serverKey(r.name)));
		const fromExtensions = this.registered
			.filter((r) => !taken.has(serverKey(r.name)))
			.map((r): McpServerEntry => ({ name: r.name, config: r.config, source: "extension", origin: r.extensionPath }));
		return [...this.fileEntries, ...fromExtensions];
	}

	/** Make the connections match the desired entries: keep unchanged ones, replace changed, close removed. */
	private sync(): void {
		const desired = new Map(this.desiredEntries().map((e) => [serverKey(e.name), e]));
		for (const [key, connection] of this.connections) {
			const next = desired.get(key);
			// Entries are plain JSON: equal text, same server.
			if (next && JSON.stringify(next) === JSON.stringify(connection.entry)) continue;
			this.connections.delete(key);
			this.withdraw(key);
			void connection.close();
		}
		for (const [key, entry] of desired) {
			if (this.connections.has(key)) continue;
			const connection = new McpConnection(entry, this.options.cwd, {
				changed: (c) => this.changed(c),
				problem: (_c, message) => this.options.onNotice(message),
			});
			this.connections.set(key, connection);
			if (this.begun && connection.state === "idle") void connection.connect();
		}
		this.updateResourceTool();
		this.emitChange();
		if (!this.begun) this.arm();
	}

	private changed(connection: McpConnection): void {
		if (this.connections.get(serverKey(connection.name)) !== connection) return;
		this.declare(connection);
		this.updateResourceTool();
		this.emitChange();
	}

	/** The connection's reachable tools into the session; tools it no longer offers out. */
	private declare(connection: McpConnection): void {
		const key = serverKey(connection.name);
		const before = this.declared.get(key) ?? new Set<string>();
		const now = new Set<string>();
		const session = this.options.session;
		if (connection.state === "connected") {
			const known = new Set(session.getAllTools().map((t) => t.name));
			for (const serverTool of connection.tools) {
				if (serverTool.exposure === "hidden") continue;
				now.add(serverTool.agentName);
				const fresh = !known.has(serverTool.agentName);
				session.addTool(createServerTool(connection, serverTool), fresh && filterAllows(this.toolFilter, serverTool.agentName) && !session.explicitToolSelection);
			}
		} else if (connection.state === "failed" || connection.state === "connecting") {
			// Keep the tools of a server that went away (a call reconnects it) or is coming back.
			for (const name of before) now.add(name);
		}
		for (const name of before) if (!now.has(name)) session.removeTool(name);
		this.declared.set(key, now);
	}

	private withdraw(key: string): void {
		for (const name of this.declared.get(key) ?? []) this.options.session.removeTool(name);
		this.declared.delete(key);
	}

	/** `mcp_read_resource` exists while some connected, non-hidden server offers resources. */
	private updateResourceTool(): void {
		const servers = [...this.connections.values()].filter((c) => c.state === "connected" && c.hasResources && c.entry.config.exposure !== "hidden");
		const session = this.options.session;
		const exists = session.getAllTools().some((t) => t.name === READ_RESOURCE_TOOL);
		if (servers.length === 0) {
			if (exists) session.removeTool(READ_RESOURCE_TOOL);
			return;
		}
		session.addTool(createReadResourceTool(servers), !exists && filterAllows(this.toolFilter, READ_RESOURCE_TOOL) && !session.explicitToolSelection);
	}

	// ---- the host's side (McpSession) -----------------------------------------------------------

	/** After each bind (start-up, reload, a new session): the registered servers, and the tools again. */
	bind(registered: RegisteredMcpServer[]): void {
		this.registered = registered;
		for (const key of this.declared.keys()) this.declared.set(key, new Set());
		for (const connection of this.connections.values()) this.declare(connection);
		this.sync();
	}

	setRegistered(registered: RegisteredMcpServer[]): void {
		this.registered = registered;
		this.sync();
	}

	/** /reload: read mcp.json again and reconnect every server. */
	async reload(): Promise<void> {
		const old = [...this.connections.entries()];
		this.connections.clear();
		for (const [key] of old) this.withdraw(key);
		await Promise.all(old.map(([, c]) => c.close()));
		this.loadFiles();
		this.sync();
	}

	/** Reconnect one server (or all): `/mcp reconnect`. */
	async reconnect(name?: string): Promise<void> {
		const targets = [...this.connections.values()].filter((c) => name === undefined || serverKey(c.name) === serverKey(name));
		if (name !== undefined && targets.length === 0) throw new Error(`No MCP server named "${name}". Servers: ${[...this.connections.values()].map((c) => c.name).join(", ") || "none"}`);
		this.begun = true;
		await Promise.all(
			targets.map(async (c) => {
				await c.close("idle");
				this.changed(c);
				await c.connect();
			}),
		);
	}

	async shutdown(): Promise<void> {
		this.closed = true;
		clearTimeout(this.idleTimer);
		this.unsubscribe?.();
		await Promise.all([...this.connections.values()].map((c) => c.close()));
	}

	/** Wait until every started server has connected or failed (agent mcp list). */
	async settle(): Promise<void> {
		this.begin();
		await Promise.all([...this.connections.values()].map((c) => settleWithin(c.ready(), c.timeoutMs * 2)));
	}

	isMcpTool(name: string): boolean {
		if (name === READ_RESOURCE_TOOL) return this.options.session.getAllTools().some((t) => t.name === name);
		for (const names of this.declared.values()) if (names.has(name)) return true;
		return false;
	}

	commandInfos(): SlashCommandInfo[] {
		const out: SlashCommandInfo[] = [];
		for (const c of this.connections.values()) {
			if (c.state !== "connected") continue;
			for (const prompt of c.prompts) {
				out.push({
					name: promptCommandName(c.name, prompt.name),
					description: prompt.description ?? prompt.title,
					source: "prompt",
					sourceInfo: { path: `mcp:${c.name}`, source: "mcp", scope: c.entry.source === "project" ? "project" : c.entry.source === "user" ? "user" : "temporary", origin: "top-level" },
				});
			}
		}
		return out;
	}

	/** `/mcp:<server>:<prompt> args` → the prompt's text; undefined for other text. Throws a message for the user. */
	async expandPrompt(text: string): Promise<{ text: string; images: ImageContent[] } | undefined> {
		const parsed = parsePromptCommand(text);
		if (!parsed) return undefined;
		const connection = this.connections.get(serverKey(parsed.server));
		if (!connection) return undefined;
		this.begin();
		await connection.connect();
		if (connection.state !== "connected") throw new Error(`MCP server "${connection.name}" is not connected${connection.error ? `: ${connection.error}` : ""}`);
		const prompt = connection.prompts.find((p) => p.name === parsed.prompt);
		if (!prompt) {
			const names = connection.prompts.map((p) => p.name);
			throw new Error(`MCP server "${connection.name}" has no prompt "${parsed.prompt}"${names.length ? `; it has: ${names.join(", ")}` : ""}`);
		}
		const args = promptArguments(connection.name, prompt, parsed.args);
		const result = await connection.getPrompt(prompt.name, args);
		return mapPromptMessages(result.messages, connection.name);
	}

	/** Servers with state and tools, for listings (/mcp, agent mcp list, agent list). */
	status(): McpServerStatus[] {
		const out = [...this.connections.values()].map((c) => statusOf(c, this.toolFilter));
		for (const r of this.shadowed) out.push({ ...statusOf(new McpConnection({ name: r.name, config: r.config, source: "extension", origin: r.extensionPath }, this.options.cwd, { changed() {}, problem() {} }), this.toolFilter), state: "shadowed" });
		return out;
	}

	/** Listen for any change of state, tools or servers (a UI redraws). Returns an unsubscribe function. */
	onChange(listener: () => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	private emitChange(): void {
		for (const listener of this.listeners) listener();
	}
}

async function settleWithin(promise: Promise<void>, ms: number): Promise<void> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	await Promise.race([promise.catch(() => {}), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
	clearTimeout(timer);
}
