// The `--help` text. Built from plain strings so it prints before anything else loads.
import pc from "picocolors";
import { APP_NAME, VERSION } from "../config.ts";

export interface ExtensionFlagHelp {
	name: string;
	type: "boolean" | "string";
	description?: string;
	extensionPath: string;
}

const OPTIONS: [string, string][] = [
	["--provider <name>", "Provider to use (default: from settings or the first configured)"],
	["--model <pattern>", "Model id or provider/id, optionally with :<thinking> (e.g. anthropic/claude-sonnet-5-5:high)"],
	["--api-key <key>", "API key for this run (default: environment variables, ~/.agent/auth.json)"],
	["--system-prompt <text>", "Replace the system prompt"],
	["--append-system-prompt <text>", "Append text, or a file's contents, to the system prompt (repeatable)"],
	["--mode <mode>", "Output mode: text (default), json, rpc"],
	["--print, -p", "Non-interactive: answer the prompt, print the final text and exit"],
	["--continue, -c", "Continue the most recent session in this folder"],
	["--resume, -r", "Pick a session to resume"],
	["--session <path|id>", "Open a session file, or a session by id prefix"],
	["--fork <path|id>", "Fork a session into a new one"],
	["--session-dir <dir>", "Where sessions are stored and looked up"],
	["--no-session", "Ephemeral: write no session file"],
	["--models <patterns>", "Comma-separated models (provider/id, id, globs with *) to cycle through"],
	["--no-tools, -nt", "Disable all tools"],
	["--no-builtin-tools, -nbt", "Disable built-in tools, keep extension tools"],
	["--tools, -t <tools>", "Comma-separated allowlist of tools (built-in, extension; mcp__<server>__* patterns limit MCP tools)"],
	["--thinking <level>", "Thinking level: off, minimal, low, medium, high, xhigh, max"],
	["--extension, -e <path>", "Load an extension file or folder, or a package for this run (npm:<name>, git:<repo>) (repeatable)"],
	["--no-extensions, -ne", "Do not discover extensions (-e still loads)"],
	["--approve, -a", "Trust this project's .agent/ folder for this run only"],
	["--no-approve, -na", "Ignore this project's .agent/ extensions and settings, even if trusted"],
	["--skill <path>", "Load a skill (repeatable)"],
	["--no-skills, -ns", "Disable skills"],
	["--prompt-template <path>", "Load a prompt template (repeatable)"],
	["--no-prompt-templates, -np", "Disable prompt templates"],
	["--no-context-files, -nc", "Do not read AGENTS.md / CLAUDE.md"],
	["--no-mcp", "Start no MCP servers (mcp.json and extension-registered) for this run"],
	["--export <file> [output]", "Export a session file (or id prefix) to HTML and exit"],
	["--list-models [search]", "List available models, optionally filtered"],
	["--verbose", "Print the expanded start-up list"],
	["--offline", `No network at start-up: packages not installed yet are skipped (same as ${APP_NAME.toUpperCase()}_OFFLINE=1)`],
	["--help, -h", "Show this help"],
	["--version, -v", "Show the version"],
];

function table(rows: [string, string][]): string {
	const width = Math.max(...rows.map(([a]) => a.length)) + 2;
	return rows.map(([a, b]) => `  ${a.padEnd(width)}${b}`).join("\n");
}

export function helpText(extensionFlags: ExtensionFlagHelp[] = []): string {
	const a = APP_NAME;
	const sections = [
		`${pc.bold(`${a} v${VERSION}`)} - a coding agent with read, bash, edit and write tools, extended by TypeScript files`,
		`${pc.bold("Usage:")}\n  ${a} [options] [@files...] [messages...]\n  ${a} list [--json]              List extensions and what they registered\n  ${a} trust [--revoke] [dir]      Trust (or stop trusting) a project folder's .agent/\n  ${a} install <source> [-l]       Install a package (npm:<name>[@version], git:<host>/<path>[@ref], a URL, a path); -l: this project\n  ${a} remove <source> [-l]        Remove a package and its settings entry\n  ${a} update [<source>]           Update packages (all, or one)\n  ${a} types [dir]                 Write type declarations and a tsconfig.json for writing extensions\n  ${a} new extension <name>        Create a typed extension to start from\n  ${a} mcp add|list|remove         Configure MCP servers (${a} mcp --help)`,
		`${pc.bold("Options:")}\n${table(OPTIONS)}`,
		`Extensions can add their own flags (e.g. --plan); they are listed below when loaded.`,
	];
	if (extensionFlags.length > 0) {
		const rows: [string, string][] = extensionFlags.map((f) => [
			`--${f.name}${f.type === "string" ? " <value>" : ""}`,
			f.description ?? `Registered by ${f.extensionPath}`,
		]);
		sections.push(`${pc.bold("Extension flags:")}\n${table(rows)}`);
	}
	sections.push(
		`${pc.bold("Examples:")}\n  ${a}                                   Start an interactive session\n  ${a} -p "fix the failing test"          Answer once and exit\n  ${a} -e ./guard.ts -p "refactor x"       Load an extension for this run\n  ${a} -ne --mode json -p "review this"    CI: no discovery, JSON lines out`,
		`${pc.bold("Environment:")}\n${table([
			["AGENT_DIR", "User folder (default ~/.agent)"],
			["AGENT_SESSION_DIR", "Session folder (default ~/.agent/sessions)"],
			["AGENT_TIMING=1", "Print a start-up phase table to stderr"],
			["AGENT_OFFLINE=1", "No network at start-up: packages not installed yet are skipped"],
			["NO_COLOR", "Disable colour"],
		])}\n  Provider keys: ANTHROPIC_API_KEY, OPENAI_API_KEY, OPENROUTER_API_KEY, GROQ_API_KEY, DEEPSEEK_API_KEY`,
		`${pc.bold("Built-in tools:")} read, bash, edit, write, grep, find, ls (grep, find and ls are off by default)`,
	);
	return `${sections.join("\n\n")}\n`;
}
