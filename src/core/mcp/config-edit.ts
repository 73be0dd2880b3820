// `agent mcp add` / `remove`: change one `mcpServers` entry and leave every other byte of the file
// alone. jsonc-parser (VS Code's settings parser) gives node positions; the edit is one splice,
// indented like its neighbours. A file that is not valid JSON is refused with its position.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { findNodeAtLocation, parseTree, type Node } from "jsonc-parser";
import { readMcpFile } from "./mcp-config.ts";
import { serverKey, type McpServerConfig } from "./server-config.ts";

export class McpEditError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "McpEditError";
	}
}

interface Style {
	/** One level of indentation. */
	unit: string;
	eol: string;
}

/** The file's own indentation (tabs or N spaces) and line ending, so an insert looks like the rest. */
function styleOf(text: string): Style {
	const eol = text.includes("\r\n") ? "\r\n" : "\n";
	const indented = /\n([ \t]+)\S/.exec(text)?.[1];
	return { unit: indented?.startsWith("\t") ? "\t" : " ".repeat(indented?.length || 2), eol };
}

/** The whitespace a line starts with, when `offset` is the first thing on its line; else undefined. */
function lineIndent(text: string, offset: number): string | undefined {
	const start = text.lastIndexOf("\n", offset - 1) + 1;
	const before = text.slice(start, offset);
	return /^[ \t]*$/.test(before) ? before : undefined;
}

/** `value` as JSON whose lines after the first start with `indent`. */
function stringifyAt(value: unknown, indent: string, style: Style): string {
	return JSON.stringify(value, null, style.unit).split("\n").join(style.eol + indent);
}

function splice(text: string, start: number, end: number, insert: string): string {
	return text.slice(0, start) + insert + text.slice(end);
}

/** Add `"name": value` as the last member of `object` (a node of an object in `text`). */
function insertMember(text: string, object: Node, name: string, value: unknown, style: Style): string {
	const members = object.children ?? [];
	const key = JSON.stringify(name);
	const last = members.at(-1);
	if (last) {
		const indent = lineIndent(text, last.offset);
		// A one-line object stays on one line.
		if (indent === undefined) return splice(text, last.offset + last.length, last.offset + last.length, `, ${key}: ${JSON.stringify(value)}`);
		return splice(text, last.offset + last.length, last.offset + last.length, `,${style.eol}${indent}${key}: ${stringifyAt(value, indent, style)}`);
	}
	const outer = lineIndent(text, object.parent?.offset ?? object.offset) ?? "";
	const inner = outer + style.unit;
	return splice(text, object.offset, object.offset + object.length, `{${style.eol}${inner}${key}: ${stringifyAt(value, inner, style)}${style.eol}${outer}}`);
}

function parseObject(text: string): Node {
	const root = parseTree(text);
	if (!root || root.type !== "object") throw new McpEditError("the file does not hold a JSON object");
	return root;
}

function readText(path: string): string | undefined {
	try {
		return readFileSync(path, "utf8");
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
		throw error;
	}
}

/** Write next to the file and rename over it, so a crash leaves the old file or the new one. */
function writeAtomically(path: string, text: string): void {
	mkdirSync(dirname(path), { recursive: true });
	const tmp = `${path}.${process.pid}.tmp`;
	writeFileSync(tmp, text);
	renameSync(tmp, path);
}

/** The names in the file's `mcpServers`; throws ConfigFileError (with line and column) for a broken file. */
function existingNames(path: string): string[] {
	return readMcpFile(path)?.entries.map((e) => e.name) ?? [];
}

/** Add `name` or replace it; returns whether it replaced an entry. */
export function addServerToFile(path: string, name: string, config: McpServerConfig): { replaced: boolean } {
	const names = existingNames(path);
	const clash = names.find((n) => n !== name && serverKey(n) === serverKey(name));
	if (clash) throw new McpEditError(`"${name}" and "${clash}" would be the same server (names that differ only in "-" and "_" are the same): remove "${clash}" first, or add it under that name.`);
	const text = readText(path);
	if (text === undefined || !text.trim()) {
		writeAtomically(path, `${JSON.stringify({ mcpServers: { [name]: config } }, null, 2)}\n`);
		return { replaced: false };
	}
	const style = styleOf(text);
	const root = parseObject(text);
	const servers = findNodeAtLocation(root, ["mcpServers"]);
	if (!servers) {
		writeAtomically(path, insertMember(text, root, "mcpServers", { [name]: config }, style));
		return { replaced: false };
	}
	const existing = findNodeAtLocation(servers, [name]);
	if (existing) {
		const indent = lineIndent(text, existing.parent!.offset) ?? "";
		writeAtomically(path, splice(text, existing.offset, existing.offset + existing.length, stringifyAt(config, indent, style)));
		return { replaced: true };
	}
	writeAtomically(path, insertMember(text, servers, name, config, style));
	return { replaced: false };
}

/** Remove `name` and the comma before it (or after it, for the first member); throws McpEditError when the file has no such server. */
export function removeServerFromFile(path: string, name: string): void {
	const names = existingNames(path);
	if (!names.includes(name)) throw new McpEditError(`no server "${name}"`);
	const text = readText(path)!;
	const servers = findNodeAtLocation(parseObject(text), ["mcpServers"])!;
	const members = servers.children ?? [];
	const at = members.findIndex((m) => m.children?.[0]?.value === name);
	const member = members[at]!;
	const previous = members[at - 1];
	const next = members[at + 1];
	// From the end of the previous member (its comma goes), or up to the start of the next one.
	const start = previous ? previous.offset + previous.length : member.offset;
	const end = previous ? member.offset + member.length : next ? next.offset : member.offset + member.length;
	let edited = splice(text, start, end, "");
	// The only member gone: `{ }` with its inner whitespace collapses to `{}`.
	if (!previous && !next) edited = splice(edited, servers.offset, servers.offset + servers.length - (end - start), "{}");
	writeAtomically(path, edited);
}

/** Whether the file defines `name`. Never throws. */
export function fileHasServer(path: string, name: string): boolean {
	try {
		return existingNames(path).includes(name);
	} catch {
		return false;
	}
}
