// Servers extensions register with `pi.registerMcpServer()` (pi 1.6): the runtime keeps them here,
// the session's MCP manager connects them. Only validates and stores; a change listener (set when
// the session binds) emits `mcp_servers_change` and tells the manager.
import { serverKey, serverNameProblem, validateServerConfig, type McpServerConfig } from "./server-config.ts";

export interface RegisteredMcpServer {
	name: string;
	config: McpServerConfig;
	/** Path of the extension that registered it. */
	extensionPath: string;
}

/** The config checked as an mcp.json entry would be; throws with the reason (pi: "invalid configs throw"). */
export function checkRegistration(name: string, config: unknown): McpServerConfig {
	if (typeof name !== "string") throw new Error(`registerMcpServer: the server name must be a string`);
	const bad = serverNameProblem(name);
	if (bad) throw new Error(`registerMcpServer("${name}"): ${bad}`);
	const checked = validateServerConfig(config);
	if ("message" in checked) throw new Error(`registerMcpServer("${name}"): ${checked.pointer ? `${checked.pointer.slice(1).replaceAll("/", ".")}: ` : ""}${checked.message}`);
	return checked;
}

export class McpServerRegistry {
	private readonly servers = new Map<string, RegisteredMcpServer>();
	private listener: (() => void) | undefined;

	/** The extension that registered a name (or one equal to it up to `-`/`_`), if any. */
	ownerOf(name: string): string | undefined {
		return this.servers.get(serverKey(name))?.extensionPath;
	}

	/** Register or replace; the caller checked ownership and the config. */
	register(server: RegisteredMcpServer): void {
		const key = serverKey(server.name);
		// A replacement keeps its place in registration order.
		this.servers.set(key, { ...server, config: structuredClone(server.config) });
		this.listener?.();
	}

	/** Remove a server `extensionPath` registered; other extensions' servers are left alone. */
	unregister(name: string, extensionPath: string): boolean {
		const key = serverKey(name);
		if (this.servers.get(key)?.extensionPath !== extensionPath) return false;
		this.servers.delete(key);
		this.listener?.();
		return true;
	}

	/** Copies, in registration order. */
	list(): RegisteredMcpServer[] {
		return [...this.servers.values()].map((s) => ({ ...s, config: structuredClone(s.config) }));
	}

	get size(): number {
		return this.servers.size;
	}

	/** Called after every change; the host sets it when it binds the runtime. */
	setChangeListener(listener: (() => void) | undefined): void {
		this.listener = listener;
	}
}
