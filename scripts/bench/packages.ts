// Packages (issue 15): (1) how long `agent install npm:<small package>` takes against a registry on
// 127.0.0.1 (the test suite's: real `npm pack` tarballs), beside its floor — the same Bun's own
// `bun add` of the package — and `npm install` (what pi runs); every run starts from an empty folder
// and an empty cache. (2) What an installed package adds to start-up: `agent -p /noop` with 20
// packages of one trivial extension each, beside the same 20 extensions as plain files in
// ~/.agent/extensions, beside none. Per package = (20 packages − none) / 20, paired per round.
// The registry answers from this process, so nothing here waits synchronously (a spawnSync would
// stop it answering: the earlier version hung that way), and every run is bounded by `timeout`.
//   bun scripts/bench/packages.ts [--runs N] [--json] [--binary path]
import { join, resolve } from "node:path";
import { startRegistry } from "../../test/support/registry.ts";
import { type Bench, benchMain, BenchWorld, compare, fmt, goal, loadAverage, measureRounds, median, perRound, result, rowsTable, runChecked, SAFE_PATH, summary, type Subject, trivialExtension } from "./lib.ts";

const repo = resolve(import.meta.dir, "../..");
const N = 20;
/** Seconds any one run may take before it is killed (and the benchmark fails with exit 124). */
const RUN_LIMIT_S = 120;
const NOOP = `export default function (pi) { pi.registerCommand("noop", { handler: async (_a, ctx) => ctx.ui.notify("ok", "info") }); }\n`;

/** `argv` killed after RUN_LIMIT_S (SIGTERM, then SIGKILL 5 s later); a killed run exits 124 or 137 and fails its check. */
function bounded(argv: string[]): string[] {
	return ["timeout", "-k", "5", String(RUN_LIMIT_S), ...argv];
}

/** `sh -c` that empties `dir` first, so each run installs from nothing. */
function fresh(dir: string, cmd: string): string[] {
	return bounded(["/bin/sh", "-c", `rm -rf '${dir}' && mkdir -p '${dir}' && cd '${dir}' && ${cmd}`]);
}

export const bench: Bench = async (o) => {
	const startLoad = loadAverage();
	await using world = BenchWorld.create("packages");
	await using registry = await startRegistry();
	// A small package: one extension and a skill, one dependency.
	world.write("src/dep/package.json", JSON.stringify({ name: "bench-dep", version: "1.0.0", main: "index.js" }));
	world.write("src/dep/index.js", "exports.twice = (s) => s + s;\n");
	world.write("src/small/package.json", JSON.stringify({ name: "@bench/small", version: "1.0.0", dependencies: { "bench-dep": "^1.0.0" } }));
	world.write("src/small/extensions/small.ts", trivialExtension(0, ""));
	world.write("src/small/skills/small/SKILL.md", "---\nname: small\ndescription: A small skill\n---\nBody.\n");
	await registry.publish(join(world.root, "src/dep"));
	await registry.publish(join(world.root, "src/small"));
	for (let i = 0; i < N; i++) {
		world.write(`src/p${i}/package.json`, JSON.stringify({ name: `bench-p${i}`, version: "1.0.0" }));
		world.write(`src/p${i}/extensions/p${i}.ts`, trivialExtension(i, ""));
		await registry.publish(join(world.root, `src/p${i}`));
	}
	const registryEnv = { npm_config_registry: registry.url };
	const scratch = join(world.root, "scratch");
	const bun = join(repo, "node_modules/.bin/bun");
	const npm = Bun.which("npm");
	const install: Subject[] = [
		{
			name: "floor: bun add (same Bun)",
			argv: fresh(scratch, `echo '{}' > package.json && BUN_INSTALL_CACHE_DIR='${scratch}/cache' '${bun}' add @bench/small --omit=peer --ignore-scripts --no-progress`),
			env: world.env(registryEnv),
			cwd: world.cwd,
			expect: { stdout: /installed @bench\/small@1\.0\.0/ },
		},
		{
			name: "agent install npm:@bench/small",
			argv: fresh(scratch, `AGENT_DIR='${scratch}/agent' '${o.agent}' install npm:@bench/small`),
			env: world.env(registryEnv),
			cwd: world.cwd,
			expect: { stdout: /^Installed npm:@bench\/small 1\.0\.0/, stderr: "" },
		},
	];
	if (npm) {
		install.push({
			name: "npm install (what pi runs)",
			argv: fresh(scratch, `'${npm}' install @bench/small --prefix '${scratch}' --cache '${scratch}/npm-cache' --legacy-peer-deps --no-audit --no-fund --no-update-notifier --ignore-scripts`),
			// npm is a node script: node's folder goes on PATH, nothing else of the caller's.
			env: world.env({ ...registryEnv, PATH: `${resolve(Bun.which("node") ?? npm, "..")}:${SAFE_PATH}` }),
			cwd: world.cwd,
			expect: { check: (out) => (/added \d+ packages?/.test(out.stdout) ? undefined : "npm printed no 'added N packages'") },
		});
	}
	const installed = compare(await measureRounds(install, { runs: o.runs, rssRuns: 0 }));

	// Start-up: three homes with /noop; N packages (installed once, by the binary) or N plain files.
	const homes = { none: join(world.root, "h0"), packages: join(world.root, "hp"), files: join(world.root, "hf") };
	for (const home of Object.values(homes)) world.write(join(home, ".agent/extensions/noop.ts"), NOOP);
	world.write(join(homes.packages, ".agent/settings.json"), JSON.stringify({ packages: Array.from({ length: N }, (_, i) => `npm:bench-p${i}`) }));
	for (let i = 0; i < N; i++) world.write(join(homes.files, `.agent/extensions/p${i}.ts`), trivialExtension(i, ""));
	// Installed by the binary's first run (asynchronously: the registry answers from this process).
	await runChecked({
		name: `first run, installing ${N} packages`,
		argv: bounded([o.agent, "--no-session", "-p", "/noop"]),
		env: world.env({ ...registryEnv, HOME: homes.packages }),
		cwd: world.cwd,
		expect: { stdout: "", stderr: /^(Installing npm:bench-p\d+ \(from ~\/\.agent\/settings\.json\)…\n)+Info: ok\n$/ },
	});
	const start = (name: string, home: string): Subject => ({
		name,
		argv: bounded([o.agent, "--no-session", "-p", "/noop"]),
		env: world.env({ HOME: home, AGENT_OFFLINE: "1" }),
		cwd: world.cwd,
		expect: { stdout: "", stderr: "Info: ok\n" },
	});
	const startups = await measureRounds([start("no packages", homes.none), start(`${N} installed packages`, homes.packages), start(`${N} plain extension files (floor)`, homes.files)], { runs: o.runs, rssRuns: 0 });
	/** Per package and per file from one series (wall or CPU), paired per round; the ratio is of medians (per-round ratios of two small differences swing wildly on a loaded machine). */
	const slopes = (series: (m: (typeof startups)[number]) => number[] | undefined) => {
		const [none, pkgs, files] = startups.map((m) => series(m) ?? []);
		if (none!.length === 0 || none!.some((v) => !Number.isFinite(v))) return undefined;
		const perPackage = perRound([pkgs!, none!], (p, n) => (p - n) / N);
		const perFile = perRound([files!, none!], (f, n) => (f - n) / N);
		return { perPackage, perFile, overhead: summary(perRound([pkgs!, files!], (p, f) => (p - f) / N)), ratio: median(perPackage) / Math.max(median(perFile), 0.01) };
	};
	const wall = slopes((m) => m.wallMs)!;
	const cpu = slopes((m) => m.cpuMs);
	const agentInstall = installed[1]!;

	return result(
		"packages",
		"agent install of a small npm package (local registry) beside bun add and npm install; start-up cost per installed package beside plain extension files",
		o,
		startLoad,
		[
			rowsTable("Install of a small package (1 extension, 1 skill, 1 dependency) from an empty folder and cache; floor: bun add", installed),
			rowsTable(`agent --no-session -p /noop (a command, no model, AGENT_OFFLINE=1); floor: no packages`, compare(startups)),
			{
				title: "Start-up cost per installed package (paired per round)",
				header: ["", "wall ms each, median (min–max)", "CPU ms each"],
				rows: [
					["installed package (settings \"packages\", one extension)", fmt(summary(wall.perPackage), "", 2), cpu ? fmt(summary(cpu.perPackage), "", 2) : "–"],
					["plain extension file, same code (floor)", fmt(summary(wall.perFile), "", 2), cpu ? fmt(summary(cpu.perFile), "", 2) : "–"],
					["package over the plain file", fmt(wall.overhead, "", 2), cpu ? fmt(cpu.overhead, "", 2) : "–"],
				],
			},
		],
		[
			goal("agent install vs bun add (small package)", agentInstall.ratio!.median, 1.5, "×", {
				detail: `${agentInstall.wallMs.median.toFixed(0)} ms; min–max ${agentInstall.ratio!.min.toFixed(2)}–${agentInstall.ratio!.max.toFixed(2)}×`,
				...(agentInstall.cpuRatio ? { cpu: agentInstall.cpuRatio.median } : {}),
			}),
			goal("start-up per installed package vs a plain extension file", wall.ratio, 1.3, "×", {
				detail: `${median(wall.perPackage).toFixed(2)} ms vs ${median(wall.perFile).toFixed(2)} ms (ratio of medians)`,
				...(cpu ? { cpu: cpu.ratio } : {}),
			}),
		],
	);
};

if (import.meta.main) await benchMain(bench, { runs: 11 });
