// `/mcp`: the session's MCP servers — state, where each comes from, its tools — and
// `/mcp reconnect [server]`, `/mcp tools <server>`. Reads and acts through the session's McpSession.
import type { AutocompleteItem } from "../../core/extensions/types.ts";
import { formatStatusList, type McpServerStatus } from "../../core/mcp/status.ts";
import { APP_NAME } from "../../config.ts";
import type { InteractiveApp } from "./app.ts";
import { currentTheme } from "./theme/styles.ts";

function servers(app: InteractiveApp): McpServerStatus[] {
	return app.mcp?.status() ?? [];
}

function overview(app: InteractiveApp): void {
	const list = servers(app);
	const theme = currentTheme();
	if (!app.mcp) return app.info("MCP is off for this run (--no-mcp).");
	if (list.length === 0) return app.info(`No MCP servers. Add one with "${APP_NAME} mcp add <name> -- <command> [args…]" (or to ~/.agent/mcp.json), then /reload.`);
	const lines = [theme.bold("MCP servers")];
	for (const line of formatStatusList(list, { showTools: false })) {
		const first = !line.startsWith(" ");
		lines.push(`  ${first ? colourState(line) : theme.fg("muted", line)}`);
	}
	lines.push("", theme.fg("dim", "/mcp tools <server> lists a server's tools; /mcp reconnect [server] starts servers again."));
	app.block(lines);
}

/** `name  state…`: the state in the colour of how it went. */
function colourState(line: string): string {
	const theme = currentTheme();
	const at = line.indexOf("  ");
	const name = line.slice(0, at);
	const state = line.slice(at + 2);
	const colour = state.startsWith("connected") ? "success" : state.startsWith("failed") ? "error" : "warning";
	return `${theme.bold(name)}  ${theme.fg(colour, state)}`;
}

function tools(app: InteractiveApp, name: string): void {
	const server = servers(app).find((s) => s.name === name);
	if (!server) return app.error(name ? `No MCP server named "${name}". Servers: ${servers(app).map((s) => s.name).join(", ") || "none"}` : "Usage: /mcp tools <server>");
	const theme = currentTheme();
	if (server.tools.length === 0) return app.info(server.state === "connected" ? `"${name}" offers no tools.` : `"${name}" is ${server.state}${server.error ? `: ${server.error}` : ""}.`);
	const lines = [theme.bold(`Tools of ${name}`)];
	for (const t of server.tools) {
		const notes = [t.exposure !== "direct" ? t.exposure : undefined, t.filtered ? "not in --tools" : undefined].filter(Boolean).join(", ");
		lines.push(`  ${t.agentName}${notes ? theme.fg("dim", `  (${notes})`) : ""}`);
	}
	app.block(lines);
}

async function reconnect(app: InteractiveApp, name: string): Promise<void> {
	if (!app.mcp) return app.info("MCP is off for this run (--no-mcp).");
	app.info(name ? `Reconnecting ${name}…` : "Reconnecting every MCP server…");
	await app.mcp.reconnect(name || undefined);
	const list = servers(app).filter((s) => !name || s.name === name);
	for (const s of list) {
		if (s.state === "connected") app.info(`${s.name}: connected · ${s.tools.length} ${s.tools.length === 1 ? "tool" : "tools"}`);
		else app.error(`${s.name}: ${s.state}${s.error ? `: ${s.error}` : ""}`);
	}
}

/** What `/mcp <prefix>` completes to. */
export function mcpCompletions(app: InteractiveApp, prefix: string): AutocompleteItem[] {
	const names = servers(app).map((s) => s.name);
	const words = ["reconnect", ...names.map((n) => `reconnect ${n}`), ...names.map((n) => `tools ${n}`)];
	// A word already typed in full is not offered again: Enter then runs the command instead of completing it.
	return words.filter((w) => w.startsWith(prefix) && w !== prefix).map((w) => ({ value: w, label: w }));
}

/** What /mcp does (its name and description are in commands.ts, which loads this on first use). */
export async function runMcp(app: InteractiveApp, args: string): Promise<void> {
	const [sub = "", ...rest] = args.split(/\s+/).filter(Boolean);
	if (sub === "") return overview(app);
	if (sub === "reconnect") return reconnect(app, rest.join(" "));
	if (sub === "tools") return tools(app, rest.join(" "));
	app.error(`Unknown /mcp command "${sub}". Use /mcp, /mcp reconnect [server] or /mcp tools <server>.`);
}
