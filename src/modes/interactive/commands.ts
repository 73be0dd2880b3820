// The built-in slash commands (SPEC §10): one registry, listed in completion before extension
// commands and winning over one of the same name. Session-moving ones (/new, /resume, /fork,
// /tree) live in session-commands.ts; each command only talks to the app through its methods.
// The registry names every command, but the code of the pickers, dialogs and the session,
// info and MCP commands loads on first use: the first frame needs only the names.
import type { SlashCommand } from "@earendil-works/pi-tui";
import { tildify } from "../../config.ts";
import type { AutocompleteItem, SourceScope } from "../../core/extensions/types.ts";
import { supportedThinkingLevels } from "../../core/providers/thinking.ts";
import { THINKING_LEVELS, type ThinkingLevel } from "../../core/providers/types.ts";
import type { InteractiveApp } from "./app.ts";
import { applyUserKeybindings } from "./keybindings.ts";
import { currentTheme } from "./theme/styles.ts";

export interface BuiltinCommand {
	name: string;
	description: string;
	run(app: InteractiveApp, args: string): Promise<void> | void;
	getArgumentCompletions?: (prefix: string, app: InteractiveApp) => AutocompleteItem[] | null | Promise<AutocompleteItem[] | null>;
}

/** How completion marks where an extension command comes from (SPEC §9). */
export const SCOPE_MARKERS: Record<SourceScope, string> = { project: "p", user: "u", temporary: "t" };

type Repl = InteractiveApp;

function session(repl: Repl) {
	const host = repl.host;
	if (!host) throw new Error("The session is not ready yet.");
	return host;
}

async function chooseThinking(repl: Repl, arg: string): Promise<void> {
	const host = session(repl);
	let level = arg as ThinkingLevel;
	if (arg && !THINKING_LEVELS.includes(level)) {
		repl.error(`Unknown thinking level "${arg}". Use one of: ${THINKING_LEVELS.join(", ")}.`);
		return;
	}
	if (!arg) {
		const { pickDialog } = await import("./dialogs.ts");
		const picked = await pickDialog(
			repl,
			"Thinking level",
			(host.session.model ? supportedThinkingLevels(host.session.model) : THINKING_LEVELS).map((l) => ({ value: l, label: l })),
			{ initial: host.session.thinkingLevel },
		);
		if (!picked) return;
		level = picked;
	}
	host.setThinkingLevel(level);
	const actual = host.session.thinkingLevel;
	const why = actual === level ? "" : actual === "off" ? " (this model does not think)" : ` (this model has no ${level})`;
	repl.info(`Thinking level: ${actual}${why}`);
}

function help(repl: Repl): void {
	const rows = BUILTIN_COMMANDS.map((c) => [`/${c.name}`, c.description]);
	const ext = (repl.host?.resolvedCommands() ?? []).filter((c) => !builtinNames.has(c.invocationName));
	const width = Math.max(...rows.map((r) => r[0]!.length), ...ext.map((c) => c.invocationName.length + 1)) + 2;
	const theme = currentTheme();
	const dim = (t: string) => theme.fg("muted", t);
	const lines = [theme.bold("Commands"), ...rows.map(([n, d]) => `  ${n!.padEnd(width)}${dim(d!)}`)];
	if (ext.length > 0) {
		lines.push("", theme.bold("Extension commands"));
		for (const c of ext) lines.push(`  ${`/${c.invocationName}`.padEnd(width)}${dim(`[${SCOPE_MARKERS[c.sourceInfo.scope]}] ${c.description ?? ""}`)}`);
	}
	lines.push(
		"",
		theme.bold("Keys"),
		...[
			["enter", "send (steers the agent while it works)"],
			["alt+enter", "queue a follow-up while the agent works"],
			["escape", "interrupt the agent or a !command"],
			["ctrl+c", "clear the input; twice to exit"],
			["ctrl+d", "exit (on an empty input)"],
			["ctrl+o", "expand or collapse tool output and the start-up list"],
			["shift+enter", "new line (also ctrl+j)"],
			["tab", "complete a /command, its argument or a path; @ completes files"],
			["ctrl+z", "suspend (fg resumes)"],
			["shift+tab", "next thinking level"],
			["ctrl+l", "choose a model"],
			["ctrl+g", "edit the input in $VISUAL / $EDITOR"],
			["!cmd", "run a shell command; its output joins the conversation"],
			["!!cmd", "run a shell command, keeping its output out of the conversation"],
		].map(([k, d]) => `  ${k!.padEnd(width)}${dim(d!)}`),
	);
	repl.block(lines);
}

function plural(n: number, word: string): string {
	return `${n} ${word}${n === 1 ? "" : "s"}`;
}

function stats(repl: Repl): void {
	const host = session(repl);
	const s = host.session.getSessionStats();
	const sm = host.session.session;
	const model = host.session.model;
	const usage = host.session.getContextUsage();
	const theme = currentTheme();
	const file = s.sessionFile ? `${tildify(s.sessionFile)}${sm.isPersisted() ? "" : theme.fg("dim", " (written with the first answer)")}` : "not saved (--no-session)";
	const rows: [string, string][] = [
		["File", file],
		["ID", s.sessionId],
		["Name", sm.getSessionName() ?? theme.fg("dim", "(none: /name sets one)")],
		["Model", model ? `${model.provider}/${model.id} · thinking ${host.session.thinkingLevel}` : "none"],
		["Messages", `${s.userMessages} user, ${s.assistantMessages} assistant, ${plural(s.toolCalls, "tool call")}, ${s.totalMessages} in all`],
		["Tokens", `${s.tokens.input} in · ${s.tokens.output} out · ${s.tokens.cacheRead} cache read · ${s.tokens.cacheWrite} cache write`],
		["Cost", `$${s.cost.toFixed(4)}`],
	];
	if (usage?.percent != null) rows.push(["Context", `${usage.percent.toFixed(1)}% of ${usage.contextWindow.toLocaleString("en-US")} tokens`]);
	repl.block([theme.bold("Session"), ...rows.map(([k, v]) => `  ${k.padEnd(10)}${v}`)]);
}

export const BUILTIN_COMMANDS: BuiltinCommand[] = [
	{ name: "help", description: "Show commands and keys", run: (repl) => help(repl) },
	{
		name: "model",
		description: "Select a model (optionally filtered: /model <search>)",
		run: async (repl, args) => (await import("./model-picker.ts")).chooseModel(repl, args),
	},
	{
		name: "thinking",
		description: "Set the thinking level (off, minimal, low, medium, high, xhigh, max)",
		run: (repl, args) => chooseThinking(repl, args),
		getArgumentCompletions: (prefix) => THINKING_LEVELS.filter((l) => l.startsWith(prefix)).map((l) => ({ value: l, label: l })),
	},
	{ name: "new", description: "Start a new session", run: async (repl) => (await import("./session-commands.ts")).SESSION_RUNS.new(repl) },
	{ name: "resume", description: "Resume an earlier session of this folder", run: async (repl) => (await import("./session-commands.ts")).SESSION_RUNS.resume(repl) },
	{ name: "fork", description: "Fork from an earlier message into a new session", run: async (repl) => (await import("./session-commands.ts")).SESSION_RUNS.fork(repl) },
	{ name: "tree", description: "Show the session tree and move to another point in it", run: async (repl) => (await import("./session-commands.ts")).SESSION_RUNS.tree(repl) },
	{
		name: "compact",
		description: "Summarise older turns to free context (/compact [instructions])",
		run: async (repl, args) => {
			const result = await session(repl).session.compact(args || undefined);
			repl.info(`Compacted ${result.tokensBefore} tokens into a summary.`);
		},
	},
	{
		name: "name",
		description: "Name this session (/name <name>)",
		run: async (repl, args) => {
			const host = session(repl);
			const name = args || (await (await import("./dialogs.ts")).inputDialog(repl, "Session name", undefined, { initialValue: host.session.session.getSessionName() }))?.trim();
			if (!name) return;
			host.setSessionName(name);
			repl.info(`Session name: ${name}`);
			repl.refreshFooter();
		},
	},
	{ name: "session", description: "Show session file, messages, tokens and cost", run: (repl) => stats(repl) },
	{
		name: "reload",
		description: "Reload extensions (changed files are read again)",
		run: async (repl) => {
			repl.resetExtensionUi();
			await session(repl).reload();
			repl.info(`Reloaded ${plural(repl.extensions().length, "extension")}.`);
			// keybindings.json is read again too (pi: edit it, then /reload).
			for (const warning of applyUserKeybindings(repl.keybindings)) repl.warn(warning);
			const sections = repl.startupSections(false).slice(1);
			if (sections.length > 0) repl.block(sections, "");
		},
	},
	{
		name: "extensions",
		description: "List loaded extensions by source, and their issues",
		run: (repl) => {
			const lines = repl.startupSections(true);
			if (lines.length > 0) repl.block(lines.slice(1), "");
			else repl.info("No extensions are loaded.");
		},
	},
	{ name: "hotkeys", description: "Show every key binding, extension shortcuts too", run: async (repl) => (await import("./info-commands.ts")).INFO_RUNS.hotkeys(repl) },
	{ name: "copy", description: "Copy the last answer to the clipboard", run: async (repl) => (await import("./info-commands.ts")).INFO_RUNS.copy(repl) },
	{ name: "export", description: "Export the session to an HTML file (/export [file])", run: async (repl, args) => (await import("./info-commands.ts")).INFO_RUNS.export(repl, args) },
	{
		name: "mcp",
		description: "MCP servers: state and tools (/mcp reconnect [server], /mcp tools <server>)",
		run: async (repl, args) => (await import("./mcp-command.ts")).runMcp(repl, args),
		getArgumentCompletions: async (prefix, repl) => (await import("./mcp-command.ts")).mcpCompletions(repl, prefix),
	},
	{ name: "quit", description: "Exit", run: (repl) => repl.exit(0) },
];

export const builtinNames: ReadonlySet<string> = new Set(BUILTIN_COMMANDS.map((c) => c.name));

export function builtinCommand(name: string): BuiltinCommand | undefined {
	return BUILTIN_COMMANDS.find((c) => c.name === name);
}

/**
 * What `/` completes: built-ins, then extension commands (not those a built-in hides) and prompt
 * templates and skills, each with its source marker before the description.
 */
export function commandEntries(app: InteractiveApp): SlashCommand[] {
	const marked = (scope: SourceScope, description: string | undefined) => `[${SCOPE_MARKERS[scope]}]${description ? ` ${description}` : ""}`;
	const extension = (app.host?.resolvedCommands() ?? [])
		.filter((c) => !builtinNames.has(c.invocationName))
		.map((c) => ({ name: c.invocationName, description: marked(c.sourceInfo.scope, c.description), getArgumentCompletions: c.getArgumentCompletions }));
	const resources = [...(app.host?.resources?.commandInfos() ?? []), ...(app.mcp?.commandInfos() ?? [])]
		.filter((c) => !builtinNames.has(c.name))
		.map((c) => ({ name: c.name, description: marked(c.sourceInfo.scope, c.description) }));
	const builtins = BUILTIN_COMMANDS.map((c) => ({
		name: c.name,
		description: c.description,
		getArgumentCompletions: c.getArgumentCompletions ? (prefix: string) => c.getArgumentCompletions!(prefix, app) : undefined,
	}));
	return [...builtins, ...extension, ...resources];
}
