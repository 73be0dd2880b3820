// YAML frontmatter of markdown resources (skills, prompt templates): the block between a first
// line `---` and the next `---` line. The YAML itself goes to Bun's built-in parser.

export interface ParsedFrontmatter<T extends Record<string, unknown> = Record<string, unknown>> {
	/** The parsed block; `{}` when the file has none. */
	frontmatter: T;
	/** The text after the block, trimmed; the whole file (newlines normalised) when there is none. */
	body: string;
}

export class FrontmatterError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "FrontmatterError";
	}
}

/**
 * Split `content` into its frontmatter and body. A block that is not valid YAML, or that is YAML
 * but not a mapping, throws FrontmatterError saying so.
 */
export function parseFrontmatter<T extends Record<string, unknown> = Record<string, unknown>>(content: string): ParsedFrontmatter<T> {
	const text = content.replace(/\r\n?/g, "\n").replace(/^\uFEFF/, "");
	const open = /^---[ \t]*\n/.exec(text);
	if (!open) return { frontmatter: {} as T, body: text };
	const rest = text.slice(open[0].length);
	const close = /^---[ \t]*$/m.exec(rest);
	if (!close) return { frontmatter: {} as T, body: text };
	const yaml = rest.slice(0, close.index);
	const body = rest.slice(close.index + close[0].length).trim();
	let parsed: unknown;
	try {
		parsed = yaml.trim() === "" ? {} : (parsePlainLines(yaml) ?? Bun.YAML.parse(yaml));
	} catch (error) {
		throw new FrontmatterError(`invalid YAML frontmatter: ${error instanceof Error ? error.message : String(error)}`);
	}
	if (parsed === null || parsed === undefined) return { frontmatter: {} as T, body };
	if (typeof parsed !== "object" || Array.isArray(parsed)) {
		throw new FrontmatterError("frontmatter must be a YAML mapping (key: value lines)");
	}
	return { frontmatter: parsed as T, body };
}

/** The body of a markdown resource without its frontmatter. */
export function stripFrontmatter(content: string): string {
	return parseFrontmatter(content).body;
}

const PLAIN_LINE = /^([A-Za-z_][\w-]*):[ \t]+(\S.*)$/;
/** Characters that give a YAML value a meaning beyond plain text, at its start or anywhere. */
const SPECIAL_START = /^[-?:,[\]{}#&*!|>'"%@`]/;
const SPECIAL_ANYWHERE = /: | #|\t/;

/**
 * The common case — one `key: plain value` per line — without starting Bun's YAML parser, whose
 * first use costs about a millisecond at start-up. Undefined for anything else (YAML decides).
 */
export function parsePlainLines(yaml: string): Record<string, unknown> | undefined {
	const out: Record<string, unknown> = {};
	for (const line of yaml.split("\n")) {
		if (line.trim() === "") continue;
		const match = PLAIN_LINE.exec(line.trimEnd());
		if (!match) return undefined;
		const [, key, value] = match as unknown as [string, string, string];
		if (SPECIAL_START.test(value) || SPECIAL_ANYWHERE.test(value) || key in out) return undefined;
		if (value === "true" || value === "false") out[key] = value === "true";
		else if (/^(null|Null|NULL|~)$/.test(value)) out[key] = null;
		else if (/^(true|false|True|False|TRUE|FALSE|yes|no|on|off|\.inf|\.nan)$/i.test(value) || /^[-+]?(\d|\.\d)/.test(value)) return undefined;
		else out[key] = value;
	}
	return out;
}
