// One MCP server for the session: start it (a child process or an HTTP endpoint), run the handshake
// through the SDK, keep what it offers, call it, and notice when it goes away. Failures become a
// state with a message (reported once by the manager), never an exception out of the session.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate, Tool } from "@modelcontextprotocol/sdk/types.js";
import { detail } from "../timing.ts";
import { expandEntry, type ExpandedServer } from "./expand.ts";
import type { McpServerEntry } from "./mcp-config.ts";
import { DEFAULT_TIMEOUT_SECONDS, toolExposure, type McpExposure } from "./server-config.ts";
import { StdioProcessTransport } from "./stdio-process.ts";
import { agentToolNames } from "./tool-names.ts";

export type McpConnectionState = "idle" | "connecting" | "connected" | "failed" | "disabled" | "closed";

/** A server tool with the name the model calls it by and its exposure. */
export interface McpServerTool {
	tool: Tool;
	agentName: string;
	exposure: McpExposure;
}

type SdkModule = typeof import("./sdk-client.ts");
let sdkModule: Promise<SdkModule> | undefined;

/** The SDK, imported once, on the first connection. */
function loadSdk(): Promise<SdkModule> {
	sdkModule ??= (async () => {
		const started = performance.now();
		const module = await import("./sdk-client.ts");
		detail("load mcp sdk", performance.now() - started);
		return module;
	})();
	return sdkModule;
}

export interface ConnectionEvents {
	/** State, tools, resources or prompts changed. */
	changed(connection: McpConnection): void;
	/** A start failed or a connected server went away: reported once per occurrence. */
	problem(connection: McpConnection, message: string): void;
}

function describeError(error: unknown): string {
	const message = error instanceof Error ? error.message : String(error);
	return message.replace(/^MCP error -?\d+: /, "");
}

export class McpConnection {
	state: McpConnectionState;
	/** Why it failed or stopped. */
	error: string | undefined;
	tools: McpServerTool[] = [];
	resources: Resource[] = [];
	templates: ResourceTemplate[] = [];
	prompts: Prompt[] = [];
	instructions: string | undefined;
	private client: Client | undefined;
	private transport: Transport | undefined;
	private connecting: Promise<void> | undefined;
	/** Bumped by each start and close, so a late event of an old attempt is ignored. */
	private generation = 0;

	constructor(
		readonly entry: McpServerEntry,
		private readonly cwd: string,
		private readonly events: ConnectionEvents,
	) {
		this.state = entry.config.enabled === false ? "disabled" : "idle";
	}

	get name(): string {
		return this.entry.name;
	}

	get timeoutMs(): number {
		return (this.entry.config.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000;
	}

	/**
	 * How long starting may take: never less than the default, so a short per-request `timeout` does
	 * not fail a server whose first start is slow (npx fetching it, say). Nothing waits this long:
	 * the first request waits at most `timeoutMs`.
	 */
	get startTimeoutMs(): number {
		return Math.max(this.timeoutMs, DEFAULT_TIMEOUT_SECONDS * 1000);
	}

	/** Settles when the current connection attempt has (or there is none). */
	ready(): Promise<void> {
		return this.connecting ?? Promise.resolve();
	}

	get hasResources(): boolean {
		return this.resources.length > 0 || this.templates.length > 0;
	}

	/** The child's pid (stdio servers), for diagnostics. */
	get pid(): number | undefined {
		return this.transport instanceof StdioProcessTransport ? this.transport.pid : undefined;
	}

	/** Start connecting unless it is connected, connecting or disabled. */
	connect(): Promise<void> {
		if (this.state === "disabled" || this.state === "connected") return Promise.resolve();
		this.connecting ??= this.open().finally(() => (this.connecting = undefined));
		return this.connecting;
	}

	private async open(): Promise<void> {
		const generation = ++this.generation;
		this.state = "connecting";
		this.error = undefined;
		this.events.changed(this);
		let server: ExpandedServer;
		try {
			server = expandEntry(this.entry, this.cwd);
		} catch (error) {
			return this.fail(generation, describeError(error));
		}
		let transport: Transport | undefined;
		try {
			const started = performance.now();
			if (server.kind === "stdio") {
				const stdio = new StdioProcessTransport(server.spec);
				transport = stdio;
				// Kept at once, so a close while the SDK loads ends the process too.
				this.transport = stdio;
				// Spawned before the SDK loads, so the server starts while the module evaluates.
				stdio.spawn();
			}
			const sdk = await loadSdk();
			if (generation !== this.generation) {
				await transport?.close();
				return;
			}
			transport ??= sdk.createHttpTransport(server.kind === "http" ? server.url : "", server.kind === "http" ? server.headers : {});
			this.transport = transport;
			transport.onclose = chain(transport.onclose, () => this.lost(generation));
			const client = await withTimeout(
				sdk.connectClient(transport, this.startTimeoutMs, {
					tools: () => void this.refresh(generation, { tools: true }),
					prompts: () => void this.refresh(generation, { prompts: true }),
					resources: () => void this.refresh(generation, { resources: true }),
				}),
				this.startTimeoutMs,
				`did not answer the MCP handshake within ${this.startTimeoutMs / 1000} s`,
			);
			if (generation !== this.generation) {
				await client.close().catch(() => {});
				return;
			}
			this.client = client;
			this.instructions = client.getInstructions();
			await this.refresh(generation, { tools: true, resources: true, prompts: true }, true);
			if (generation !== this.generation) return;
			this.state = "connected";
			detail(`mcp ${this.name}: connected`, performance.now() - started);
			this.events.changed(this);
		} catch (error) {
			// Described before closing: our close would otherwise be taken for the server's exit.
			const message = this.startError(error, transport);
			await transport?.close().catch(() => {});
			this.fail(generation, message);
		}
	}

	/** A start error in words: program not found, the process's own last words, HTTP status. */
	private startError(error: unknown, transport: Transport | undefined): string {
		let message = describeError(error);
		if (transport instanceof StdioProcessTransport) {
			if (/ENOENT|no such file/i.test(message)) message = `program not found: ${transport.spec.command} (the "command" is one program; put its arguments in "args")`;
			const exit = transport.exit;
			if (exit) message = `${exitText(exit)}${lastLines(transport.stderr)}`;
		} else if (/\b(404|405)\b/.test(message)) {
			message += ` (if the server only speaks the legacy SSE transport: that is not supported; ask for its streamable HTTP endpoint, often /mcp instead of /sse)`;
		}
		return message;
	}

	private fail(generation: number, message: string): void {
		if (generation !== this.generation) return;
		this.state = "failed";
		this.error = message;
		this.client = undefined;
		this.transport = undefined;
		this.events.problem(this, `MCP server "${this.name}" failed to start: ${message}`);
		this.events.changed(this);
	}

	/** The transport closed: a server that was connected went away (not our close). */
	private lost(generation: number): void {
		if (generation !== this.generation || this.state !== "connected") return;
		const transport = this.transport;
		const why = transport instanceof StdioProcessTransport && transport.exit ? `${exitText(transport.exit)}${lastLines(transport.stderr)}` : "the connection closed";
		this.state = "failed";
		this.error = why;
		this.client = undefined;
		this.transport = undefined;
		this.events.problem(this, `MCP server "${this.name}" stopped: ${why}. Its tools reconnect on their next call.`);
		this.events.changed(this);
	}

	/** List again what changed (or everything, at connect). */
	private async refresh(generation: number, parts: { tools?: boolean; resources?: boolean; prompts?: boolean }, initial = false): Promise<void> {
		const client = this.client;
		if (!client) return;
		const sdk = await loadSdk();
		try {
			const listed = await sdk.listEverything(client, initial ? this.startTimeoutMs : this.timeoutMs, parts);
			if (generation !== this.generation) return;
			if (listed.tools) this.setTools(listed.tools);
			if (listed.resources) this.resources = listed.resources;
			if (listed.templates) this.templates = listed.templates;
			if (listed.prompts) this.prompts = listed.prompts;
			if (!initial) this.events.changed(this);
		} catch (error) {
			if (initial) throw error;
			// A server that went away meanwhile is reported as stopped, not for this.
			if (generation !== this.generation || this.client !== client) return;
			this.events.problem(this, `MCP server "${this.name}": listing its tools again failed: ${describeError(error)}`);
		}
	}

	private setTools(tools: Tool[]): void {
		const names = agentToolNames(this.name, tools.map((t) => t.name));
		this.tools = tools.map((tool) => ({ tool, agentName: names.get(tool.name)!, exposure: toolExposure(this.entry.config, tool.name) }));
	}

	/** A client to call, reconnecting once when the server went away since the last call. */
	private async liveClient(): Promise<Client> {
		if (this.state === "failed" || this.state === "idle") await this.connect();
		else if (this.state === "connecting") await this.ready();
		if (!this.client) throw new Error(`MCP server "${this.name}" is not connected${this.error ? `: ${this.error}` : ""}`);
		return this.client;
	}

	/**
	 * One request. An HTTP server that forgot our session (it restarted) is connected to again and
	 * asked once more (it did not run the request); a connection that failed underneath marks the
	 * server as stopped, reported once, so the next call starts it again.
	 */
	private async request<T>(fn: (client: Client) => Promise<T>, signal?: AbortSignal): Promise<T> {
		const client = await this.liveClient();
		try {
			return await fn(client);
		} catch (error) {
			if (signal?.aborted) throw error;
			if (isLostSession(error)) {
				await this.close("idle");
				return fn(await this.liveClient());
			}
			if (isConnectionFailure(error)) this.markLost(describeError(error));
			throw error;
		}
	}

	async callTool(name: string, args: Record<string, unknown>, options: { signal?: AbortSignal; onProgress?: (message: string) => void }): Promise<CallToolResult> {
		const requestOptions = {
			timeout: this.timeoutMs,
			resetTimeoutOnProgress: true,
			signal: options.signal,
			onprogress: (p: { progress: number; total?: number; message?: string }) => options.onProgress?.(p.message ?? `${p.progress}${p.total ? `/${p.total}` : ""}`),
		};
		return this.request((client) => client.callTool({ name, arguments: args }, undefined, requestOptions) as Promise<CallToolResult>, options.signal);
	}

	readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
		return this.request((client) => client.readResource({ uri }, { timeout: this.timeoutMs, resetTimeoutOnProgress: true, signal }), signal);
	}

	getPrompt(name: string, args: Record<string, string>): Promise<GetPromptResult> {
		return this.request((client) => client.getPrompt({ name, arguments: args }, { timeout: this.timeoutMs }));
	}

	/** The connection failed underneath a request (HTTP): stopped, reported once, reconnected by the next call. */
	private markLost(why: string): void {
		if (this.state !== "connected") return;
		const client = this.client;
		this.generation++;
		this.state = "failed";
		this.error = why;
		this.client = undefined;
		this.transport = undefined;
		void client?.close().catch(() => {});
		this.events.problem(this, `MCP server "${this.name}" stopped: ${why}. Its tools reconnect on their next call.`);
		this.events.changed(this);
	}

	/** Disconnect and end the process; the connection can be started again. */
	async close(state: McpConnectionState = "closed"): Promise<void> {
		this.generation++;
		const client = this.client;
		const transport = this.transport;
		this.client = undefined;
		this.transport = undefined;
		this.connecting = undefined;
		this.state = this.entry.config.enabled === false ? "disabled" : state;
		this.tools = [];
		this.resources = [];
		this.templates = [];
		this.prompts = [];
		if (client) await client.close().catch(() => {});
		else await transport?.close().catch(() => {});
	}
}

/** The SDK's StreamableHTTPError for a session the server does not know (404, or 400 "no valid session"). */
function isLostSession(error: unknown): boolean {
	const e = error as { code?: unknown; message?: unknown };
	return typeof e?.code === "number" && (e.code === 404 || (e.code === 400 && /session/i.test(String(e.message))));
}

/** Not an answer of the server (those are McpError with a JSON-RPC code), but the way to it failing. */
function isConnectionFailure(error: unknown): boolean {
	const e = error as { name?: unknown; code?: unknown };
	if (e?.name === "McpError") return false;
	return e?.name === "TypeError" || typeof e?.code === "string" || typeof e?.code === "number";
}

function chain(first: (() => void) | undefined, second: () => void): () => void {
	return () => {
		first?.();
		second();
	};
}

async function withTimeout<T>(promise: Promise<T>, ms: number, message: string): Promise<T> {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)));
	try {
		return await Promise.race([promise, timeout]);
	} finally {
		clearTimeout(timer);
	}
}

function exitText(exit: { code: number | null; signal: string | null }): string {
	return exit.signal ? `the process was ended by ${exit.signal}` : `the process exited with code ${exit.code}`;
}

/** ` (stderr: …)` with the last line or two the server wrote, when it wrote any. */
function lastLines(stderr: string): string {
	const lines = stderr.trim().split("\n").filter(Boolean).slice(-2);
	return lines.length > 0 ? ` (stderr: ${lines.join(" / ").slice(0, 300)})` : "";
}
