// A scripted mock-LLM turn that waits until the test lets it go: the agent stays "working", or an
// extension's loader stays on the screen, for as long as the test needs to look.

export interface HeldTurn {
	turn: () => Promise<{ text: string }>;
	release: () => void;
}

/** A turn answering `text` once `release()` is called. */
export function heldTurn(text: string): HeldTurn {
	let release!: () => void;
	const released = new Promise<void>((resolve) => (release = resolve));
	return {
		turn: async () => {
			await released;
			return { text };
		},
		release,
	};
}
