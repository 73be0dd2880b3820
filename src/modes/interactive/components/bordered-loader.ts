// A spinner with a message between two rules (pi 1.6's BorderedLoader): what extensions show while
// they wait on something. Cancellable by default (Escape aborts `signal` and calls `onAbort`).
import { CancellableLoader } from "@earendil-works/pi-tui/dist/components/cancellable-loader.js";
import { Loader } from "@earendil-works/pi-tui/dist/components/loader.js";
import { Spacer } from "@earendil-works/pi-tui/dist/components/spacer.js";
import { Text } from "@earendil-works/pi-tui/dist/components/text.js";
import { Container } from "@earendil-works/pi-tui/dist/tui.js";
import type { TUI } from "@earendil-works/pi-tui";
import { keyHint } from "../keybindings.ts";
import type { Theme } from "../../../core/extensions/ui-types.ts";
import { DynamicBorder } from "./dynamic-border.ts";

export class BorderedLoader extends Container {
	private readonly loader: Loader | CancellableLoader;
	private readonly cancellable: boolean;
	private readonly controller = new AbortController();

	constructor(tui: TUI, theme: Theme, message: string, options: { cancellable?: boolean } = {}) {
		super();
		this.cancellable = options.cancellable ?? true;
		const border = (text: string) => theme.fg("border", text);
		const spinner = (text: string) => theme.fg("accent", text);
		const muted = (text: string) => theme.fg("muted", text);
		this.loader = this.cancellable ? new CancellableLoader(tui, spinner, muted, message) : new Loader(tui, spinner, muted, message);
		this.addChild(new DynamicBorder(border));
		this.addChild(this.loader);
		if (this.cancellable) {
			this.addChild(new Spacer(1));
			this.addChild(new Text(keyHint("tui.select.cancel", "cancel"), 1, 0));
		}
		this.addChild(new Spacer(1));
		this.addChild(new DynamicBorder(border));
	}

	/** Aborted when the person cancels (never, for a loader that cannot be cancelled). */
	get signal(): AbortSignal {
		return this.loader instanceof CancellableLoader ? this.loader.signal : this.controller.signal;
	}

	set onAbort(fn: (() => void) | undefined) {
		if (this.loader instanceof CancellableLoader) this.loader.onAbort = fn;
	}

	handleInput(data: string): void {
		if (this.loader instanceof CancellableLoader) this.loader.handleInput(data);
	}

	dispose(): void {
		if (this.loader instanceof CancellableLoader) this.loader.dispose();
		else this.loader.stop();
	}
}
