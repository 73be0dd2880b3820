// Names, directories and the runtime shape. Everything user-visible that carries the app's name
// comes from package.json `agentConfig`, so a rebrand is one edit. No filesystem work at import.
import { join, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };

export const APP_NAME: string = pkg.agentConfig.name;
export const CONFIG_DIR_NAME: string = pkg.agentConfig.configDir;
export const PACKAGE_NAME: string = pkg.agentConfig.packageName;
export const VERSION: string = pkg.version;
const ENV_PREFIX: string = pkg.agentConfig.envPrefix;

/** Environment variable names, derived from the app name (AGENT_DIR, AGENT_SESSION_DIR, …). */
export const ENV = {
	dir: `${ENV_PREFIX}_DIR`,
	sessionDir: `${ENV_PREFIX}_SESSION_DIR`,
	timing: `${ENV_PREFIX}_TIMING`,
	offline: `${ENV_PREFIX}_OFFLINE`,
	/** Milliseconds an extension's import or factory may take before start-up gives up on it. */
	extensionTimeout: `${ENV_PREFIX}_EXTENSION_TIMEOUT_MS`,
	/** `1`: at exit, name on stderr the bundle chunks this run loaded (dist/agent.chunks.json says what each holds). */
	debugChunks: `${ENV_PREFIX}_DEBUG_CHUNKS`,
} as const;

/**
 * Compiled (`bun build --compile`) or source (`bun src/cli.ts`). Bun serves a compiled
 * binary's own modules from a virtual filesystem whose URLs contain `$bunfs` (or `~BUN` on Windows).
 */
export type RuntimeShape = "compiled" | "source";
export function runtimeShape(): RuntimeShape {
	const url = import.meta.url;
	return url.includes("$bunfs") || url.includes("~BUN") || url.includes("%7EBUN") ? "compiled" : "source";
}

/**
 * The user's home directory: $HOME when set (read when asked, as Node's os.homedir() does), else
 * node:os's answer. node:os loads only then: a run that never needs it saves ~0.5 ms (measured, compiled).
 */
export function homeDir(): string {
	return process.env.HOME || (require("node:os") as typeof import("node:os")).homedir();
}

/** The temporary folder (node:os's answer), with node:os loaded on the first call, as for homeDir(). */
export function tmpDir(): string {
	return (require("node:os") as typeof import("node:os")).tmpdir();
}

/** `~/.agent`, or `$AGENT_DIR`. */
export function getAgentDir(): string {
	const fromEnv = process.env[ENV.dir];
	if (fromEnv) return resolve(expandHome(fromEnv));
	return join(homeDir(), `.${APP_NAME}`);
}

/** `<cwd>/.agent` */
export function getProjectConfigDir(cwd: string): string {
	return join(cwd, CONFIG_DIR_NAME);
}

export function getUserExtensionsDir(): string {
	return join(getAgentDir(), "extensions");
}

/** `~/.agent/mcp.json` — MCP servers for every project. */
export function getUserMcpPath(): string {
	return join(getAgentDir(), "mcp.json");
}

/** `<cwd>/.agent/mcp.json` — the project's MCP servers (read only when the folder is trusted). */
export function getProjectMcpPath(cwd: string): string {
	return join(getProjectConfigDir(cwd), "mcp.json");
}

export function getSessionsDir(): string {
	const fromEnv = process.env[ENV.sessionDir];
	if (fromEnv) return resolve(expandHome(fromEnv));
	return join(getAgentDir(), "sessions");
}

export function isOffline(): boolean {
	const v = process.env[ENV.offline];
	return v === "1" || v === "true";
}

export function expandHome(path: string): string {
	if (path === "~") return homeDir();
	if (path.startsWith("~/")) return join(homeDir(), path.slice(2));
	return path;
}

/** Replace the home directory prefix with `~` for display. */
export function tildify(path: string): string {
	const home = homeDir();
	if (home && home !== "/" && (path === home || path.startsWith(`${home}/`))) return `~${path.slice(home.length)}`;
	return path;
}
