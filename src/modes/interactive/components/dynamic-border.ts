// A horizontal rule across the whole width (pi 1.6's DynamicBorder), for extension panels.
import type { Component } from "@earendil-works/pi-tui";
import { currentTheme } from "../theme/styles.ts";

export class DynamicBorder implements Component {
	private readonly color: (text: string) => string;

	constructor(color: (text: string) => string = (text) => currentTheme().fg("border", text)) {
		this.color = color;
	}

	invalidate(): void {}

	render(width: number): string[] {
		return [this.color("─".repeat(Math.max(1, width)))];
	}
}
