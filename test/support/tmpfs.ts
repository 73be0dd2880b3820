// A small tmpfs for tests of full disks: mounted where this machine lets us (root in a container
// usually may), skipped elsewhere.
import { mkdirSync, rmdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** Mount a tmpfs of `size` (e.g. "1m") at `dir`; false when mounting is not allowed here. */
export function mountTmpfs(dir: string, size: string): boolean {
	mkdirSync(dir, { recursive: true });
	return Bun.spawnSync(["mount", "-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stderr: "ignore", stdout: "ignore" }).exitCode === 0;
}

export function unmount(dir: string): void {
	Bun.spawnSync(["umount", dir]);
}

/** Whether mountTmpfs works on this machine (probed once). */
export const canMount = (() => {
	if (process.platform !== "linux" || process.getuid?.() !== 0) return false;
	const probe = join(tmpdir(), `agent-tmpfs-probe-${process.pid}`);
	const ok = mountTmpfs(probe, "64k");
	if (ok) unmount(probe);
	rmdirSync(probe);
	return ok;
})();
