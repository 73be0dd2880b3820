// The `bash` tool: runs a command through BashOperations, streams the tail of its output as
// updates, and reports exit code, timeout or abort. executeBash is the same run for `!cmd`.
import description from "./bash.md" with { type: "text" };
import type { SavedOutputDetails } from "./full-output.ts";
import { errorMessage } from "./paths.ts";
import { type BashOperations, createLocalBashOperations } from "./shell.ts";
import { TailOutput } from "./tail-output.ts";
import { type TruncationResult, fillLimits, formatSize } from "./truncate.ts";
import type { AgentTool, AgentToolUpdateCallback } from "./types.ts";
import { BashParams } from "./params.ts";

export { BashParams };

export interface BashToolDetails extends SavedOutputDetails {
	/** 0 on success; errors carry their code in the message. */
	exitCode?: number | null;
}

export interface BashSpawnContext {
	command: string;
	cwd: string;
	env: Record<string, string | undefined>;
}
/** Adjusts command, cwd or env just before each run (e.g. source a profile, add a variable). */
export type BashSpawnHook = (context: BashSpawnContext) => BashSpawnContext;

export interface BashToolOptions {
	/** Default: local `bash -c` (createLocalBashOperations). */
	operations?: BashOperations;
	/** Shell lines run before every command, e.g. `set -o pipefail`. Default none. */
	commandPrefix?: string;
	/** Shell for the default operations. Default /bin/bash, else bash on PATH, else sh. */
	shellPath?: string;
	spawnHook?: BashSpawnHook;
}

/** The outcome of one command, as pi's BashResult, plus the tail truncation and timeout flag. */
export interface BashResult {
	/** The end of the output, within the limits. */
	output: string;
	/** undefined when the command was killed (abort or timeout). */
	exitCode: number | undefined;
	cancelled: boolean;
	truncated: boolean;
	fullOutputPath?: string;
	timedOut: boolean;
	truncation: TruncationResult;
}

export interface ExecuteBashOptions {
	cwd: string;
	/** Default: local `bash -c`. */
	operations?: BashOperations;
	signal?: AbortSignal;
	/** Seconds. */
	timeout?: number;
	env?: Record<string, string | undefined>;
	/** Called as output arrives with the tail as the model would see it. */
	onOutput?: (tail: TruncationResult, fullOutputPath: string | undefined) => void;
	/** Called with each piece of output as it arrives, all of it, uncut (rpc's bash_execution_update). */
	onChunk?: (text: string) => void;
}

/** Coalesce output bursts into at most one update per this many milliseconds. */
const UPDATE_INTERVAL_MS = 50;

export async function executeBash(command: string, options: ExecuteBashOptions): Promise<BashResult> {
	const operations = options.operations ?? createLocalBashOperations();
	const output = new TailOutput("bash");
	let scheduled: ReturnType<typeof setTimeout> | undefined;
	// stream: a multi-byte character cut between two chunks is decoded whole.
	const decoder = options.onChunk ? new TextDecoder() : undefined;
	let updated = false;
	const onData = (data: Buffer) => {
		output.push(data);
		if (decoder) {
			const text = decoder.decode(data, { stream: true });
			if (text) options.onChunk?.(text);
		}
		if (!options.onOutput || scheduled) return;
		// The first output goes out at once, so even a quick command reports progress; bursts after it coalesce.
		if (!updated) {
			updated = true;
			options.onOutput(output.snapshot(), output.fullOutputPath);
			return;
		}
		scheduled = setTimeout(() => {
			scheduled = undefined;
			options.onOutput?.(output.snapshot(), output.fullOutputPath);
		}, UPDATE_INTERVAL_MS);
	};

	let exitCode: number | undefined;
	let cancelled = false;
	let timedOut = false;
	try {
		const result = await operations.exec(command, options.cwd, {
			onData,
			signal: options.signal,
			timeout: options.timeout,
			env: options.env,
		});
		exitCode = result.exitCode ?? undefined;
	} catch (error) {
		const message = errorMessage(error);
		if (options.signal?.aborted || message === "aborted") cancelled = true;
		else if (message.startsWith("timeout:")) timedOut = true;
		else {
			output.finish();
			throw error;
		}
	} finally {
		clearTimeout(scheduled);
		const rest = decoder?.decode();
		if (rest) options.onChunk?.(rest);
	}
	const truncation = output.finish();
	return {
		output: truncation.content,
		exitCode,
		cancelled,
		truncated: truncation.truncated,
		fullOutputPath: output.fullOutputPath,
		timedOut,
		truncation,
	};
}

/** The tail plus, when cut, a line saying how much is shown and where the rest is. */
function describeOutput(tail: TruncationResult, fullOutputPath: string | undefined): string {
	const text = tail.content.replace(/\n$/, "");
	if (!tail.truncated) return text;
	const shown = tail.lastLinePartial
		? `the last ${formatSize(tail.outputBytes)} of line ${tail.totalLines}`
		: tail.truncatedBy === "lines"
			? `the last ${tail.outputLines} of ${tail.totalLines} lines`
			: `the last ${tail.outputLines} lines (${formatSize(tail.outputBytes)} of ${formatSize(tail.totalBytes)})`;
	const where = fullOutputPath ? `. Full output: ${fullOutputPath}` : "";
	return `${text}\n\n[Showing ${shown}${where}]`;
}

function withStatus(text: string, status: string): string {
	return text === "" ? status : `${text}\n\n${status}`;
}

export function createBashTool(cwd: string, options: BashToolOptions = {}): AgentTool<typeof BashParams, BashToolDetails> {
	const operations = options.operations ?? createLocalBashOperations({ shellPath: options.shellPath });
	return {
		name: "bash",
		label: "Bash",
		description: fillLimits(description),
		parameters: BashParams,
		promptSnippet: "Run a bash command in the working directory (output tail, exit code)",
		promptGuidelines: ["Use bash for builds, tests, git and searching (rg, fd, ls); use read and edit for files"],
		async execute(_toolCallId, params, signal, onUpdate?: AgentToolUpdateCallback<BashToolDetails>) {
			if (signal?.aborted) throw new Error("Command aborted");
			const command = options.commandPrefix ? `${options.commandPrefix}\n${params.command}` : params.command;
			// A copy only for code that could change it (a spawn hook, other operations): the local shell just reads it.
			const env = options.spawnHook || options.operations ? { ...process.env } : process.env;
			const base: BashSpawnContext = { command, cwd, env };
			const spawn = options.spawnHook ? options.spawnHook(base) : base;
			const run = await executeBash(spawn.command, {
				cwd: spawn.cwd,
				env: spawn.env,
				operations,
				signal,
				timeout: params.timeout,
				onOutput: onUpdate
					? (tail, fullOutputPath) =>
							onUpdate({
								content: [{ type: "text", text: describeOutput(tail, fullOutputPath) }],
								details: tail.truncated ? { truncation: tail, fullOutputPath } : {},
							})
					: undefined,
			});
			const text = describeOutput(run.truncation, run.fullOutputPath);
			if (run.cancelled) throw new Error(withStatus(text, "Command aborted"));
			if (run.timedOut) throw new Error(withStatus(text, `Command timed out after ${params.timeout} seconds`));
			if (run.exitCode !== 0) {
				const status = run.exitCode === undefined ? "Command was killed by a signal" : `Command exited with code ${run.exitCode}`;
				throw new Error(withStatus(text, status));
			}
			return {
				content: [{ type: "text", text: text === "" ? "(no output)" : text }],
				details: {
					exitCode: 0,
					...(run.truncated ? { truncation: run.truncation, fullOutputPath: run.fullOutputPath } : {}),
				},
			};
		},
	};
}
