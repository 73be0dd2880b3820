// Server prompts as slash commands: `/mcp:<server>:<prompt> [arguments]` asks the server for the
// prompt and sends what it returns as the user's message, the way a prompt template expands.
// Arguments are `name=value` pairs or, in the prompt's declared order, plain words (quotes group).
import type { Prompt } from "@modelcontextprotocol/sdk/types.js";
import { parseCommandArgs } from "../resources/prompt-templates.ts";

export const PROMPT_COMMAND_PREFIX = "mcp:";

/** `/mcp:docs:summary a b` → `{ server: "docs", prompt: "summary", args: "a b" }`. */
export function parsePromptCommand(text: string): { server: string; prompt: string; args: string } | undefined {
	const match = /^\/mcp:([A-Za-z0-9_-]+):(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
	if (!match) return undefined;
	return { server: match[1]!, prompt: match[2]!, args: (match[3] ?? "").trim() };
}

export function promptCommandName(server: string, prompt: string): string {
	return `${PROMPT_COMMAND_PREFIX}${server}:${prompt}`;
}

/** How to call a prompt, for error messages and completion: `/mcp:docs:summary <topic> [style]`. */
export function promptUsage(server: string, prompt: Prompt): string {
	const args = (prompt.arguments ?? []).map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`));
	return [`/${promptCommandName(server, prompt.name)}`, ...args].join(" ");
}

export class PromptArgumentsError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "PromptArgumentsError";
	}
}

/** The words after the command as the prompt's arguments. Throws PromptArgumentsError with the usage. */
export function promptArguments(server: string, prompt: Prompt, text: string): Record<string, string> {
	const declared = prompt.arguments ?? [];
	const out: Record<string, string> = {};
	const positional: string[] = [];
	for (const word of parseCommandArgs(text)) {
		const eq = word.indexOf("=");
		const name = eq > 0 ? word.slice(0, eq) : undefined;
		if (name !== undefined && declared.some((a) => a.name === name)) out[name] = word.slice(eq + 1);
		else positional.push(word);
	}
	for (const arg of declared) {
		if (out[arg.name] !== undefined) continue;
		const next = positional.shift();
		if (next !== undefined) out[arg.name] = next;
	}
	// Words left over join the last argument, so `/mcp:x:ask what is this` works for one-argument prompts.
	if (positional.length > 0) {
		const last = declared.at(-1);
		if (!last) throw new PromptArgumentsError(`/${promptCommandName(server, prompt.name)} takes no arguments`);
		out[last.name] = [out[last.name], ...positional].filter((w) => w !== undefined).join(" ");
	}
	const missing = declared.filter((a) => a.required && (out[a.name] === undefined || out[a.name] === ""));
	if (missing.length > 0) {
		const detail = missing.map((a) => `${a.name}${a.description ? ` (${a.description})` : ""}`).join(", ");
		throw new PromptArgumentsError(`Missing ${missing.length === 1 ? "argument" : "arguments"} ${detail}. Usage: ${promptUsage(server, prompt)}`);
	}
	return out;
}
