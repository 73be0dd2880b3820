// A message the person sent: `› ` before the first line, later lines under it, on the theme's
// user-message background. Markdown transformers may rewrite how it reads (never what was sent).
import { visibleWidth } from "@earendil-works/pi-tui/dist/utils.js";
import { currentTheme } from "../theme/styles.ts";
import { Block, MARGIN, wrapIndented } from "./block.ts";

export class UserMessageView extends Block {
	constructor(private readonly text: string) {
		super();
	}

	protected build(width: number): string[] {
		const theme = currentTheme();
		const rest = `${MARGIN}  `;
		const lines = this.text.split("\n").flatMap((line, i) => wrapIndented(line, width, rest, i === 0 ? `${MARGIN}${theme.fg("accent", "›")} ` : rest));
		return lines.map((line) => theme.bg("userMessageBg", line + " ".repeat(Math.max(0, width - visibleWidth(line)))));
	}
}
