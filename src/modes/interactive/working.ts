// The line that says the agent is working: a spinner, a message (setWorkingMessage), Escape's hint.
// Extensions change its frames (setWorkingIndicator) or hide it (setWorkingVisible).
import { Container, Loader, type TUI } from "@earendil-works/pi-tui";
import { keyText } from "./keybindings.ts";
import { currentTheme } from "./theme/styles.ts";

export interface WorkingIndicatorOptions {
	frames?: string[];
	intervalMs?: number;
}

export class WorkingIndicator {
	private loader: Loader | undefined;
	private message: string | undefined;
	private indicator: WorkingIndicatorOptions | undefined;
	private visible = true;
	private working = false;

	constructor(
		private readonly tui: TUI,
		private readonly region: Container,
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
	}

	setVisible(visible: boolean): void {
		this.visible = visible;
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
		return this.message ?? "Working…";
	}

	private update(): void {
		if (this.working && this.visible) {
			if (!this.loader) {
				const theme = currentTheme();
				const hint = theme.fg("dim", ` (${keyText("app.interrupt")} to interrupt)`);
				this.loader = new Loader(this.tui, (t) => theme.fg("accent", t), (t) => `${theme.fg("muted", t)}${hint}`, this.text(), this.indicator);
				this.region.addChild(this.loader);
			}
		} else this.stop();
		this.tui.requestRender();
	}

	private stop(): void {
		if (!this.loader) return;
		this.loader.stop();
		this.region.removeChild(this.loader);
		this.loader = undefined;
	}
}
