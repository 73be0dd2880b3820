// before_agent_start (aggregate): messages handlers add go with the prompt; the system prompt is
// rendered from mutable options that each handler sees after the previous one (pi 1.6): sections,
// guidelines, hidden tools and the tool selection, or a whole replacement (`systemPrompt`,
// `forceSystemPrompt`). The result shapes only the run about to start.
import type { AgentSession } from "../agent-session.ts";
import type { AgentMessage, CustomMessage } from "../agent/messages.ts";
import { buildSystemPrompt, normalizeSystemPromptOptions, type NormalizedSystemPromptOptions } from "../agent/system-prompt.ts";
import type { ImageContent } from "../providers/types.ts";
import { customMessage } from "./boundary-drafts.ts";
import type { ExtensionRunner } from "./runner.ts";
import type { SendMessageInput } from "./types.ts";

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Snippets and guidelines of tools selected since the options were made, from the session. */
function fillToolEntries(options: NormalizedSystemPromptOptions, session: AgentSession): void {
	const live = session.systemPromptOptions();
	for (const name of options.selectedTools) {
		if (!(name in options.toolSnippets) && live.toolSnippets?.[name]) options.toolSnippets[name] = live.toolSnippets[name]!;
		if (!(name in options.toolGuidelines) && live.toolGuidelines?.[name]) options.toolGuidelines[name] = [...live.toolGuidelines[name]!];
	}
}

/** Dispatch before_agent_start for a run opened by `prompts`; returns the messages handlers add. */
export async function dispatchBeforeAgentStart(runner: ExtensionRunner, session: AgentSession, prompts: AgentMessage[], promptText: string | undefined, images: ImageContent[] | undefined): Promise<CustomMessage[]> {
	const started = prompts[0]?.role === "custom" ? (prompts[0] as CustomMessage) : undefined;
	const options = normalizeSystemPromptOptions(session.systemPromptOptions());
	let forced: string | undefined;
	const render = () => forced ?? buildSystemPrompt(options);
	let selected = [...options.selectedTools];
	const payload: Record<string, unknown> = {
		messageType: started ? "custom" : "user",
		prompt: started ? "" : (promptText ?? ""),
		...(images?.length ? { images } : {}),
		...(started ? { message: started } : {}),
		systemPrompt: render(),
		systemPromptOptions: options,
	};
	const results = await runner.collect<{ message?: SendMessageInput; systemPrompt?: string }>(
		"before_agent_start",
		payload,
		(r) => {
			if (typeof r.systemPrompt === "string") forced = r.systemPrompt;
		},
		(p) => {
			// pi.setActiveTools() in a handler and editing selectedTools do the same.
			const active = session.getActiveToolNames();
			if (!same(active, selected)) options.selectedTools = [...active];
			else if (!same(options.selectedTools, selected)) {
				session.setActiveTools(options.selectedTools);
				options.selectedTools = session.getActiveToolNames();
			}
			selected = [...options.selectedTools];
			fillToolEntries(options, session);
			// The next handler, and ctx.getSystemPrompt() from now on, see the prompt as it is now.
			p.systemPrompt = render();
			session.overrideSystemPrompt(p.systemPrompt as string);
		},
	);
	session.overrideSystemPrompt(forced);
	session.setRunPromptOptions(options);
	return results.flatMap(({ result }) => (result.message ? [customMessage(result.message)] : []));
}
