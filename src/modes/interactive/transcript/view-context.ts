// What transcript entries read from the app while they draw: the TUI (to ask for a frame), the
// extensions (renderers, transformers), the tools (their renderCall / renderResult), ctrl+o state.
import type { TUI } from "@earendil-works/pi-tui";
import type { ExtensionRenderers } from "../../../core/extensions/renderers.ts";
import type { Extension } from "../../../core/extensions/types.ts";

export interface ViewContext {
	readonly tui: TUI;
	readonly cwd: string;
	/** ctrl+o: tool output, thinking and summaries shown in full. */
	readonly expanded: boolean;
	/** setHiddenThinkingLabel: what collapsed thinking is called ("Thinking" by default). */
	readonly hiddenThinkingLabel: string | undefined;
	/** ctrl+t: thinking in full or collapsed whatever ctrl+o says; undefined follows ctrl+o. */
	readonly thinkingShown?: boolean;
	extensions(): readonly Extension[];
	/** What extensions registered for drawing: message and entry renderers, transformers, tool renderers. */
	readonly renderers: ExtensionRenderers;
	/** A registered tool (built-in or extension) by name, for its renderers. */
	tool(name: string): unknown;
}
