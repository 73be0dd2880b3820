// Start-up benchmark: `agent --version` and `agent --help` against a compiled hello-world built in
// the same run with the same flags (the floor). Goal: ≤ 2× the floor. PI_COMPARE=1 adds pi 0.73.1.
//   bun scripts/bench/startup.ts [--runs N] [--json] [--binary path] [--no-minify] [--no-bytecode]
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildBinary } from "../build.ts";
import { formatReport, measureAll, parseBenchFlags, summarize, type Command, runMain } from "./lib.ts";
import { installPi, nodeForPi, PI_VERSION } from "./pi.ts";

async function main(argv: string[]): Promise<number> {
	const flags = parseBenchFlags(argv, {
		binary: { type: "string" },
		"no-minify": { type: "boolean", default: false },
		"no-bytecode": { type: "boolean", default: false },
	});
	const binary = flags.options.binary as string | undefined;
	const minify = flags.options["no-minify"] !== true;
	const bytecode = flags.options["no-bytecode"] !== true;

	const work = mkdtempSync(join(realpathSync(tmpdir()), "agent-bench-startup-"));
	try {
		// Binaries live outside the repo so no node_modules is in reach, as for a user.
		const hello = join(work, "hello.ts");
		writeFileSync(hello, `console.log("hello");\n`);
		const floorBin = join(work, "hello");
		await buildBinary({ entrypoint: hello, outfile: floorBin, minify, bytecode });
		let agentBin = binary;
		if (!agentBin) {
			agentBin = join(work, "agent");
			await buildBinary({ outfile: agentBin, minify, bytecode });
		}
		const home = join(work, "home");
		const cwd = join(work, "project");
		mkdirSync(home);
		mkdirSync(cwd);
		// A user's terminal settings, not a test's: NO_COLOR=1 would hide the cost of colour detection.
		const env = { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm-256color" };
		const opts = { cwd, env, runs: flags.runs };

		const commands: Command[] = [
			{ name: "compiled hello-world (floor)", argv: [floorBin] },
			{ name: "agent --version", argv: [agentBin, "--version"] },
			{ name: "agent --help", argv: [agentBin, "--help"] },
		];
		if (process.env.PI_COMPARE === "1") {
			const piCli = await installPi();
			const node = nodeForPi();
			writeFileSync(join(work, "hello.mjs"), `console.log("hello");\n`);
			commands.push({ name: "node hello.mjs (reference)", argv: [node, join(work, "hello.mjs")] });
			commands.push({ name: `pi ${PI_VERSION} --version (node)`, argv: [node, piCli, "--version"] });
		}
		const rows = await measureAll(commands, { cwd, env, runs: flags.runs });
		const floor = rows[0]!;
		const meta = { bench: "startup", runs: flags.runs, minify, bytecode, binary: binary ?? "built in this run" };
		process.stdout.write(formatReport(summarize(rows, floor), flags, meta));
		return 0;
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

if (import.meta.main) await runMain(main);
