// A build transform (pi-tui-build-plugin.ts): pi-tui's two Intl.Segmenters (grapheme and word) are made when first needed, not
// when pi-tui is imported, and a run of characters that each stand alone as a grapheme (ASCII,
// Latin-1, arrows, box drawing, CJK: pi-tui's own isStandaloneGraphemeRun) is split without one.
// Making the first segmenter loads ICU's break rules, measured ~2 ms; the first frame only ever
// measures such runs ("·", "─", "↑"), so it no longer pays that.
const EAGER = `const graphemeSegmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const wordSegmenter = new Intl.Segmenter(undefined, { granularity: "word" });`;

// The same Segmenter surface pi-tui and extensions use (segment, with containing(); resolvedOptions).
// A standalone run's segments are its code units: what Intl.Segmenter gives for it, by the rule the
// function is named for (no grapheme rule joins two such units). A loop, not Array.from: that builtin
// is compiled on its first call, and the first frame would be its only caller (pi-tui-constants.ts).
const LAZY = `let graphemeSegmenterInstance;
let wordSegmenterInstance;
const realGraphemeSegmenter = () => (graphemeSegmenterInstance ??= new Intl.Segmenter(undefined, { granularity: "grapheme" }));
const realWordSegmenter = () => (wordSegmenterInstance ??= new Intl.Segmenter(undefined, { granularity: "word" }));
function standaloneSegments(input) {
    const segments = [];
    for (let index = 0; index < input.length; index++) segments.push({ segment: input[index], index, input });
    segments.containing = (index = 0) => segments[Math.trunc(Number(index)) || 0];
    return segments;
}
const graphemeSegmenter = {
    segment(input) {
        const text = String(input);
        return isStandaloneGraphemeRun(text) ? standaloneSegments(text) : realGraphemeSegmenter().segment(text);
    },
    resolvedOptions: () => realGraphemeSegmenter().resolvedOptions(),
};
const wordSegmenter = {
    segment: (input) => realWordSegmenter().segment(input),
    resolvedOptions: () => realWordSegmenter().resolvedOptions(),
};`;

/** utils.js with its segmenters made lazy; throws when the lines it replaces are not there (a pi-tui update). */
export function lazySegmenters(source: string, file: string): string {
	if (!source.includes(EAGER)) throw new Error(`${file}: pi-tui's segmenter lines changed; update scripts/lazy-segmenters.ts`);
	if (!source.includes("function isStandaloneGraphemeRun(text)")) throw new Error(`${file}: isStandaloneGraphemeRun is gone; update scripts/lazy-segmenters.ts`);
	return source.replace(EAGER, LAZY);
}
