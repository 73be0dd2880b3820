// Command-line parsing: the built-in flag set, subcommands, `@file` arguments and positional
// messages. Unknown `--flags` are kept for a second pass once extensions have registered theirs.
import { THINKING_LEVELS, type ThinkingLevel } from "../core/providers/types.ts";

export type Mode = "text" | "json" | "rpc";

export interface Args {
	provider?: string;
	model?: string;
	apiKey?: string;
	systemPrompt?: string;
	appendSystemPrompt: string[];
	mode?: Mode;
	print: boolean;
	continue: boolean;
	resume: boolean;
	session?: string;
	fork?: string;
	sessionDir?: string;
	noSession: boolean;
	models?: string[];
	noTools: boolean;
	noBuiltinTools: boolean;
	tools?: string[];
	thinking?: ThinkingLevel;
	extensions: string[];
	noExtensions: boolean;
	skills: string[];
	noSkills: boolean;
	promptTemplates: string[];
	noPromptTemplates: boolean;
	noContextFiles: boolean;
	/** `--no-mcp`: no MCP servers for this run. */
	noMcp: boolean;
	export?: string;
	/** `--list-models` given; the value is the optional search term ("" for none). */
	listModels?: string;
	verbose: boolean;
	offline: boolean;
	help: boolean;
	version: boolean;
	approve: boolean;
	noApprove: boolean;
	/** `@path` arguments, in order. */
	fileArgs: string[];
	/** Positional messages, in order. */
	messages: string[];
	/** `--name[=value]` not known to the built-in set; resolved against extension flags later. */
	unknownFlags: UnknownFlag[];
	command?: SubCommand;
}

export type SubCommand =
	| { name: "list"; json: boolean }
	| { name: "trust"; dir?: string; revoke: boolean }
	| { name: "install"; source: string; local: boolean; allowScripts: boolean }
	| { name: "remove"; source: string; local: boolean }
	| { name: "update"; source?: string; allowScripts: boolean }
	| { name: "types"; dir?: string; print: boolean }
	| { name: "new"; kind: "extension"; target: string }
	/** `agent mcp …`: its words are parsed by cli/mcp-command.ts. */
	| { name: "mcp"; argv: string[] };

/** Usage line of each subcommand with operands, for errors and `<subcommand> --help`. */
export const SUBCOMMAND_USAGE: Record<string, string> = {
	install: "agent install <source> [-l|--local] [--allow-scripts]   (source: npm:<name>[@version], git:<host>/<path>[@ref], a URL or a path)",
	remove: "agent remove <source> [-l|--local]",
	update: "agent update [<source>] [--allow-scripts]",
	types: "agent types [dir] [--print]",
	new: "agent new extension <name>",
};

/** `install`, `remove` (`uninstall`), `update`, `types`, `new extension`: operands and a few switches. */
function parseOperandSubcommand(sub: string, rest: string[], args: Args): Args {
	const name = sub === "uninstall" ? "remove" : sub;
	const usage = `Usage: ${SUBCOMMAND_USAGE[name]}`;
	const words: string[] = [];
	const switches = new Set<string>();
	const allowed: Record<string, string[]> = { install: ["-l", "--local", "--allow-scripts"], remove: ["-l", "--local"], update: ["--allow-scripts"], types: ["--print"], new: [] };
	for (const word of rest) {
		if (word === "--help" || word === "-h") args.help = true;
		else if (word === "--offline") args.offline = true;
		else if (allowed[name]!.includes(word)) switches.add(word === "-l" ? "--local" : word);
		else if (word.startsWith("-") && word !== "-") throw new ArgsError(`Unknown option for "agent ${name}": ${word}. ${usage}`);
		else words.push(word);
	}
	const max = name === "new" ? 2 : 1;
	if (words.length > max) throw new ArgsError(`"agent ${name}" takes ${max === 1 ? "one operand" : "two operands"}, got ${words.map((w) => `"${w}"`).join(" ")}. ${usage}`);
	const need = (what: string): string => {
		if (words[0] === undefined && !args.help) throw new ArgsError(`"agent ${name}" needs ${what}. ${usage}`);
		return words[0] ?? "";
	};
	if (name === "install") args.command = { name, source: need("a package source"), local: switches.has("--local"), allowScripts: switches.has("--allow-scripts") };
	else if (name === "remove") args.command = { name, source: need("the source to remove"), local: switches.has("--local") };
	else if (name === "update") args.command = { name, ...(words[0] !== undefined ? { source: words[0] } : {}), allowScripts: switches.has("--allow-scripts") };
	else if (name === "types") args.command = { name, ...(words[0] !== undefined ? { dir: words[0] } : {}), print: switches.has("--print") };
	else {
		if (!args.help && words[0] !== "extension") throw new ArgsError(`"agent new" makes an extension: ${usage}`);
		if (!args.help && words[1] === undefined) throw new ArgsError(`"agent new extension" needs a name. ${usage}`);
		args.command = { name: "new", kind: "extension", target: words[1] ?? "" };
	}
	return args;
}

export interface UnknownFlag {
	name: string;
	/** From `--name=value`. */
	inlineValue?: string;
	/**
	 * Index into `messages` of the word right after the flag, when there was one: a string
	 * extension flag takes it as its value, a boolean one leaves it a message.
	 */
	nextMessageIndex?: number;
}

export class ArgsError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "ArgsError";
	}
}

type Spec =
	| { kind: "bool"; key: BoolKey }
	| { kind: "string"; key: StringKey; value: string }
	| { kind: "list"; key: ListKey; value: string }
	| { kind: "csv"; key: "models" | "tools"; value: string }
	| { kind: "mode" }
	| { kind: "thinking" }
	| { kind: "listModels" };

type BoolKey =
	| "print" | "continue" | "resume" | "noSession" | "noTools" | "noBuiltinTools" | "noExtensions" | "noSkills"
	| "noPromptTemplates" | "noContextFiles" | "noMcp" | "verbose" | "offline" | "help" | "version" | "approve" | "noApprove";
type StringKey = "provider" | "model" | "apiKey" | "systemPrompt" | "session" | "fork" | "sessionDir" | "export";
type ListKey = "appendSystemPrompt" | "extensions" | "skills" | "promptTemplates";

/** Flag table: every spelling maps to one spec. `value` is the placeholder shown in errors and help. */
const FLAGS: Record<string, Spec> = {
	"--provider": { kind: "string", key: "provider", value: "<name>" },
	"--model": { kind: "string", key: "model", value: "<provider/id[:thinking]>" },
	"--api-key": { kind: "string", key: "apiKey", value: "<key>" },
	"--system-prompt": { kind: "string", key: "systemPrompt", value: "<text>" },
	"--append-system-prompt": { kind: "list", key: "appendSystemPrompt", value: "<text|file>" },
	"--mode": { kind: "mode" },
	"--print": { kind: "bool", key: "print" },
	"-p": { kind: "bool", key: "print" },
	"--continue": { kind: "bool", key: "continue" },
	"-c": { kind: "bool", key: "continue" },
	"--resume": { kind: "bool", key: "resume" },
	"-r": { kind: "bool", key: "resume" },
	"--session": { kind: "string", key: "session", value: "<path|id>" },
	"--fork": { kind: "string", key: "fork", value: "<path|id>" },
	"--session-dir": { kind: "string", key: "sessionDir", value: "<dir>" },
	"--no-session": { kind: "bool", key: "noSession" },
	"--models": { kind: "csv", key: "models", value: "<patterns>" },
	"--no-tools": { kind: "bool", key: "noTools" },
	"-nt": { kind: "bool", key: "noTools" },
	"--no-builtin-tools": { kind: "bool", key: "noBuiltinTools" },
	"-nbt": { kind: "bool", key: "noBuiltinTools" },
	"--tools": { kind: "csv", key: "tools", value: "<tools>" },
	"-t": { kind: "csv", key: "tools", value: "<tools>" },
	"--thinking": { kind: "thinking" },
	"--extension": { kind: "list", key: "extensions", value: "<path>" },
	"-e": { kind: "list", key: "extensions", value: "<path>" },
	"--no-extensions": { kind: "bool", key: "noExtensions" },
	"-ne": { kind: "bool", key: "noExtensions" },
	"--skill": { kind: "list", key: "skills", value: "<path>" },
	"--no-skills": { kind: "bool", key: "noSkills" },
	"-ns": { kind: "bool", key: "noSkills" },
	"--prompt-template": { kind: "list", key: "promptTemplates", value: "<path>" },
	"--no-prompt-templates": { kind: "bool", key: "noPromptTemplates" },
	"-np": { kind: "bool", key: "noPromptTemplates" },
	"--no-context-files": { kind: "bool", key: "noContextFiles" },
	"-nc": { kind: "bool", key: "noContextFiles" },
	"--no-mcp": { kind: "bool", key: "noMcp" },
	"--export": { kind: "string", key: "export", value: "<file>" },
	"--list-models": { kind: "listModels" },
	"--verbose": { kind: "bool", key: "verbose" },
	"--offline": { kind: "bool", key: "offline" },
	"--help": { kind: "bool", key: "help" },
	"-h": { kind: "bool", key: "help" },
	"--version": { kind: "bool", key: "version" },
	"-v": { kind: "bool", key: "version" },
	"--approve": { kind: "bool", key: "approve" },
	"-a": { kind: "bool", key: "approve" },
	"--no-approve": { kind: "bool", key: "noApprove" },
	"-na": { kind: "bool", key: "noApprove" },
};

/** The long flag names of the CLI itself, without dashes: no extension flag may take one. */
export function builtinFlagNames(): Set<string> {
	return new Set(Object.keys(FLAGS).filter((f) => f.startsWith("--")).map((f) => f.slice(2)));
}

/** Pairs that cannot be given together, checked after parsing. */
const CONFLICTS: [keyof Args, keyof Args, string, string][] = [
	["approve", "noApprove", "--approve", "--no-approve"],
	["noSession", "continue", "--no-session", "--continue"],
	["noSession", "resume", "--no-session", "--resume"],
	["noSession", "session", "--no-session", "--session"],
	["noSession", "fork", "--no-session", "--fork"],
	["continue", "resume", "--continue", "--resume"],
	["continue", "session", "--continue", "--session"],
	["continue", "fork", "--continue", "--fork"],
	["resume", "session", "--resume", "--session"],
	["resume", "fork", "--resume", "--fork"],
	["session", "fork", "--session", "--fork"],
	["noTools", "tools", "--no-tools", "--tools"],
];

function emptyArgs(): Args {
	return {
		appendSystemPrompt: [],
		print: false,
		continue: false,
		resume: false,
		noSession: false,
		noTools: false,
		noBuiltinTools: false,
		extensions: [],
		noExtensions: false,
		skills: [],
		noSkills: false,
		promptTemplates: [],
		noPromptTemplates: false,
		noContextFiles: false,
		noMcp: false,
		verbose: false,
		offline: false,
		help: false,
		version: false,
		approve: false,
		noApprove: false,
		fileArgs: [],
		messages: [],
		unknownFlags: [],
	};
}

/** A word that a value-taking flag may consume. */
function isValueWord(word: string | undefined): word is string {
	return word !== undefined && (!word.startsWith("-") || word === "-" || word.startsWith("---"));
}

/** Parse `argv` without the runtime and script (i.e. `process.argv.slice(2)`). Throws ArgsError. */
export function parseArgs(argv: string[]): Args {
	const args = emptyArgs();
	let i = 0;
	const sub = argv[0];
	if (sub === "list" || sub === "trust") {
		return parseSubcommand(sub, argv.slice(1), args);
	}
	if (sub === "mcp") {
		args.command = { name: "mcp", argv: argv.slice(1) };
		return args;
	}
	if (sub !== undefined && ["install", "remove", "uninstall", "update", "types", "new"].includes(sub)) {
		return parseOperandSubcommand(sub, argv.slice(1), args);
	}
	let onlyMessages = false;
	while (i < argv.length) {
		const word = argv[i++]!;
		if (onlyMessages) {
			args.messages.push(word);
			continue;
		}
		if (word === "--") {
			onlyMessages = true;
			continue;
		}
		if (word.startsWith("@") && word.length > 1) {
			args.fileArgs.push(word.slice(1));
			continue;
		}
		if (!word.startsWith("-") || word === "-" || word.startsWith("---")) {
			args.messages.push(word);
			continue;
		}
		const eq = word.startsWith("--") ? word.indexOf("=") : -1;
		const name = eq > 0 ? word.slice(0, eq) : word;
		const inline = eq > 0 ? word.slice(eq + 1) : undefined;
		const spec = FLAGS[name];
		if (!spec) {
			if (!name.startsWith("--")) throw new ArgsError(`Unknown option: ${name}`);
			const flag: UnknownFlag = { name: name.slice(2), inlineValue: inline };
			if (inline === undefined && isValueWord(argv[i]) && !argv[i]!.startsWith("@")) flag.nextMessageIndex = args.messages.length;
			args.unknownFlags.push(flag);
			continue;
		}
		const takeValue = (placeholder: string): string => {
			if (inline !== undefined) {
				if (inline === "") throw new ArgsError(`${name} requires a value: ${name} ${placeholder}`);
				return inline;
			}
			const next = argv[i];
			if (!isValueWord(next)) throw new ArgsError(`${name} requires a value: ${name} ${placeholder}`);
			i++;
			return next;
		};
		switch (spec.kind) {
			case "bool":
				if (inline !== undefined) throw new ArgsError(`${name} takes no value (got "${inline}")`);
				args[spec.key] = true;
				break;
			case "string":
				args[spec.key] = takeValue(spec.value);
				break;
			case "list":
				args[spec.key].push(takeValue(spec.value));
				break;
			case "csv": {
				const list = takeValue(spec.value)
					.split(",")
					.map((s) => s.trim())
					.filter(Boolean);
				args[spec.key] = list;
				break;
			}
			case "mode": {
				const mode = takeValue("<text|json|rpc>");
				if (mode !== "text" && mode !== "json" && mode !== "rpc") {
					throw new ArgsError(`Invalid --mode "${mode}": expected text, json or rpc`);
				}
				args.mode = mode;
				break;
			}
			case "thinking": {
				const level = takeValue(`<${THINKING_LEVELS.join("|")}>`);
				if (!THINKING_LEVELS.includes(level as ThinkingLevel)) {
					throw new ArgsError(`Invalid --thinking "${level}": expected one of ${THINKING_LEVELS.join(", ")}`);
				}
				args.thinking = level as ThinkingLevel;
				break;
			}
			case "listModels":
				if (inline !== undefined) args.listModels = inline;
				else if (isValueWord(argv[i]) && !argv[i]!.startsWith("@")) args.listModels = argv[i++]!;
				else args.listModels = "";
				break;
		}
	}
	for (const [a, b, fa, fb] of CONFLICTS) {
		const va = args[a];
		const vb = args[b];
		if (va && vb && !(Array.isArray(va) && va.length === 0) && !(Array.isArray(vb) && vb.length === 0)) {
			throw new ArgsError(`${fa} and ${fb} cannot be used together; pick one`);
		}
	}
	if (args.mode === "rpc" && args.fileArgs.length > 0) {
		throw new ArgsError(`@file arguments are not supported with --mode rpc; send file contents in the prompt command instead`);
	}
	if (args.mode === "rpc" && args.print) {
		throw new ArgsError(`--print and --mode rpc cannot be used together; pick one`);
	}
	return args;
}

function parseSubcommand(sub: "list" | "trust", rest: string[], args: Args): Args {
	if (sub === "list") {
		let json = false;
		for (let k = 0; k < rest.length; k++) {
			const word = rest[k]!;
			if (word === "--json") json = true;
			else if (word === "-e" || word === "--extension") {
				const path = rest[++k];
				if (!isValueWord(path)) throw new ArgsError(`${word} requires a value: ${word} <path>`);
				args.extensions.push(path);
			}
			else if (word === "--help" || word === "-h") args.help = true;
			else if (word === "-ne" || word === "--no-extensions") args.noExtensions = true;
			else if (word === "-a" || word === "--approve") args.approve = true;
			else if (word === "-na" || word === "--no-approve") args.noApprove = true;
			else throw new ArgsError(`Unknown option for "agent list": ${word}. Usage: agent list [--json]`);
		}
		args.command = { name: "list", json };
		return args;
	}
	let revoke = false;
	let dir: string | undefined;
	for (const word of rest) {
		if (word === "--revoke") revoke = true;
		else if (word === "--help" || word === "-h") args.help = true;
		else if (word.startsWith("-")) throw new ArgsError(`Unknown option for "agent trust": ${word}. Usage: agent trust [--revoke] [dir]`);
		else if (dir === undefined) dir = word;
		else throw new ArgsError(`"agent trust" takes one folder, got "${dir}" and "${word}". Usage: agent trust [--revoke] [dir]`);
	}
	args.command = { name: "trust", dir, revoke };
	return args;
}

export interface FlagDefinition {
	name: string;
	type: "boolean" | "string";
}

/**
 * Second pass: match the unknown `--flags` against flags that extensions registered. Returns
 * the values to apply; removes words consumed as string-flag values from `args.messages`.
 * Booleans never consume the next word (SPEC §8).
 */
export function resolveExtensionFlags(args: Args, registered: Map<string, FlagDefinition>): Map<string, boolean | string> {
	const values = new Map<string, boolean | string>();
	const unknown: string[] = [];
	const consumed = new Set<number>();
	for (const flag of args.unknownFlags) {
		const def = registered.get(flag.name);
		if (!def) {
			unknown.push(`--${flag.name}`);
			continue;
		}
		if (def.type === "boolean") {
			if (flag.inlineValue !== undefined && flag.inlineValue !== "true" && flag.inlineValue !== "false") {
				throw new ArgsError(`Extension flag "--${flag.name}" is a boolean; use --${flag.name} or --${flag.name}=false`);
			}
			values.set(flag.name, flag.inlineValue !== "false");
			continue;
		}
		if (flag.inlineValue !== undefined && flag.inlineValue !== "") {
			values.set(flag.name, flag.inlineValue);
		} else if (flag.nextMessageIndex !== undefined && !consumed.has(flag.nextMessageIndex)) {
			consumed.add(flag.nextMessageIndex);
			values.set(flag.name, args.messages[flag.nextMessageIndex]!);
		} else {
			throw new ArgsError(`Extension flag "--${flag.name}" requires a value`);
		}
	}
	if (unknown.length === 1) throw new ArgsError(`Unknown option: ${unknown[0]}`);
	if (unknown.length > 1) throw new ArgsError(`Unknown options: ${unknown.join(", ")}`);
	if (consumed.size > 0) args.messages = args.messages.filter((_, idx) => !consumed.has(idx));
	return values;
}
