// `!cmd` typed by a person (interactive and rpc modes): user_bash may hand over an executor or the
// whole result, else the command runs locally; output streams as bash_execution_update, and the
// run becomes a bashExecution message (SPEC §6, reference §2.2). A throwing handler aborts it.
import { bashExecutionMessage, type BashExecutionMessage } from "../agent/messages.ts";
import { executeBash } from "../tools/bash.ts";
import type { UserBashEventResult, UserBashResult } from "./event-types.ts";
import type { ExtensionRunner } from "./runner.ts";

export interface UserBashOptions {
	/** `!!cmd`: shown, but kept out of the model's context. */
	excludeFromContext?: boolean;
	signal?: AbortSignal;
	/** The output so far (its tail within the limits), as it arrives. */
	onOutput?: (output: string) => void;
}

/** What the user_bash handlers decide for `command`: an executor, a whole result, or nothing (run it here). */
export async function askUserBash(runner: ExtensionRunner, command: string, cwd: string, excludeFromContext: boolean): Promise<UserBashEventResult | undefined> {
	const decided = runner.has("user_bash")
		? await runner.first<UserBashEventResult>("user_bash", { command, excludeFromContext, cwd }, (r) => (r.operations || r.result ? "stop" : "ignore"), { rethrow: true })
		: undefined;
	if (decided?.operations && typeof decided.operations.exec !== "function") throw new Error("user_bash: a handler returned operations without an exec(command, cwd, options) function");
	return decided;
}

export async function runUserBash(runner: ExtensionRunner, command: string, cwd: string, options: UserBashOptions = {}): Promise<BashExecutionMessage> {
	const excludeFromContext = options.excludeFromContext ?? false;
	const decided = await askUserBash(runner, command, cwd, excludeFromContext);
	let result: UserBashResult;
	if (decided?.result) {
		result = decided.result;
	} else {
		const update = runner.has("bash_execution_update");
		const onOutput =
			update || options.onOutput
				? (tail: { content: string }) => {
						options.onOutput?.(tail.content);
						if (update) void runner.emit("bash_execution_update", { command, output: tail.content });
					}
				: undefined;
		result = await executeBash(command, { cwd, operations: decided?.operations, signal: options.signal, onOutput });
	}
	return bashExecutionMessage(command, result, excludeFromContext);
}
