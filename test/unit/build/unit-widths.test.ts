// pi-tui's utils.js as the binary bundles it, with lone characters' widths from the build-time
// table (scripts/unit-widths.ts): every code unit of the Basic Multilingual Plane measures as the
// library's own module measures it, alone and in text, and the first frame's characters are tabled.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as original from "@earendil-works/pi-tui/dist/utils.js";
import { piTuiBuildPlugin } from "../../../scripts/pi-tui-build-plugin.ts";
import { unitWidthRuns, unitWidthTable } from "../../../scripts/unit-widths.ts";

type Utils = typeof original;
const UTILS = join(import.meta.dir, "../../../node_modules/@earendil-works/pi-tui/dist/utils.js");

let bundled: Utils;
let dir: string;

beforeAll(async () => {
	dir = mkdtempSync(join(tmpdir(), "unit-widths-"));
	const result = await Bun.build({ entrypoints: [UTILS], outdir: dir, target: "bun", plugins: [piTuiBuildPlugin] });
	expect(result.success).toBe(true);
	bundled = await import(join(dir, "utils.js"));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Every BMP code unit but the surrogates. */
function* bmpUnits(): Generator<number> {
	for (let code = 0x80; code <= 0xffff; code++) if (code < 0xd800 || code > 0xdfff) yield code;
}

describe("unit-widths", () => {
	test("the bundled graphemeWidth asks the table before clusterWidth", async () => {
		const source = await Bun.file(join(dir, "utils.js")).text();
		expect(source).toContain("tabledUnitWidth(code) ?? clusterWidth(segment)");
	});

	test("the table holds the first frame's characters and runs that neither overlap nor touch with one width", () => {
		const runs = unitWidthRuns();
		const width = (code: number) => runs.find(([first, last]) => code >= first && code <= last)?.[2];
		for (const ch of "·─↑↓…│›→✓") expect(width(ch.charCodeAt(0))).toBe(original.visibleWidth(ch));
		for (let i = 1; i < runs.length; i++) {
			expect(runs[i]![0]).toBeGreaterThan(runs[i - 1]![1]);
			if (runs[i]![0] === runs[i - 1]![1] + 1) expect(runs[i]![2]).not.toBe(runs[i - 1]![2]);
		}
	});

	test("every BMP code unit alone measures as pi-tui measures it", () => {
		const wrong: string[] = [];
		for (const code of bmpUnits()) {
			const ch = String.fromCharCode(code);
			if (bundled.visibleWidth(ch) !== original.visibleWidth(ch)) wrong.push(code.toString(16));
		}
		expect(wrong).toEqual([]);
	});

	test("text mixing tabled and other characters measures, wraps and truncates as pi-tui does", () => {
		const texts = [
			" escape interrupt · ctrl+c/ctrl+d clear/exit · / commands · ! bash · ctrl+o more",
			`${"─".repeat(70)} ↑12 ↓3 $0.012 · 34%`,
			"café — “quoted” … ±1 × 2 ÷ 3 ← → ⇒ ✓ ✗ ● ○ ▶ ◀ ■ □",
			"⌚ ⏰ ☔ ⚡ ✅ ❌ ⭐ emoji-presentation symbols",
			"e\u0301 a\u0308 combining · 日本語 · ｆｕｌｌ · 👍🏽 · 한국어",
			"\x1b[38;5;185mWarning: a coloured line\x1b[39m with · and ─ and \u00ad soft hyphen",
		];
		for (const text of texts) {
			expect(bundled.visibleWidth(text)).toBe(original.visibleWidth(text));
			for (const width of [7, 20, 45]) {
				expect(bundled.wrapTextWithAnsi(text, width)).toEqual(original.wrapTextWithAnsi(text, width));
				expect(bundled.truncateToWidth(text, width)).toBe(original.truncateToWidth(text, width));
			}
		}
	});

	test("a utils.js without the line the table hooks into is refused", () => {
		expect(() => unitWidthTable("export const x = 1;", "utils.js")).toThrow(/update scripts\/unit-widths\.ts/);
	});
});
