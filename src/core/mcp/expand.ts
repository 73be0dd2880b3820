// From a config entry to what is started: `${VAR}` (and `${VAR:-default}`) expanded in command,
// args, env, cwd, url and headers, `~/` as the home folder, cwd against the session folder, and
// the child's environment (a short list inherited, as the official SDK does, plus `env`).
import { isAbsolute, resolve } from "node:path";
import { expandHome } from "../../config.ts";
import type { McpServerEntry } from "./mcp-config.ts";
import { isStdioConfig } from "./server-config.ts";
import type { StdioProcessSpec } from "./stdio-process.ts";

export type ExpandedServer = { kind: "stdio"; spec: StdioProcessSpec } | { kind: "http"; url: string; headers: Record<string, string> };

/**
 * Inherited by a stdio server: the official SDK's list (so API keys in the agent's environment
 * do not leak to third-party servers) plus the temp folder and locale.
 */
const INHERITED_ENV = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER", "TMPDIR", "LANG", "LC_ALL", "APPDATA", "LOCALAPPDATA", "SYSTEMROOT", "USERPROFILE", "TEMP"];

export class MissingVariableError extends Error {
	constructor(
		readonly variable: string,
		readonly field: string,
	) {
		super(`environment variable ${variable} (used in ${field}) is not set`);
		this.name = "MissingVariableError";
	}
}

/** `${NAME}` → its value; `${NAME:-fallback}` → the fallback when unset or empty. A missing variable throws. */
export function expandVariables(text: string, field: string, env: Record<string, string | undefined> = process.env): string {
	return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, name: string, fallback: string | undefined) => {
		const value = env[name];
		if (value !== undefined && value !== "") return value;
		if (fallback !== undefined) return fallback;
		throw new MissingVariableError(name, field);
	});
}

function expandRecord(record: Record<string, string> | undefined, field: string): Record<string, string> {
	const out: Record<string, string> = {};
	for (const [key, value] of Object.entries(record ?? {})) out[key] = expandVariables(value, `${field}.${key}`);
	return out;
}

export function inheritedEnvironment(): Record<string, string> {
	const env: Record<string, string> = {};
	for (const key of INHERITED_ENV) {
		const value = process.env[key];
		// A value starting with "()" is an exported shell function: never pass those on.
		if (value !== undefined && !value.startsWith("()")) env[key] = value;
	}
	return env;
}

/** Throws MissingVariableError for a `${VAR}` that is not set. */
export function expandEntry(entry: McpServerEntry, cwd: string): ExpandedServer {
	const config = entry.config;
	if (isStdioConfig(config)) {
		const dir = config.cwd === undefined ? cwd : expandHome(expandVariables(config.cwd, "cwd"));
		return {
			kind: "stdio",
			spec: {
				command: expandHome(expandVariables(config.command, "command")),
				args: (config.args ?? []).map((a, i) => expandHome(expandVariables(a, `args[${i}]`))),
				env: { ...inheritedEnvironment(), ...expandRecord(config.env, "env") },
				cwd: isAbsolute(dir) ? dir : resolve(cwd, dir),
			},
		};
	}
	return { kind: "http", url: expandVariables(config.url, "url"), headers: expandRecord(config.headers, "headers") };
}
