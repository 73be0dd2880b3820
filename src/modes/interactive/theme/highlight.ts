// Syntax highlighting for code blocks and file contents: highlight.js (its 36 common grammars, pure
// JS, no WASM), required on the first highlighted block so start-up never pays for it. Its HTML
// spans become theme colours (`syntaxKeyword`, `syntaxString`, …), one string per line.
import type { Theme, ThemeColor } from "./theme.ts";

interface Highlighter {
	highlight(code: string, options: { language: string; ignoreIllegals?: boolean }): { value: string };
	getLanguage(name: string): unknown;
}

let hljs: Highlighter | undefined;

/** highlight.js, loaded (synchronously: its chunk is in the binary) on first use. */
function highlighter(): Highlighter {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	return (hljs ??= (require("./hljs.ts") as { default: Highlighter }).default);
}

/** highlight.js scopes → theme tokens; the first class of a span that is listed wins. */
const SCOPES: Record<string, ThemeColor> = {
	comment: "syntaxComment",
	quote: "syntaxComment",
	doctag: "syntaxKeyword",
	keyword: "syntaxKeyword",
	"selector-tag": "syntaxKeyword",
	literal: "syntaxKeyword",
	meta: "syntaxKeyword",
	name: "syntaxKeyword",
	tag: "syntaxPunctuation",
	title: "syntaxFunction",
	"function": "syntaxFunction",
	section: "mdHeading",
	variable: "syntaxVariable",
	"template-variable": "syntaxVariable",
	attr: "syntaxVariable",
	attribute: "syntaxVariable",
	params: "syntaxVariable",
	property: "syntaxVariable",
	"selector-id": "syntaxVariable",
	"selector-class": "syntaxVariable",
	string: "syntaxString",
	regexp: "syntaxString",
	symbol: "syntaxString",
	char: "syntaxString",
	subst: "syntaxVariable",
	link: "mdLink",
	number: "syntaxNumber",
	type: "syntaxType",
	built_in: "syntaxType",
	class: "syntaxType",
	operator: "syntaxOperator",
	punctuation: "syntaxPunctuation",
	addition: "toolDiffAdded",
	deletion: "toolDiffRemoved",
};

const ENTITIES: Record<string, string> = { "&lt;": "<", "&gt;": ">", "&amp;": "&", "&quot;": '"', "&#x27;": "'", "&#39;": "'" };

function unescape(text: string): string {
	return text.replace(/&(?:lt|gt|amp|quot|#x27|#39);/g, (e) => ENTITIES[e] ?? e);
}

function tokenOf(classes: string): ThemeColor | undefined {
	for (const cls of classes.split(/\s+/)) {
		const scope = cls.replace(/^hljs-/, "").replace(/_+$/, "");
		const token = SCOPES[scope] ?? SCOPES[scope.split(".")[0]!];
		if (token) return token;
	}
	return undefined;
}

/** highlight.js HTML (only spans and escaped text) → coloured lines. */
function htmlToLines(html: string, theme: Theme): string[] {
	const lines: string[] = [];
	let line = "";
	const stack: (ThemeColor | undefined)[] = [];
	const paint = (text: string) => {
		const token = stack.findLast((t) => t !== undefined);
		return token ? theme.fg(token, text) : text;
	};
	for (const part of html.split(/(<span class="[^"]*">|<\/span>)/)) {
		if (part.startsWith("<span")) stack.push(tokenOf(part.slice(13, -2)));
		else if (part === "</span>") stack.pop();
		else if (part) {
			const pieces = unescape(part).split("\n");
			pieces.forEach((piece, i) => {
				if (i > 0) {
					lines.push(line);
					line = "";
				}
				if (piece) line += paint(piece);
			});
		}
	}
	lines.push(line);
	return lines;
}

/** Languages highlight.js knows under another name. */
const ALIASES: Record<string, string> = { sh: "bash", shell: "bash", zsh: "bash", console: "bash", ts: "typescript", tsx: "typescript", js: "javascript", jsx: "javascript", mjs: "javascript", cjs: "javascript", py: "python", rb: "ruby", rs: "rust", yml: "yaml", md: "markdown", "c++": "cpp", "h": "c", "hpp": "cpp", kt: "kotlin", cs: "csharp", jsonc: "json" };

/**
 * `code` as lines coloured for `lang` (a fence's info string or a language name). Unknown or
 * missing languages, and code highlight.js cannot parse, come back as plain lines.
 */
export function highlightCode(code: string, lang: string | undefined, theme: Theme): string[] {
	const name = lang?.trim().split(/\s+/)[0]?.toLowerCase();
	const language = name ? (ALIASES[name] ?? name) : undefined;
	if (!language || theme.getColorMode() === "none") return code.split("\n");
	try {
		const h = highlighter();
		if (!h.getLanguage(language)) return code.split("\n");
		return htmlToLines(h.highlight(code, { language, ignoreIllegals: true }).value, theme);
	} catch {
		return code.split("\n");
	}
}

const EXTENSIONS: Record<string, string> = {
	ts: "typescript", tsx: "typescript", mts: "typescript", cts: "typescript", js: "javascript", jsx: "javascript", mjs: "javascript", cjs: "javascript",
	json: "json", jsonc: "json", md: "markdown", markdown: "markdown", py: "python", rb: "ruby", rs: "rust", go: "go", java: "java", kt: "kotlin",
	c: "c", h: "c", cc: "cpp", cpp: "cpp", cxx: "cpp", hpp: "cpp", cs: "csharp", swift: "swift", php: "php", pl: "perl", lua: "lua", r: "r",
	sh: "bash", bash: "bash", zsh: "bash", yml: "yaml", yaml: "yaml", toml: "ini", ini: "ini", xml: "xml", html: "xml", htm: "xml", svg: "xml",
	css: "css", scss: "scss", less: "less", sql: "sql", graphql: "graphql", diff: "diff", patch: "diff", makefile: "makefile", mk: "makefile",
	vb: "vbnet", m: "objectivec", dockerfile: "dockerfile", proto: "protobuf", wasm: "wasm",
};

/** The highlight.js language of a file, by its extension (or name, for `Makefile`, `Dockerfile`). */
export function getLanguageFromPath(filePath: string): string | undefined {
	const base = filePath.split(/[\\/]/).pop()?.toLowerCase() ?? "";
	const dot = base.lastIndexOf(".");
	return EXTENSIONS[dot >= 0 ? base.slice(dot + 1) : base];
}
