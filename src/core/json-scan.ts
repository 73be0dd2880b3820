// Where things are in a JSON text: a strict scanner that records the offset of every value by
// JSON pointer and stops at the first offence, so errors can name line and column (Bun's
// JSON.parse reports no position, schema errors only a pointer).

/** `/providers/x/models/0/id` → `providers.x.models[0].id` */
export function pointerToPath(pointer: string): string {
	let out = "";
	for (const raw of pointer.split("/").slice(1)) {
		const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
		out += /^\d+$/.test(part) ? `[${part}]` : /^[A-Za-z_$][\w$-]*$/.test(part) ? `${out ? "." : ""}${part}` : `[${JSON.stringify(part)}]`;
	}
	return out;
}

export function lineColumn(text: string, offset: number): { line: number; column: number } {
	let line = 1;
	let lineStart = 0;
	for (let i = 0; i < offset && i < text.length; i++) {
		if (text[i] === "\n") {
			line++;
			lineStart = i + 1;
		}
	}
	return { line, column: offset - lineStart + 1 };
}

interface Scan {
	/** Offset of each value by JSON pointer (`""` is the root). */
	positions: Map<string, number>;
	error?: { offset: number; message: string };
}

class ScanError extends Error {
	constructor(
		readonly offset: number,
		message: string,
	) {
		super(message);
	}
}

/**
 * A strict JSON scanner that records where each value starts, so errors can name a line:
 * JSON.parse in Bun reports no position, and schema errors report only a pointer.
 */
export function scanJson(text: string): Scan {
	const positions = new Map<string, number>();
	let i = 0;
	const fail = (message: string): never => {
		throw new ScanError(i, i >= text.length ? "unexpected end of file" : message);
	};
	const ws = () => {
		while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
	};
	const string = (): string => {
		const start = i++;
		while (i < text.length && text[i] !== '"') {
			if (text[i] === "\\") i++;
			else if (text.charCodeAt(i) < 0x20) fail("a line break or control character inside a string (close the string with \")");
			i++;
		}
		if (i >= text.length) {
			i = start;
			throw new ScanError(start, "unterminated string");
		}
		i++;
		try {
			return JSON.parse(text.slice(start, i)) as string;
		} catch {
			i = start;
			return fail("invalid escape in string");
		}
	};
	const value = (pointer: string): void => {
		ws();
		positions.set(pointer, i);
		const ch = text[i];
		if (ch === "{") {
			i++;
			ws();
			if (text[i] === "}") {
				i++;
				return;
			}
			while (true) {
				ws();
				if (text[i] !== '"') fail(text[i] === "}" ? 'a trailing comma before "}" (remove it)' : "expected a property name in double quotes");
				const key = string();
				ws();
				if (text[i] !== ":") fail(`expected ":" after "${key}"`);
				i++;
				value(`${pointer}/${key.replace(/~/g, "~0").replace(/\//g, "~1")}`);
				ws();
				if (text[i] === ",") {
					i++;
					continue;
				}
				if (text[i] === "}") {
					i++;
					return;
				}
				fail('expected "," or "}" after a property value');
			}
		}
		if (ch === "[") {
			i++;
			ws();
			if (text[i] === "]") {
				i++;
				return;
			}
			for (let index = 0; ; index++) {
				ws();
				if (text[i] === "]") fail('a trailing comma before "]" (remove it)');
				value(`${pointer}/${index}`);
				ws();
				if (text[i] === ",") {
					i++;
					continue;
				}
				if (text[i] === "]") {
					i++;
					return;
				}
				fail('expected "," or "]" after an array item');
			}
		}
		if (ch === '"') {
			string();
			return;
		}
		for (const literal of ["true", "false", "null"]) {
			if (text.startsWith(literal, i)) {
				i += literal.length;
				return;
			}
		}
		const number = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
		number.lastIndex = i;
		if (ch !== undefined && number.test(text)) {
			i = number.lastIndex;
			return;
		}
		fail(ch === "'" ? "strings need double quotes" : `unexpected ${JSON.stringify(ch)}`);
	};
	try {
		value("");
		ws();
		if (i < text.length) fail("unexpected text after the end of the JSON value");
		return { positions };
	} catch (error) {
		if (error instanceof ScanError) return { positions, error: { offset: error.offset, message: error.message } };
		throw error;
	}
}

/** How many `{` and `[` `text` holds (those in strings too), counting no further than `limit`. */
function bracketsUpTo(text: string, limit: number): number {
	let n = 0;
	for (let i = text.indexOf("{"); i >= 0 && n < limit; i = text.indexOf("{", i + 1)) n++;
	for (let i = text.indexOf("["); i >= 0 && n < limit; i = text.indexOf("[", i + 1)) n++;
	return n;
}

/**
 * The offset where `text` first nests deeper than `maxDepth` arrays and objects, or undefined.
 * Checked before parsing: a 100,000-deep file must be an error naming its line, not a stack overflow.
 */
export function excessiveNesting(text: string, maxDepth: number): number | undefined {
	// Each level opens with a bracket: a text with no more than maxDepth of them (a config file) needs no walk.
	if (bracketsUpTo(text, maxDepth + 1) <= maxDepth) return undefined;
	let depth = 0;
	let inString = false;
	for (let i = 0; i < text.length; i++) {
		const ch = text.charCodeAt(i);
		if (inString) {
			if (ch === 0x5c) i++;
			else if (ch === 0x22) inString = false;
		} else if (ch === 0x22) inString = true;
		else if (ch === 0x7b || ch === 0x5b) {
			if (++depth > maxDepth) return i;
		} else if (ch === 0x7d || ch === 0x5d) depth--;
	}
	return undefined;
}
