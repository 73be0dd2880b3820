// config.ts: the home directory is $HOME (read when asked, as Node's os.homedir() reads it), and node:os's
// answer when $HOME is empty or unset.
import { afterEach, describe, expect, test } from "bun:test";
import { homedir } from "node:os";
import { expandHome, homeDir, tildify } from "../../src/config.ts";

const saved = process.env.HOME;
afterEach(() => {
	if (saved === undefined) delete process.env.HOME;
	else process.env.HOME = saved;
});

describe("homeDir", () => {
	test("$HOME when set, also when set after start-up", () => {
		process.env.HOME = "/tmp/some-home";
		expect(homeDir()).toBe("/tmp/some-home");
		expect(expandHome("~/x")).toBe("/tmp/some-home/x");
		expect(tildify("/tmp/some-home/a")).toBe("~/a");
	});

	test("an empty or missing $HOME: node:os's answer", () => {
		process.env.HOME = "";
		expect(homeDir()).toBe(homedir());
		delete process.env.HOME;
		expect(homeDir()).toBe(homedir());
		expect(homeDir().length).toBeGreaterThan(0);
	});
});
