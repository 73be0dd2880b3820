// `@mariozechner/pi-tui`: the component subset the line-based UI can render (SPEC §2). Components
// render to plain lines for a given width; there is no full-screen terminal behind them.
const ANSI = /\x1b\[[0-9;]*m/g;

export function visibleWidth(text: string): number {
	return Bun.stringWidth(text.replace(ANSI, ""));
}

export function truncateToWidth(text: string, width: number, ellipsis = "…"): string {
	if (visibleWidth(text) <= width) return text;
	let out = "";
	for (const ch of text.replace(ANSI, "")) {
		if (visibleWidth(out + ch + ellipsis) > width) break;
		out += ch;
	}
	return out + ellipsis;
}

export interface Component {
	render(width: number): string[];
	invalidate?(): void;
}

export class Text implements Component {
	constructor(
		public text = "",
		private paddingX = 0,
		private paddingY = 0,
	) {}
	setText(text: string): void {
		this.text = text;
	}
	render(width: number): string[] {
		const pad = " ".repeat(this.paddingX);
		const lines = this.text.split("\n").map((l) => truncateToWidth(pad + l, Math.max(1, width)));
		const blank = Array.from({ length: this.paddingY }, () => "");
		return [...blank, ...lines, ...blank];
	}
	invalidate(): void {}
}

export class Spacer implements Component {
	constructor(private lines = 1) {}
	render(): string[] {
		return Array.from({ length: this.lines }, () => "");
	}
}

export class Container implements Component {
	children: Component[] = [];
	addChild(child: Component): void {
		this.children.push(child);
	}
	removeChild(child: Component): void {
		this.children = this.children.filter((c) => c !== child);
	}
	clear(): void {
		this.children = [];
	}
	render(width: number): string[] {
		return this.children.flatMap((c) => c.render(width));
	}
	invalidate(): void {
		for (const c of this.children) c.invalidate?.();
	}
}

export class Box extends Container {
	constructor(
		private paddingX = 1,
		private paddingY = 0,
	) {
		super();
	}
	override render(width: number): string[] {
		const pad = " ".repeat(this.paddingX);
		const inner = super.render(Math.max(1, width - this.paddingX * 2)).map((l) => pad + l);
		const blank = Array.from({ length: this.paddingY }, () => "");
		return [...blank, ...inner, ...blank];
	}
}

/** Markdown shown as its source text, wrapped to the width. */
export class Markdown extends Text {}

/** Key ids as `modifier+key` strings. */
export const Key = {
	ctrl: (k: string) => `ctrl+${k}`,
	alt: (k: string) => `alt+${k}`,
	shift: (k: string) => `shift+${k}`,
	ctrlAlt: (k: string) => `ctrl+alt+${k}`,
	ctrlShift: (k: string) => `ctrl+shift+${k}`,
	enter: "enter",
	escape: "escape",
	tab: "tab",
	up: "up",
	down: "down",
	left: "left",
	right: "right",
} as const;

const NAMED: Record<string, string> = { "\r": "enter", "\n": "enter", "\x1b": "escape", "\t": "tab", "\x7f": "backspace", " ": "space" };

/** Whether raw terminal input `data` is the key `keyId` (ctrl+letter and plain keys). */
export function matchesKey(data: string, keyId: string): boolean {
	const id = keyId.toLowerCase();
	if (NAMED[data] === id || data === id) return true;
	const ctrl = /^ctrl\+([a-z])$/.exec(id);
	return ctrl !== null && data.length === 1 && data.charCodeAt(0) === ctrl[1]!.charCodeAt(0) - 96;
}
