// The Theme extensions' renderers receive (`ctx.ui.theme`), mapped onto picocolors: pi's colour
// roles (accent, success, muted, …) and plain colour names both work; unknown names leave text as is.
import pc from "picocolors";
import type { Component, Theme } from "../../core/extensions/types.ts";

type Paint = (text: string) => string;
const plain: Paint = (t) => t;

const ROLES: Record<string, Paint> = {
	accent: pc.cyan,
	borderAccent: pc.cyan,
	border: pc.gray,
	borderMuted: pc.gray,
	success: pc.green,
	error: pc.red,
	warning: pc.yellow,
	muted: pc.gray,
	dim: pc.dim,
	text: plain,
	thinkingText: pc.gray,
	toolTitle: pc.bold,
	toolOutput: pc.gray,
	mdHeading: pc.bold,
	mdLink: pc.underline,
	mdCode: pc.cyan,
	toolDiffAdded: pc.green,
	toolDiffRemoved: pc.red,
	toolDiffContext: pc.gray,
};

function paint(color: string, background: boolean): Paint {
	if (!background && ROLES[color]) return ROLES[color]!;
	const name = background ? `bg${color[0]?.toUpperCase() ?? ""}${color.slice(1)}` : color;
	const fn = (pc as unknown as Record<string, unknown>)[name];
	return typeof fn === "function" ? (fn as Paint) : plain;
}

export const terminalTheme: Theme = {
	name: "terminal",
	fg: (color, text) => paint(color, false)(text),
	bg: (color, text) => paint(color, true)(text),
	bold: pc.bold,
	dim: pc.dim,
	italic: pc.italic,
	underline: pc.underline,
	strikethrough: pc.strikethrough,
	inverse: pc.inverse,
};

/**
 * What a renderer returned, as lines: a string, a component (pi-tui compat: `render(width)`),
 * or nothing (undefined — the caller falls back to plain text).
 */
export function componentLines(value: unknown, width: number): string[] | undefined {
	if (typeof value === "string") return value.split("\n");
	if (value && typeof (value as Component).render === "function") {
		const lines = (value as Component).render(width);
		return Array.isArray(lines) ? lines.map(String) : undefined;
	}
	return undefined;
}
