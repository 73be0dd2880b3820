// A build transform (pi-tui-build-plugin.ts): pi-tui's width of a lone non-ASCII character (`·`, `─`,
// `↑`, `…`, box drawing, arrows, Latin-1) comes from a table made at build time by pi-tui itself,
// instead of its clusterWidth, whose first calls compile three Unicode-property regexes and run cold
// code before the first frame (measured ~0.8 ms of it). The same Bun and the same pi-tui make the
// table as run the binary, so every width is what pi-tui would compute; other characters still go
// to clusterWidth.
import { visibleWidth } from "@earendil-works/pi-tui/dist/utils.js";

/** The code units the table covers: Latin-1 and Latin extended, then punctuation, symbols, arrows, box drawing, shapes. */
const RANGES: readonly [number, number][] = [
	[0xa0, 0x2ff],
	[0x2010, 0x2bff],
];

const CALL = "        width = clusterWidth(segment);";

/** [first, last, width] runs of equal width over RANGES, as pi-tui measures each unit alone. */
export function unitWidthRuns(): [number, number, number][] {
	const runs: [number, number, number][] = [];
	for (const [first, last] of RANGES) {
		for (let code = first; code <= last; code++) {
			const width = visibleWidth(String.fromCharCode(code));
			const run = runs.at(-1);
			if (run && run[1] === code - 1 && run[2] === width) run[1] = code;
			else runs.push([code, code, width]);
		}
	}
	return runs;
}

/** utils.js whose graphemeWidth looks a lone unit up in the table first; throws when the line it changes is not there (a pi-tui update). */
export function unitWidthTable(source: string, file: string): string {
	if (!source.includes(CALL)) throw new Error(`${file}: pi-tui's graphemeWidth changed; update scripts/unit-widths.ts`);
	const flat = unitWidthRuns().flat();
	const lookup = `// Widths of lone code units, measured by this pi-tui at build time (scripts/unit-widths.ts): [first, last, width] runs.
const UNIT_WIDTH_RUNS = [${flat.join(",")}];
function tabledUnitWidth(code) {
    let lo = 0;
    let hi = UNIT_WIDTH_RUNS.length / 3 - 1;
    while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        if (code < UNIT_WIDTH_RUNS[mid * 3]) hi = mid - 1;
        else if (code > UNIT_WIDTH_RUNS[mid * 3 + 1]) lo = mid + 1;
        else return UNIT_WIDTH_RUNS[mid * 3 + 2];
    }
    return undefined;
}
`;
	return `${lookup}${source.replace(CALL, "        width = tabledUnitWidth(code) ?? clusterWidth(segment);")}`;
}
