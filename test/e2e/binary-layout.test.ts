// The binary's bytecode is laid out by the build's profile (scripts/bytecode-order.ts): a `-p` run
// and the TUI up to its first frame load their functions from the part the profiled runs used, as
// the binary itself reports it.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TempWorld } from "../support/agent.ts";
import { hasTmux, Terminal } from "../support/terminal.ts";
import { MODEL, mockWorld } from "../support/world.ts";

test("a -p run loads the functions the build's profile recorded (bytecodeOrderStats)", async () => {
	await using world = await mockWorld();
	world.mock.script({ text: "hi" });
	world.write(
		"project/stats.ts",
		`import { bytecodeOrderStats } from "bun:jsc";
export default function () {
	process.on("exit", () => process.stderr.write("order-stats " + JSON.stringify(bytecodeOrderStats()) + "\\n"));
}
`,
	);
	const r = await world.run(["-e", "./stats.ts", "--no-session", "--model", MODEL.openai, "-p", "hello"]);
	expect(r.code).toBe(0);
	expect(r.stdout).toBe("hi\n");
	const line = r.stderr.split("\n").find((l) => l.startsWith("order-stats "));
	if (!line) throw new Error(`no order-stats line on stderr:\n${r.stderr}`);
	// null: the binary was built without a profile.
	const stats = JSON.parse(line.slice("order-stats ".length)) as { hot: number; cold: number; unknown: number; regions: { hot: number } } | null;
	expect(stats).not.toBeNull();
	expect(stats!.regions.hot).toBeGreaterThan(0);
	// The run's own functions (start-up, the request, the answer) are the profile's; the extension's loading is not.
	expect(stats!.hot).toBeGreaterThan(stats!.cold + stats!.unknown);
});

test.skipIf(!hasTmux)("the TUI up to its first frame loads the functions the build's profile recorded (bytecodeOrderStats)", async () => {
	await using world = new TempWorld();
	const out = join(world.root, "order-stats.json");
	const ext = world.write(
		"stats.ts",
		`import { bytecodeOrderStats } from "bun:jsc";
import { writeFileSync } from "node:fs";
export default function () {
	process.on("exit", () => writeFileSync(${JSON.stringify(out)}, JSON.stringify(bytecodeOrderStats())));
}
`,
	);
	await using term = new Terminal(world, ["-ne", "-e", ext]);
	await term.ready();
	term.keys("C-d");
	await term.waitFor(/EXIT=0/);
	const stats = JSON.parse(readFileSync(out, "utf8")) as { hot: number; cold: number; unknown: number } | null;
	expect(stats).not.toBeNull();
	// Without the profile's TUI run, the TUI's own functions are cold (measured 245 hot, 588 cold; with it 719 and 114).
	expect(stats!.hot).toBeGreaterThan(2 * (stats!.cold + stats!.unknown));
}, 30_000);
