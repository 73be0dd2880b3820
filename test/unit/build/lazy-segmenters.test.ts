// pi-tui's utils.js as the binary bundles it (lazy segmenters, standalone runs split without ICU):
// every exported width/wrap/truncate function gives what the library's own module gives, the
// segmenters give what Intl.Segmenter gives, and neither is made until a text needs one.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as original from "@earendil-works/pi-tui/dist/utils.js";
import { piTuiBuildPlugin } from "../../../scripts/pi-tui-build-plugin.ts";
import { lazySegmenters } from "../../../scripts/lazy-segmenters.ts";

type Utils = typeof original;
const UTILS = join(import.meta.dir, "../../../node_modules/@earendil-works/pi-tui/dist/utils.js");

const TEXTS = [
	"",
	"plain ascii",
	" escape interrupt · ctrl+c/ctrl+d clear/exit · / commands",
	"↑0 ↓0 $0.000",
	"─".repeat(50),
	"\x1b[38;5;185mWarning: a coloured line\x1b[39m with · and ─",
	"日本語のテキストとカタカナ",
	"ｆｕｌｌｗｉｄｔｈ",
	"café naïve façade",
	"e\u0301 combining",
	"👍🏽 emoji with modifier",
	"👨‍👩‍👧 zwj family",
	"🇯🇵 flags 🇫🇷",
	"❤️ heart with VS16",
	"한국어 Hangul",
	"ภาษาไทย Thai",
	"नमस्ते Devanagari",
	"tab\there",
	"soft\u00adhyphen",
	"line\u2028separator",
	"a\r\nb",
	`\x1b]8;;https://example.com\x07link\x1b]8;;\x07 and ·`,
];

let lazy: Utils;
let dir: string;
const RealSegmenter = Intl.Segmenter;
const intl = Intl as { Segmenter: typeof Intl.Segmenter };
/** Segmenters made since the bundled module was imported, by granularity. */
const made: string[] = [];

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "lazy-segmenters-"));
	const result = await Bun.build({ entrypoints: [UTILS], outdir: dir, target: "bun", plugins: [piTuiBuildPlugin] });
	expect(result.success).toBe(true);
	intl.Segmenter = new Proxy(RealSegmenter, {
		construct(target, args: ConstructorParameters<typeof Intl.Segmenter>) {
			made.push(args[1]?.granularity ?? "grapheme");
			return new target(...args);
		},
	});
	lazy = await import(join(dir, "utils.js"));
});
afterAll(() => {
	intl.Segmenter = RealSegmenter;
	rmSync(dir, { recursive: true, force: true });
});

describe("lazy-segmenters", () => {
	test("the bundled utils.js no longer makes a segmenter at import", async () => {
		const source = await Bun.file(join(dir, "utils.js")).text();
		expect(source).not.toMatch(/^(const|var|let) \w+ = new Intl\.Segmenter/m);
	});

	test("no segmenter is made at import or for text of standalone characters; the first other text makes one", () => {
		expect(made).toEqual([]);
		for (const text of TEXTS.slice(0, 6)) lazy.wrapTextWithAnsi(text, 12);
		expect(made).toEqual([]);
		lazy.visibleWidth("👍🏽");
		expect(made).toEqual(["grapheme"]);
	});

	test("widths, wraps and truncations are the library's", () => {
		for (const text of TEXTS) {
			expect(lazy.visibleWidth(text)).toBe(original.visibleWidth(text));
			for (const width of [1, 5, 12, 40]) {
				expect(lazy.wrapTextWithAnsi(text, width)).toEqual(original.wrapTextWithAnsi(text, width));
				expect(lazy.truncateToWidth(text, width)).toBe(original.truncateToWidth(text, width));
				expect(lazy.sliceByColumn(text, 1, width)).toBe(original.sliceByColumn(text, 1, width));
			}
		}
	});

	test("the segmenters give what Intl.Segmenter gives", () => {
		const grapheme = new Intl.Segmenter(undefined, { granularity: "grapheme" });
		const word = new Intl.Segmenter(undefined, { granularity: "word" });
		const plain = (segments: Iterable<Intl.SegmentData>) => [...segments].map(({ segment, index, input, isWordLike }) => ({ segment, index, input, isWordLike }));
		for (const text of TEXTS) {
			expect(plain(lazy.getGraphemeSegmenter().segment(text))).toEqual(plain(grapheme.segment(text)));
			expect(plain(lazy.getWordSegmenter().segment(text))).toEqual(plain(word.segment(text)));
			if (text) expect(lazy.getGraphemeSegmenter().segment(text).containing(1)?.segment).toBe(grapheme.segment(text).containing(1)?.segment);
		}
		expect(lazy.getGraphemeSegmenter().resolvedOptions().granularity).toBe("grapheme");
	});

	test("a pi-tui whose segmenter lines changed stops the build", () => {
		expect(() => lazySegmenters("const x = 1;", "dist/utils.js")).toThrow("dist/utils.js: pi-tui's segmenter lines changed");
	});
});
