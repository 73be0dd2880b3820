// pi 1.6.0, the peer PI_COMPARE=1 measures: compiled the way pi builds its release binary
// (`build:binary` in its package.json: `bun build --compile` of dist/bun/cli.js with its two workers,
// then its assets copied beside the binary), by our Bun, into a folder under /tmp reused across runs.
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { BenchWorld } from "./lib.ts";

export const PI_VERSION = "1.6.0";
const repo = resolve(import.meta.dir, "../..");
const PI_DIR = join(repo, "node_modules/@earendil-works/pi-coding-agent");

export interface PiBinary {
	bin: string;
	/** The environment pi needs on top of the world's: its own agent dir, offline, no telemetry. */
	env(world: BenchWorld): Record<string, string>;
}

/** Files and folders pi's `copy-binary-assets` puts next to the binary: [from (in the package), to]. */
function assets(): [string, string][] {
	const photon = join(repo, "node_modules/@silvia-odwyer/photon-node/photon_rs_bg.wasm");
	const list: [string, string][] = [
		["package.json", "package.json"],
		["README.md", "README.md"],
		["CHANGELOG.md", "CHANGELOG.md"],
		["docs", "docs"],
		["examples", "examples"],
		[photon, "photon_rs_bg.wasm"],
		["dist/core/export-html/template.html", "export-html/template.html"],
		["dist/core/export-html/vendor", "export-html/vendor"],
	];
	for (const f of readdirSync(join(PI_DIR, "dist/modes/interactive/theme"))) if (f.endsWith(".json")) list.push([`dist/modes/interactive/theme/${f}`, `theme/${f}`]);
	for (const f of readdirSync(join(PI_DIR, "dist/modes/interactive/assets"))) if (f.endsWith(".png")) list.push([`dist/modes/interactive/assets/${f}`, `assets/${f}`]);
	return list;
}

/** Compile pi once per pi version and Bun version; later calls reuse the folder. */
export async function buildPi(): Promise<PiBinary> {
	const version = (JSON.parse(readFileSync(join(PI_DIR, "package.json"), "utf8")) as { version: string }).version;
	if (version !== PI_VERSION) throw new Error(`PI_COMPARE=1 wants pi ${PI_VERSION}, node_modules has ${version}: run npm install`);
	const dir = join(realpathSync(tmpdir()), `agent-bench-pi-${PI_VERSION}-bun-${Bun.version}`);
	const bin = join(dir, "pi");
	if (!existsSync(join(dir, "ok"))) {
		rmSync(dir, { recursive: true, force: true });
		mkdirSync(dir, { recursive: true });
		process.stderr.write(`compiling pi ${PI_VERSION} into ${bin}\n`);
		const entries = ["dist/bun/cli.js", "dist/utils/image-resize-worker.js", "dist/extensions/codemode/worker.js"].map((f) => join(PI_DIR, f));
		const args = ["build", "--compile", "--no-compile-autoload-bunfig", "--no-compile-autoload-dotenv", "--compile-autoload-package-json", ...entries, "--outfile", bin];
		const r = Bun.spawnSync([process.execPath, ...args], { cwd: repo, stdout: "pipe", stderr: "pipe" });
		if (r.exitCode !== 0) throw new Error(`compiling pi failed (exit ${r.exitCode}):\n${r.stderr.toString()}`);
		for (const [from, to] of assets()) {
			mkdirSync(join(dir, to, ".."), { recursive: true });
			cpSync(resolve(PI_DIR, from), join(dir, to), { recursive: true });
		}
		writeFileSync(join(dir, "ok"), `${PI_VERSION}\n`);
	}
	return {
		bin,
		env(world) {
			const agentDir = join(world.root, "pi-agent");
			const models = join(agentDir, "models.json");
			// The same mock provider as the agent's, when the world has one.
			const ours = join(world.agentDir, "models.json");
			if (existsSync(ours) && !existsSync(models)) world.write(models, readFileSync(ours, "utf8"));
			mkdirSync(agentDir, { recursive: true });
			return { PI_CODING_AGENT_DIR: agentDir, PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0" };
		},
	};
}
