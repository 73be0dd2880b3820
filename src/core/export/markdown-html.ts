// Markdown to HTML for exported transcripts, with marked: GitHub-flavoured, and safe to open —
// raw HTML in a message is shown as text, links keep to http(s)/mailto/#, and images become links,
// so the page runs no script of the conversation's and loads nothing from the network.
import { Marked, type Tokens } from "marked";

export function escapeHtml(text: string): string {
	return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** An href the page may follow: web, mail and in-page links; anything else (javascript:, data:, file:) is dropped. */
function safeHref(href: string): string | undefined {
	const trimmed = href.trim();
	return /^(https?:|mailto:|#)/i.test(trimmed) ? trimmed : undefined;
}

let instance: Marked | undefined;

function markdown(): Marked {
	if (instance) return instance;
	instance = new Marked({ gfm: true, breaks: false });
	instance.use({
		renderer: {
			html(token: Tokens.HTML | Tokens.Tag): string {
				return escapeHtml(token.text);
			},
			link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Link): string {
				const text = this.parser.parseInline(token.tokens);
				const href = safeHref(token.href);
				if (!href) return text;
				const title = token.title ? ` title="${escapeHtml(token.title)}"` : "";
				return `<a href="${escapeHtml(href)}"${title} rel="noreferrer noopener">${text}</a>`;
			},
			image(token: Tokens.Image): string {
				const href = safeHref(token.href);
				const label = escapeHtml(token.text || token.href);
				return href ? `<a class="image-link" href="${escapeHtml(href)}" rel="noreferrer noopener">[image: ${label}]</a>` : `[image: ${label}]`;
			},
		},
	});
	return instance;
}

/** One message's markdown as HTML. */
export function renderMarkdown(text: string): string {
	return markdown().parse(text, { async: false }) as string;
}
