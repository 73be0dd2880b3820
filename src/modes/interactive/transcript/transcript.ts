// The transcript region: its entries, and a frame's worth of their lines that costs what changed,
// not the length of the conversation. Entries that are done changing on their own are sealed into
// runs whose lines are kept as one array; only the rest render each frame (an answer streaming in).
// A sealed entry that changes anyway says so from its invalidate(), and goes back to rendering.
import { Container } from "@earendil-works/pi-tui/dist/tui.js";
import type { Component } from "@earendil-works/pi-tui";
import { isExpandable } from "./block.ts";

/** A transcript entry that can tell when it is done changing on its own. */
export interface Settling {
	/** True once its lines change only through calls on it, each of which invalidates it. */
	settled(): boolean;
	/** Set by the transcript while the entry is sealed; the entry calls it from invalidate(). */
	onChange: (() => void) | undefined;
}

export function isSettling(component: Component): component is Component & Settling {
	return typeof (component as Partial<Settling>).settled === "function";
}

/** A frame's lines as the arrays components returned, in order; what the Screen draws from. */
export type LineParts = readonly (readonly string[])[];

/** A component that can hand its lines over in parts rather than joined into one array. */
export interface PartedComponent extends Component {
	renderParts(width: number): LineParts;
}

export function hasParts(component: Component): component is PartedComponent {
	return typeof (component as Partial<PartedComponent>).renderParts === "function";
}

/**
 * Lines of sealed entries joined into one run are capped near this count: sealing one more entry
 * joins its lines onto the last run (a copy, and the Screen comparing the run line by line once),
 * so that cost stays bounded however long the conversation is, while a frame passes over one
 * part per this many lines.
 */
const RUN_LINES = 250;

/** Consecutive sealed entries and, once drawn at `width`, their lines joined. */
interface Run {
	entries: Component[];
	width: number;
	lines: readonly string[] | undefined;
	/** The same lines without the first (a blank one), for a transcript with nothing above it. */
	atTopLines: readonly string[] | undefined;
}

export class Transcript extends Container {
	/** True when nothing is above the transcript (a quiet start-up): its first blank line goes. */
	atTop: () => boolean = () => false;
	private readonly sealed = new Set<Component>();
	/** Runs of sealed entries and the entries rendered each frame, in order; rebuilt when stale. */
	private segments: (Run | Component)[] = [];
	private stale = true;
	private flat: { parts: LineParts; lines: readonly string[] } | undefined;

	override addChild(component: Component): void {
		super.addChild(component);
		this.stale = true;
	}

	override removeChild(component: Component): void {
		super.removeChild(component);
		this.unseal(component);
		this.stale = true;
	}

	override clear(): void {
		for (const entry of this.sealed) this.release(entry);
		this.sealed.clear();
		super.clear();
		this.segments = [];
		this.stale = true;
	}

	/** Theme, ctrl+t, a new thinking label, Markdown loaded: every entry draws again. */
	override invalidate(): void {
		this.unsealAll();
		super.invalidate();
	}

	setExpanded(expanded: boolean): void {
		this.unsealAll();
		for (const child of this.children) if (isExpandable(child)) child.setExpanded(expanded);
	}

	/** The lines as one array (pi-tui's contract); the Screen asks for the parts instead. */
	override render(width: number): readonly string[] {
		const parts = this.renderParts(width);
		const flat = this.flat;
		if (flat && flat.parts.length === parts.length && flat.parts.every((part, i) => part === parts[i])) return flat.lines;
		const lines: string[] = [];
		for (const part of parts) for (const line of part) lines.push(line);
		this.flat = { parts, lines };
		return lines;
	}

	/** The entries' lines in parts: one per run of sealed entries, one per entry still rendering. */
	renderParts(width: number): LineParts {
		if (this.stale) this.partition(width);
		const parts: (readonly string[])[] = [];
		let settledNow = false;
		for (const segment of this.segments) {
			let lines: readonly string[];
			if (isRun(segment)) lines = runLines(segment, width, parts.length === 0 && this.atTop());
			else {
				lines = segment.render(width);
				if (parts.length === 0 && lines[0] === "" && this.atTop()) lines = lines.slice(1);
				if (isSettling(segment) && segment.settled()) settledNow = this.seal(segment) || settledNow;
			}
			if (lines.length > 0) parts.push(lines);
		}
		// Entries that settled this frame join a run on the next one (their lines are the same).
		if (settledNow) this.stale = true;
		return parts;
	}

	private seal(entry: Component & Settling): boolean {
		if (this.sealed.has(entry)) return false;
		this.sealed.add(entry);
		entry.onChange = () => {
			this.unseal(entry);
			this.stale = true;
		};
		return true;
	}

	private unseal(entry: Component): void {
		if (this.sealed.delete(entry)) this.release(entry);
	}

	private release(entry: Component): void {
		if (isSettling(entry)) entry.onChange = undefined;
	}

	private unsealAll(): void {
		for (const entry of this.sealed) this.release(entry);
		this.sealed.clear();
		this.segments = [];
		this.stale = true;
	}

	/** Group sealed entries into runs, keeping the joined lines of runs that did not change. */
	private partition(width: number): void {
		const previous = new Map<Component, Run>();
		for (const segment of this.segments) if (isRun(segment)) previous.set(segment.entries[0]!, segment);
		const segments: (Run | Component)[] = [];
		let run: Run | undefined;
		let runLength = 0;
		const close = () => {
			if (!run) return;
			const before = previous.get(run.entries[0]!);
			segments.push(before && sameEntries(before.entries, run.entries) ? before : run);
			run = undefined;
		};
		for (const child of this.children) {
			if (!this.sealed.has(child)) {
				close();
				segments.push(child);
				continue;
			}
			if (run && runLength >= RUN_LINES) close();
			if (!run) {
				run = { entries: [], width, lines: undefined, atTopLines: undefined };
				runLength = 0;
			}
			run.entries.push(child);
			runLength += child.render(width).length;
		}
		close();
		this.segments = segments;
		this.stale = false;
	}
}

function isRun(segment: Run | Component): segment is Run {
	return Array.isArray((segment as Run).entries);
}

function sameEntries(a: readonly Component[], b: readonly Component[]): boolean {
	return a.length === b.length && a.every((entry, i) => entry === b[i]);
}

function runLines(run: Run, width: number, atTop: boolean): readonly string[] {
	if (run.width !== width || !run.lines) {
		const lines: string[] = [];
		for (const entry of run.entries) for (const line of entry.render(width)) lines.push(line);
		run.width = width;
		run.lines = lines;
		run.atTopLines = undefined;
	}
	if (!atTop || run.lines[0] !== "") return run.lines;
	return (run.atTopLines ??= run.lines.slice(1));
}
