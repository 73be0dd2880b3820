// The servers a run knows from disk: ~/.agent/mcp.json, then a trusted project's .agent/mcp.json (a
// full entry replaces the user's of that name; one without command or url changes only enabled and
// exposure). Not JSON: file:line:column, the run stops. A bad entry: reported with its position, skipped.
import { getProjectMcpPath, getUserMcpPath, tildify } from "../../config.ts";
import { ConfigFileError, lineColumn, readConfigText, scanJson } from "../providers/json-file.ts";
import {
	isOverrideOnly,
	serverKey,
	serverNameProblem,
	validateOverride,
	validateServerConfig,
	type McpServerConfig,
	type McpServerOverride,
} from "./server-config.ts";

export type McpServerSource = "user" | "project" | "extension";

/** A server the session may start: where it came from and its checked config (before `${VAR}` expansion). */
export interface McpServerEntry {
	name: string;
	config: McpServerConfig;
	source: McpServerSource;
	/** The mcp.json that defines it, or the path of the extension that registered it. */
	origin: string;
	/** A project file whose override entry changed `enabled` or exposure. */
	overriddenBy?: string;
}

export interface McpConfigProblem {
	/** The file. */
	path: string;
	line?: number;
	column?: number;
	/** The entry, when the problem is in one. */
	server?: string;
	message: string;
}

export interface LoadedMcpConfig {
	servers: McpServerEntry[];
	/** Entries that were skipped, each with where and why. */
	problems: McpConfigProblem[];
}

export const MCP_JSON_EXAMPLE = `{ "mcpServers": { "files": { "command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "."] }, "docs": { "url": "https://example.com/mcp" } } }`;

export const userMcpPath = getUserMcpPath;
export const projectMcpPath = getProjectMcpPath;

/** `file:line:column: message` for one skipped entry, as printed on stderr and by `agent mcp list`. */
export function formatProblem(problem: McpConfigProblem): string {
	const where = problem.line === undefined ? tildify(problem.path) : `${tildify(problem.path)}:${problem.line}:${problem.column}`;
	return `${where}: ${problem.server ? `server "${problem.server}": ` : ""}${problem.message}`;
}

interface RawEntry {
	name: string;
	raw: unknown;
	/** Turns a pointer inside the entry into a line and column. */
	at(pointer: string): { line: number; column: number } | undefined;
}

export interface McpFile {
	path: string;
	entries: RawEntry[];
}

const FIX_HINT = `Fix the file and run again; it was not changed. Expected shape: ${MCP_JSON_EXAMPLE}`;

/**
 * Parse one mcp.json; undefined when the file does not exist. Not JSON, or not the
 * `{ "mcpServers": { … } }` shape at the top: ConfigFileError with the position and the fix.
 */
export function readMcpFile(path: string): McpFile | undefined {
	const text = readConfigText(path);
	if (text === undefined) return undefined;
	if (!text.trim()) return { path, entries: [] };
	const scan = scanJson(text);
	if (scan.error) {
		const at = lineColumn(text, scan.error.offset);
		throw new ConfigFileError(path, at.line, at.column, `invalid JSON: ${scan.error.message}`, [FIX_HINT]);
	}
	const value = JSON.parse(text) as unknown;
	const position = (pointer: string) => {
		const offset = scan.positions.get(pointer);
		return offset === undefined ? undefined : lineColumn(text, offset);
	};
	const fail = (pointer: string, message: string): never => {
		const at = position(pointer);
		throw new ConfigFileError(path, at?.line, at?.column, message, [FIX_HINT]);
	};
	if (!value || typeof value !== "object" || Array.isArray(value)) fail("", `the file must hold a JSON object with "mcpServers"`);
	const servers = (value as Record<string, unknown>).mcpServers;
	if (servers === undefined) return { path, entries: [] };
	if (!servers || typeof servers !== "object" || Array.isArray(servers)) fail("/mcpServers", `"mcpServers" must be an object of server names to their settings`);
	const entries = Object.entries(servers as Record<string, unknown>).map(([name, raw]) => {
		const base = `/mcpServers/${name.replace(/~/g, "~0").replace(/\//g, "~1")}`;
		return { name, raw, at: (pointer: string) => position(base + pointer) ?? position(base) };
	});
	return { path, entries };
}

export interface LoadMcpConfigOptions {
	cwd: string;
	/** Read the project's `.agent/mcp.json` (only for a trusted folder). */
	projectTrusted: boolean;
	/** Default `~/.agent/mcp.json`. */
	userPath?: string;
}

/** Both files merged. Throws ConfigFileError for a file that is not JSON; entry problems are returned. */
export function loadMcpConfig(options: LoadMcpConfigOptions): LoadedMcpConfig {
	const problems: McpConfigProblem[] = [];
	const servers: McpServerEntry[] = [];
	const byKey = new Map<string, McpServerEntry>();
	const problem = (file: McpFile, entry: RawEntry, pointer: string, message: string) => {
		const at = entry.at(pointer);
		problems.push({ path: file.path, line: at?.line, column: at?.column, server: entry.name, message });
	};
	const checkedName = (file: McpFile, entry: RawEntry, seen: Set<string>): boolean => {
		const bad = serverNameProblem(entry.name);
		if (bad) {
			problem(file, entry, "", bad);
			return false;
		}
		const key = serverKey(entry.name);
		if (seen.has(key)) {
			problem(file, entry, "", `another server in this file has the same name (names that differ only in "-" and "_" are the same)`);
			return false;
		}
		seen.add(key);
		return true;
	};

	const user = readMcpFile(options.userPath ?? userMcpPath());
	const userSeen = new Set<string>();
	for (const entry of user?.entries ?? []) {
		if (!checkedName(user!, entry, userSeen)) continue;
		const config = validateServerConfig(entry.raw);
		if ("message" in config) {
			problem(user!, entry, config.pointer, config.message);
			continue;
		}
		const server: McpServerEntry = { name: entry.name, config, source: "user", origin: user!.path };
		servers.push(server);
		byKey.set(serverKey(entry.name), server);
	}

	const project = options.projectTrusted ? readMcpFile(projectMcpPath(options.cwd)) : undefined;
	const projectSeen = new Set<string>();
	for (const entry of project?.entries ?? []) {
		if (!checkedName(project!, entry, projectSeen)) continue;
		const key = serverKey(entry.name);
		const existing = byKey.get(key);
		if (isOverrideOnly(entry.raw)) {
			const override = validateOverride(entry.raw);
			if ("message" in override) {
				problem(project!, entry, override.pointer, override.message);
				continue;
			}
			if (!existing) {
				problem(project!, entry, "", `has no "command" or "url", so it can only change a server of that name in ${tildify(user?.path ?? userMcpPath())}, and there is none`);
				continue;
			}
			existing.config = applyOverride(existing.config, override);
			existing.overriddenBy = project!.path;
			continue;
		}
		const config = validateServerConfig(entry.raw);
		if ("message" in config) {
			problem(project!, entry, config.pointer, config.message);
			continue;
		}
		const server: McpServerEntry = { name: entry.name, config, source: "project", origin: project!.path };
		if (existing) servers.splice(servers.indexOf(existing), 1, server);
		else servers.push(server);
		byKey.set(key, server);
	}
	return { servers, problems };
}

function applyOverride(config: McpServerConfig, override: McpServerOverride): McpServerConfig {
	const next = { ...config };
	if (override.enabled !== undefined) next.enabled = override.enabled;
	if (override.exposure !== undefined) next.exposure = override.exposure;
	// The project's keys come first, so its patterns are tried before the user's.
	if (override.toolExposure !== undefined) next.toolExposure = { ...override.toolExposure, ...withoutKeys(config.toolExposure, override.toolExposure) };
	return next;
}

function withoutKeys<T>(record: Record<string, T> | undefined, drop: Record<string, unknown>): Record<string, T> {
	return Object.fromEntries(Object.entries(record ?? {}).filter(([key]) => !(key in drop)));
}

/** Server names a project file defines, read without trusting it (for the trust prompt and skip line); never throws. */
export function peekProjectServers(cwd: string): string[] {
	try {
		return readMcpFile(projectMcpPath(cwd))?.entries.map((e) => e.name) ?? [];
	} catch {
		return [];
	}
}
