// One `mcpServers` entry: its shape (the format Claude, Cursor and pi share, plus our exposure
// fields), the checks that turn a raw JSON value into a config or a message, and name rules.
// No I/O: mcp-config.ts reads the files, extensions pass configs through pi.registerMcpServer().

/**
 * - `direct` (default): declared to the model like a built-in tool; the first request waits for the server.
 * - `deferred`: declared too, but nothing waits for the server: its tools join from the first request after it connected.
 * - `hidden`: never declared; the tool is listed (agent mcp list, /mcp) and unreachable.
 * pi's `codemode` and `codemode-deferred` are read as `deferred` (there is no codemode here).
 */
export type McpExposure = "direct" | "deferred" | "hidden";

const EXPOSURES: Record<string, McpExposure> = {
	direct: "direct",
	deferred: "deferred",
	hidden: "hidden",
	codemode: "deferred",
	"codemode-deferred": "deferred",
};

interface McpServerConfigBase {
	/** Default true. */
	enabled?: boolean;
	/** Seconds one request may take; progress notifications restart it. Default 60. */
	timeout?: number;
	/** What the server offers, in a sentence (listings, the resource tool's description). */
	description?: string;
	/** Default `direct`. */
	exposure?: McpExposure;
	/** Per tool (server tool names, `*` matches any characters): exact names win, then the first matching pattern. */
	toolExposure?: Record<string, McpExposure>;
}

export interface McpStdioServerConfig extends McpServerConfigBase {
	type?: "stdio";
	/** One executable (not a shell line); `~/` is the home folder. */
	command: string;
	args?: string[];
	/** Added to the inherited environment; values may use `${VAR}`. */
	env?: Record<string, string>;
	/** Relative to the session's folder. */
	cwd?: string;
}

export interface McpHttpServerConfig extends McpServerConfigBase {
	type?: "http" | "streamable-http";
	url: string;
	/** Values may use `${VAR}`. */
	headers?: Record<string, string>;
}

export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** A project entry without command or url: changes only these fields of the user entry of that name. */
export type McpServerOverride = Pick<McpServerConfigBase, "enabled" | "exposure" | "toolExposure">;

export const DEFAULT_TIMEOUT_SECONDS = 60;

/** A problem in one entry: what, and where inside the entry (a JSON pointer relative to it). */
export interface EntryProblem {
	message: string;
	pointer: string;
}

export function isStdioConfig(config: McpServerConfig): config is McpStdioServerConfig {
	return "command" in config && typeof config.command === "string";
}

/** Names may hold letters, digits, `_` and `-`; two that differ only in `-`/`_` are the same server. */
export function serverNameProblem(name: string): string | undefined {
	if (!/^[A-Za-z0-9_-]+$/.test(name)) return `server name "${name}" may contain only letters, digits, "_" and "-"`;
	return undefined;
}

export function serverKey(name: string): string {
	return name.replaceAll("-", "_");
}

/** Whether a project entry only overrides fields of a user entry (no command, url or type). */
export function isOverrideOnly(raw: unknown): boolean {
	return isObject(raw) && raw.command === undefined && raw.url === undefined && raw.type === undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return value !== null && typeof value === "object" && !Array.isArray(value);
}

function stringRecord(value: unknown, field: string): EntryProblem | undefined {
	if (value === undefined) return undefined;
	if (!isObject(value)) return { pointer: `/${field}`, message: `"${field}" must be an object of strings` };
	for (const [key, v] of Object.entries(value)) {
		if (typeof v !== "string") return { pointer: `/${field}/${key}`, message: `"${field}.${key}" must be a string` };
	}
	return undefined;
}

function exposureOf(value: unknown, pointer: string, label: string): McpExposure | EntryProblem {
	const exposure = typeof value === "string" ? EXPOSURES[value] : undefined;
	return exposure ?? { pointer, message: `${label} must be "direct", "deferred" or "hidden" (got ${JSON.stringify(value)})` };
}

/** The fields every entry (and an override) may have, checked and normalised into `out`. */
function checkCommonFields(raw: Record<string, unknown>, out: McpServerConfigBase): EntryProblem | undefined {
	if (raw.enabled !== undefined) {
		if (typeof raw.enabled !== "boolean") return { pointer: "/enabled", message: `"enabled" must be true or false` };
		out.enabled = raw.enabled;
	}
	if (raw.exposure !== undefined) {
		const exposure = exposureOf(raw.exposure, "/exposure", `"exposure"`);
		if (typeof exposure !== "string") return exposure;
		out.exposure = exposure;
	}
	if (raw.toolExposure !== undefined) {
		if (!isObject(raw.toolExposure)) return { pointer: "/toolExposure", message: `"toolExposure" must be an object of tool names (or patterns) to exposures` };
		const map: Record<string, McpExposure> = {};
		for (const [tool, value] of Object.entries(raw.toolExposure)) {
			const exposure = exposureOf(value, `/toolExposure/${tool}`, `"toolExposure.${tool}"`);
			if (typeof exposure !== "string") return exposure;
			map[tool] = exposure;
		}
		out.toolExposure = map;
	}
	return undefined;
}

/** A project override entry, checked. */
export function validateOverride(raw: unknown): McpServerOverride | EntryProblem {
	if (!isObject(raw)) return { pointer: "", message: "a server entry must be an object" };
	const out: McpServerOverride = {};
	return checkCommonFields(raw, out) ?? out;
}

/**
 * Check one entry of the `mcpServers` shape; returns a normalised copy (exposure aliases resolved)
 * or the first problem. Unknown fields (other clients' settings) are ignored.
 */
export function validateServerConfig(raw: unknown): McpServerConfig | EntryProblem {
	if (!isObject(raw)) return { pointer: "", message: "a server entry must be an object with a command (stdio) or a url (streamable HTTP)" };
	const type = raw.type;
	if (type === "sse") {
		return {
			pointer: "/type",
			message: `the legacy SSE transport is not supported: use streamable HTTP ("url" without "type", or "type": "http"); servers that document an /sse endpoint usually serve streamable HTTP at /mcp`,
		};
	}
	if (type !== undefined && type !== "stdio" && type !== "http" && type !== "streamable-http") {
		return { pointer: "/type", message: `"type" must be "stdio", "http" or "streamable-http" (got ${JSON.stringify(type)})` };
	}
	const base: McpServerConfigBase = {};
	const common = checkCommonFields(raw, base);
	if (common) return common;
	if (raw.timeout !== undefined) {
		if (typeof raw.timeout !== "number" || !Number.isFinite(raw.timeout) || raw.timeout <= 0) return { pointer: "/timeout", message: `"timeout" must be a number of seconds above 0` };
		base.timeout = raw.timeout;
	}
	if (raw.description !== undefined) {
		if (typeof raw.description !== "string") return { pointer: "/description", message: `"description" must be a string` };
		base.description = raw.description;
	}
	const wantsStdio = type === "stdio" || (type === undefined && raw.command !== undefined);
	if (wantsStdio) {
		if (typeof raw.command !== "string" || raw.command.trim() === "") return { pointer: "/command", message: `a stdio server needs "command": the program to start` };
		if (/\s/.test(raw.command.trim()) && raw.args === undefined && !raw.command.includes("/")) {
			return { pointer: "/command", message: `"command" is one program, not a shell line: put its arguments in "args" (["${raw.command.trim().split(/\s+/).slice(1).join('", "')}"])` };
		}
		if (raw.args !== undefined && (!Array.isArray(raw.args) || raw.args.some((a) => typeof a !== "string"))) return { pointer: "/args", message: `"args" must be an array of strings` };
		const env = stringRecord(raw.env, "env");
		if (env) return env;
		if (raw.cwd !== undefined && typeof raw.cwd !== "string") return { pointer: "/cwd", message: `"cwd" must be a string (a folder)` };
		const config: McpStdioServerConfig = { ...base, command: raw.command };
		if (type) config.type = "stdio";
		if (raw.args) config.args = [...(raw.args as string[])];
		if (raw.env) config.env = { ...(raw.env as Record<string, string>) };
		if (raw.cwd !== undefined) config.cwd = raw.cwd as string;
		return config;
	}
	if (typeof raw.url !== "string" || raw.url === "") return { pointer: type ? "/url" : "", message: `a server needs "command" (a program to start over stdio) or "url" (a streamable HTTP endpoint)` };
	const url = raw.url;
	if (!/^https?:\/\//i.test(url) && !url.includes("${")) return { pointer: "/url", message: `"url" must start with http:// or https:// (got ${JSON.stringify(url)})` };
	const headers = stringRecord(raw.headers, "headers");
	if (headers) return headers;
	const config: McpHttpServerConfig = { ...base, url };
	if (type === "http" || type === "streamable-http") config.type = type;
	if (raw.headers) config.headers = { ...(raw.headers as Record<string, string>) };
	return config;
}

export function isEntryProblem(value: unknown): value is EntryProblem {
	return isObject(value) && typeof value.message === "string" && typeof value.pointer === "string" && Object.keys(value).length === 2;
}

/** Whether `name` matches a `toolExposure` key or a `--tools` entry: `*` matches any characters. */
export function matchesPattern(pattern: string, name: string): boolean {
	if (!pattern.includes("*")) return pattern === name;
	const re = new RegExp(`^${pattern.split("*").map((p) => p.replace(/[.+?^${}()|[\]\\]/g, "\\$&")).join(".*")}$`);
	return re.test(name);
}

/** The exposure of one server tool: an exact `toolExposure` key, else the first matching pattern, else the server's. */
export function toolExposure(config: Pick<McpServerConfigBase, "exposure" | "toolExposure">, toolName: string): McpExposure {
	const map = config.toolExposure ?? {};
	const exact = map[toolName];
	if (exact) return exact;
	for (const [pattern, exposure] of Object.entries(map)) if (pattern.includes("*") && matchesPattern(pattern, toolName)) return exposure;
	return config.exposure ?? "direct";
}

/** Whether the first request waits for this server: some of its tools may be `direct`. */
export function mayHaveDirectTools(config: Pick<McpServerConfigBase, "exposure" | "toolExposure">): boolean {
	if ((config.exposure ?? "direct") === "direct") return true;
	return Object.values(config.toolExposure ?? {}).includes("direct");
}
