// Packages: (1) how long `agent install npm:<small package>` takes against a registry on 127.0.0.1
// (the test suite's: real `npm pack` tarballs), beside its floor — the same Bun's own `bun add` of
// the package — and `npm install` (what pi uses); each run starts from an empty folder and an empty
// cache. (2) What an installed package adds to start-up: `agent -p /noop` with 10 packages of one
// trivial extension each, against the same 10 extensions as plain files in ~/.agent/extensions.
// Per package = (10 packages − none) / 10, paired per round; goal ≤ 1.3× the plain files' slope.
//   bun scripts/bench/packages.ts [--runs N] [--json] [--binary path]
import { join, resolve } from "node:path";
import { startRegistry } from "../../test/support/registry.ts";
import { type Bench, benchMain, BenchWorld, compare, fmt, fmtRatio, goalOf, loadAverage, measureRounds, perRound, result, rowsTable, summary, type Subject, trivialExtension } from "./lib.ts";

const repo = resolve(import.meta.dir, "../..");
const N = 10;
const NOOP = `export default function (pi) { pi.registerCommand("noop", { handler: async (_a, ctx) => ctx.ui.notify("ok", "info") }); }\n`;

export const bench: Bench = async (o) => {
	const startLoad = loadAverage();
	await using world = BenchWorld.create("packages");
	await using registry = await startRegistry();
	// A small package: one extension and a skill, one dependency.
	world.write("src/dep/package.json", JSON.stringify({ name: "bench-dep", version: "1.0.0", main: "index.js" }));
	world.write("src/dep/index.js", "exports.twice = (s) => s + s;\n");
	world.write("src/small/package.json", JSON.stringify({ name: "@bench/small", version: "1.0.0", dependencies: { "bench-dep": "^1.0.0" }, peerDependencies: { typebox: "*" } }));
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
	const fresh = (dir: string, cmd: string) => ["/bin/sh", "-c", `rm -rf ${dir} && mkdir -p ${dir} && ${cmd}`];
	const scratch = join(world.root, "scratch");
	const bun = join(repo, "node_modules/.bin/bun");
	const install: Subject[] = [
		{
			name: "floor: bun add (same Bun)",
			argv: fresh(scratch, `cd ${scratch} && echo '{}' > package.json && BUN_INSTALL_CACHE_DIR=${scratch}/cache ${bun} add @bench/small --omit=peer --ignore-scripts --no-progress`),
			env: world.env(registryEnv),
			cwd: world.cwd,
			expect: { stdout: /installed @bench\/small@1\.0\.0/ },
		},
		{
			name: "agent install npm:@bench/small",
			argv: fresh(scratch, `AGENT_DIR=${scratch}/agent ${o.agent} install npm:@bench/small`),
			env: world.env(registryEnv),
			cwd: world.cwd,
			expect: { stdout: /^Installed npm:@bench\/small 1\.0\.0/ },
		},
		{
			name: "npm install (what pi runs)",
			argv: fresh(scratch, `cd ${scratch} && npm install @bench/small --prefix ${scratch} --cache ${scratch}/npm-cache --legacy-peer-deps --no-audit --no-fund --ignore-scripts`),
			env: world.env({ ...registryEnv, PATH: `${process.env.PATH}` }),
			cwd: world.cwd,
			expect: {},
		},
	];
	const installed = compare(await measureRounds(install, { runs: o.runs, rssRuns: 0 }));

	// Start-up: three homes with /noop; 10 packages (installed once, by the binary) or 10 plain files.
	const homes = { none: join(world.root, "h0"), packages: join(world.root, "hp"), files: join(world.root, "hf") };
	for (const home of Object.values(homes)) world.write(join(home, ".agent/extensions/noop.ts"), NOOP);
	world.write(join(homes.packages, ".agent/settings.json"), JSON.stringify({ packages: Array.from({ length: N }, (_, i) => `npm:bench-p${i}`) }));
	for (let i = 0; i < N; i++) world.write(join(homes.files, `.agent/extensions/p${i}.ts`), trivialExtension(i, ""));
	const first = Bun.spawnSync([o.agent, "-p", "/noop"], { env: world.env({ ...registryEnv, HOME: homes.packages }), cwd: world.cwd });
	if (first.exitCode !== 0 || !first.stderr.toString().endsWith("Info: ok\n")) throw new Error(`installing the ${N} packages failed: ${first.stderr.toString()}`);
	const start = (name: string, home: string): Subject => ({ name, argv: [o.agent, "--no-session", "-p", "/noop"], env: world.env({ HOME: home, AGENT_OFFLINE: "1" }), cwd: world.cwd, expect: { stdout: "", stderr: "Info: ok\n" } });
	const startups = await measureRounds([start("no packages", homes.none), start(`${N} packages`, homes.packages), start(`${N} plain extension files`, homes.files)], { runs: o.runs, rssRuns: 0 });
	const [none, pkgs, files] = startups.map((m) => m.wallMs);
	const perPackage = summary(perRound([pkgs!, none!], (p, n) => (p - n) / N));
	const perFile = summary(perRound([files!, none!], (f, n) => (f - n) / N));
	const ratio = summary(perRound([pkgs!, files!, none!], (p, f, n) => (p - n) / Math.max(f - n, 0.01)));

	return result(
		"packages",
		"agent install of a small npm package (local registry) beside bun add and npm install; start-up cost per installed package beside plain extension files",
		o,
		startLoad,
		[
			rowsTable("Install of a small package (1 extension, 1 skill, 1 dependency), from an empty folder and cache", installed),
			rowsTable(`agent -p /noop (a command, no model) with ${N} installed packages`, compare(startups)),
			{
				title: "Start-up cost per installed package",
				header: ["", "ms per package, median (min–max)"],
				rows: [
					["package (settings \"packages\")", fmt(perPackage)],
					["plain extension file (floor)", fmt(perFile)],
					["package ÷ file, per round", fmtRatio(ratio)],
				],
			},
		],
		[goalOf("agent install vs bun add", installed[1]!.ratio!, 1.5, "×"), goalOf("per-package start-up vs a plain extension file", ratio, 1.3, "×")],
	);
};

if (import.meta.main) await benchMain(bench, { runs: 11 });
