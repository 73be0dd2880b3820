// Under tmux, whether OSC 8 hyperlinks reach the outer terminal is asked of tmux itself
// (`client_termfeatures`), as pi-tui does — but without blocking: pi-tui runs `tmux display-message`
// synchronously the first time anything reads its capabilities (before the first frame, ~4 ms).
// Here links are off until tmux answers (pi-tui's answer on any failure), the question goes out in
// the background (a resumed session's first frame waits for it, a new one's shows no link), and the
// screen is drawn again if the answer turns them on.
import { setCapabilityOverrides } from "@earendil-works/pi-tui/dist/terminal-image.js";

/** pi-tui's limit for the same question. */
const TIMEOUT_MS = 250;

/** Whether pi-tui would ask tmux: inside tmux and no `PI_HYPERLINKS` to settle it. */
export function asksTmux(env: NodeJS.ProcessEnv = process.env): boolean {
	const term = env.TERM?.toLowerCase() ?? "";
	return (env.TMUX !== undefined && env.TMUX !== "") || term.startsWith("tmux") ? env.PI_HYPERLINKS !== "1" && env.PI_HYPERLINKS !== "0" : false;
}

/** tmux's answer: whether the attached client's features list `hyperlinks`; false on any failure or after 250 ms. */
export async function tmuxForwardsHyperlinks(env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
	let proc: Bun.Subprocess<"ignore", "pipe", "ignore">;
	try {
		proc = Bun.spawn(["tmux", "display-message", "-p", "#{client_termfeatures}"], { env, stdin: "ignore", stdout: "pipe", stderr: "ignore" });
	} catch {
		return false;
	}
	let timer: ReturnType<typeof setTimeout> | undefined;
	// Past the limit the answer is no, whether or not the pipe has closed.
	const late = new Promise<false>((resolve) => {
		timer = setTimeout(() => {
			proc.kill();
			resolve(false);
		}, TIMEOUT_MS);
	});
	const answer = Promise.all([new Response(proc.stdout).text(), proc.exited]).then(
		([text, code]) => code === 0 && text.split(",").some((feature) => feature.trim() === "hyperlinks"),
		() => false,
	);
	try {
		return await Promise.race([answer, late]);
	} finally {
		clearTimeout(timer);
	}
}

/** Asks tmux; `onEnabled` runs if its answer turns links on. Settles once the capabilities are final. */
export type AskTmux = (onEnabled: () => void) => Promise<void>;

/**
 * Under tmux (and no `PI_HYPERLINKS`): links off in pi-tui's capabilities from now on, so reading
 * them runs nothing; the returned function asks tmux. Undefined when there is nothing to ask.
 */
export function holdTmuxHyperlinks(env: NodeJS.ProcessEnv = process.env): AskTmux | undefined {
	if (!asksTmux(env)) return undefined;
	setCapabilityOverrides({ hyperlinks: false });
	return (onEnabled) =>
		tmuxForwardsHyperlinks(env).then((forwards) => {
			if (!forwards) return;
			setCapabilityOverrides({ hyperlinks: true });
			onEnabled();
		});
}
