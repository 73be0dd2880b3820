// A message the person sent: `› ` before the first line, later lines under it, on the theme's
// user-message background, then its images (pi-tui's Image: graphics, or a placeholder). Markdown
// transformers may rewrite how it reads (never what was sent).
import { Image } from "@earendil-works/pi-tui/dist/components/image.js";
import { visibleWidth } from "@earendil-works/pi-tui/dist/utils.js";
import type { ImageContent } from "../../../core/providers/types.ts";
import { currentTheme } from "../theme/styles.ts";
import { Block, MARGIN, wrapIndented } from "./block.ts";

export class UserMessageView extends Block {
	private readonly images: Image[];

	constructor(
		private readonly text: string,
		images: readonly ImageContent[] = [],
	) {
		super();
		this.images = images.map((image) => new Image(image.data, image.mimeType, { fallbackColor: (s) => currentTheme().fg("muted", s) }, { maxWidthCells: 60 }));
	}

	override invalidate(): void {
		super.invalidate();
		for (const image of this.images) image.invalidate();
	}

	protected build(width: number): string[] {
		const theme = currentTheme();
		const rest = `${MARGIN}  `;
		const lines = this.text.split("\n").flatMap((line, i) => wrapIndented(line, width, rest, i === 0 ? `${MARGIN}${theme.fg("accent", "›")} ` : rest));
		const shown = lines.map((line) => theme.bg("userMessageBg", line + " ".repeat(Math.max(0, width - visibleWidth(line)))));
		for (const image of this.images) shown.push(...image.render(Math.max(1, width - rest.length)).map((line) => rest + line));
		return shown;
	}
}
