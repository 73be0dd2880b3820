// [Extension issues] entries the REPL adds: extension commands hidden by built-ins, shortcuts on
// reserved keys, taken-over editing keys, and two extensions on one key.
import { expect, test } from "bun:test";
import { createExtension } from "../../../src/core/extensions/api.ts";
import type { Extension, SourceScope } from "../../../src/core/extensions/types.ts";
import { builtinNames } from "../../../src/modes/interactive/commands.ts";
import { resolveShortcuts } from "../../../src/modes/interactive/shortcuts.ts";
import { HINTS, startupHeader, startupIssues, startupLines } from "../../../src/modes/interactive/startup.ts";

function ext(path: string, scope: SourceScope, commands: string[] = [], keys: string[] = []): Extension {
	const e = createExtension(path, path, { path, source: "cli", scope, origin: "top-level" });
	for (const name of commands) e.commands.set(name, { name, sourceInfo: e.sourceInfo, handler: async () => {} });
	for (const key of keys) e.shortcuts.set(key, { shortcut: key, extensionPath: path, handler: async () => {} });
	return e;
}

test("a command named like a built-in is hidden, or reachable under its suffix", () => {
	const a = ext("/p/a.ts", "project", ["model", "tree"]);
	const b = ext("/u/b.ts", "user", ["tree"]);
	expect(startupIssues([a, b], [], builtinNames)).toEqual([
		{ group: "project", path: "/p/a.ts", message: "Extension command '/model' conflicts with built-in interactive command. Skipping in autocomplete." },
		{ group: "project", path: "/p/a.ts", message: "Extension command '/tree' conflicts with built-in interactive command. Available as '/tree:1'." },
		{ group: "user", path: "/u/b.ts", message: "Extension command '/tree' conflicts with built-in interactive command. Available as '/tree:2'." },
	]);
});

test("with no extension the issues are the ones found while starting, in a list of their own", () => {
	const base = [{ group: "path" as const, path: "/x.ts", message: "Failed to load" }];
	const issues = startupIssues([], base, builtinNames);
	expect(issues).toEqual(base);
	expect(issues).not.toBe(base);
	expect(startupIssues([ext("/a.ts", "temporary", ["hello"], ["alt+y"])], base, builtinNames)).toEqual(base);
});

test("shortcuts: reserved keys refused, editing keys taken over, the later of two extensions wins", () => {
	const a = ext("/a.ts", "temporary", [], ["ctrl+c", "Ctrl+A", "alt+x"]);
	const b = ext("/b.ts", "temporary", [], ["alt+x"]);
	const { byKey, issues } = resolveShortcuts([a, b]);
	expect(issues.map((i) => i.message)).toEqual([
		"Extension shortcut 'ctrl+c' from /a.ts conflicts with built-in shortcut. Skipping.",
		"Extension shortcut conflict: 'Ctrl+A' is built-in shortcut for tui.editor.cursorLineStart and /a.ts. Using /a.ts.",
		"Extension shortcut conflict: 'alt+x' registered by both /a.ts and /b.ts. Using /b.ts.",
	]);
	expect([...byKey.keys()]).toEqual(["ctrl+a", "alt+x"]);
	expect(byKey.get("alt+x")!.extensionPath).toBe("/b.ts");
});

test("the header (drawn on its own, without building the list) is the start-up list's first two lines", () => {
	const a = ext("/p/a.ts", "project", ["model"]);
	const list = startupLines({ extensions: [a], issues: startupIssues([a], [], builtinNames), expanded: false });
	expect(startupHeader()).toEqual(list.slice(0, 2));
	expect(startupHeader()[1]).toBe(` ${HINTS}`);
	// Quiet: no header, only the problems.
	expect(startupLines({ extensions: [a], issues: startupIssues([a], [], builtinNames), expanded: false, quiet: true }).filter((l) => l !== "")[0]).toBe("[Extension issues]");
});
