// name:1 / name:2 for commands shared by several extensions, and the ambiguity message.
import { expect, test } from "bun:test";
import { createExtension } from "../../../src/core/extensions/api.ts";
import { ambiguousCommandMessage, resolveCommandNames } from "../../../src/core/extensions/commands.ts";

function ext(path: string, ...commands: string[]) {
	const e = createExtension(path, path, { path, source: "cli", scope: "temporary", origin: "top-level" });
	for (const name of commands) e.commands.set(name, { name, sourceInfo: e.sourceInfo, handler: () => {} });
	return e;
}

test("shared names become name:N in load order, skipping names already taken; unique names stay", () => {
	const { commands, ambiguous } = resolveCommandNames([ext("/a.ts", "todos", "plan"), ext("/b.ts", "todos:1", "todos"), ext("/c.ts", "todos")]);
	expect(commands.map((c) => [c.invocationName, c.sourceInfo.path])).toEqual([
		["todos:2", "/a.ts"],
		["plan", "/a.ts"],
		["todos:1", "/b.ts"],
		["todos:3", "/b.ts"],
		["todos:4", "/c.ts"],
	]);
	expect([...ambiguous.keys()]).toEqual(["todos"]);
	expect(ambiguousCommandMessage("todos", ambiguous.get("todos")!.slice(0, 2))).toBe("Ambiguous command /todos: use /todos:2 (/a.ts) or /todos:3 (/b.ts)");
	expect(ambiguousCommandMessage("todos", ambiguous.get("todos")!)).toBe("Ambiguous command /todos: use /todos:2 (/a.ts), /todos:3 (/b.ts) or /todos:4 (/c.ts)");
});
