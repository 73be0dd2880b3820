// The start-up list of SPEC §9: compact labels, expanded groups, issues.
import { expect, test } from "bun:test";
import { homedir } from "node:os";
import { compactLabels, renderStartupList } from "../../../src/modes/interactive/startup-list.ts";

test("compact labels: shortest unique trailing path, index files shown by their folder", () => {
	expect(compactLabels(["/r/.agent/extensions/dirext/index.ts", "/a/x/foo.ts", "/b/y/foo.ts", "/tmp/hello.ts"])).toEqual(["dirext", "x/foo.ts", "y/foo.ts", "hello.ts"]);
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
