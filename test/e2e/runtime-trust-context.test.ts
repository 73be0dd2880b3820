// The project_trust handler's context as pi 1.6's ProjectTrustContext (issue 13): cwd, hasUI, mode
// and ui. Headless, the dialogs answer their defaults at once; in a terminal they are real dialogs
// (answered here with keys) and the handler's answer decides.
import { expect, test } from "bun:test";
import { TempWorld } from "../support/agent.ts";
import { Terminal } from "../support/terminal.ts";

const GATE = `export default function (pi) {
	pi.on("project_trust", async (event, ctx) => {
		const choice = await ctx.ui.select("Load this folder's extensions?", ["Trust", "Skip"]);
		const sure = await ctx.ui.confirm("Sure?", "It runs their code");
		console.error(JSON.stringify({ cwd: ctx.cwd === process.cwd(), hasUI: ctx.hasUI, mode: ctx.mode, choice: choice ?? null, sure }));
		return { trusted: choice === "Trust" && sure ? "yes" : "no" };
	});
}
`;

test("headless (print mode): hasUI false, mode print, the dialogs answer their defaults", async () => {
	await using world = new TempWorld();
	world.write("home/.agent/extensions/gate.ts", GATE);
	world.write("project/.agent/extensions/p.ts", `export default function () { console.error("project extension loaded"); }\n`);
	const r = await world.run(["-p", "hi"]);
	const lines = r.stderr.split("\n");
	expect(JSON.parse(lines[0]!)).toEqual({ cwd: true, hasUI: false, mode: "print", choice: null, sure: false });
	expect(r.stderr).not.toContain("project extension loaded");
});

test("in a terminal the handler's dialogs are shown and answered; its answer loads the project's extensions", async () => {
	await using world = new TempWorld();
	world.write("home/.agent/extensions/gate.ts", GATE);
	world.write("project/.agent/extensions/p.ts", `export default function (pi) { pi.registerCommand("proj", { description: "from the project", handler: async () => {} }); }\n`);
	await using term = new Terminal(world, []);
	await term.waitFor("Load this folder's extensions?");
	term.keys("Enter");
	await term.waitFor("Sure?");
	term.keys("Enter");
	await term.waitToPass("the TUI with both extensions", (p, transcript) => {
		expect(transcript).toContain('{"cwd":true,"hasUI":true,"mode":"tui","choice":"Trust","sure":true}');
		expect(p.above).toContain("[Extensions]\n  gate.ts, p.ts");
		expect(p.below).not.toBe("");
	});
	term.keys("C-d");
	await term.waitFor("EXIT=0");
}, 30_000);
