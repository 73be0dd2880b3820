// The start-up list of SPEC §9: compact labels, expanded groups, issues.
import { expect, test } from "bun:test";
import { homedir } from "node:os";
import { compactLabels, renderStartupList } from "../../../src/modes/interactive/startup-list.ts";

test("compact labels: shortest unique trailing path, index files shown by their folder", () => {
	expect(compactLabels(["/r/.agent/extensions/dirext/index.ts", "/a/x/foo.ts", "/b/y/foo.ts", "/tmp/hello.ts"])).toEqual(["dirext", "x/foo.ts", "y/foo.ts", "hello.ts"]);
});

/** The definition, pair by pair: for each entry the shortest tail no other entry ends in. */
function pairwiseLabels(paths: string[]): string[] {
	const parts = paths.map((p) => p.replace(/\/index\.(ts|js)$/, "").split("/").filter(Boolean));
	return parts.map((segs, i) => {
		for (let n = 1; n <= segs.length; n++) {
			const tail = segs.slice(-n).join("/");
			if (!parts.some((other, j) => j !== i && other.slice(-n).join("/") === tail)) return tail;
		}
		return segs.join("/");
	});
}

test("compact labels match the pairwise definition: shared tails, repeats, nested and index paths", () => {
	const segs = ["a", "b", "ext", "index.ts", "foo.ts", "x"];
	let seed = 7;
	const next = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
	for (let round = 0; round < 300; round++) {
		const paths = Array.from({ length: 1 + next(12) }, () => `/${Array.from({ length: next(5) }, () => segs[next(segs.length)]).join("/")}`);
		expect(compactLabels(paths)).toEqual(pairwiseLabels(paths));
	}
	expect(compactLabels(["/a/b.ts", "/a/b.ts", "/b.ts"])).toEqual(["a/b.ts", "a/b.ts", "b.ts"]);
	// All file names different: each is its label (a folder of an index file by its name, a bare name as given).
	for (const paths of [["/x/one.ts", "/y/two/index.ts", "three.js", "/z/index.js/four.ts"], ["/a/", "/b/c.ts"], ["/index.ts", "/d.ts"], ["/p/Ä.ts", "/q/a.ts"]]) {
		expect(compactLabels(paths)).toEqual(pairwiseLabels(paths));
	}
});

test("the compact [Extensions] line is sorted by UTF-16 code units", () => {
	const names = ["b.ts", "B.ts", "a.ts", "_x.ts", "é.ts", "Z.ts", "10.ts", "9.ts", "ü/index.ts", "\u{1F600}.ts"];
	const lines = renderStartupList({ appName: "agent", version: "1", extensions: names.map((n) => ({ path: `/e/${n}`, group: "path" as const })), issues: [], expanded: false });
	const expected = ["b.ts", "B.ts", "a.ts", "_x.ts", "é.ts", "Z.ts", "10.ts", "9.ts", "ü", "\u{1F600}.ts"].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
	expect(lines.at(-1)).toBe(`  ${expected.join(", ")}`);
});

test("compact and expanded forms, groups in order, home as ~, issues two lines each", () => {
	const home = homedir();
	const extensions = [
		{ path: "/tmp/hello.ts", group: "path" as const },
		{ path: `${home}/.agent/extensions/user-ext.ts`, group: "user" as const },
		{ path: "/repo/.agent/extensions/proj-ext.ts", group: "project" as const },
		{ path: "/repo/.agent/extensions/dirext/index.ts", group: "project" as const },
	];
	const issues = [{ group: "project" as const, path: "/repo/.agent/extensions/b.ts", message: "Command /x is also registered by /a.ts: use /x:1, /x:2" }];
	expect(renderStartupList({ appName: "agent", version: "1.2.3", hints: "ctrl+o more", extensions, issues: [], expanded: false })).toEqual([
		" agent v1.2.3",
		" ctrl+o more",
		"",
		"[Extensions]",
		"  dirext, hello.ts, proj-ext.ts, user-ext.ts",
	]);
	expect(renderStartupList({ appName: "agent", version: "1.2.3", extensions, issues, expanded: true })).toEqual([
		" agent v1.2.3",
		"",
		"[Extensions]",
		"  project",
		"    /repo/.agent/extensions/dirext",
		"    /repo/.agent/extensions/proj-ext.ts",
		"  user",
		"    ~/.agent/extensions/user-ext.ts",
		"  path",
		"    /tmp/hello.ts",
		"",
		"[Extension issues]",
		"  project /repo/.agent/extensions/b.ts",
		"    Command /x is also registered by /a.ts: use /x:1, /x:2",
	]);
	expect(renderStartupList({ appName: "agent", version: "1", extensions: [], issues: [], expanded: true })).toEqual([" agent v1"]);
});
