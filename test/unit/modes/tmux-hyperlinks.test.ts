// The tmux hyperlink question asked in the background: who asks (inside tmux, no PI_HYPERLINKS),
// how tmux's answer is read (a fake `tmux` on PATH), and that pi-tui's capabilities say "no links"
// without running anything until the answer turns them on.
import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getCapabilities, resetCapabilitiesCache, setCapabilityOverrides } from "@earendil-works/pi-tui/dist/terminal-image.js";
import { asksTmux, holdTmuxHyperlinks, tmuxForwardsHyperlinks } from "../../../src/modes/interactive/tmux-hyperlinks.ts";

const dirs: string[] = [];

/** A PATH holding only a `tmux` that runs `body` (sh); it leaves `ran` behind when run. */
function fakeTmux(body: string): { env: NodeJS.ProcessEnv; ran: string } {
	const dir = mkdtempSync(join(tmpdir(), "fake-tmux-"));
	dirs.push(dir);
	const ran = join(dir, "ran");
	writeFileSync(join(dir, "tmux"), `#!/bin/sh\n: > "${ran}"\n[ "$1 $2 $3" = "display-message -p #{client_termfeatures}" ] || exit 9\n${body}\n`);
	chmodSync(join(dir, "tmux"), 0o755);
	return { env: { PATH: dir, TMUX: "/tmp/tmux-test/default,1,0" }, ran };
}

afterEach(() => {
	setCapabilityOverrides({});
	resetCapabilitiesCache();
});
afterAll(() => {
	for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe("tmux hyperlinks", () => {
	test("only tmux without PI_HYPERLINKS is asked", () => {
		expect(asksTmux({ TMUX: "/tmp/tmux-0/default,1,0" })).toBe(true);
		expect(asksTmux({ TERM: "tmux-256color" })).toBe(true);
		expect(asksTmux({ TMUX: "/tmp/tmux-0/default,1,0", PI_HYPERLINKS: "1" })).toBe(false);
		expect(asksTmux({ TMUX: "/tmp/tmux-0/default,1,0", PI_HYPERLINKS: "0" })).toBe(false);
		expect(asksTmux({ TERM: "xterm-256color" })).toBe(false);
		expect(asksTmux({ TERM: "screen-256color" })).toBe(false);
		expect(asksTmux({})).toBe(false);
	});

	test("tmux's feature list is read as pi-tui reads it; any failure means no links", async () => {
		expect(await tmuxForwardsHyperlinks(fakeTmux("echo 'RGB,hyperlinks,title'").env)).toBe(true);
		expect(await tmuxForwardsHyperlinks(fakeTmux("echo 'RGB, hyperlinks'").env)).toBe(true);
		expect(await tmuxForwardsHyperlinks(fakeTmux("echo 'RGB,title,extkeys'").env)).toBe(false);
		expect(await tmuxForwardsHyperlinks(fakeTmux("echo hyperlinks; exit 1").env)).toBe(false);
		// No answer within pi-tui's 250 ms: no links, and the child is stopped (killed).
		expect(await tmuxForwardsHyperlinks(fakeTmux("echo hyperlinks; exec /bin/sleep 30").env)).toBe(false);
		expect(await tmuxForwardsHyperlinks({ PATH: join(tmpdir(), "no-such-dir-for-tmux"), TMUX: "x" })).toBe(false);
	});

	test("links are off at once and reading them runs nothing; tmux, once asked, turns them on and says so", async () => {
		const { env, ran } = fakeTmux("echo 'RGB,hyperlinks'");
		let enabled = 0;
		const ask = holdTmuxHyperlinks(env);
		expect(ask).toBeDefined();
		expect(getCapabilities().hyperlinks).toBe(false);
		expect(existsSync(ran)).toBe(false);
		const settled = ask!(() => enabled++);
		expect(getCapabilities().hyperlinks).toBe(false);
		await settled;
		expect(existsSync(ran)).toBe(true);
		expect(enabled).toBe(1);
		expect(getCapabilities().hyperlinks).toBe(true);
	});

	test("tmux's no leaves links off and nothing to redraw", async () => {
		let enabled = 0;
		await holdTmuxHyperlinks(fakeTmux("echo RGB").env)!(() => enabled++);
		expect(enabled).toBe(0);
		expect(getCapabilities().hyperlinks).toBe(false);
	});

	test("outside tmux, or with PI_HYPERLINKS, nothing is asked and pi-tui decides as before", () => {
		const { env, ran } = fakeTmux("echo hyperlinks");
		expect(holdTmuxHyperlinks({ ...env, TMUX: undefined })).toBeUndefined();
		expect(holdTmuxHyperlinks({ ...env, PI_HYPERLINKS: "1" })).toBeUndefined();
		expect(existsSync(ran)).toBe(false);
	});
});
