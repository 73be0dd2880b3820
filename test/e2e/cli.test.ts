// The CLI surface through the compiled binary: --version, --help, bad flags, running from a
// folder with no node_modules anywhere above it.
import { describe, expect, test } from "bun:test";
import pkg from "../../package.json" with { type: "json" };
import { TempWorld } from "../support/agent.ts";

describe("agent --version / --help", () => {
	test("--version prints the version and exits 0 from an empty temp dir", async () => {
		await using world = new TempWorld();
		for (const flag of ["--version", "-v"]) {
			const r = await world.run([flag]);
			expect(r).toEqual({ stdout: `${pkg.version}\n`, stderr: "", code: 0 });
		}
	});

	test("--help lists the flag set with our names", async () => {
		await using world = new TempWorld();
		const r = await world.run(["--help"]);
		expect(r.code).toBe(0);
		expect(r.stderr).toBe("");
		expect(r.stdout).toStartWith(`agent v${pkg.version} - a coding agent`);
		for (const flag of ["--extension, -e <path>", "--no-extensions, -ne", "--approve, -a", "--no-approve, -na", "--mode <mode>", "--print, -p", "--list-models [search]", "agent list [--json]", "agent trust [--revoke] [dir]"]) {
			expect(r.stdout).toContain(flag);
		}
	});

	test("--help and --version win over other bad words", async () => {
		await using world = new TempWorld();
		const r = await world.run(["--mode", "nope", "--version"]);
		expect(r.code).toBe(0);
		expect(r.stdout).toBe(`${pkg.version}\n`);
	});
});

describe("bad flags exit 1 with one line naming the flag", () => {
	const cases: [string[], string][] = [
		[["--x"], "Error: Unknown option: --x\n"],
		[["--x", "--y=1"], "Error: Unknown options: --x, --y\n"],
		[["-x"], "Error: Unknown option: -x\n"],
		[["--model"], "Error: --model requires a value: --model <provider/id[:thinking]>\n"],
		[["-e"], "Error: -e requires a value: -e <path>\n"],
		[["--mode", "yaml"], 'Error: Invalid --mode "yaml": expected text, json or rpc\n'],
		[["--thinking", "maximum"], 'Error: Invalid --thinking "maximum": expected one of off, minimal, low, medium, high, xhigh, max\n'],
		[["--approve", "--no-approve"], "Error: --approve and --no-approve cannot be used together; pick one\n"],
		[["--no-session", "--continue"], "Error: --no-session and --continue cannot be used together; pick one\n"],
		[["--mode", "rpc", "@a.txt"], "Error: @file arguments are not supported with --mode rpc; send file contents in the prompt command instead\n"],
		[["-p", "--verbose=yes"], 'Error: --verbose takes no value (got "yes")\n'],
		[["trust", "a", "b"], 'Error: "agent trust" takes one folder, got "a" and "b". Usage: agent trust [--revoke] [dir]\n'],
		[["list", "--yaml"], 'Error: Unknown option for "agent list": --yaml. Usage: agent list [--json]\n'],
	];
	for (const [argv, stderr] of cases) {
		test(argv.join(" "), async () => {
			await using world = new TempWorld();
			const r = await world.run(argv);
			expect(r).toEqual({ stdout: "", stderr, code: 1 });
		});
	}
});
