// A shell command the user runs themselves (`!cmd`, `!!cmd`; rpc `bash`): the user_bash hook may
// supply where it runs (operations) or the whole result; otherwise it runs locally like the bash
// tool. The run becomes a bashExecution message for the conversation.
import type { BashExecutionMessage } from "./agent/messages.ts";
import type { UserBashEvent, UserBashEventResult } from "./extensions/event-types.ts";
import { executeBash } from "./tools/bash.ts";

export interface UserBashOptions {
	cwd: string;
	/** `!!cmd`: shown and saved, but kept out of the model's context. Default false. */
	excludeFromContext?: boolean;
	signal?: AbortSignal;
	/** The output so far (its tail within the limits), as it arrives. */
	onOutput?: (output: string) => void;
	/** The user_bash event: the first result with `operations` or `result` wins; a throw aborts the command. */
	hook?: (event: Omit<UserBashEvent, "type">) => Promise<UserBashEventResult | undefined>;
}

export async function runUserBash(command: string, options: UserBashOptions): Promise<BashExecutionMessage> {
	const excludeFromContext = options.excludeFromContext ?? false;
	const decided = options.hook ? await options.hook({ command, excludeFromContext, cwd: options.cwd }) : undefined;
	const result =
		decided?.result ??
		(await executeBash(command, {
			cwd: options.cwd,
			operations: decided?.operations,
			signal: options.signal,
			onOutput: options.onOutput ? (tail) => options.onOutput!(tail.content) : undefined,
		}));
	return {
		role: "bashExecution",
		command,
		output: result.output,
		exitCode: result.exitCode,
		cancelled: result.cancelled,
		truncated: result.truncated,
		...(result.fullOutputPath ? { fullOutputPath: result.fullOutputPath } : {}),
		...(excludeFromContext ? { excludeFromContext: true } : {}),
		timestamp: Date.now(),
	};
}
