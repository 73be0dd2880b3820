// End-to-end runs of the extension runtime: real extension files in a mock world, the binary in
// json or print mode against the mock LLM, and readers for what the extensions recorded (a JSON
// line per `log(...)` call), the json event stream and the session file.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { RunResult } from "./agent.ts";
import { MODEL, type MockWorld } from "./world.ts";

/**
 * Put in front of every extension written with `writeExtension`: `log(...values)` appends one JSON
 * line to the run's log (an array when given several values).
 */
export const PRELUDE = `import { appendFileSync as __append } from "node:fs";
const log = (...values: unknown[]) => __append(process.env.EXT_LOG!, JSON.stringify(values.length === 1 ? values[0] : values) + "\\n");
`;

/** Write `project/<name>.ts` with the log prelude; returns its path relative to the project (for -e). */
export function writeExtension(world: MockWorld, name: string, body: string): string {
	world.write(`project/${name}.ts`, PRELUDE + body);
	return `./${name}.ts`;
}

/** What every use of a `pi` or `ctx` from before a reload or session replacement throws (reference §1.3). */
export const STALE =
	"This extension ctx is stale after session replacement or reload. Do not use a captured pi or command ctx after ctx.newSession(), ctx.fork(), ctx.switchSession(), or ctx.reload(). For newSession, fork, and switchSession, move post-replacement work into withSession and use the ctx passed to withSession. For reload, do not use the old ctx after await ctx.reload().";

export interface RuntimeRun extends RunResult {
	/** What the extensions logged, in order. */
	log: any[];
	/** json mode: every stdout line parsed (the session header first). */
	events: any[];
}

export interface RuntimeRunOptions {
	/** Default "json". */
	mode?: "json" | "print";
	/** Default MODEL.openai. */
	model?: string;
	env?: Record<string, string>;
	/** Default: no extra arguments besides -e and the mode. */
	args?: string[];
	stdin?: string;
}

export function logPath(world: MockWorld): string {
	return join(world.root, "ext-log.jsonl");
}

/** Read the extension log (one JSON value per line). */
export function readLog(world: MockWorld): any[] {
	const path = logPath(world);
	if (!existsSync(path)) return [];
	return readFileSync(path, "utf8")
		.split("\n")
		.filter(Boolean)
		.map((line) => JSON.parse(line));
}

/**
 * `agent -ne -e <ext>… --model <m> [--mode json] -p <prompt>…` in the world's project. Each prompt
 * is one message (print mode sends them in turn).
 */
export async function runWith(world: MockWorld, extensions: string[], prompts: string[], options: RuntimeRunOptions = {}): Promise<RuntimeRun> {
	const argv = ["-ne", ...extensions.flatMap((e) => ["-e", e]), "--model", options.model ?? MODEL.openai];
	if ((options.mode ?? "json") === "json") argv.push("--mode", "json");
	argv.push(...(options.args ?? []), "-p", ...prompts);
	const r = await world.run(argv, { env: { EXT_LOG: logPath(world), ...options.env }, stdin: options.stdin });
	const events = (options.mode ?? "json") === "json" ? r.stdout.split("\n").filter(Boolean).map(parseLine) : [];
	return { ...r, log: readLog(world), events };
}

function parseLine(line: string): unknown {
	try {
		return JSON.parse(line);
	} catch {
		return { unparsed: line };
	}
}

/** Every session file under the world's ~/.agent/sessions, oldest name first. */
export function sessionFiles(world: MockWorld): string[] {
	const root = join(world.agentDir, "sessions");
	if (!existsSync(root)) return [];
	const out: string[] = [];
	for (const dir of readdirSync(root)) {
		for (const f of readdirSync(join(root, dir))) if (f.endsWith(".jsonl")) out.push(join(root, dir, f));
	}
	return out.sort();
}

/** The entries (header first) of a session file. */
export function readSession(path: string): any[] {
	return readFileSync(path, "utf8")
		.split("\n")
		.filter(Boolean)
		.map((line) => JSON.parse(line));
}

/** The entries of the only session file this world has; fails when there is not exactly one. */
export function onlySession(world: MockWorld): any[] {
	const files = sessionFiles(world);
	if (files.length !== 1) throw new Error(`expected one session file, found ${files.length}: ${files.join(", ")}`);
	return readSession(files[0]!);
}

/** Entries without the fields that vary (id, parentId, timestamp) — for exact comparisons. */
export function stable(entries: any[]): any[] {
	return entries.map(({ id: _id, parentId: _p, timestamp: _t, ...rest }) => {
		if (rest.message && typeof rest.message === "object") {
			const { timestamp: _mt, ...message } = rest.message;
			return { ...rest, message };
		}
		return rest;
	});
}

/** Text of a session message entry (user, custom, toolResult), for short assertions. */
export function entryText(entry: any): string {
	const content = entry.type === "custom_message" ? entry.content : entry.message?.content;
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content.map((c: any) => (c.type === "text" ? c.text : c.type === "toolCall" ? `[call ${c.name}]` : "")).join("");
}

/** A one-line summary of a session's message-bearing entries: `role: text`. */
export function transcript(entries: any[]): string[] {
	return entries
		.filter((e) => e.type === "message" || e.type === "custom_message")
		.map((e) => `${e.type === "custom_message" ? `custom(${e.customType})` : e.message.role}: ${entryText(e)}`);
}
