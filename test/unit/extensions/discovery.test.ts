// Discovery rules (SPEC §3) against real folders: order, one level, manifests, dedup, -ne, trust.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createRealPaths, discoverExtensions, discoverExtensionsInDir, type DiscoveryInput } from "../../../src/core/extensions/discovery.ts";

const root = mkdtempSync(join(realpathSync(tmpdir()), "agent-discovery-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const put = (rel: string, text = "export default () => {};") => {
	const p = join(root, rel);
	mkdirSync(dirname(p), { recursive: true });
	writeFileSync(p, text);
	return p;
};

describe("discoverExtensionsInDir", () => {
	test("files, index folders and manifests, one level, sorted; skips .d.ts, dot-files, node_modules", () => {
		const d = "d1";
		put(`${d}/b.ts`);
		put(`${d}/a.js`);
		put(`${d}/types.d.ts`);
		put(`${d}/.hidden.ts`);
		put(`${d}/notes.md`);
		put(`${d}/node_modules/x/index.ts`);
		put(`${d}/.git/index.ts`);
		put(`${d}/withindex/index.ts`);
		put(`${d}/withindex/helper.ts`);
		put(`${d}/jsindex/index.js`);
		put(`${d}/manifest/index.ts`);
		put(`${d}/manifest/src/main.ts`);
		put(`${d}/manifest/package.json`, JSON.stringify({ agent: { extensions: ["./src/main.ts"] } }));
		put(`${d}/pimanifest/ext.ts`);
		put(`${d}/pimanifest/package.json`, JSON.stringify({ pi: { extensions: ["ext.ts"] } }));
		put(`${d}/container/nested/index.ts`);
		const dir = join(root, d);
		expect(discoverExtensionsInDir(dir).map((p) => p.slice(dir.length + 1))).toEqual([
			"a.js",
			"b.ts",
			"jsindex/index.js",
			"manifest/src/main.ts",
			"pimanifest/ext.ts",
			"withindex/index.ts",
		]);
	});

	test("a manifest listing only missing files falls back to index and warns", () => {
		put("d2/pkg/index.ts");
		put("d2/pkg/package.json", JSON.stringify({ agent: { extensions: ["./gone.ts"] } }));
		const warnings: { path: string; message: string }[] = [];
		expect(discoverExtensionsInDir(join(root, "d2"), warnings)).toEqual([join(root, "d2/pkg/index.ts")]);
		expect(warnings).toEqual([{ path: join(root, "d2/pkg/package.json"), message: 'Extension entry "./gone.ts" listed in package.json does not exist' }]);
	});
});

describe("discoverExtensions", () => {
	const base = (over: Partial<DiscoveryInput>): DiscoveryInput => ({
		cwd: join(root, "proj"),
		projectDir: join(root, "proj/.agent/extensions"),
		userDir: join(root, "home/extensions"),
		projectSettingsPaths: [],
		userSettingsPaths: [],
		cliPaths: [],
		noExtensions: false,
		projectTrusted: true,
		...over,
	});
	put("proj/.agent/extensions/p.ts");
	put("home/extensions/u.ts");
	put("proj/.agent/from-settings.ts");
	put("home/lib/shared.ts");
	put("proj/cli.ts");
	symlinkSync(join(root, "home/extensions/u.ts"), join(root, "proj/u-link.ts"));

	test("order: project dir, user dir, project settings, user settings, -e; dedup by real path", () => {
		const r = discoverExtensions(
			base({
				projectSettingsPaths: [{ value: "from-settings.ts", baseDir: join(root, "proj/.agent") }],
				userSettingsPaths: [{ value: "lib/shared.ts", baseDir: join(root, "home") }],
				cliPaths: ["./cli.ts", "./u-link.ts", "./missing.ts"],
			}),
		);
		expect(r.entries.map((e) => [e.path.replace(root, ""), e.group, e.sourceInfo.source, e.missing ?? false])).toEqual([
			["/proj/.agent/extensions/p.ts", "project", "auto", false],
			["/home/extensions/u.ts", "user", "auto", false],
			["/proj/.agent/from-settings.ts", "project", "local", false],
			["/home/lib/shared.ts", "user", "local", false],
			["./cli.ts", "path", "cli", false],
			["./missing.ts", "path", "cli", true],
		]);
		expect(r.untrustedProject).toEqual([]);
	});

	test("untrusted: project entries are set aside; -ne keeps only -e", () => {
		const r = discoverExtensions(base({ projectTrusted: false, projectSettingsPaths: [{ value: "from-settings.ts", baseDir: join(root, "proj/.agent") }] }));
		expect(r.entries.map((e) => e.path.replace(root, ""))).toEqual(["/home/extensions/u.ts"]);
		expect(r.untrustedProject.map((e) => e.path.replace(root, ""))).toEqual(["/proj/.agent/extensions/p.ts", "/proj/.agent/from-settings.ts"]);
		const ne = discoverExtensions(base({ noExtensions: true, cliPaths: ["./cli.ts"] }));
		expect(ne.entries.map((e) => e.path)).toEqual(["./cli.ts"]);
		expect(ne.untrustedProject).toEqual([]);
	});

	test("-e paths: a file, a folder that is one extension, a folder of several, symlinks to each, a dangling symlink", () => {
		put("proj/one/index.ts");
		put("proj/many/a.ts");
		put("proj/many/b.js");
		symlinkSync(join(root, "proj/one"), join(root, "proj/one-link"));
		symlinkSync(join(root, "proj/many"), join(root, "proj/many-link"));
		symlinkSync(join(root, "proj/cli.ts"), join(root, "proj/cli-link.ts"));
		symlinkSync(join(root, "proj/gone.ts"), join(root, "proj/dangling.ts"));
		const r = discoverExtensions(base({ noExtensions: true, cliPaths: ["./cli.ts", "./one", "./many", "./one-link", "./many-link", "./cli-link.ts", "./dangling.ts"] }));
		const rel = (p: string) => p.replace(root, "");
		expect(r.entries.map((e) => [e.path.startsWith(root) ? rel(e.path) : e.path, rel(e.resolvedPath), rel(e.sourceInfo.baseDir!), e.missing ?? false])).toEqual([
			["./cli.ts", "/proj/cli.ts", "/proj", false],
			["/proj/one/index.ts", "/proj/one/index.ts", "/proj/one", false],
			["/proj/many/a.ts", "/proj/many/a.ts", "/proj/many", false],
			["/proj/many/b.js", "/proj/many/b.js", "/proj/many", false],
			// The links resolve to files already loading: deduplicated by real path.
			["./dangling.ts", "/proj/dangling.ts", "/proj", true],
		]);
		expect(r.warnings).toEqual([]);
	});

	test("-e paths through a linked folder and a linked file get the real path of what they point at", () => {
		put("real-dir/x.ts");
		put("real-dir/y.ts");
		symlinkSync(join(root, "real-dir"), join(root, "proj/dir-link"));
		symlinkSync(join(root, "real-dir/y.ts"), join(root, "proj/y-link.ts"));
		const r = discoverExtensions(base({ noExtensions: true, cliPaths: ["./dir-link/x.ts", "./y-link.ts", "./dir-link/y.ts"] }));
		expect(r.entries.map((e) => [e.path, e.resolvedPath.replace(root, "")])).toEqual([
			["./dir-link/x.ts", "/real-dir/x.ts"],
			["./y-link.ts", "/real-dir/y.ts"],
		]);
	});
});

describe("createRealPaths", () => {
	test("answers what realpathSync answers: plain files, files in linked folders, linked files, folders, missing paths, unnormalized paths", () => {
		put("rp/a/one.ts");
		put("rp/a/two.ts");
		put("rp/b/three.ts");
		mkdirSync(join(root, "rp/a/sub"), { recursive: true });
		symlinkSync(join(root, "rp/a"), join(root, "rp/a-link"));
		symlinkSync(join(root, "rp/a-link"), join(root, "rp/a-link-link"));
		symlinkSync(join(root, "rp/b/three.ts"), join(root, "rp/a/three-link.ts"));
		symlinkSync(join(root, "rp/nowhere.ts"), join(root, "rp/a/dangling.ts"));
		const paths = [
			"rp/a/one.ts", "rp/a/two.ts", "rp/b/three.ts", "rp/a-link/one.ts", "rp/a-link-link/two.ts", "rp/a/three-link.ts",
			"rp/a-link/three-link.ts", "rp/a/sub", "rp/a-link/sub", "rp/a", "rp/a-link", "rp/a/dangling.ts", "rp/a/missing.ts", "rp/gone/x.ts",
		].map((p) => join(root, p));
		const expected = (p: string) => {
			try {
				return realpathSync(p);
			} catch {
				return p;
			}
		};
		for (const platform of ["linux", "darwin"] as const) {
			const realPathOf = createRealPaths(platform);
			// Twice over, so the second pass answers from the folders already resolved.
			for (const p of [...paths, ...paths]) expect(realPathOf(p)).toBe(expected(p));
			expect(realPathOf(`${root}/rp//a/./one.ts`)).toBe(expected(join(root, "rp/a/one.ts")));
			expect(realPathOf(join(root, "rp/a-link/one.ts"), false)).toBe(expected(join(root, "rp/a/one.ts")));
		}
	});
});
