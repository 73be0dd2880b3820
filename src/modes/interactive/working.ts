// The working indicator while the agent runs: a spinner and a message (setWorkingMessage), drawn in
// the editor's top border when the editor can (ours), else on its own line above the editor, as
// pi 1.6 does. Extensions change its frames (setWorkingIndicator) or hide it (setWorkingVisible).
import { Loader } from "@earendil-works/pi-tui/dist/components/loader.js";
import { Container } from "@earendil-works/pi-tui/dist/tui.js";
import { truncateToWidth } from "@earendil-works/pi-tui/dist/utils.js";
import type { Component, TUI } from "@earendil-works/pi-tui";
import type { BorderStatus } from "./components/custom-editor.ts";
import { currentTheme } from "./theme/styles.ts";

export interface WorkingIndicatorOptions {
	frames?: string[];
	intervalMs?: number;
}

/** pi's default working message. */
const DEFAULT_MESSAGE = "Working";

/** An editor that draws the status in its border (pi's `embedWorkingStatus`). */
interface StatusEditor {
	embedWorkingStatus: true;
	setWorkingStatusIndicator(indicator: BorderStatus | undefined): void;
	borderColor?: (text: string) => string;
}

function embeds(editor: Component): editor is Component & StatusEditor {
	const e = editor as Partial<StatusEditor>;
	return e.embedWorkingStatus === true && typeof e.setWorkingStatusIndicator === "function";
}

/** A Loader that can also draw itself as one piece of a border line. */
class StatusLoader extends Loader implements BorderStatus {
	renderInBorder(width: number): string {
		const line = super.render(width + 2)[1] ?? "";
		return truncateToWidth(line.startsWith(" ") ? line.slice(1).trimEnd() : line.trimEnd(), width, "");
	}

	renderSpinnerInBorder(width: number): string {
		return truncateToWidth(this.getRenderedIndicator(), width, "");
	}
}

export class WorkingIndicator {
	private loader: StatusLoader | undefined;
	/** The editor the loader is drawn in, when it is embedded. */
	private host: StatusEditor | undefined;
	private message: string | undefined;
	private indicator: WorkingIndicatorOptions | undefined;
	private visible = true;
	private working = false;

	constructor(
		private readonly tui: TUI,
		private readonly region: Container,
		/** The editor of the moment (ours or an extension's). */
		private readonly editor: () => Component,
	) {}

	get isWorking(): boolean {
		return this.working;
	}

	setWorking(working: boolean): void {
		if (working === this.working) return;
		this.working = working;
		this.update();
	}

	setMessage(message: string | undefined): void {
		this.message = message;
		this.loader?.setMessage(this.text());
	}

	setIndicator(options: WorkingIndicatorOptions | undefined): void {
		this.indicator = options;
		this.loader?.setIndicator(options);
		this.tui.requestRender();
	}

	setVisible(visible: boolean): void {
		this.visible = visible;
		this.update();
	}

	/** The editor was swapped (setEditorComponent): draw the status where the new one wants it. */
	editorChanged(): void {
		if (!this.loader) return;
		this.stop();
		this.update();
	}

	/** Back to the defaults (a reload or a new session: the extensions of the moment decide). */
	reset(): void {
		this.message = undefined;
		this.indicator = undefined;
		this.visible = true;
		this.stop();
		this.update();
	}

	private text(): string {
		return this.message ?? DEFAULT_MESSAGE;
	}

	private update(): void {
		if (this.working && this.visible) {
			if (!this.loader) this.show();
		} else this.stop();
		this.tui.requestRender();
	}

	private show(): void {
		const theme = currentTheme();
		const editor = this.editor();
		if (embeds(editor)) {
			// In the border the spinner and the message take the border's colour.
			const paint = (t: string) => (editor.borderColor ?? ((s: string) => theme.fg("border", s)))(t);
			this.loader = new StatusLoader(this.tui, paint, paint, this.text(), this.indicator);
			this.host = editor;
			editor.setWorkingStatusIndicator(this.loader);
		} else {
			this.loader = new StatusLoader(this.tui, (t) => theme.fg("accent", t), (t) => theme.fg("muted", t), this.text(), this.indicator);
			this.region.addChild(this.loader);
		}
	}

	private stop(): void {
		if (!this.loader) return;
		this.loader.stop();
		if (this.host) this.host.setWorkingStatusIndicator(undefined);
		else this.region.removeChild(this.loader);
		this.host = undefined;
		this.loader = undefined;
	}
}
