// The TUI the app renders with: pi-tui's main-screen TUI, made to cost what changed rather than the
// length of the transcript. A frame is kept as the line arrays the components returned (the
// transcript hands its settled entries over as a few long ones), never joined; lines that scrolled
// into the terminal's scrollback are cut from what pi-tui diffs (they can only be redrawn by a full
// redraw, which gets them back), and each remaining line's finishing is remembered. What reaches
// the terminal is byte for byte pi-tui's.
import { isImageLine } from "@earendil-works/pi-tui/dist/terminal-image.js";
import { TuiMainScreen } from "@earendil-works/pi-tui/dist/tui-main-screen.js";
import type { Terminal } from "@earendil-works/pi-tui";
import { Frame } from "./frame.ts";
import { hasParts } from "./transcript/transcript.ts";

/**
 * How many finished lines are kept, as a multiple of the frame's line count (plus a floor), before
 * the memo starts over; lines that left the screen (an edited prompt, a streamed answer's earlier
 * versions) go then.
 */
const KEEP_FACTOR = 4;
const KEEP_FLOOR = 2_000;

export interface ScreenOptions {
	/** Lines above the terminal's viewport pi-tui keeps before they are cut. Default 64. */
	cutAfter?: number;
}

/** What pi-tui had drawn of the lines cut from its view, to hand them back. */
interface Cut {
	lines: string[];
	/** getShowHardwareCursor() when they were cut: it changes how a fake cursor is drawn. */
	hardwareCursor: boolean;
}

export class Screen extends TuiMainScreen {
	private finished = new Map<string, string>();
	private readonly cutAfter: number;
	/** Leading lines of the frame pi-tui does not see (all above its viewport). */
	private cut: Cut = { lines: [], hardwareCursor: false };
	/** The last frame's lines as the components returned them. */
	private last = Frame.EMPTY;
	/** The lines this frame hands pi-tui (while doRender runs). */
	private handed: readonly string[] | undefined;

	constructor(terminal: Terminal, options: ScreenOptions = {}) {
		super(terminal);
		this.cutAfter = options.cutAfter ?? 64;
	}

	override render(width: number): readonly string[] {
		return this.handed ?? super.render(width);
	}

	/** The regions' lines in order, as they returned them (the transcript in parts). */
	private frame(width: number): Frame {
		const parts: (readonly string[])[] = [];
		for (const child of this.children) {
			if (hasParts(child)) for (const part of child.renderParts(width)) parts.push(part);
			else parts.push(child.render(width));
		}
		return new Frame(parts);
	}

	/**
	 * pi-tui's frame passes over every line several times (finishing, comparing, looking for
	 * images); with the lines in the scrollback cut, it passes over the screen and what changed.
	 * The cut lines go back before any frame pi-tui may draw in full (a resize, a change above the
	 * viewport, a shrink that scrolls back, an overlay, an image), so it decides and draws as it would
	 * with every line.
	 */
	protected override doRender(): void {
		if (this.stopped) return super.doRender();
		const frame = this.frame(this.terminal.columns);
		if (this.cut.lines.length > 0 && this.mayRedrawAll(frame)) this.uncut();
		const handed = frame.from(this.cut.lines.length);
		this.handed = handed;
		try {
			super.doRender();
		} finally {
			this.handed = undefined;
		}
		this.last = frame;
		this.cutScrolledOff(handed);
	}

	protected override resetRenderState(): void {
		super.resetRenderState();
		// pi-tui starts over and draws every line: none is cut any more.
		this.cut = { lines: [], hardwareCursor: false };
		this.last = Frame.EMPTY;
	}

	/**
	 * pi-tui finishes every line of a frame and then compares each with the last frame's copy,
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

	/** Whether pi-tui, seeing every line, could draw this frame in full (erring towards yes). */
	private mayRedrawAll(frame: Frame): boolean {
		const state = this.captureRenderState();
		const cut = this.cut.lines.length;
		if (this.terminal.columns !== state.previousWidth || this.terminal.rows !== state.previousHeight) return true;
		if (this.hasOverlayEntries || this.getShowHardwareCursor() !== this.cut.hardwareCursor) return true;
		if (this.getClearOnShrink() && frame.length < state.maxLinesRendered + cut) return true;
		// A line above the viewport changed, or went (the frame shrank to above it): pi-tui starts over.
		const top = cut + state.previousViewportTop;
		if (!frame.samePrefix(this.last, top)) return true;
		// An image line on the screen: pi-tui's image handling looks at every line.
		return frame.some(top, isImageLine);
	}

	/** Give pi-tui back the lines it had drawn, as if they had never been cut. */
	private uncut(): void {
		const state = this.captureRenderState();
		const n = this.cut.lines.length;
		this.restoreRenderState({
			...state,
			previousLines: [...this.cut.lines, ...state.previousLines],
			cursorRow: state.cursorRow + n,
			hardwareCursorRow: state.hardwareCursorRow + n,
			maxLinesRendered: state.maxLinesRendered + n,
			previousViewportTop: state.previousViewportTop + n,
		});
		this.cut = { lines: [], hardwareCursor: false };
	}

	/** Cut what scrolled above the viewport, once there is enough of it to be worth it. `uncut` are the lines not cut yet. */
	private cutScrolledOff(uncut: readonly string[]): void {
		if (this.stopped || this.hasOverlayEntries || process.env.TERMUX_VERSION) return;
		const state = this.captureRenderState();
		const n = state.previousViewportTop;
		if (n < this.cutAfter || state.previousLines.length - n < this.terminal.rows) return;
		// restoreRenderState forgets images; with one on the screen nothing is cut.
		for (const line of uncut) if (isImageLine(line)) return;
		const lines = this.cut.lines;
		for (let i = 0; i < n; i++) lines.push(state.previousLines[i]!);
		this.cut = { lines, hardwareCursor: this.getShowHardwareCursor() };
		this.restoreRenderState({
			...state,
			previousLines: state.previousLines.slice(n),
			cursorRow: state.cursorRow - n,
			hardwareCursorRow: state.hardwareCursorRow - n,
			maxLinesRendered: state.maxLinesRendered - n,
			previousViewportTop: 0,
		});
	}
}
