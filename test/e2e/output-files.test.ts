// Temp files for cut-off tool output do not pile up (issue 12, defect 14): when a run ends, the
// files no saved session entry refers to are removed (50 runs leave none); those a session refers
// to are kept for it, within an age and a total size (settings `outputFiles`), oldest removed first.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { everythingStdio, mcpJson } from "../support/mcp-servers.ts";
import { MODEL, type MockWorld, mockWorld, readSessionLines } from "../support/world.ts";

const model = ["-ne", "--model", MODEL.openai];
/** About 230 KB in 40,000 lines: past both limits, so bash saves it whole to a temp file. */
const BIG = "seq 1 40000";

function outputFiles(world: MockWorld): string[] {
	return readdirSync(join(world.root, "tmp")).filter((n) => /^agent-bash-[0-9a-f]{12}\.log$/.test(n)).sort();
}

/** Script one run: a bash call with long output, then an answer. */
function scriptRun(world: MockWorld): void {
	world.mock.script({ toolCalls: [{ name: "bash", arguments: { command: BIG } }] }, { text: "done" });
}

/** The temp file the model was told about in the newest request. */
function toldPath(world: MockWorld): string {
	const body = JSON.stringify(world.mock.lastRequest().body);
	const match = /Full output: ([^\]"\\]+\.log)/.exec(body);
	if (!match) throw new Error(`no full-output path in the request: ${body.slice(0, 400)}`);
	return match[1]!;
}

describe("cut-off output files", () => {
	test("50 runs with --no-session leave no temp file behind, though each run made one", async () => {
		await using world = await mockWorld();
		const told = new Set<string>();
		for (let i = 0; i < 50; i++) {
			scriptRun(world);
			const r = await world.run([...model, "--no-session", "-p", `run ${i}`]);
			expect(r).toEqual({ stdout: "done\n", stderr: "", code: 0 });
			told.add(toldPath(world));
		}
		expect(told.size).toBe(50);
		expect(outputFiles(world)).toEqual([]);
	}, 120_000);

	test("a file the saved session refers to is kept for it", async () => {
		await using world = await mockWorld();
		scriptRun(world);
		expect((await world.run([...model, "-p", "one"])).code).toBe(0);
		const path = toldPath(world);
		expect(existsSync(path)).toBe(true);
		const saved = readSessionLines(world.onlySessionFile()).find((e) => e.type === "message" && e.message.role === "toolResult");
		expect(saved.message.details.fullOutputPath).toBe(path);
	});

	test("kept files are bounded: the newest within outputFiles.maxTotalMB, none older than maxAgeDays; other files untouched", async () => {
		await using world = await mockWorld();
		// Room for two outputs of about 230 KB, not three.
		world.write("home/.agent/settings.json", JSON.stringify({ outputFiles: { maxTotalMB: 0.45, maxAgeDays: 7 } }));
		const tmp = join(world.root, "tmp");
		mkdirSync(tmp, { recursive: true });
		const old = join(tmp, "agent-bash-0123456789ab.log");
		writeFileSync(old, "from a run long ago\n");
		const eightDaysAgo = (Date.now() - 8 * 24 * 3_600_000) / 1000;
		utimesSync(old, eightDaysAgo, eightDaysAgo);
		const unrelated = join(tmp, "notes-0123456789ab.log");
		writeFileSync(unrelated, "not ours\n");
		utimesSync(unrelated, eightDaysAgo, eightDaysAgo);

		const kept: string[] = [];
		for (let i = 0; i < 4; i++) {
			scriptRun(world);
			expect((await world.run([...model, "-p", `run ${i}`])).code).toBe(0);
			kept.push(toldPath(world));
		}
		expect(existsSync(old)).toBe(false);
		expect(existsSync(unrelated)).toBe(true);
		const left = outputFiles(world).map((n) => join(tmp, n));
		expect(left.sort()).toEqual(kept.slice(-2).sort());
		expect(left.reduce((sum, f) => sum + statSync(f).size, 0)).toBeLessThan(0.45 * 1024 * 1024);
	});

	test("an MCP result's binary content goes to a temp file swept the same way: removed after a run without a session, kept for a saved one", async () => {
		await using world = await mockWorld();
		world.write("home/.agent/mcp.json", mcpJson({ everything: everythingStdio() }));
		const tmp = join(world.root, "tmp");
		mkdirSync(tmp, { recursive: true });
		// One an older run left past the age limit goes; a pasted image's file is not ours to sweep.
		const old = join(tmp, "agent-mcp-0123456789ab.plain");
		const pasted = join(tmp, "agent-clipboard-0a1b2c3d-1e2f-4a5b-8c9d-0123456789ab.png");
		const eightDaysAgo = (Date.now() - 8 * 24 * 3_600_000) / 1000;
		for (const file of [old, pasted]) {
			writeFileSync(file, "left by an older run\n");
			utimesSync(file, eightDaysAgo, eightDaysAgo);
		}
		const blob = () => world.mock.script({ toolCalls: [{ name: "mcp__everything__get_resource_reference", arguments: { resourceType: "Blob", resourceId: 2 } }] }, { text: "done" });
		const savedPath = () => {
			const body = JSON.stringify(world.mock.lastRequest().body);
			const match = /saved to (\/[^\]"\\]+)\]/.exec(body);
			if (!match) throw new Error(`no saved path in the request: ${body.slice(0, 600)}`);
			return match[1]!;
		};
		const mcpFiles = () => readdirSync(tmp).filter((n) => n.startsWith("agent-mcp-")).sort();

		blob();
		expect(await world.run([...model, "--no-session", "-p", "get the blob"])).toEqual({ stdout: "done\n", stderr: "", code: 0 });
		const unsaved = savedPath();
		expect(unsaved).toMatch(new RegExp(`^${tmp}/agent-mcp-[0-9a-f]{12}\\.plain$`));
		expect(existsSync(unsaved)).toBe(false);
		expect(existsSync(old)).toBe(false);
		expect(existsSync(pasted)).toBe(true);
		expect(mcpFiles()).toEqual([]);

		blob();
		expect(await world.run([...model, "-p", "get the blob"])).toEqual({ stdout: "done\n", stderr: "", code: 0 });
		const kept = savedPath();
		expect(readFileSync(kept, "utf8")).toStartWith("Resource 2: This is a base64 blob");
		const result = readSessionLines(world.onlySessionFile()).find((e) => e.type === "message" && e.message.role === "toolResult");
		expect(result.message.details.savedFiles).toEqual([kept]);
		expect(mcpFiles()).toEqual([kept.slice(tmp.length + 1)]);
	});

	test("a wrong outputFiles setting names the file", async () => {
		await using world = await mockWorld();
		const settings = world.write("home/.agent/settings.json", JSON.stringify({ outputFiles: { maxTotalMB: "lots" } }));
		world.mock.script({ text: "hi" });
		const r = await world.run([...model, "-p", "hi"]);
		expect(r.code).toBe(1);
		expect(r.stderr).toContain(`"outputFiles.maxTotalMB" in ${settings} must be a number of 0 or more.`);
	});
});
