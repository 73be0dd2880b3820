// The screen top to bottom: header (name and key hints), the start-up sections, transcript, queued
// messages, the working indicator, widgets above the editor, the editor slot, widgets below, the footer. Each region is a container whose
// content its owner swaps (a custom header or footer, a dialog in the editor's place).
import { Spacer } from "@earendil-works/pi-tui/dist/components/spacer.js";
import { Container } from "@earendil-works/pi-tui/dist/tui.js";
import type { Component, TUI } from "@earendil-works/pi-tui";

export class Layout {
	readonly header = new Container();
	/** `[Context]`, `[Extensions]`, … : what setHeader leaves in place, as pi does. */
	readonly sections = new Container();
	readonly transcript: Container;
	readonly queued = new Container();
	readonly working = new Container();
	readonly widgetsAbove = new Container();
	readonly editorSlot: EditorSlot;
	readonly widgetsBelow = new Container();
	readonly footer = new Container();

	constructor(
		private readonly tui: TUI,
		transcript: Container,
		editor: Component,
	) {
		this.transcript = transcript;
		this.editorSlot = new EditorSlot(tui, editor);
		// A blank line always separates the conversation from what sits above the editor.
		const gap = new Spacer(1);
		for (const region of [this.header, this.sections, transcript, this.queued, this.working, gap, this.widgetsAbove, this.editorSlot, this.widgetsBelow, this.footer]) tui.addChild(region);
	}

	/** Put `component` in a region in place of what was there. */
	static fill(region: Container, component: Component | undefined): void {
		region.clear();
		if (component) region.addChild(component);
	}

	requestRender(): void {
		this.tui.requestRender();
	}
}

/**
 * Where the editor lives. A dialog or an inline custom() component takes its place (and the keys)
 * until it closes; several wait their turn, newest on top.
 */
export class EditorSlot extends Container {
	private editor: Component;
	private readonly modals: Component[] = [];

	constructor(
		private readonly tui: TUI,
		editor: Component,
	) {
		super();
		this.editor = editor;
		this.addChild(editor);
	}

	get current(): Component {
		return this.modals[this.modals.length - 1] ?? this.editor;
	}

	get editorComponent(): Component {
		return this.editor;
	}

	get hasModal(): boolean {
		return this.modals.length > 0;
	}

	/** Swap the editor itself (setEditorComponent); a modal on top stays. */
	setEditor(editor: Component): void {
		this.editor = editor;
		this.show();
	}

	/** Show `component` where the editor is, with the keys; the returned function puts things back. */
	open(component: Component): () => void {
		this.modals.push(component);
		this.show();
		let closed = false;
		return () => {
			if (closed) return;
			closed = true;
			const at = this.modals.indexOf(component);
			if (at >= 0) this.modals.splice(at, 1);
			this.show();
		};
	}

	/** Give the keys back to what the slot shows (after an overlay or a suspended screen). */
	focus(): void {
		this.tui.setFocus(this.current);
	}

	private show(): void {
		this.clear();
		this.addChild(this.current);
		this.tui.setFocus(this.current);
		this.tui.requestRender();
	}
}
