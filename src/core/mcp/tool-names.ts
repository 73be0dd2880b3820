// What a server's tools are called here: `mcp__<server>__<tool>`, every character other than a
// letter, digit or `_` turned into `_`. Tools whose names collide after that all get a short hash of
// their original name, and names past the 64 characters providers accept are cut and hashed.
import { matchesPattern } from "./server-config.ts";

export const MCP_TOOL_PREFIX = "mcp__";
export const READ_RESOURCE_TOOL = "mcp_read_resource";
const MAX_NAME = 64;

function sanitize(part: string): string {
	return part.replace(/[^A-Za-z0-9_]/g, "_");
}

/** A stable 6-hex-digit hash (FNV-1a), so a tool keeps its name across runs. */
export function shortHash(text: string): string {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193) >>> 0;
	}
	return hash.toString(16).padStart(8, "0").slice(0, 6);
}

export function serverToolPrefix(server: string): string {
	return `${MCP_TOOL_PREFIX}${sanitize(server)}__`;
}

/** Agent-side names for one server's tools, by server tool name. */
export function agentToolNames(server: string, toolNames: readonly string[]): Map<string, string> {
	const prefix = serverToolPrefix(server);
	const counts = new Map<string, number>();
	for (const name of toolNames) counts.set(sanitize(name), (counts.get(sanitize(name)) ?? 0) + 1);
	const out = new Map<string, string>();
	for (const name of toolNames) {
		const clean = sanitize(name);
		let full = counts.get(clean)! > 1 ? `${prefix}${clean}_${shortHash(name)}` : `${prefix}${clean}`;
		if (full.length > MAX_NAME) full = `${full.slice(0, MAX_NAME - 7)}_${shortHash(name)}`;
		out.set(name, full);
	}
	return out;
}

export function isMcpToolName(name: string): boolean {
	return name.startsWith(MCP_TOOL_PREFIX) || name === READ_RESOURCE_TOOL;
}

/**
 * Which MCP tools `--tools` lets through: with no MCP entry in the list, all of them (pi 1.6);
 * otherwise only names matching an entry (`mcp__docs__*`). `"none"` is `--no-tools`.
 */
export type McpToolFilter = "all" | "none" | string[];

export function mcpToolFilter(tools: string[] | undefined, noTools: boolean | undefined): McpToolFilter {
	if (noTools) return "none";
	const entries = (tools ?? []).filter(isMcpToolName);
	return entries.length > 0 ? entries : "all";
}

export function filterAllows(filter: McpToolFilter, name: string): boolean {
	if (filter === "all") return true;
	if (filter === "none") return false;
	return filter.some((pattern) => matchesPattern(pattern, name));
}
