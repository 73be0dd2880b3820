// Server tools and resources as agent tools: `mcp__<server>__<tool>` with the server's JSON Schema
// (the loop checks calls against it) and `mcp_read_resource`, whose description lists resources and
// templates. They run through the loop like every tool, so tool_call / tool_result handlers see them.
import type { TSchema } from "typebox";
import type { AgentTool, AgentToolResult } from "../tools/types.ts";
import type { McpConnection, McpServerTool } from "./connection.ts";
import { READ_RESOURCE_TOOL } from "./tool-names.ts";
import { mapResourceResult, mapToolResult, type McpResultDetails } from "./tool-result.ts";

/** The input schema as the providers want it: an object schema, with `properties` even when empty. */
function parametersOf(schema: Record<string, unknown> | undefined): TSchema {
	const out: Record<string, unknown> = { ...(schema ?? {}) };
	out.type ??= "object";
	out.properties ??= {};
	return out as unknown as TSchema;
}

function errorText(error: unknown): string {
	return (error instanceof Error ? error.message : String(error)).replace(/^MCP error -?\d+: /, "");
}

export function createServerTool(connection: McpConnection, serverTool: McpServerTool): AgentTool<TSchema, McpResultDetails> {
	const { tool, agentName } = serverTool;
	const server = connection.name;
	return {
		name: agentName,
		label: tool.title ?? tool.annotations?.title ?? `${server}: ${tool.name}`,
		description: tool.description?.trim() || `The "${tool.name}" tool of the MCP server "${server}".`,
		parameters: parametersOf(tool.inputSchema as Record<string, unknown>),
		async execute(_id, params, signal, onUpdate) {
			let result;
			try {
				result = await connection.callTool(tool.name, (params ?? {}) as Record<string, unknown>, {
					signal,
					onProgress: (message) => onUpdate?.({ content: [{ type: "text", text: message }], details: { server, tool: tool.name } }),
				});
			} catch (error) {
				// The loop turns a throw into an error result with this text.
				throw new Error(`MCP server "${server}", tool "${tool.name}": ${errorText(error)}`);
			}
			const mapped = await mapToolResult(result, server, tool.name);
			const out: AgentToolResult<McpResultDetails> = { content: mapped.content, details: mapped.details };
			if (mapped.isError) out.isError = true;
			return out;
		},
	};
}

const MAX_LISTED_RESOURCES = 50;

/** What the resource tool's description says about one server. */
function describeServerResources(connection: McpConnection): string[] {
	const lines = [`Server "${connection.name}"${connection.entry.config.description ? ` (${connection.entry.config.description})` : ""}:`];
	for (const r of connection.resources.slice(0, MAX_LISTED_RESOURCES)) {
		lines.push(`- ${r.uri}${r.name && r.name !== r.uri ? ` — ${r.name}` : ""}${r.description ? `: ${r.description.split("\n")[0]}` : ""}`);
	}
	if (connection.resources.length > MAX_LISTED_RESOURCES) lines.push(`- … and ${connection.resources.length - MAX_LISTED_RESOURCES} more`);
	for (const t of connection.templates) {
		lines.push(`- template ${t.uriTemplate}${t.name ? ` — ${t.name}` : ""}${t.description ? `: ${t.description.split("\n")[0]}` : ""} (fill in the {placeholders})`);
	}
	return lines;
}

/** `mcp_read_resource` over the connected servers that offer resources. */
export function createReadResourceTool(servers: McpConnection[]): AgentTool<TSchema, McpResultDetails> {
	const names = servers.map((s) => s.name);
	const description = [
		"Read a resource from an MCP server by its URI. Resources and URI templates the servers offer:",
		...servers.flatMap(describeServerResources),
	].join("\n");
	return {
		name: READ_RESOURCE_TOOL,
		label: "MCP resource",
		description,
		parameters: {
			type: "object",
			properties: {
				server: { type: "string", enum: names, description: "The MCP server that offers the resource" },
				uri: { type: "string", description: "The resource URI (a listed one, or a template with its placeholders filled in)" },
			},
			required: ["server", "uri"],
			additionalProperties: false,
		} as unknown as TSchema,
		async execute(_id, params, signal) {
			const { server, uri } = params as { server: string; uri: string };
			const connection = servers.find((s) => s.name === server);
			if (!connection) throw new Error(`No MCP server "${server}" with resources; choose one of: ${names.join(", ")}`);
			let result;
			try {
				result = await connection.readResource(uri, signal);
			} catch (error) {
				throw new Error(`MCP server "${server}", resource ${uri}: ${errorText(error)}`);
			}
			const mapped = await mapResourceResult(result, server);
			return { content: mapped.content, details: mapped.details };
		},
	};
}
