// Markdown made readable in a terminal, one line at a time so streamed text can be printed as each
// line completes: headings, lists, quotes, rules, fenced code, and inline bold/italic/code.
import pc from "picocolors";

/** Inline spans: `code`, **bold**, *italic* / _italic_, [text](url). Markers are dropped. */
export function renderInline(text: string): string {
	const parts = text.split(/(`[^`]+`)/);
	return parts
		.map((part) => {
			if (part.length > 2 && part.startsWith("`") && part.endsWith("`")) return pc.cyan(part.slice(1, -1));
			return part
				.replace(/\*\*([^*]+)\*\*/g, (_m, t: string) => pc.bold(t))
				.replace(/__([^_]+)__/g, (_m, t: string) => pc.bold(t))
				.replace(/(^|[^*\w])\*([^*\s][^*]*)\*(?!\*)/g, (_m, pre: string, t: string) => pre + pc.italic(t))
				.replace(/(^|[^_\w])_([^_\s][^_]*)_(?![_\w])/g, (_m, pre: string, t: string) => pre + pc.italic(t))
				.replace(/\[([^\]]+)\]\(([^)\s]+)\)/g, (_m, t: string, url: string) => `${pc.underline(t)} ${pc.dim(`(${url})`)}`);
		})
		.join("");
}

/** Renders markdown line by line; keeps the state that spans lines (inside a code fence or not). */
export class MarkdownLines {
	private fence: string | undefined;

	get inCode(): boolean {
		return this.fence !== undefined;
	}

	reset(): void {
		this.fence = undefined;
	}

	/** Render a line without moving the fence state (an unfinished streamed line). */
	peek(source: string): string {
		const fence = this.fence;
		const out = this.line(source);
		this.fence = fence;
		return out;
	}

	/** One complete source line → the line to print (without the left margin). */
	line(source: string): string {
		const fence = /^\s*(```+|~~~+)\s*([\w+-]*)/.exec(source);
		if (this.fence !== undefined) {
			if (fence && fence[1]!.startsWith(this.fence)) {
				this.fence = undefined;
				return pc.dim("└─");
			}
			return `${pc.dim("│")} ${pc.green(source)}`;
		}
		if (fence) {
			this.fence = fence[1]!;
			return pc.dim(`┌─${fence[2] ? ` ${fence[2]}` : ""}`);
		}
		const heading = /^(#{1,6})\s+(.*)$/.exec(source);
		if (heading) {
			const text = renderInline(heading[2]!.replace(/\s+#+\s*$/, ""));
			return heading[1]!.length <= 2 ? pc.bold(pc.underline(text)) : pc.bold(text);
		}
		if (/^\s*([-*_])(\s*\1){2,}\s*$/.test(source)) return pc.dim("─".repeat(40));
		const bullet = /^(\s*)[-*+]\s+(\[[ xX]\]\s+)?(.*)$/.exec(source);
		if (bullet) {
			const box = bullet[2] ? (bullet[2].trim() === "[ ]" ? "☐ " : "☑ ") : "";
			return `${bullet[1]}${pc.dim("•")} ${box}${renderInline(bullet[3]!)}`;
		}
		const numbered = /^(\s*)(\d+[.)])\s+(.*)$/.exec(source);
		if (numbered) return `${numbered[1]}${pc.dim(numbered[2]!)} ${renderInline(numbered[3]!)}`;
		const quote = /^\s*>\s?(.*)$/.exec(source);
		if (quote) return `${pc.dim("│")} ${pc.italic(renderInline(quote[1]!))}`;
		return renderInline(source);
	}
}

/** Render a whole markdown text to lines. */
export function renderMarkdown(text: string): string[] {
	const md = new MarkdownLines();
	return text.split("\n").map((l) => md.line(l));
}

/**
 * Streamed markdown: `push` text as it arrives and get back the lines that completed; the
 * unfinished tail is `partial` (shown live, printed once its newline comes or at `end`).
 */
export class MarkdownStream {
	private buffer = "";
	private readonly md = new MarkdownLines();

	push(delta: string): string[] {
		this.buffer += delta;
		const lines: string[] = [];
		let nl = this.buffer.indexOf("\n");
		while (nl >= 0) {
			lines.push(this.md.line(this.buffer.slice(0, nl)));
			this.buffer = this.buffer.slice(nl + 1);
			nl = this.buffer.indexOf("\n");
		}
		return lines;
	}

	/** The line being written, rendered as it stands. */
	get partial(): string {
		return this.buffer ? this.md.peek(this.buffer) : "";
	}

	/** The rest, when the text is complete (an unclosed fence is closed). */
	end(): string[] {
		const out = this.buffer ? [this.md.line(this.buffer)] : [];
		this.buffer = "";
		if (this.md.inCode) out.push(this.md.line("```"));
		this.md.reset();
		return out;
	}
}
