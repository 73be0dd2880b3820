// A scripted mock-LLM turn that waits until the test lets it go: the run is certainly in flight
// (the agent stays "working", an extension's loader stays on the screen) for as long as the test needs.
import type { Turn } from "./mock-llm.ts";

export interface HeldTurn {
	/** For `world.mock.script(...)`: answers once `release()` is called. */
	turn: () => Promise<Turn>;
	release: () => void;
}

/** A turn answering `reply` (a scripted turn, or just its text) once `release()` is called. */
export function heldTurn(reply: Turn | string): HeldTurn {
	let release!: () => void;
	const released = new Promise<void>((resolve) => (release = resolve));
	const turn: Turn = typeof reply === "string" ? { text: reply } : reply;
	return {
		turn: async () => {
			await released;
			return turn;
		},
		release,
	};
}
