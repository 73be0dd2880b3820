// pi 0.73.1, the peer the benchmarks compare against: installed once into a fixed folder under
// /tmp (reused across runs), never into the repo and never as a dependency.
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export const PI_VERSION = "0.73.1";
const PI_PACKAGE = "@mariozechner/pi-coding-agent";

/** Install pi if needed; returns the path of its CLI script (run it with node). */
export async function installPi(): Promise<string> {
	const dir = join(realpathSync(tmpdir()), `agent-bench-pi-${PI_VERSION}`);
	const pkgDir = join(dir, "node_modules", ...PI_PACKAGE.split("/"));
	if (!existsSync(join(pkgDir, "package.json"))) {
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, "package.json"), `{ "private": true }\n`);
		console.error(`installing ${PI_PACKAGE}@${PI_VERSION} into ${dir}`);
		const r = Bun.spawnSync(["npm", "install", "--no-audit", "--no-fund", `${PI_PACKAGE}@${PI_VERSION}`], { cwd: dir, stdout: "inherit", stderr: "inherit" });
		if (r.exitCode !== 0) throw new Error(`npm install ${PI_PACKAGE}@${PI_VERSION} failed in ${dir} (exit ${r.exitCode})`);
	}
	const manifest = JSON.parse(readFileSync(join(pkgDir, "package.json"), "utf8")) as { bin?: string | Record<string, string> };
	const bin = typeof manifest.bin === "string" ? manifest.bin : Object.values(manifest.bin ?? {})[0];
	if (!bin) throw new Error(`${PI_PACKAGE}@${PI_VERSION} declares no bin in ${pkgDir}/package.json`);
	return join(pkgDir, bin);
}

/** node on PATH, which pi needs. */
export function nodeForPi(): string {
	const node = Bun.which("node");
	if (!node) throw new Error("PI_COMPARE=1 needs node on PATH to run pi");
	return node;
}
