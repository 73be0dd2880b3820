// Runs one pi example-extension scenario through a coding agent — ours (dist/agent) or pi 1.6.0
// itself — against a fresh mock LLM in a temp world, and reduces what happened to a comparable
// observation: exit code, stdout, stderr, what the model was sent, the session file, chosen files.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { agentBinary, runAgent, TempWorld } from "../agent.ts";
import { readMessages, readToolNames, startMockLlm, type MockLlm, type RecordedRequest } from "../mock-llm.ts";
import type { Scenario } from "./scenarios.ts";

export type Flavour = "agent" | "pi";

const repoRoot = resolve(import.meta.dir, "../../..");
export const PI_PACKAGE = join(repoRoot, "node_modules/@earendil-works/pi-coding-agent");
export const EXAMPLES = join(PI_PACKAGE, "examples/extensions");

export interface SeenRequest {
	/** With the scenario's systemProbe: the probe strings the system prompt contains. */
	systemHas?: string[];
	/** Lines the system prompt has beyond the baseline prompt of the same flavour and flags, in order. */
	systemAdded: string[];
	/** Baseline lines the system prompt lacks. */
	systemRemoved: string[];
	tools: string[];
	messages: string[];
}

export interface Observation {
	code: number;
	stdout: string;
	stderr: string;
	requests: SeenRequest[];
	/** Session entries in order, one line each (system-prompt and model/thinking bookkeeping left out). */
	session: string[];
	/** Files the scenario names, relative to the project; absent files read as null. */
	files: Record<string, string | null>;
	/** Output of the scenario's probe script. */
	probe?: string;
}

function modelsJson(mock: MockLlm, scenario: Pick<Scenario, "providers" | "contextWindow">): string {
	const providers: Record<string, unknown> = {
		mock: {
			baseUrl: mock.openaiBaseUrl,
			api: "openai-completions",
			apiKey: "test-key",
			models: [{ id: "mock-model", contextWindow: scenario.contextWindow ?? 100000, maxTokens: 4096 }],
		},
		...scenario.providers,
	};
	return JSON.stringify({ providers }, null, 2).replaceAll('"<mock>"', JSON.stringify(mock.openaiBaseUrl)).replaceAll('"<mock-anthropic>"', JSON.stringify(mock.anthropicBaseUrl));
}

/** Where each flavour keeps its user files. */
function agentDirOf(flavour: Flavour, home: string): string {
	return flavour === "agent" ? join(home, ".agent") : join(home, ".pi", "agent");
}

/** The example copied next to the project (outside it, so no project trust is involved). */
function installExample(world: TempWorld, scenario: Scenario): string {
	const from = join(EXAMPLES, scenario.example);
	const to = join(world.root, "ext", scenario.example);
	cpSync(from, to, { recursive: true });
	for (const name of scenario.nodeModules ?? []) copyPackage(name, join(to, "node_modules"), new Set());
	return to;
}

/** Copy an installed package and, flat beside it, every package it depends on (as npm would lay them out). */
function copyPackage(name: string, into: string, done: Set<string>): void {
	if (done.has(name)) return;
	done.add(name);
	const from = join(repoRoot, "node_modules", name);
	if (!existsSync(from)) return; // an optional dependency that is not installed
	cpSync(from, join(into, name), { recursive: true, dereference: true });
	const manifest = JSON.parse(readFileSync(join(from, "package.json"), "utf8"));
	for (const dep of Object.keys(manifest.dependencies ?? {})) copyPackage(dep, into, done);
}

function command(flavour: Flavour): string[] {
	if (flavour === "agent") return [agentBinary()];
	return [join(repoRoot, "node_modules/.bin/bun"), join(PI_PACKAGE, "dist/bun/cli.js")];
}

/** Replace the world's paths and run-varying tokens so two runs compare equal. */
export function normalize(text: string, world: TempWorld, flavour: Flavour): string {
	return text
		.replaceAll(world.root, "<root>")
		.replaceAll(agentDirOf(flavour, world.home).replace(world.root, "<root>"), "<agent-dir>")
		.replaceAll(/\b\d{4}-\d{2}-\d{2}T\d{2}[:-]\d{2}[:-]\d{2}(?:[.-]\d+)?Z?\b/g, "<time>")
		.replaceAll(/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g, "<uuid>")
		.replaceAll(/\b1[5-9]\d{11}\b/g, "<epoch-ms>");
}

function lineDiff(lines: string[], base: string[]): { added: string[]; removed: string[] } {
	const left = new Map<string, number>();
	for (const l of base) left.set(l, (left.get(l) ?? 0) + 1);
	const added: string[] = [];
	for (const l of lines) {
		const n = left.get(l) ?? 0;
		if (n > 0) left.set(l, n - 1);
		else added.push(l);
	}
	const removed = base.filter((l) => {
		const n = left.get(l) ?? 0;
		if (n <= 0) return false;
		left.set(l, n - 1);
		return true;
	});
	return { added, removed };
}

function contentText(content: unknown): string {
	if (typeof content === "string") return content;
	if (!Array.isArray(content)) return "";
	return content
		.map((c: any) => (c.type === "text" ? c.text : c.type === "toolCall" ? `[call ${c.name} ${JSON.stringify(c.arguments)}]` : c.type === "image" ? "[image]" : ""))
		.filter((t: string) => t !== "")
		.join("\n");
}

/** One line per session entry worth comparing. */
function sessionLine(entry: any, scenario: Scenario): string | undefined {
	switch (entry.type) {
		case "message": {
			const m = entry.message;
			if (m.role === "system") return undefined;
			if (m.role === "toolResult") return `toolResult(${m.toolName}${m.isError ? ", error" : ""}): ${resultText(m.toolName, contentText(m.content), m.isError === true, scenario)}`;
			if (m.role === "bashExecution") return `bash(${m.command}): ${m.output} [exit ${m.exitCode}]`;
			if (m.role === "assistant") return `assistant: ${contentText(m.content)}${m.stopReason === "stop" || m.stopReason === "toolUse" ? "" : ` [${m.stopReason}]`}`;
			return `${m.role}: ${contentText(m.content)}`;
		}
		case "custom_message":
			return `custom_message(${entry.customType}${entry.display ? "" : ", hidden"}): ${contentText(entry.content)}`;
		case "custom":
			return `custom(${entry.customType}): ${JSON.stringify(entry.data ?? null)}`;
		case "label":
			return `label: ${entry.label ?? "(removed)"}`;
		case "session_info":
			return `session_info: ${entry.name}`;
		case "compaction":
			return `compaction: ${entry.summary}`;
		case "model_change":
		case "thinking_level_change":
			return undefined;
		default:
			return `${entry.type}`;
	}
}

function readSessionLines(dir: string, scenario: Scenario): string[] {
	if (!existsSync(dir)) return [];
	const files = readdirSync(dir, { recursive: true, encoding: "utf8" })
		.filter((f) => f.endsWith(".jsonl"))
		.sort((a, b) => a.split("/").at(-1)!.localeCompare(b.split("/").at(-1)!));
	const out: string[] = [];
	for (const [i, f] of files.entries()) {
		if (files.length > 1) out.push(`--- session ${i + 1}`);
		for (const line of readFileSync(join(dir, f), "utf8").split("\n")) {
			if (!line.trim()) continue;
			let entry: any;
			try {
				entry = JSON.parse(line);
			} catch {
				out.push("<unparsable line>");
				continue;
			}
			if (entry.type === "session") continue;
			const l = sessionLine(entry, scenario);
			if (l !== undefined) out.push(l);
		}
	}
	return out;
}

function systemText(request: RecordedRequest): string {
	return readMessages(request)
		.filter((m) => m.role === "system")
		.map((m) => m.text)
		.join("\n\n");
}

/** A tool result's text as compared: trailing whitespace dropped, built-in wording masked. */
function resultText(tool: string | undefined, text: string, isError: boolean, scenario: Scenario): string {
	if (tool && scenario.builtinResults?.includes(tool)) return isError ? `<${tool} error>` : `<${tool} result>`;
	// Our loop names the available tools when a call names an unknown one; pi says only that.
	return text.replace(/^Tool "([^"]+)" not found\. Available tools: .*$/s, "Tool $1 not found").trimEnd();
}

function seenRequest(request: RecordedRequest, scenario: Scenario, options: RunOptions, n: (s: string) => string): SeenRequest {
	const messages = readMessages(request);
	const system = n(systemText(request));
	const lines = system.split("\n");
	const builtin = new Set(options.builtinSystem ?? []);
	const diff = options.baseSystem ? lineDiff(lines, options.baseSystem) : { added: lines, removed: [] };
	const callNames = new Map<string, string>();
	for (const m of messages) for (const c of m.toolCalls ?? []) callNames.set(c.id, c.name);
	return {
		...(scenario.systemProbe ? { systemHas: scenario.systemProbe.filter((p) => system.includes(p)) } : {}),
		systemAdded: scenario.systemProbe ? [] : diff.added.filter((l) => !builtin.has(l)),
		systemRemoved: scenario.systemProbe ? [] : diff.removed.filter((l) => !builtin.has(l)),
		tools: readToolNames(request),
		messages: messages
			.filter((m) => m.role !== "system")
			.map((m) => {
				if (m.role === "toolResult") return `toolResult: ${resultText(callNames.get(m.toolCallId ?? ""), n(m.text), m.isError === true, scenario)}`;
				const calls = (m.toolCalls ?? []).map((c) => `[call ${c.name} ${JSON.stringify(c.arguments)}]`).join("");
				return `${m.role}: ${n(m.text)}${calls}`;
			}),
	};
}

export interface RunOptions {
	/** System prompt lines of a run without the extension, for the system-prompt diff. */
	baseSystem?: string[];
	/** Lines of the flavour's prompts that its built-in tools contribute (left out of the diff: each agent words its own). */
	builtinSystem?: string[];
	/** Keep the temp world (prints its path) for debugging. */
	keep?: boolean;
}

/** A path of the scenario's: relative to the project, `~/` the home folder, `~agent/` the flavour's user dir. */
function scenarioPath(world: TempWorld, flavour: Flavour, path: string): string {
	if (path.startsWith("~/")) return join(world.home, path.slice(2));
	if (path.startsWith("~agent/")) return join(agentDirOf(flavour, world.home), path.slice("~agent/".length));
	return join(world.cwd, path);
}

const GIT_ENV = {
	GIT_AUTHOR_NAME: "t",
	GIT_AUTHOR_EMAIL: "t@example.com",
	GIT_COMMITTER_NAME: "t",
	GIT_COMMITTER_EMAIL: "t@example.com",
	GIT_AUTHOR_DATE: "2026-01-01T00:00:00Z",
	GIT_COMMITTER_DATE: "2026-01-01T00:00:00Z",
};

/** models.json, the scenario's files and its setup script. */
function prepare(world: TempWorld, mock: MockLlm, scenario: Scenario, flavour: Flavour): void {
	const agentDir = agentDirOf(flavour, world.home);
	mkdirSync(agentDir, { recursive: true });
	writeFileSync(join(agentDir, "models.json"), modelsJson(mock, scenario));
	for (const [path, content] of Object.entries(scenario.write ?? {})) world.write(scenarioPath(world, flavour, path), content);
	if (scenario.setup) {
		const r = Bun.spawnSync(["bash", "-c", scenario.setup], { cwd: world.cwd, env: world.environment(GIT_ENV) });
		if (r.exitCode !== 0) throw new Error(`setup of ${scenario.name} failed: ${r.stderr.toString()}`);
	}
}

/** Run `scenario` with `flavour` and observe it. */
export async function observe(scenario: Scenario, flavour: Flavour, options: RunOptions = {}): Promise<Observation> {
	const world = new TempWorld();
	const mock = await startMockLlm({ turns: structuredClone(scenario.turns ?? []) });
	try {
		prepare(world, mock, scenario, flavour);
		const agentDir = agentDirOf(flavour, world.home);
		const extPath = scenario.example ? installExample(world, scenario) : undefined;
		const companion = scenario.companion ? world.write("ext/companion.ts", scenario.companion) : undefined;
		const argv = [
			...command(flavour),
			"-ne",
			...(extPath ? ["-e", extPath] : []),
			...(companion ? ["-e", companion] : []),
			"--model",
			scenario.model ?? "mock/mock-model",
			...(scenario.args ?? []),
			"-p",
			...scenario.prompts,
		];
		const [bin, ...rest] = argv;
		const env = world.environment({
			...GIT_ENV,
			PI_OFFLINE: "1",
			AGENT_OFFLINE: "1",
			MOCK_OPENAI_URL: mock.openaiBaseUrl,
			MOCK_ANTHROPIC_URL: mock.anthropicBaseUrl,
			...scenario.env,
		});
		const r = await runAgent(rest, { binary: bin, cwd: world.cwd, env, stdin: scenario.stdin, timeoutMs: 60_000 });
		const n = (s: string) => normalize(s, world, flavour);
		const requests = mock.requests.filter((q) => q.protocol !== "none").map((q) => seenRequest(q, scenario, options, n));
		const files: Record<string, string | null> = {};
		for (const f of scenario.files ?? []) {
			const full = scenarioPath(world, flavour, f);
			files[f] = existsSync(full) ? normalize(readFileSync(full, "utf8"), world, flavour) : null;
		}
		let probe: string | undefined;
		if (scenario.probe) {
			const p = Bun.spawnSync(["bash", "-c", scenario.probe], { cwd: world.cwd, env: world.environment(GIT_ENV) });
			probe = normalize(p.stdout.toString() + p.stderr.toString(), world, flavour);
		}
		return {
			code: r.code,
			stdout: n(r.stdout),
			stderr: n(r.stderr),
			requests,
			session: readSessionLines(join(agentDir, "sessions"), scenario).map(n),
			files,
			...(probe !== undefined ? { probe } : {}),
		};
	} finally {
		await mock.close();
		if (options.keep) console.error(`kept ${world.root}`);
		else await world[Symbol.asyncDispose]();
	}
}

/** The system prompt lines of a run with the scenario's setup and no extension (normalized). */
export async function baselineSystem(scenario: Scenario, flavour: Flavour, extraArgs: string[] = []): Promise<string[]> {
	const world = new TempWorld();
	const mock = await startMockLlm({ turns: [{ text: "ok" }] });
	try {
		prepare(world, mock, { ...scenario, providers: undefined }, flavour);
		const [bin, ...rest] = [...command(flavour), "-ne", "--model", "mock/mock-model", "--no-session", ...extraArgs, "-p", "baseline"];
		await runAgent(rest, { binary: bin, cwd: world.cwd, env: world.environment({ PI_OFFLINE: "1", AGENT_OFFLINE: "1" }), timeoutMs: 60_000 });
		const request = mock.requests.find((q) => q.protocol !== "none");
		if (!request) return [];
		return systemText(request).split("\n").map((l) => normalize(l, world, flavour));
	} finally {
		await mock.close();
		await world[Symbol.asyncDispose]();
	}
}
