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
		parsed = yaml.trim() === "" ? {} : Bun.YAML.parse(yaml);
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
