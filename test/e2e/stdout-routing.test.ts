// Non-interactive stdout is the answer or the protocol from its first byte (issue 12, defect 3):
// what an extension prints — at the top of its module, in its factory, in a handler, with any
// console method or process.stdout.write — goes to stderr in -p, piped stdin, --mode json,
// --mode rpc, `agent list --json` and --help.
import { describe, expect, test } from "bun:test";
import { MODEL, type MockWorld, mockWorld } from "../support/world.ts";

const NOISE = ["TOP-LEVEL-LOG", "TOP-LEVEL-WRITE", "FACTORY-LOG", "FACTORY-WRITE", "FACTORY-INFO", "FACTORY-TABLE", "FACTORY-DIR", "FACTORY-TRACE", "HANDLER-LOG"];

/** An extension that prints on every path to stdout there is, at load time and in a handler. */
function noisyExtension(world: MockWorld): string {
	return world.write(
		"project/noisy.ts",
		`console.log("TOP-LEVEL-LOG");
process.stdout.write("TOP-LEVEL-WRITE\\n");
export default function (pi) {
	console.log("FACTORY-LOG");
	console.info("FACTORY-INFO");
	process.stdout.write("FACTORY-WRITE\\n");
	console.table([{ v: "FACTORY-TABLE" }]);
	console.dir({ v: "FACTORY-DIR" });
	console.trace("FACTORY-TRACE");
	pi.registerFlag("noisy-flag", { type: "boolean", description: "a flag so --help loads me" });
	pi.on("session_start", () => console.log("HANDLER-LOG"));
}
`,
	);
}

function expectNoiseOnStderr(stderr: string, names = NOISE): void {
	for (const name of names) expect(stderr).toContain(name);
}

describe("stdout carries only the answer or the protocol", () => {
	test("-p: stdout is exactly the answer; everything the extension printed is on stderr", async () => {
		await using world = await mockWorld();
		const ext = noisyExtension(world);
		world.mock.script({ text: "The answer." });
		const r = await world.run(["-ne", "-e", ext, "--model", MODEL.openai, "-p", "question"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("The answer.\n");
		expectNoiseOnStderr(r.stderr);
	});

	test("piped stdin without -p: the same", async () => {
		await using world = await mockWorld();
		const ext = noisyExtension(world);
		world.mock.script({ text: "Piped answer." });
		const r = await world.run(["-ne", "-e", ext, "--model", MODEL.openai], { stdin: "a question on stdin\n" });
		expect(r.code).toBe(0);
		expect(r.stdout).toBe("Piped answer.\n");
		expectNoiseOnStderr(r.stderr);
	});

	test("--mode json: the first byte starts the session header and every line is JSON", async () => {
		await using world = await mockWorld();
		const ext = noisyExtension(world);
		world.mock.script({ text: "json answer" });
		const r = await world.run(["-ne", "-e", ext, "--model", MODEL.openai, "--mode", "json", "-p", "question"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toStartWith('{"type":"session"');
		const lines = r.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
		expect(lines.at(-1).type).toBe("agent_settled");
		expectNoiseOnStderr(r.stderr);
	});

	test("--mode rpc: the first byte is protocol and every line is a record", async () => {
		await using world = await mockWorld();
		const ext = noisyExtension(world);
		const r = await world.run(["-ne", "-e", ext, "--model", MODEL.openai, "--mode", "rpc", "--no-session"], { stdin: '{"type":"get_state","id":"s1"}\n' });
		expect(r.code).toBe(0);
		expect(r.stdout).toStartWith("{");
		const records = r.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
		expect(records.find((rec) => rec.id === "s1")).toMatchObject({ type: "response", command: "get_state", success: true });
		expectNoiseOnStderr(r.stderr);
	});

	test("agent list --json parses; the factory's output is on stderr", async () => {
		await using world = await mockWorld();
		const ext = noisyExtension(world);
		const r = await world.run(["list", "--json", "-e", ext]);
		expect(r.code).toBe(0);
		const report = JSON.parse(r.stdout);
		expect(report.extensions.map((e: { status: string }) => e.status)).toEqual(["loaded"]);
		expectNoiseOnStderr(r.stderr, NOISE.filter((n) => n !== "HANDLER-LOG"));
	});

	test("--help with an extension flag: stdout is the help text alone", async () => {
		await using world = await mockWorld();
		const ext = noisyExtension(world);
		const r = await world.run(["-e", ext, "--help"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toContain("--noisy-flag");
		for (const name of NOISE) expect(r.stdout).not.toContain(name);
		expectNoiseOnStderr(r.stderr, ["TOP-LEVEL-LOG", "FACTORY-WRITE"]);
	});
});
