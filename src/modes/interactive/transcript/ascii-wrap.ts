// pi-tui's wrapTextWithAnsi for the commonest line: printable ASCII, plain or in one foreground colour
// (`\x1b[38;…m` … `\x1b[39m`, what the theme's fg() makes). Same rows, byte for byte (a unit test
// compares the two over random lines), found with indexOf and slice instead of pi-tui's walk over
// every character: that walk is cold code before the first frame, measured ~1 ms per long line.

/** One foreground colour the way the theme writes it, the line's printable ASCII, the colour's end. */
const STYLED = /^(\x1b\[38;(?:5;\d{1,3}|2;\d{1,3};\d{1,3};\d{1,3})m)?([\x20-\x7e]*?)(\x1b\[39m)?$/;

/**
 * wrapTextWithAnsi(text, width) when `text` has that shape (and, coloured, does not end in a
 * space); undefined otherwise, for the caller to use pi-tui.
 */
export function wrapAsciiLine(text: string, width: number): string[] | undefined {
	const m = STYLED.exec(text);
	if (!m) return undefined;
	const [, open = "", plain = "", close = ""] = m;
	if (open === "" && close !== "") return undefined;
	if (open !== "" && (plain.endsWith(" ") || plain === "")) return undefined;
	if (plain.length <= width) return [text];
	const rows = wrapPlain(plain, width, open !== "");
	if (open === "") return rows;
	// pi-tui re-opens the colour on each row it starts; the close stays on the last.
	return rows.map((row, i) => `${open}${row}${i === rows.length - 1 ? close : ""}`);
}

/**
 * pi-tui's greedy wrap of runs of spaces and of other characters, for printable ASCII. `coloured`:
 * a row started at a wrapped space (or by leading spaces wider than a row, which pi-tui drops) holds
 * the colour code in pi-tui, so a word too wide for any row that follows leaves that row behind.
 */
function wrapPlain(line: string, width: number, coloured: boolean): string[] {
	const rows: string[] = [];
	let current = "";
	let length = 0;
	let started = false;
	for (let at = 0; at < line.length; ) {
		const space = line.charCodeAt(at) === 0x20;
		let end = at + 1;
		while (end < line.length && (line.charCodeAt(end) === 0x20) === space) end++;
		const token = line.slice(at, end);
		const first = at === 0;
		at = end;
		if (coloured && first && space && token.length > width) {
			// The colour code rides on the first token: leading spaces wider than a row leave only it.
			started = true;
			continue;
		}
		if (!space && token.length > width) {
			// A word wider than a row: cut in rows of `width`, the rest starts the next row.
			if (current || started) rows.push(current.trimEnd());
			started = false;
			let cut = 0;
			for (; token.length - cut > width; cut += width) rows.push(token.slice(cut, cut + width));
			current = token.slice(cut);
			length = current.length;
			continue;
		}
		if (length + token.length > width && length > 0) {
			rows.push(current.trimEnd());
			// A row never starts with the spaces it was wrapped at.
			current = space ? "" : token;
			length = space ? 0 : token.length;
			started = space && coloured;
			continue;
		}
		current += token;
		length += token.length;
		started = false;
	}
	if (current) rows.push(current);
	return rows.length > 0 ? rows.map((row) => row.trimEnd()) : [""];
}
