// Round-trip benchmark: `agent -ne -p` asking the mock LLM for one short answer, beside a compiled
// floor that makes the same HTTP request with fetch and prints the streamed text (built in this run
// with the same flags as the binary). Goal: ≤ 3× the floor. PI_COMPARE=1 adds pi 0.73.1 (goal:
// agent ≤ 1/15 of pi).
//   bun scripts/bench/roundtrip.ts [--runs N] [--json] [--binary path] [--no-minify] [--no-bytecode]
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { buildBinary } from "../build.ts";
import { formatReport, measureAll, parseBenchFlags, type ReportRow, summarize, type Command, runMain } from "./lib.ts";
import { installPi, nodeForPi, PI_VERSION } from "./pi.ts";

const ANSWER = "Hello from the mock.";
const PROMPT = "say hello";

async function main(argv: string[]): Promise<number> {
	const flags = parseBenchFlags(argv, {
		binary: { type: "string" },
		"no-minify": { type: "boolean", default: false },
		"no-bytecode": { type: "boolean", default: false },
	});
	const binary = flags.options.binary === undefined ? undefined : resolve(flags.options.binary as string);
	const minify = flags.options["no-minify"] !== true;
	const bytecode = flags.options["no-bytecode"] !== true;

	const work = mkdtempSync(join(realpathSync(tmpdir()), "agent-bench-roundtrip-"));
	const server = Bun.spawn(["bun", new URL("./mock-server.ts", import.meta.url).pathname, ANSWER], {
		stdout: "pipe",
		stderr: "inherit",
		env: { ...process.env, PATH: `${new URL("../../node_modules/.bin", import.meta.url).pathname}:${process.env.PATH}` },
	});
	try {
		const url = await firstLine(server.stdout);
		const openaiBaseUrl = `${url}/v1`;
		// Binaries live outside the repo so no node_modules is in reach, as for a user.
		const floorBin = join(work, "roundtrip-floor");
		await buildBinary({ entrypoint: new URL("./roundtrip-floor.ts", import.meta.url).pathname, outfile: floorBin, minify, bytecode });
		let agentBin = binary;
		if (!agentBin) {
			agentBin = join(work, "agent");
			await buildBinary({ outfile: agentBin, minify, bytecode });
		}
		const home = join(work, "home");
		const cwd = join(work, "project");
		mkdirSync(cwd, { recursive: true });
		const provider = { baseUrl: openaiBaseUrl, api: "openai-completions", apiKey: "bench-key", models: [{ id: "mock-model", contextWindow: 100000, maxTokens: 4096 }] };
		writeConfig(join(home, ".agent", "models.json"), { providers: { mock: provider } });
		// A user's terminal settings, not a test's.
		const env = { HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin", TERM: "xterm-256color" };

		const commands: Command[] = [
			{ name: "compiled fetch + SSE (floor)", argv: [floorBin, openaiBaseUrl, "mock-model", PROMPT] },
			{ name: "agent -ne -p", argv: [agentBin, "-ne", "--model", "mock/mock-model", "-p", PROMPT] },
			{ name: "agent -ne --no-session -p", argv: [agentBin, "-ne", "--no-session", "--model", "mock/mock-model", "-p", PROMPT] },
		];
		let piEnv: Record<string, string> | undefined;
		if (process.env.PI_COMPARE === "1") {
			const piCli = await installPi();
			const piDir = join(work, "pi-agent");
			writeConfig(join(piDir, "models.json"), { providers: { mock: provider } });
			piEnv = { ...env, PI_CODING_AGENT_DIR: piDir, PI_OFFLINE: "1" };
			commands.push({ name: `pi ${PI_VERSION} -ne --no-session -p (node)`, argv: [nodeForPi(), piCli, "-ne", "--no-session", "--offline", "--model", "mock/mock-model", "-p", PROMPT] });
		}
		// pi reads its dir from the environment; the others ignore the extra variables.
		const runEnv = piEnv ?? env;
		for (const c of commands) await expectAnswer(c, cwd, runEnv);
		const rows = await measureAll(commands, { cwd, env: runEnv, runs: flags.runs });
		const report = summarize(rows, rows[0]);
		const goals = goalLines(report);
		const meta = { bench: "roundtrip", runs: flags.runs, minify, bytecode, binary: binary ?? "built in this run", goals };
		process.stdout.write(formatReport(report, flags, meta));
		if (!flags.json) process.stdout.write(`\n${goals.join("\n")}\n`);
		return 0;
	} finally {
		server.kill();
		await server.exited;
		rmSync(work, { recursive: true, force: true });
	}
}

/** The goals in words: agent ≤ 3× the floor, and ≤ 1/15 of pi when pi was measured. */
function goalLines(rows: ReportRow[]): string[] {
	const agent = rows[1]!;
	const lines = [`agent -ne -p: ${agent.wallRatio?.toFixed(2)}× the floor's wall time (goal ≤ 3×)`];
	const pi = rows.find((r) => r.name.startsWith("pi "));
	if (pi) lines.push(`agent -ne -p: 1/${(pi.wallMs.median / agent.wallMs.median).toFixed(1)} of pi's wall time (goal ≤ 1/15)`);
	return lines;
}

function writeConfig(path: string, value: unknown): void {
	mkdirSync(join(path, ".."), { recursive: true });
	writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
	const decoder = new TextDecoder();
	let text = "";
	for await (const chunk of stream) {
		text += decoder.decode(chunk, { stream: true });
		const nl = text.indexOf("\n");
		if (nl >= 0) return text.slice(0, nl);
	}
	throw new Error("the mock server exited before printing its URL");
}

/** Every command must really make the round trip: a benchmark of an error path measures nothing. */
async function expectAnswer(command: Command, cwd: string, env: Record<string, string>): Promise<void> {
	const proc = Bun.spawn(command.argv, { cwd, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
	const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	if (code !== 0 || stdout !== `${ANSWER}\n`) {
		throw new Error(`"${command.name}" did not print the answer (exit ${code}).\n--- stdout\n${stdout}--- stderr\n${stderr}`);
	}
}

if (import.meta.main) await runMain(main);
