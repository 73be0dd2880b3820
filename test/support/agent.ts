// Runs the compiled binary the way a user does: copied away from the repo (no node_modules in
// reach), in a temporary HOME and cwd that are removed afterwards.
import { copyFileSync, linkSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync, chmodSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const repoRoot = resolve(import.meta.dir, "../..");
let copied: string | undefined;
let copiedDir: string | undefined;

/** Path of the compiled binary, copied once per test process into a temp dir outside the repo. */
export function agentBinary(): string {
	if (copied) return copied;
	const built = join(repoRoot, "dist", "agent");
	if (!existsSync(built)) throw new Error(`dist/agent is missing: run "npm run build" (npm test does it for you)`);
	const dir = mkdtempSync(join(realpathSync(tmpdir()), "agent-bin-"));
	copied = join(dir, "agent");
	try {
		linkSync(built, copied);
	} catch {
		copyFileSync(built, copied);
	}
	chmodSync(copied, 0o755);
	copiedDir = dir;
	// Outside bun test (a script using these helpers); under it, test/support/cleanup.ts removes it.
	process.on("exit", removeCopiedBinary);
	return copied;
}

/**
 * Remove the copy (a hard link keeps a rebuilt binary's old 120 MB alive in the temp dir); the
 * next agentBinary() makes a new one.
 */
export function removeCopiedBinary(): void {
	if (copiedDir) rmSync(copiedDir, { recursive: true, force: true });
	copied = copiedDir = undefined;
}

export interface RunResult {
	stdout: string;
	stderr: string;
	code: number;
}

export interface RunOptions {
	cwd?: string;
	env?: Record<string, string | undefined>;
	stdin?: string;
	/** Kill after this many ms (default 30 s); a killed run fails the test with what it printed. */
	timeoutMs?: number;
	/** Another compiled binary to run instead of dist/agent (e.g. a test harness). */
	binary?: string;
}

/** A temporary HOME and project folder. `await using` removes both. */
export class TempWorld implements AsyncDisposable {
	readonly root: string;
	readonly home: string;
	readonly cwd: string;

	constructor() {
		this.root = mkdtempSync(join(realpathSync(tmpdir()), "agent-test-"));
		this.home = join(this.root, "home");
		this.cwd = join(this.root, "project");
		mkdirSync(this.home, { recursive: true });
		mkdirSync(this.cwd, { recursive: true });
	}

	/** `~/.agent` inside this world. */
	get agentDir(): string {
		return join(this.home, ".agent");
	}

	/** Write a file relative to the world root (`home/...`, `project/...`) or an absolute path. */
	write(path: string, content: string): string {
		const full = path.startsWith("/") ? path : join(this.root, path);
		mkdirSync(dirname(full), { recursive: true });
		writeFileSync(full, content);
		return full;
	}

	/** Environment for the binary: only what a clean machine has, plus `env`. */
	environment(extra: Record<string, string | undefined> = {}): Record<string, string> {
		const env: Record<string, string> = {
			HOME: this.home,
			PATH: process.env.PATH ?? "/usr/bin:/bin",
			TERM: "dumb",
			NO_COLOR: "1",
			TMPDIR: join(this.root, "tmp"),
		};
		mkdirSync(env.TMPDIR!, { recursive: true });
		for (const [k, v] of Object.entries(extra)) {
			if (v === undefined) delete env[k];
			else env[k] = v;
		}
		return env;
	}

	async run(argv: string[], options: RunOptions = {}): Promise<RunResult> {
		return runAgent(argv, { ...options, cwd: options.cwd ?? this.cwd, env: this.environment(options.env) });
	}

	async [Symbol.asyncDispose](): Promise<void> {
		rmSync(this.root, { recursive: true, force: true });
	}
}

export async function runAgent(argv: string[], options: RunOptions & { env: Record<string, string> }): Promise<RunResult> {
	const proc = Bun.spawn([options.binary ?? agentBinary(), ...argv], {
		cwd: options.cwd,
		env: options.env,
		stdin: options.stdin !== undefined ? new Blob([options.stdin]) : "ignore",
		stdout: "pipe",
		stderr: "pipe",
	});
	const timeout = setTimeout(() => proc.kill("SIGKILL"), options.timeoutMs ?? 30_000);
	try {
		const [stdout, stderr, code] = await Promise.all([
			new Response(proc.stdout).text(),
			new Response(proc.stderr).text(),
			proc.exited,
		]);
		if (proc.signalCode === "SIGKILL") {
			throw new Error(`agent ${argv.join(" ")} timed out\n--- stdout\n${stdout}\n--- stderr\n${stderr}`);
		}
		return { stdout, stderr, code };
	} finally {
		clearTimeout(timeout);
		if (proc.exitCode === null) proc.kill("SIGKILL");
	}
}
