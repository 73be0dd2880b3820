// What a listing shows of each server — `agent mcp list`, `/mcp`, `agent list --json`: where it
// comes from, how it is reached, its state, and its tools with their exposure. Data and text only.
import { tildify } from "../../config.ts";
import type { McpConnection, McpConnectionState } from "./connection.ts";
import type { McpServerEntry, McpServerSource } from "./mcp-config.ts";
import { isStdioConfig, type McpExposure } from "./server-config.ts";
import { filterAllows, type McpToolFilter } from "./tool-names.ts";

export interface McpToolStatus {
	/** The name on the server. */
	name: string;
	/** What the model calls it. */
	agentName: string;
	exposure: McpExposure;
	/** Left out by `--tools`. */
	filtered?: boolean;
}

export interface McpServerStatus {
	name: string;
	source: McpServerSource;
	/** The mcp.json file, or the extension that registered it. */
	origin: string;
	/** A project file that changed enabled/exposure of this user server. */
	overriddenBy?: string;
	transport: "stdio" | "http";
	/** The command line, or the URL (as configured: `${VAR}` not expanded). */
	target: string;
	/** `shadowed`: registered by an extension, but a mcp.json server has the name. */
	state: McpConnectionState | "shadowed";
	error?: string;
	exposure: McpExposure;
	description?: string;
	tools: McpToolStatus[];
	resources: number;
	resourceTemplates: number;
	prompts: string[];
	instructions?: string;
}

export function targetOf(entry: McpServerEntry): string {
	const config = entry.config;
	return isStdioConfig(config) ? [config.command, ...(config.args ?? [])].map((w) => (/\s/.test(w) ? JSON.stringify(w) : w)).join(" ") : config.url;
}

export function statusOf(connection: McpConnection, filter: McpToolFilter): McpServerStatus {
	const entry = connection.entry;
	const status: McpServerStatus = {
		name: entry.name,
		source: entry.source,
		origin: entry.origin,
		transport: isStdioConfig(entry.config) ? "stdio" : "http",
		target: targetOf(entry),
		state: connection.state,
		exposure: entry.config.exposure ?? "direct",
		tools: connection.tools.map((t) => ({
			name: t.tool.name,
			agentName: t.agentName,
			exposure: t.exposure,
			...(t.exposure !== "hidden" && !filterAllows(filter, t.agentName) ? { filtered: true } : {}),
		})),
		resources: connection.resources.length,
		resourceTemplates: connection.templates.length,
		prompts: connection.prompts.map((p) => p.name),
	};
	if (entry.overriddenBy) status.overriddenBy = entry.overriddenBy;
	if (connection.error) status.error = connection.error;
	if (entry.config.description) status.description = entry.config.description;
	if (connection.instructions) status.instructions = connection.instructions;
	return status;
}

function sourceText(status: McpServerStatus): string {
	if (status.source === "extension") return `extension ${tildify(status.origin)}`;
	return `${status.source}, ${tildify(status.origin)}${status.overriddenBy ? ` (changed by ${tildify(status.overriddenBy)})` : ""}`;
}

function stateText(status: McpServerStatus): string {
	switch (status.state) {
		case "connected":
			return `connected · ${status.tools.length} ${status.tools.length === 1 ? "tool" : "tools"}`;
		case "failed":
			return `failed: ${status.error ?? "unknown error"}`;
		case "shadowed":
			return "not started: a server of this name in mcp.json wins";
		default:
			return status.state;
	}
}

/** The text of `agent mcp list` and of `/mcp` outside the TUI. */
export function formatStatusList(servers: McpServerStatus[], options: { showTools?: boolean } = {}): string[] {
	const lines: string[] = [];
	for (const s of servers) {
		lines.push(`${s.name}  ${stateText(s)}`);
		lines.push(`  ${s.transport} ${s.target}`);
		lines.push(`  from ${sourceText(s)}${s.exposure !== "direct" ? ` · exposure ${s.exposure}` : ""}`);
		if (s.description) lines.push(`  ${s.description}`);
		if (options.showTools !== false && s.tools.length > 0) {
			for (const t of s.tools) {
				const notes = [t.exposure !== s.exposure ? t.exposure : undefined, t.filtered ? "not in --tools" : undefined].filter(Boolean);
				lines.push(`    ${t.agentName}${notes.length ? `  (${notes.join(", ")})` : ""}`);
			}
		}
		const extras = [
			s.resources > 0 ? `${s.resources} ${s.resources === 1 ? "resource" : "resources"}` : undefined,
			s.resourceTemplates > 0 ? `${s.resourceTemplates} resource ${s.resourceTemplates === 1 ? "template" : "templates"}` : undefined,
			s.prompts.length > 0 ? `prompts: ${s.prompts.map((p) => `/mcp:${s.name}:${p}`).join(", ")}` : undefined,
		].filter(Boolean);
		if (extras.length > 0) lines.push(`  ${extras.join(" · ")}`);
	}
	return lines;
}
