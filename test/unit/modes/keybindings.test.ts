// ~/.agent/keybindings.json over the default keys: a file applies, a file gone or broken puts the
// defaults back, and a start with no file leaves the fresh manager as it is (no second build).
import { afterAll, beforeAll, describe, expect, spyOn, test } from "bun:test";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyUserKeybindings, createKeybindings } from "../../../src/modes/interactive/keybindings.ts";

const ACTION = "app.session.new";
let dir: string;
let saved: string | undefined;
const file = () => join(dir, "keybindings.json");

beforeAll(() => {
	dir = mkdtempSync(join(tmpdir(), "keybindings-"));
	saved = process.env.AGENT_DIR;
	process.env.AGENT_DIR = dir;
});
afterAll(() => {
	if (saved === undefined) delete process.env.AGENT_DIR;
	else process.env.AGENT_DIR = saved;
	rmSync(dir, { recursive: true, force: true });
});

describe("applyUserKeybindings", () => {
	test("no file: the defaults, and a fresh manager is not built again", () => {
		const manager = createKeybindings();
		const defaults = manager.getKeys(ACTION as never);
		const rebuilt = spyOn(manager, "setUserBindings");
		expect(applyUserKeybindings(manager)).toEqual([]);
		expect(rebuilt).not.toHaveBeenCalled();
		expect(manager.getKeys(ACTION as never)).toEqual(defaults);
	});

	test("a file applies; once it is gone, or broken, the defaults are back", () => {
		const manager = createKeybindings();
		const defaults = manager.getKeys(ACTION as never);
		writeFileSync(file(), JSON.stringify({ [ACTION]: "ctrl+shift+y" }));
		expect(applyUserKeybindings(manager)).toEqual([]);
		expect(manager.getKeys(ACTION as never)).toEqual(["ctrl+shift+y"]);

		rmSync(file());
		expect(applyUserKeybindings(manager)).toEqual([]);
		expect(manager.getUserBindings()).toEqual({});
		expect(manager.getKeys(ACTION as never)).toEqual(defaults);

		writeFileSync(file(), JSON.stringify({ [ACTION]: "ctrl+shift+y" }));
		applyUserKeybindings(manager);
		writeFileSync(file(), "[1, 2]");
		expect(applyUserKeybindings(manager)).toEqual([expect.stringContaining("expected an object of action ids to keys")]);
		expect(manager.getKeys(ACTION as never)).toEqual(defaults);

		writeFileSync(file(), JSON.stringify({ [ACTION]: "ctrl+shift+y" }));
		applyUserKeybindings(manager);
		writeFileSync(file(), "{ not json");
		expect(applyUserKeybindings(manager)[0]).toContain("The default keys are used.");
		expect(manager.getKeys(ACTION as never)).toEqual(defaults);
		rmSync(file());
	});
});
