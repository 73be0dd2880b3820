// The binary's bytecode is laid out by the build's profile (scripts/bytecode-order.ts): a `-p` run
// loads its functions from the part the profiled runs used, as the binary itself reports it.
import { expect, test } from "bun:test";
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
