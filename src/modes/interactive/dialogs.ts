// Dialogs drawn in the editor's place (SPEC §7): select, confirm, input, a multi-line editor, and
// the pickers built-in commands use. A `timeout` counts down in the title and then answers the
// default; an aborted `signal` answers it at once. One dialog at a time; the others wait.
import { Editor } from "@earendil-works/pi-tui/dist/components/editor.js";
import { Input } from "@earendil-works/pi-tui/dist/components/input.js";
import { SelectList } from "@earendil-works/pi-tui/dist/components/select-list.js";
import { Spacer } from "@earendil-works/pi-tui/dist/components/spacer.js";
import { Text } from "@earendil-works/pi-tui/dist/components/text.js";
import { getKeybindings } from "@earendil-works/pi-tui/dist/keybindings.js";
import { Container } from "@earendil-works/pi-tui/dist/tui.js";
import type { Component, SelectItem, TUI } from "@earendil-works/pi-tui";
import type { DialogOptions } from "../../core/extensions/types.ts";
import { DynamicBorder } from "./components/dynamic-border.ts";
import { keyHint, rawKeyHint } from "./keybindings.ts";
import { currentTheme, getEditorTheme, getSelectListTheme } from "./theme/styles.ts";

export interface DialogHost {
	readonly tui: TUI;
	/** Show a component in the editor's place; the function returned puts the editor back. */
	open(component: Component): () => void;
	/** Edit text in $VISUAL / $EDITOR; undefined when there is none or it failed. */
	externalEditor(text: string): Promise<string | undefined>;
	/** ctrl+o inside a selector: tool output expanded or collapsed, as pi. */
	toggleToolsExpanded?(): void;
}

/**
 * pi 1.6's dialog frame: a rule, the title (with the countdown), an optional message, the body,
 * the key hints, a rule — each part a blank line apart.
 */
class DialogView extends Container {
	private readonly title: Text;
	onKey?: (data: string) => void;
	focusTarget: (Component & { focused?: boolean }) | undefined;

	constructor(
		private readonly baseTitle: string,
		body: Component[],
		hints: string,
		private readonly titleStyle: (text: string) => string = (text) => currentTheme().fg("accent", text),
		message?: string,
	) {
		super();
		const theme = currentTheme();
		this.title = new Text(titleStyle(baseTitle), 1, 0);
		this.addChild(new DynamicBorder());
		this.addChild(new Spacer(1));
		this.addChild(this.title);
		if (message) this.addChild(new Spacer(1), new Text(theme.fg("text", message), 1, 0));
		this.addChild(new Spacer(1));
		for (const part of body) this.addChild(part);
		this.addChild(new Spacer(1));
		this.addChild(new Text(hints, 1, 0));
		this.addChild(new Spacer(1));
		this.addChild(new DynamicBorder());
	}

	override addChild(...components: Component[]): void {
		for (const c of components) super.addChild(c);
	}

	/** The title with seconds left, e.g. `Pick fast (2s)`. */
	setCountdown(seconds: number | undefined): void {
		this.title.setText(this.titleStyle(seconds === undefined ? this.baseTitle : `${this.baseTitle} (${seconds}s)`));
	}

	// Inputs inside show the cursor only when the dialog has the keys.
	private _focused = false;
	get focused(): boolean {
		return this._focused;
	}
	set focused(value: boolean) {
		this._focused = value;
		if (this.focusTarget) this.focusTarget.focused = value;
	}

	handleInput(data: string): void {
		this.onKey?.(data);
	}
}

/** The accent, bold title of pi's selectors. */
const boldTitle = (text: string) => {
	const theme = currentTheme();
	return theme.fg("accent", theme.bold(text));
};

/**
 * pi's option list: `→ ` before the chosen one, ten at a time around it, `(3/14)` when some are
 * out of view; ↑↓ or j/k move.
 */
class OptionList implements Component {
	private selected = 0;
	constructor(private readonly options: readonly string[]) {}

	invalidate(): void {}

	get current(): string | undefined {
		return this.options[this.selected];
	}

	move(by: number): void {
		this.selected = Math.max(0, Math.min(this.options.length - 1, this.selected + by));
	}

	render(width: number): string[] {
		const theme = currentTheme();
		const max = 10;
		const start = Math.max(0, Math.min(this.selected - Math.floor(max / 2), this.options.length - max));
		const end = Math.min(start + max, this.options.length);
		const lines: string[] = [];
		for (let i = start; i < end; i++) {
			const text = i === this.selected ? theme.fg("accent", "→ ") + theme.fg("accent", this.options[i]!) : `  ${theme.fg("text", this.options[i]!)}`;
			lines.push(...new Text(text, 1, 0).render(width));
		}
		if (start > 0 || end < this.options.length) lines.push(...new Text(theme.fg("muted", `  (${this.selected + 1}/${this.options.length})`), 0, 0).render(width));
		return lines;
	}
}

let queue: Promise<unknown> = Promise.resolve();

/** Run a dialog once the ones before it have closed. */
function serialize<T>(run: () => Promise<T>): Promise<T> {
	const next = queue.then(run, run);
	queue = next.catch(() => undefined);
	return next;
}

/**
 * Open `view` and resolve with what `bind` reports through `finish`, or `fallback` when the
 * timeout runs out or the signal aborts.
 */
function runDialog<T>(host: DialogHost, view: DialogView, fallback: T, opts: DialogOptions | undefined, bind: (finish: (value: T) => void) => void): Promise<T> {
	return serialize(
		() =>
			new Promise<T>((resolve) => {
				if (opts?.signal?.aborted) return resolve(fallback);
				let close: (() => void) | undefined;
				let ticker: ReturnType<typeof setInterval> | undefined;
				const finish = (value: T) => {
					if (!close) return;
					close();
					close = undefined;
					clearInterval(ticker);
					opts?.signal?.removeEventListener("abort", abort);
					host.tui.requestRender();
					resolve(value);
				};
				const abort = () => finish(fallback);
				opts?.signal?.addEventListener("abort", abort, { once: true });
				if (opts?.timeout && opts.timeout > 0) {
					const deadline = Date.now() + opts.timeout;
					const tick = () => {
						const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
						if (Date.now() >= deadline) return finish(fallback);
						view.setCountdown(left);
						host.tui.requestRender();
					};
					ticker = setInterval(tick, 250);
					view.setCountdown(Math.ceil(opts.timeout / 1000));
				}
				bind(finish);
				close = host.open(view);
			}),
	);
}

const NAV_HINTS = () => `${rawKeyHint("↑↓", "navigate")}  ${keyHint("tui.select.confirm", "select")}  ${keyHint("tui.select.cancel", "cancel")}`;

export interface PickItem<T> {
	value: T;
	label: string;
	description?: string;
}

/** A list to choose from; typing filters it. Resolves with the chosen value, or undefined. */
export function pickDialog<T>(host: DialogHost, title: string, items: PickItem<T>[], options: DialogOptions & { initial?: T; message?: string } = {}): Promise<T | undefined> {
	const theme = currentTheme();
	const entries: SelectItem[] = items.map((item, i) => ({ value: String(i), label: item.label, description: item.description }));
	const list = new SelectList(entries, Math.min(12, Math.max(1, entries.length)), getSelectListTheme());
	const initial = items.findIndex((item) => item.value === options.initial);
	if (initial >= 0) list.setSelectedIndex(initial);
	const filter = new Text("", 1, 0);
	const view = new DialogView(title, [list, filter], NAV_HINTS(), boldTitle, options.message);
	return runDialog<T | undefined>(host, view, undefined, options, (finish) => {
		let typed = "";
		list.onSelect = (item) => finish(items[Number(item.value)]?.value);
		list.onCancel = () => finish(undefined);
		view.onKey = (data) => {
			const kb = getKeybindings();
			// Printable keys narrow the list; backspace widens it again.
			if (kb.matches(data, "tui.editor.deleteCharBackward") && typed) typed = typed.slice(0, -1);
			else if (data.length === 1 && data >= " " && data !== "\x7f") typed += data;
			else return list.handleInput(data);
			list.setFilter(typed);
			filter.setText(typed ? theme.fg("dim", `filter: ${typed}`) : "");
			host.tui.requestRender();
		};
	});
}

/** ctx.ui.select, as pi draws it: one of `options` (Enter), or undefined (Escape, timeout, signal). */
export function selectDialog(host: DialogHost, title: string, options: string[], opts?: DialogOptions): Promise<string | undefined> {
	const list = new OptionList(options);
	const view = new DialogView(title, [list], NAV_HINTS(), boldTitle);
	return runDialog<string | undefined>(host, view, undefined, opts, (finish) => {
		view.onKey = (data) => {
			const kb = getKeybindings();
			if (kb.matches(data, "tui.select.up") || data === "k") list.move(-1);
			else if (kb.matches(data, "tui.select.down") || data === "j") list.move(1);
			else if (kb.matches(data, "tui.select.confirm") || data === "\n") {
				if (list.current !== undefined) finish(list.current);
				return;
			} else if (kb.matches(data, "tui.select.cancel")) return finish(undefined);
			else if (kb.matches(data, "app.tools.expand" as never)) host.toggleToolsExpanded?.();
			else return;
			host.tui.requestRender();
		};
	});
}

/** ctx.ui.confirm: pi's Yes/No selector with the message under the title; false when dismissed. */
export async function confirmDialog(host: DialogHost, title: string, message: string, opts?: DialogOptions): Promise<boolean> {
	return (await selectDialog(host, message ? `${title}\n${message}` : title, ["Yes", "No"], opts)) === "Yes";
}

/** ctx.ui.input: a line of text, or undefined when dismissed. */
export function inputDialog(host: DialogHost, title: string, placeholder?: string, opts?: DialogOptions & { initialValue?: string }): Promise<string | undefined> {
	// pi's TUI shows no placeholder (RPC clients get it); the title says what to type.
	void placeholder;
	const input = new Input();
	if (opts?.initialValue) input.setValue(opts.initialValue);
	const view = new DialogView(title, [input], `${keyHint("tui.select.confirm", "submit")}  ${keyHint("tui.select.cancel", "cancel")}`);
	view.focusTarget = input;
	return runDialog<string | undefined>(host, view, undefined, opts, (finish) => {
		input.onSubmit = (value) => finish(value);
		input.onEscape = () => finish(undefined);
		view.onKey = (data) => {
			if (getKeybindings().matches(data, "tui.select.cancel")) finish(undefined);
			else input.handleInput(data);
		};
	});
}

/** ctx.ui.editor: multi-line text (Enter finishes, shift+enter or ctrl+j for a new line, ctrl+g opens $VISUAL). */
export function editorDialog(host: DialogHost, title: string, prefill = "", opts?: DialogOptions): Promise<string | undefined> {
	const editor = new Editor(host.tui, getEditorTheme());
	editor.setText(prefill);
	const hints = `${keyHint("tui.select.confirm", "submit")}  ${keyHint("tui.input.newLine", "newline")}  ${keyHint("tui.select.cancel", "cancel")}  ${keyHint("app.editor.external", "external editor")}`;
	const view = new DialogView(title, [editor], hints);
	view.focusTarget = editor;
	return runDialog<string | undefined>(host, view, undefined, opts, (finish) => {
		editor.onSubmit = (text) => finish(text);
		view.onKey = (data) => {
			const kb = getKeybindings();
			if (kb.matches(data, "tui.select.cancel") && !editor.isShowingAutocomplete()) finish(undefined);
			else if (kb.matches(data, "app.editor.external" as never)) {
				void host.externalEditor(editor.getExpandedText()).then((text) => {
					if (text !== undefined) editor.setText(text);
					host.tui.requestRender();
				});
			} else editor.handleInput(data);
		};
	});
}
