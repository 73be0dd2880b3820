// The TUI the app renders with: pi-tui's main-screen TUI, with each frame's per-line finishing
// (cursor markers out, tabs expanded, a reset at the end) remembered per line, so a frame with a
// long transcript pays for the lines that changed, not for every line on it.
import { TuiMainScreen } from "@earendil-works/pi-tui/dist/tui-main-screen.js";

/**
 * How many finished lines are kept, as a multiple of the frame's line count (plus a floor), before
 * the memo starts over; lines that left the screen (an edited prompt, a streamed answer's earlier
 * versions) go then.
 */
const KEEP_FACTOR = 4;
const KEEP_FLOOR = 2_000;

export class Screen extends TuiMainScreen {
	private finished = new Map<string, string>();

	/**
	 * pi-tui finishes every line of every frame and then compares each with the last frame's copy,
	 * character by character, since each copy is a new string. A line's finish depends on the line
	 * alone, so a line seen before gets the very string it got then: no work, and the compare that
	 * follows sees the same string.
	 */
	protected override applyLineResets(lines: string[]): string[] {
		if (this.finished.size > KEEP_FACTOR * lines.length + KEEP_FLOOR) this.finished = new Map();
		const one: string[] = [""];
		for (let i = 0; i < lines.length; i++) {
			const line = lines[i]!;
			let done = this.finished.get(line);
			if (done === undefined) {
				one[0] = line;
				done = super.applyLineResets(one)[0]!;
				this.finished.set(line, done);
			}
			lines[i] = done;
		}
		return lines;
	}
}
