// The interactive question when the session to continue is being written by another agent
// process: continue in a copy (fork) or quit. Only asked when stdin and stdout are terminals.
import { tildify } from "../config.ts";
import type { SessionInUseError } from "../core/session/session-errors.ts";

export async function promptSessionInUse(error: SessionInUseError): Promise<"fork" | "quit"> {
	const { select, isCancel } = await import("@clack/prompts");
	const owner = error.owner ? `pid ${error.owner.pid}${error.owner.since ? `, since ${new Date(error.owner.since).toLocaleTimeString()}` : ""}` : "starting now";
	const answer = await select({
		message: ["Session in use by another agent process", `${tildify(error.path)} (${owner})`, "", "Writing to it from two places would fork its history."].join("\n"),
		options: [
			{ value: "fork" as const, label: "Continue in a copy", hint: "a new session with this history; the other process keeps the original" },
			{ value: "quit" as const, label: "Quit", hint: "wait for the other run to end, then continue it" },
		],
		initialValue: "fork" as const,
	});
	return isCancel(answer) ? "quit" : answer;
}
