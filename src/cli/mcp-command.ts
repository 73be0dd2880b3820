// `agent mcp add|list|remove`: configure MCP servers from a shell, without a session. `add` and
// `remove` edit ~/.agent/mcp.json (or the project's with -l) and touch nothing else in it; `list`
// connects to every enabled server and prints its state and tools (exit 1 when one is broken).
import { APP_NAME, tildify } from "../config.ts";
import { UserError } from "../core/errors.ts";
import { formatProblem, loadMcpConfig, projectMcpPath, userMcpPath } from "../core/mcp/mcp-config.ts";
import { validateServerConfig, type McpServerConfig } from "../core/mcp/server-config.ts";
import { decideTrust } from "../core/resources/resource-loader.ts";
import { writeStdout } from "../stdio.ts";
import { ArgsError } from "./args.ts";

const USAGE = `Usage:
  ${APP_NAME} mcp add <name> [options] -- <command> [args...]   Add (or replace) a stdio server
  ${APP_NAME} mcp add <name> [options] --url <url>              Add (or replace) a streamable HTTP server
  ${APP_NAME} mcp list [--json]                                 Connect to each enabled server; show state and tools
  ${APP_NAME} mcp remove <name> [-l]                            Remove a server

Options for add:
  -l, --local              Write the project's .agent/mcp.json instead of ~/.agent/mcp.json
  --env KEY=VALUE          Environment of a stdio server (repeatable; values may use \${VAR})
  --cwd <dir>              Working folder of a stdio server (relative to the session's folder)
  --header "Name: value"   HTTP header (repeatable; Name=value works too; values may use \${VAR})
  --exposure <mode>        direct (default), deferred or hidden
  --description <text>     What the server offers, in a sentence
  --timeout <seconds>      Per-request timeout (default 60)`;

export function mcpHelpText(): string {
	return `${USAGE}\n`;
}

function takeValue(argv: string[], i: number, flag: string): string {
	const value = argv[i + 1];
	if (value === undefined || (value.startsWith("-") && value !== "-")) throw new ArgsError(`${flag} requires a value. ${USAGE.split("\n")[1]!.trim()}`);
	return value;
}

function pair(text: string, flag: string, separators: string[]): [string, string] {
	const at = Math.min(...separators.map((s) => text.indexOf(s)).filter((i) => i > 0));
	if (!Number.isFinite(at)) throw new ArgsError(`${flag} "${text}": expected ${flag === "--env" ? "KEY=VALUE" : '"Name: value"'}`);
	return [text.slice(0, at).trim(), text.slice(at + 1).trim()];
}

interface AddRequest {
	name: string;
	local: boolean;
	config: Record<string, unknown>;
}

/** `add`'s words after the subcommand into a config entry (checked like an mcp.json entry). */
export function parseAdd(argv: string[]): AddRequest {
	let name: string | undefined;
	let local = false;
	let url: string | undefined;
	let command: string[] | undefined;
	const env: Record<string, string> = {};
	const headers: Record<string, string> = {};
	const extra: Record<string, unknown> = {};
	for (let i = 0; i < argv.length; i++) {
		const word = argv[i]!;
		if (word === "--") {
			command = argv.slice(i + 1);
			break;
		}
		switch (word) {
			case "-l":
			case "--local":
				local = true;
				break;
			case "--url":
				url = takeValue(argv, i++, word);
				break;
			case "--env": {
				const [k, v] = pair(takeValue(argv, i++, word), word, ["="]);
				env[k] = v;
				break;
			}
			case "--header": {
				const [k, v] = pair(takeValue(argv, i++, word), word, [":", "="]);
				headers[k] = v;
				break;
			}
			case "--cwd":
				extra.cwd = takeValue(argv, i++, word);
				break;
			case "--exposure":
				extra.exposure = takeValue(argv, i++, word);
				break;
			case "--description":
				extra.description = takeValue(argv, i++, word);
				break;
			case "--timeout": {
				const seconds = Number(takeValue(argv, i++, word));
				extra.timeout = seconds;
				break;
			}
			case "--transport":
			case "--type": {
				const type = takeValue(argv, i++, word);
				if (type !== "sse") throw new ArgsError(`${word} is not needed: "--" <command> adds a stdio server, --url a streamable HTTP one`);
				extra.type = "sse";
				break;
			}
			default:
				if (word.startsWith("-")) throw new ArgsError(`Unknown option for "${APP_NAME} mcp add": ${word}\n${USAGE}`);
				if (name !== undefined) throw new ArgsError(`"${APP_NAME} mcp add" takes one name (got "${name}" and "${word}"); put the command after "--": ${APP_NAME} mcp add ${name} -- ${word} …`);
				name = word;
		}
	}
	if (name === undefined) throw new ArgsError(`"${APP_NAME} mcp add" needs a server name.\n${USAGE}`);
	if (url !== undefined && command !== undefined) throw new ArgsError(`Give either --url or "-- <command>", not both`);
	if (url === undefined && (command === undefined || command.length === 0)) throw new ArgsError(`"${APP_NAME} mcp add ${name}" needs "-- <command> [args…]" (stdio) or --url <url> (streamable HTTP)`);
	const config: Record<string, unknown> = {};
	if (extra.type) config.type = extra.type;
	if (command) {
		if (Object.keys(headers).length > 0) throw new ArgsError(`--header is for --url servers; a stdio server takes --env`);
		config.command = command[0];
		if (command.length > 1) config.args = command.slice(1);
		if (Object.keys(env).length > 0) config.env = env;
		if (extra.cwd !== undefined) config.cwd = extra.cwd;
	} else {
		if (Object.keys(env).length > 0 || extra.cwd !== undefined) throw new ArgsError(`--env and --cwd are for stdio servers; an HTTP server takes --header`);
		config.url = url;
		if (Object.keys(headers).length > 0) config.headers = headers;
	}
	for (const key of ["exposure", "description", "timeout"] as const) if (extra[key] !== undefined) config[key] = extra[key];
	return { name, local, config };
}

function targetFile(local: boolean, cwd: string): string {
	return local ? projectMcpPath(cwd) : userMcpPath();
}

async function runAdd(argv: string[], cwd: string): Promise<number> {
	const request = parseAdd(argv);
	const { serverNameProblem } = await import("../core/mcp/server-config.ts");
	const badName = serverNameProblem(request.name);
	if (badName) throw new UserError(`Cannot add: ${badName}.`);
	const checked = validateServerConfig(request.config);
	if ("message" in checked) throw new UserError(`Cannot add "${request.name}": ${checked.message}.`);
	const path = targetFile(request.local, cwd);
	const { addServerToFile } = await import("../core/mcp/config-edit.ts");
	const { replaced } = addServerToFile(path, request.name, request.config as unknown as McpServerConfig);
	const kind = "command" in checked ? "stdio" : "HTTP";
	writeStdout(`${replaced ? `Replaced ${kind} server "${request.name}" in` : `Added ${kind} server "${request.name}" to`} ${tildify(path)}. Check it with: ${APP_NAME} mcp list\n`);
	if (request.local && decideTrust(cwd, {}).state !== "yes") {
		writeStdout(`This folder is not trusted yet, so its .agent/mcp.json is not read: run "${APP_NAME} trust" (or pass --approve).\n`);
	}
	return 0;
}

async function runRemove(argv: string[], cwd: string): Promise<number> {
	let local = false;
	let name: string | undefined;
	for (const word of argv) {
		if (word === "-l" || word === "--local") local = true;
		else if (word.startsWith("-")) throw new ArgsError(`Unknown option for "${APP_NAME} mcp remove": ${word}. Usage: ${APP_NAME} mcp remove <name> [-l]`);
		else if (name === undefined) name = word;
		else throw new ArgsError(`"${APP_NAME} mcp remove" takes one name`);
	}
	if (!name) throw new ArgsError(`Usage: ${APP_NAME} mcp remove <name> [-l]`);
	const path = targetFile(local, cwd);
	const { removeServerFromFile, fileHasServer, McpEditError } = await import("../core/mcp/config-edit.ts");
	try {
		removeServerFromFile(path, name);
	} catch (error) {
		if (!(error instanceof McpEditError)) throw error;
		const other = targetFile(!local, cwd);
		const hint = fileHasServer(other, name) ? [`It is in ${tildify(other)}: run "${APP_NAME} mcp remove ${name}${local ? "" : " -l"}".`] : [];
		throw new UserError(`No server "${name}" in ${tildify(path)}.`, hint);
	}
	writeStdout(`Removed server "${name}" from ${tildify(path)}.\n`);
	return 0;
}

/** A tool host for listing only: the manager declares tools into it and nothing runs them. */
function listingHost() {
	const tools = new Map<string, unknown>();
	return {
		addTool: (tool: { name: string }) => void tools.set(tool.name, tool),
		removeTool: (name: string) => void tools.delete(name),
		getAllTools: () => [...tools.values()] as never[],
		explicitToolSelection: false,
		subscribe: () => () => {},
		beforeRun: [],
	};
}

async function runList(argv: string[], cwd: string): Promise<number> {
	let json = false;
	let approve = false;
	for (const word of argv) {
		if (word === "--json") json = true;
		else if (word === "-a" || word === "--approve") approve = true;
		else throw new ArgsError(`Unknown option for "${APP_NAME} mcp list": ${word}. Usage: ${APP_NAME} mcp list [--json]`);
	}
	const projectTrusted = decideTrust(cwd, { approve }).state === "yes";
	const config = loadMcpConfig({ cwd, projectTrusted });
	const { McpManager } = await import("../core/mcp/manager.ts");
	const notices: string[] = [];
	const manager = new McpManager({ cwd, session: listingHost(), loadConfig: () => ({ servers: config.servers, problems: [] }), onNotice: (m) => notices.push(m) });
	manager.start();
	await manager.settle();
	const servers = manager.status();
	await manager.shutdown();
	const broken = config.problems.length > 0 || servers.some((s) => s.state === "failed");
	if (json) {
		writeStdout(`${JSON.stringify({ servers, problems: config.problems.map((p) => ({ ...p, text: formatProblem(p) })) }, null, 2)}\n`);
		return broken ? 1 : 0;
	}
	const { formatStatusList } = await import("../core/mcp/status.ts");
	const lines = formatStatusList(servers);
	if (servers.length === 0) lines.push(`No MCP servers configured. Add one with: ${APP_NAME} mcp add <name> -- <command> [args…]`);
	for (const problem of config.problems) lines.push(`${formatProblem(problem)} (skipped)`);
	if (!projectTrusted && (await import("../core/mcp/mcp-config.ts")).peekProjectServers(cwd).length > 0) {
		lines.push(`${tildify(projectMcpPath(cwd))} is not read: this folder is not trusted ("${APP_NAME} trust", or -a for one run).`);
	}
	writeStdout(`${lines.join("\n")}\n`);
	return broken ? 1 : 0;
}

export async function runMcpCommand(argv: string[], cwd = process.cwd()): Promise<number> {
	const [sub, ...rest] = argv;
	const options = rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
	if (sub === undefined || sub === "--help" || sub === "-h" || options.includes("--help") || options.includes("-h")) {
		writeStdout(mcpHelpText());
		return sub === undefined ? 1 : 0;
	}
	if (sub === "add") return runAdd(rest, cwd);
	if (sub === "remove" || sub === "rm") return runRemove(rest, cwd);
	if (sub === "list" || sub === "ls") return runList(rest, cwd);
	throw new ArgsError(`Unknown "${APP_NAME} mcp" command: ${sub}\n${USAGE}`);
}
