// The one module that loads the official MCP SDK (`@modelcontextprotocol/sdk`). It is imported
// lazily by connection.ts when the first server connects, so a run without servers never pays for
// it (~100 ms of module evaluation). Everything else sees the SDK through types only.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { Prompt, Resource, ResourceTemplate, Tool } from "@modelcontextprotocol/sdk/types.js";
import { APP_NAME, VERSION } from "../../config.ts";

export type McpSdkClient = Client;

export interface ListChangeHandlers {
	tools(): void;
	prompts(): void;
	resources(): void;
}

/** Start `transport` and run the initialize handshake within `timeoutMs`. */
export async function connectClient(transport: Transport, timeoutMs: number, onChanged: ListChangeHandlers): Promise<Client> {
	const client = new Client(
		{ name: APP_NAME, version: VERSION },
		{
			capabilities: {},
			// The SDK re-lists after a debounce; we only want to know that something changed.
			listChanged: {
				tools: { autoRefresh: false, onChanged: () => onChanged.tools() },
				prompts: { autoRefresh: false, onChanged: () => onChanged.prompts() },
				resources: { autoRefresh: false, onChanged: () => onChanged.resources() },
			},
		},
	);
	await client.connect(transport, { timeout: timeoutMs });
	return client;
}

export function createHttpTransport(url: string, headers: Record<string, string>): Transport {
	return new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } });
}

/** Every page of a cursor-paged list. */
async function allPages<T>(fetch: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
	const out: T[] = [];
	let cursor: string | undefined;
	for (let page = 0; page < 100; page++) {
		const result = await fetch(cursor);
		out.push(...result.items);
		if (!result.nextCursor || result.nextCursor === cursor) break;
		cursor = result.nextCursor;
	}
	return out;
}

export interface ServerListing {
	tools: Tool[];
	resources: Resource[];
	templates: ResourceTemplate[];
	prompts: Prompt[];
}

/** What the server offers, each list only when its capability is announced. */
export async function listEverything(client: Client, timeoutMs: number, parts: { tools?: boolean; resources?: boolean; prompts?: boolean } = { tools: true, resources: true, prompts: true }): Promise<Partial<ServerListing>> {
	const caps = client.getServerCapabilities() ?? {};
	const options = { timeout: timeoutMs };
	const out: Partial<ServerListing> = {};
	const jobs: Promise<void>[] = [];
	if (parts.tools && caps.tools) {
		jobs.push(allPages(async (cursor) => {
			const r = await client.listTools(cursor ? { cursor } : undefined, options);
			return { items: r.tools, nextCursor: r.nextCursor };
		}).then((tools) => void (out.tools = tools)));
	}
	if (parts.resources && caps.resources) {
		jobs.push(allPages(async (cursor) => {
			const r = await client.listResources(cursor ? { cursor } : undefined, options);
			return { items: r.resources, nextCursor: r.nextCursor };
		}).then((resources) => void (out.resources = resources)));
		jobs.push(allPages(async (cursor) => {
			const r = await client.listResourceTemplates(cursor ? { cursor } : undefined, options);
			return { items: r.resourceTemplates, nextCursor: r.nextCursor };
		}).then((templates) => void (out.templates = templates), () => void (out.templates = [])));
	}
	if (parts.prompts && caps.prompts) {
		jobs.push(allPages(async (cursor) => {
			const r = await client.listPrompts(cursor ? { cursor } : undefined, options);
			return { items: r.prompts, nextCursor: r.nextCursor };
		}).then((prompts) => void (out.prompts = prompts)));
	}
	await Promise.all(jobs);
	return out;
}
