// trust.json (nearest decided ancestor, atomic save, bad file never overwritten) and settings
// files (errors with line and column).
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSettingsFile, settingsExtensionPaths } from "../../../src/core/resources/settings.ts";
import { lookupTrust, readTrustFile, saveTrust } from "../../../src/core/resources/trust.ts";

const root = mkdtempSync(join(realpathSync(tmpdir()), "agent-trust-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("trust", () => {
	test("nearest decided ancestor applies; keys are real paths", () => {
		const file = join(root, "t1/trust.json");
		const repo = join(root, "repos/a/sub/deeper");
		mkdirSync(repo, { recursive: true });
		symlinkSync(join(root, "repos"), join(root, "link"));
		expect(lookupTrust(repo, readTrustFile(file))).toEqual({ state: "undecided" });
		saveTrust(join(root, "link/a"), true, file);
		expect(Object.keys(readTrustFile(file).folders)).toEqual([join(root, "repos/a")]);
		expect(lookupTrust(repo, readTrustFile(file))).toEqual({ state: "yes", decidedBy: join(root, "repos/a") });
		saveTrust(join(root, "repos/a/sub"), false, file);
		expect(lookupTrust(repo, readTrustFile(file))).toEqual({ state: "no", decidedBy: join(root, "repos/a/sub") });
		expect(lookupTrust(join(root, "repos/a"), readTrustFile(file)).state).toBe("yes");
	});

	test("a malformed trust.json is an error naming line and column, and is left as it was", () => {
		const file = join(root, "t2/trust.json");
		mkdirSync(join(root, "t2"));
		const text = '{\n  "version": 1,\n  "folders": {\n    "/x": { "trusted": true },\n  }\n}\n';
		writeFileSync(file, text);
		expect(() => saveTrust(root, true, file)).toThrow(`${file}:5:3: invalid JSON: a trailing comma before "}" (remove it)`);
		expect(readFileSync(file, "utf8")).toBe(text);
	});
});

describe("settings", () => {
	test("readSettingsFile: object required; extensions must be strings, relative to the file's folder", () => {
		const dir = join(root, "s1");
		mkdirSync(dir);
		const path = join(dir, "settings.json");
		writeFileSync(path, JSON.stringify({ extensions: ["./a.ts", "~/b.ts"], other: 1 }));
		expect(settingsExtensionPaths(readSettingsFile(path))).toEqual([
			{ value: "./a.ts", baseDir: dir },
			{ value: "~/b.ts", baseDir: dir },
		]);
		writeFileSync(path, "[1]");
		expect(() => readSettingsFile(path)).toThrow(`${path} must hold a JSON object ({ ... }), not an array.`);
		writeFileSync(path, JSON.stringify({ extensions: "a.ts" }));
		expect(() => settingsExtensionPaths(readSettingsFile(path))).toThrow(`"extensions" in ${path} must be an array of paths (strings), relative to ${dir}.`);
		expect(readSettingsFile(join(dir, "none.json"))).toBeUndefined();
	});
});
