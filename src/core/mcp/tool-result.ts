// MCP results as the model sees them: text and images as they are, embedded resources as text (or an
// image, or a temp file), links with how to read them; text over 20 KB cut around a marker, the whole
// in a temp file named in the result. `structuredContent` stays in details.
import type { CallToolResult, ContentBlock, ReadResourceResult } from "@modelcontextprotocol/sdk/types.js";
import type { ImageContent, TextContent } from "../providers/types.ts";
import { newFullOutputPath } from "../tools/full-output.ts";
import { formatSize } from "../tools/truncate.ts";
import { READ_RESOURCE_TOOL } from "./tool-names.ts";

/** pi 1.6's limit for MCP text results. */
export const MAX_RESULT_TEXT_BYTES = 20 * 1024;
/** How much of the start and of the end a shortened text keeps. */
const KEEP_EACH_SIDE = 8 * 1024;

export interface McpResultDetails {
	server: string;
	/** The tool's name on the server. */
	tool?: string;
	/** The server's `structuredContent`, untouched. */
	structuredContent?: unknown;
	/** The server said the call failed (`isError`). */
	isError?: boolean;
	/** The whole text, when it was shortened. */
	fullOutputPath?: string;
	/** Files holding binary content (audio, blobs) the model gets as paths. */
	savedFiles?: string[];
}

type Content = TextContent | ImageContent;

function base64Bytes(data: string): number {
	return Math.floor((data.length * 3) / 4) - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0);
}

async function saveBinary(data: string, mimeType: string | undefined): Promise<string> {
	const ext = mimeType?.split("/")[1]?.replace(/[^a-z0-9]/gi, "") || "bin";
	// Swept at exit like cut-off output, unless the saved result names it (details.savedFiles).
	const path = newFullOutputPath("mcp", ext);
	await Bun.write(path, Buffer.from(data, "base64"));
	return path;
}

/** One block of `content` (tool results, prompt messages) or of resource `contents`. */
async function mapBlock(block: ContentBlock, server: string, saved: string[]): Promise<Content> {
	switch (block.type) {
		case "text":
			return { type: "text", text: block.text };
		case "image":
			return { type: "image", data: block.data, mimeType: block.mimeType };
		case "audio": {
			const path = await saveBinary(block.data, block.mimeType);
			saved.push(path);
			return { type: "text", text: `[audio ${block.mimeType}, ${formatSize(base64Bytes(block.data))}, saved to ${path}]` };
		}
		case "resource":
			return mapResourceContents(block.resource, saved);
		case "resource_link": {
			const about = [block.description, block.mimeType].filter(Boolean).join(", ");
			return {
				type: "text",
				text: `[resource ${block.name} <${block.uri}>${about ? ` (${about})` : ""}: read it with ${READ_RESOURCE_TOOL} {"server": ${JSON.stringify(server)}, "uri": ${JSON.stringify(block.uri)}}]`,
			};
		}
		default:
			return { type: "text", text: JSON.stringify(block) };
	}
}

type ResourceContents = ReadResourceResult["contents"][number];

async function mapResourceContents(resource: ResourceContents, saved: string[]): Promise<Content> {
	if ("text" in resource && typeof resource.text === "string") {
		return { type: "text", text: resource.text };
	}
	const blob = "blob" in resource && typeof resource.blob === "string" ? resource.blob : "";
	if (resource.mimeType?.startsWith("image/")) return { type: "image", data: blob, mimeType: resource.mimeType };
	const path = await saveBinary(blob, resource.mimeType);
	saved.push(path);
	return { type: "text", text: `[binary resource <${resource.uri}> (${resource.mimeType ?? "no type"}, ${formatSize(base64Bytes(blob))}) saved to ${path}]` };
}

/** Text blocks over the limit become one shortened block; the whole text goes to a temp file. */
async function limitText(content: Content[]): Promise<{ content: Content[]; fullOutputPath?: string }> {
	const texts = content.filter((c): c is TextContent => c.type === "text");
	const whole = texts.map((t) => t.text).join("\n");
	if (Buffer.byteLength(whole) <= MAX_RESULT_TEXT_BYTES) return { content };
	const fullOutputPath = newFullOutputPath("mcp");
	await Bun.write(fullOutputPath, whole);
	const cut = whole.length - 2 * KEEP_EACH_SIDE;
	const text = `${whole.slice(0, KEEP_EACH_SIDE)}\n…${cut} chars truncated…\n${whole.slice(-KEEP_EACH_SIDE)}\n[The full result (${formatSize(Buffer.byteLength(whole))}) is in ${fullOutputPath}]`;
	const images = content.filter((c) => c.type === "image");
	return { content: [{ type: "text", text }, ...images], fullOutputPath };
}

export interface MappedResult {
	content: Content[];
	details: McpResultDetails;
	isError: boolean;
}

/** A `tools/call` result for the model. */
export async function mapToolResult(result: CallToolResult | { toolResult: unknown }, server: string, tool: string): Promise<MappedResult> {
	const saved: string[] = [];
	const details: McpResultDetails = { server, tool };
	let content: Content[];
	if ("content" in result && Array.isArray(result.content)) {
		content = [];
		for (const block of result.content) content.push(await mapBlock(block, server, saved));
		if (result.structuredContent !== undefined) details.structuredContent = result.structuredContent;
		// A result with only structured data still has to say something to the model.
		if (content.length === 0 && result.structuredContent !== undefined) content.push({ type: "text", text: JSON.stringify(result.structuredContent, null, 2) });
	} else {
		// The 2024-10 protocol's `toolResult`.
		content = [{ type: "text", text: JSON.stringify((result as { toolResult: unknown }).toolResult, null, 2) }];
	}
	const isError = "isError" in result && result.isError === true;
	if (isError) details.isError = true;
	if (content.length === 0) content.push({ type: "text", text: isError ? "(the tool failed and said nothing)" : "(no output)" });
	const limited = await limitText(content);
	if (limited.fullOutputPath) details.fullOutputPath = limited.fullOutputPath;
	if (saved.length > 0) details.savedFiles = saved;
	return { content: limited.content, details, isError };
}

/** A `resources/read` result for the model: each content block, text shortened like tool results. */
export async function mapResourceResult(result: ReadResourceResult, server: string): Promise<MappedResult> {
	const saved: string[] = [];
	const content: Content[] = [];
	for (const item of result.contents) content.push(await mapResourceContents(item, saved));
	if (content.length === 0) content.push({ type: "text", text: "(the resource is empty)" });
	const limited = await limitText(content);
	const details: McpResultDetails = { server };
	if (limited.fullOutputPath) details.fullOutputPath = limited.fullOutputPath;
	if (saved.length > 0) details.savedFiles = saved;
	return { content: limited.content, details, isError: false };
}

/** Prompt messages (`prompts/get`) as the text and images of one user message. */
export async function mapPromptMessages(messages: { role: string; content: ContentBlock }[], server: string): Promise<{ text: string; images: ImageContent[] }> {
	const saved: string[] = [];
	const parts: string[] = [];
	const images: ImageContent[] = [];
	const labelled = messages.some((m) => m.role !== "user");
	for (const message of messages) {
		const block = await mapBlock(message.content, server, saved);
		if (block.type === "image") images.push(block);
		else parts.push(labelled ? `[${message.role}]\n${block.text}` : block.text);
	}
	return { text: parts.join("\n\n"), images };
}
