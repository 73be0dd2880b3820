// ctx.ui for project_trust handlers, which run at start-up before any mode exists (pi 1.6's
// ProjectTrustContext): in a terminal the dialogs are @clack/prompts, as the trust prompt is;
// elsewhere they answer their defaults at once. notify writes one line to stderr.
import type { ProjectTrustContext } from "../core/compat/pi-types.ts";
import { writeStderr } from "../stdio.ts";

type StartupUI = ProjectTrustContext["ui"];

export function headlessStartupUI(): StartupUI {
	return {
		select: async () => undefined,
		confirm: async () => false,
		input: async () => undefined,
		notify() {},
	};
}

export function terminalStartupUI(): StartupUI {
	const clack = () => import("@clack/prompts");
	return {
		async select(title, options) {
			const { select, isCancel } = await clack();
			const answer = await select({ message: title, options: options.map((o) => ({ value: o, label: o })) });
			return isCancel(answer) ? undefined : (answer as string);
		},
		async confirm(title, message) {
			const { confirm, isCancel } = await clack();
			const answer = await confirm({ message: message ? `${title}\n${message}` : title });
			return isCancel(answer) ? false : answer;
		},
		async input(title, placeholder) {
			const { text, isCancel } = await clack();
			const answer = await text({ message: title, ...(placeholder ? { placeholder } : {}) });
			return isCancel(answer) ? undefined : answer;
		},
		notify(message, type = "info") {
			writeStderr(`${type === "info" ? "" : `${type}: `}${message}\n`);
		},
	};
}
