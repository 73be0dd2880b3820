// `tsc --noEmit -p <dir>` with the repo's TypeScript, for tests that check extension code against
// `agent types` output in a temp folder (no node_modules in reach of it).
import { resolve } from "node:path";

const tsc = resolve(import.meta.dir, "../../node_modules/.bin/tsc");

/** tsc's exit code and what it printed (diagnostics go to stdout). */
export async function typeCheck(dir: string): Promise<{ code: number; output: string }> {
	const proc = Bun.spawn([tsc, "--noEmit", "-p", dir], { cwd: dir, stdout: "pipe", stderr: "pipe" });
	const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	return { code, output: out + err };
}
