// process.exit() in extension code is never a silent exit (issue 12, defect 4): while loading it is
// a load failure with the -ne hint (exit 1); later it stops the run in order — session_shutdown
// runs, stdout stays empty, and an unfinished print-mode run never exits 0.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MODEL, type MockWorld, mockWorld } from "../support/world.ts";

const HINT = 'Hint: Start without extensions using "agent -ne".';

/** An extension: `body` runs in the factory; session_shutdown is logged to a file. */
function extension(world: MockWorld, name: string, body: string, top = ""): { path: string; log: string } {
	const log = join(world.root, `${name}.log`);
	world.write(
		`project/${name}`,
		`import { appendFileSync } from "node:fs";
${top}
export default function (pi) {
	pi.on("session_shutdown", (e) => appendFileSync(${JSON.stringify(log)}, "shutdown " + e.reason + "\\n"));
	${body}
}
`,
	);
	return { path: `./${name}`, log };
}

describe("process.exit while an extension loads", () => {
	for (const mode of [["-p", "hi"], ["--mode", "json", "-p", "hi"], ["--mode", "rpc"]]) {
		test(`in the factory (${mode.join(" ")}): exit 1, the load-failure line and the hint`, async () => {
			await using world = await mockWorld();
			const { path } = extension(world, "bye.ts", "process.exit(0);");
			const r = await world.run(["-ne", "-e", path, "--model", MODEL.openai, ...mode], { stdin: "" });
			expect(r).toEqual({ stdout: "", stderr: `Error: Failed to load extension "${path}": Extension called process.exit(0)\n${HINT}\n`, code: 1 });
			expect(world.mock.requests).toHaveLength(0);
		});
	}

	test("at the top of the module: the same", async () => {
		await using world = await mockWorld();
		const { path } = extension(world, "top.ts", "", "process.exit(3);");
		const r = await world.run(["-ne", "-e", path, "--model", MODEL.openai, "-p", "hi"]);
		expect(r).toEqual({ stdout: "", stderr: `Error: Failed to load extension "${path}": Extension called process.exit(3)\n${HINT}\n`, code: 1 });
	});

	test("agent list reports it as the extension's error", async () => {
		await using world = await mockWorld();
		const { path } = extension(world, "bye.ts", "process.exit(0);");
		const r = await world.run(["list", "--json", "-e", path]);
		expect(JSON.parse(r.stdout).extensions).toMatchObject([{ path, status: "error", error: "Extension called process.exit(0)" }]);
	});
});

describe("process.exit after loading", () => {
	test("in a handler during a print-mode run: the run stops, session_shutdown runs, exit 1 and a line saying why", async () => {
		await using world = await mockWorld();
		const { path, log } = extension(world, "quit.ts", 'pi.on("tool_call", () => { process.exit(0); });');
		world.mock.script({ toolCalls: [{ id: "call_1", name: "bash", arguments: { command: "touch ran" } }] }, { text: "never asked" });
		const r = await world.run(["-ne", "-e", path, "--model", MODEL.openai, "-p", "go"]);
		expect(r.code).toBe(1);
		expect(r.stdout).toBe("");
		expect(r.stderr).toEndWith(`Error: Extension "${join(world.cwd, "quit.ts")}" called process.exit(0) before the run finished; the run was stopped.\n`);
		expect(readFileSync(log, "utf8")).toBe("shutdown quit\n");
		expect(existsSync(join(world.cwd, "ran"))).toBe(false);
		expect(world.mock.requests).toHaveLength(1);
		// Flushed: the session file holds the run up to the stop, which ends with an aborted request (as pi's runs do).
		const lines = readFileSync(world.onlySessionFile(), "utf8").trim().split("\n").map((l) => JSON.parse(l));
		expect(lines.filter((l) => l.type === "message").map((l) => `${l.message.role}${l.message.stopReason ? `:${l.message.stopReason}` : ""}`)).toEqual([
			"user",
			"assistant:toolUse",
			"toolResult",
			"assistant:aborted",
		]);
	});

	test("in session_shutdown after a finished run: the answer is printed and the asked code is the exit code", async () => {
		await using world = await mockWorld();
		const { path } = extension(world, "late.ts", 'pi.on("session_shutdown", () => process.exit(4));');
		world.mock.script({ text: "The answer." });
		const r = await world.run(["-ne", "-e", path, "--model", MODEL.openai, "-p", "go"]);
		expect(r.stdout).toBe("The answer.\n");
		expect(r.code).toBe(4);
	});

	test("rpc: a handler's process.exit ends the process in order (session_shutdown ran)", async () => {
		await using world = await mockWorld();
		const { path, log } = extension(world, "quit.ts", 'pi.on("agent_start", () => process.exit(0));');
		world.mock.script({ text: "hello" });
		const r = await world.run(["-ne", "-e", path, "--model", MODEL.openai, "--mode", "rpc"], { stdin: '{"type":"prompt","id":"p","message":"go"}\n' });
		expect(r.code).toBe(0);
		expect(readFileSync(log, "utf8")).toBe("shutdown quit\n");
		for (const line of r.stdout.trim().split("\n")) JSON.parse(line);
	});
});
