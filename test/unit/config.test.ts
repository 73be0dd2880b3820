// config.ts: the home directory is $HOME (read when asked, as Node's os.homedir() reads it), and node:os's
// answer when $HOME is empty or unset; the temporary folder is node:os's. The session lock's host name
// (read from /proc on Linux, so that a start loads no node:os) is node:os's too.
import { afterEach, describe, expect, test } from "bun:test";
import { homedir, hostname as osHostname, tmpdir } from "node:os";
import { expandHome, homeDir, tildify, tmpDir } from "../../src/config.ts";
import { hostname } from "../../src/core/session/session-errors.ts";

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

test("the temporary folder and the host name are node:os's", () => {
	expect(tmpDir()).toBe(tmpdir());
	expect(hostname()).toBe(osHostname());
	expect(hostname()).not.toMatch(/\s/);
});
