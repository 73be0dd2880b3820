// Installing packages with no npm on the machine: the binary re-executes itself as Bun
// (`BUN_BE_BUN=1`) and uses Bun's package manager against the registry the user's npm config names
// (~/.npmrc, npm_config_registry). Git sources use `git`. Lifecycle scripts never run unless asked.
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync, appendFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { hostPackageNames } from "../../../virtual-modules/index.ts";
import { getAgentDir } from "../../config.ts";
import { forgetResolvedPackages } from "./configured.ts";
import { npmRoot, packagesRoot, type GitSource, type PackageScope } from "./source.ts";

export class PackageInstallError extends Error {
	constructor(
		readonly source: string,
		message: string,
	) {
		super(message);
		this.name = "PackageInstallError";
	}
}

export interface InstallOptions {
	/** `--offline` (AGENT_OFFLINE=1 counts too): fetch nothing. */
	offline?: boolean;
	/** Ask the registry afresh instead of trusting Bun's cached package metadata (`agent update`). */
	fresh?: boolean;
	/** Run the package's (and its dependencies') install scripts. Default false. */
	allowScripts?: boolean;
	/** Give up after this long. Default 5 minutes. */
	timeoutMs?: number;
}

interface CommandResult {
	code: number;
	output: string;
}

const DEFAULT_TIMEOUT_MS = 5 * 60_000;

/** Run a command with output captured; git and ssh never prompt for anything. */
async function run(argv: string[], cwd: string, env: Record<string, string | undefined>, timeoutMs: number): Promise<CommandResult> {
	// Every install, update and removal goes through here: what was read of package folders is stale.
	forgetResolvedPackages();
	const proc = Bun.spawn(argv, {
		cwd,
		env: { ...process.env, GIT_TERMINAL_PROMPT: "0", GIT_SSH_COMMAND: process.env.GIT_SSH_COMMAND ?? "ssh -o BatchMode=yes", NO_COLOR: "1", FORCE_COLOR: "0", ...env },
		stdin: "ignore",
		stdout: "pipe",
		stderr: "pipe",
	});
	let timedOut = false;
	const timer = setTimeout(() => {
		timedOut = true;
		proc.kill("SIGKILL");
	}, timeoutMs);
	try {
		const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
		forgetResolvedPackages();
		if (timedOut) return { code: 124, output: `${out}${err}\ngave up after ${Math.round(timeoutMs / 1000)} s` };
		return { code, output: `${out}${err}` };
	} finally {
		clearTimeout(timer);
	}
}

/** The last meaningful lines of a command's output, for an error message. */
function tail(output: string, lines = 3): string {
	const kept = output
		.split("\n")
		.map((l) => l.trim())
		.filter((l) => l && !/^bun (add|install|remove) v/.test(l) && !/^(Resolving|Resolved|Saved lockfile)/.test(l));
	return kept.slice(-lines).join("; ") || "no output";
}

/** Bun's package manager: our own executable, which is Bun when `BUN_BE_BUN=1` is set. */
async function bun(args: string[], cwd: string, timeoutMs: number): Promise<CommandResult> {
	return run([process.execPath, ...args], cwd, { BUN_BE_BUN: "1", BUN_INSTALL_CACHE_DIR: join(getAgentDir(), "packages", "cache") }, timeoutMs);
}

/** Where the stand-ins for the host-provided packages live: `<packages root>/host/<name>`. */
function hostDir(root: string, name: string): string {
	return join(root, "host", ...name.split("/"));
}

/**
 * The `overrides` pointing the host-provided packages at empty stand-ins: a package's peer or
 * dependency on `typebox` or `@scope/coding-agent` resolves there, never fetching or installing a
 * copy that would shadow the binary's (which wins at load time anyway). The stand-ins themselves are
 * written by writeHostStandIns, when an install needs them.
 */
function hostOverrides(root: string): Record<string, string> {
	const overrides: Record<string, string> = {};
	for (const name of hostPackageNames()) overrides[name] = `file:${hostDir(root, name)}`;
	return overrides;
}

/** The stand-ins' folders and package.json files (those not there yet). */
function writeHostStandIns(root: string): void {
	for (const name of hostPackageNames()) {
		const dir = hostDir(root, name);
		const manifest = join(dir, "package.json");
		if (!existsSync(manifest)) {
			mkdirSync(dir, { recursive: true });
			writeFileSync(manifest, `${JSON.stringify({ name, version: "0.0.0-host", description: "Served by the agent binary; this is a placeholder." }, null, 2)}\n`);
		}
	}
}

/**
 * Whether a failed install stopped at a host stand-in that is not written yet (Bun: `package.json
 * not found for "file:<root>/host/…" dependency "typebox"`): Bun reads an override's folder only
 * for a package the tree depends on, so most installs never need the stand-ins, and one that does
 * writes them and runs again (from Bun's cache: the failed run fetched what it resolved).
 */
function neededHostStandIns(r: CommandResult, root: string): boolean {
	return r.code !== 0 && r.output.includes(`file:${join(root, "host")}`) && hostPackageNames().some((name) => !existsSync(join(hostDir(root, name), "package.json")));
}

/** Keep installed packages out of the project's git (they are rebuilt from settings). */
function ignoreInGit(root: string): void {
	mkdirSync(root, { recursive: true });
	const file = join(root, ".gitignore");
	if (!existsSync(file)) writeFileSync(file, "*\n");
}

/** The npm root of a scope: a private package.json with the host overrides; `.npmrc` of the project for project installs. */
function prepareNpmRoot(scope: PackageScope, cwd: string): string {
	const base = packagesRoot(scope, cwd);
	const root = npmRoot(scope, cwd);
	mkdirSync(root, { recursive: true });
	ignoreInGit(base);
	const manifestPath = join(root, "package.json");
	let manifest: Record<string, unknown> = { name: "agent-packages", private: true };
	try {
		manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
	} catch {
		// Missing or unreadable: start over; node_modules is what counts.
	}
	manifest.overrides = { ...(manifest.overrides as object), ...hostOverrides(base) };
	writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
	// npm reads a project's .npmrc when installing into it; Bun reads the install folder's.
	const projectNpmrc = join(cwd, ".npmrc");
	const rootNpmrc = join(root, ".npmrc");
	if (scope === "project" && existsSync(projectNpmrc) && !existsSync(rootNpmrc)) symlinkSync(projectNpmrc, rootNpmrc);
	return root;
}

function scriptFlags(options: InstallOptions): string[] {
	return options.allowScripts ? ["--trust"] : ["--ignore-scripts"];
}

/** `bun add <specs…>` into the scope's npm root. `specs` are `name` or `name@range`. */
export async function installNpm(specs: string[], scope: PackageScope, cwd: string, options: InstallOptions = {}): Promise<void> {
	const root = prepareNpmRoot(scope, cwd);
	const args = ["add", ...specs, "--cwd", root, "--omit=peer", "--no-progress", "--no-summary", ...(options.fresh ? ["--no-cache"] : []), ...scriptFlags(options)];
	let r = await bun(args, root, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
	const base = packagesRoot(scope, cwd);
	if (neededHostStandIns(r, base)) {
		writeHostStandIns(base);
		r = await bun(args, root, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
	}
	if (r.code !== 0) throw new PackageInstallError(specs.join(" "), `npm install failed: ${tail(r.output)}`);
}

export async function removeNpm(name: string, scope: PackageScope, cwd: string): Promise<void> {
	const root = npmRoot(scope, cwd);
	if (!existsSync(join(root, "package.json"))) return;
	const r = await bun(["remove", name, "--cwd", root, "--no-progress", "--ignore-scripts"], root, DEFAULT_TIMEOUT_MS);
	if (r.code !== 0 && existsSync(join(root, "node_modules", name))) throw new PackageInstallError(name, `npm uninstall failed: ${tail(r.output)}`);
}

/** `git` on PATH, or a PackageInstallError saying how to get it. */
function requireGit(source: string): string {
	const git = Bun.which("git");
	if (!git) throw new PackageInstallError(source, `git is not installed (not found on PATH), and git sources need it. Install git, or use an npm source (npm:<name>), which needs nothing else.`);
	return git;
}

async function git(args: string[], cwd: string, source: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<string> {
	const r = await run([requireGit(source), ...args], cwd, {}, timeoutMs);
	if (r.code !== 0) throw new PackageInstallError(source, `git ${args[0]} failed: ${tail(r.output)}`);
	return r.output.trim();
}

/**
 * Install a git checkout's own dependencies with the embedded Bun. The host overrides go into its
 * package.json only for the install, which is then put back byte for byte, so the checkout stays clean.
 */
async function installGitDependencies(dir: string, scope: PackageScope, cwd: string, source: string, options: InstallOptions): Promise<void> {
	const manifestPath = join(dir, "package.json");
	if (!existsSync(manifestPath)) return;
	const original = readFileSync(manifestPath, "utf8");
	let manifest: Record<string, unknown>;
	try {
		manifest = JSON.parse(original);
	} catch (error) {
		throw new PackageInstallError(source, `${manifestPath} is not valid JSON: ${(error as Error).message}`);
	}
	const deps = manifest.dependencies && typeof manifest.dependencies === "object" ? Object.keys(manifest.dependencies) : [];
	if (deps.length === 0) return;
	const exclude = join(dir, ".git", "info", "exclude");
	if (existsSync(dirname(exclude)) && !(existsSync(exclude) && readFileSync(exclude, "utf8").includes("node_modules/"))) appendFileSync(exclude, "\nnode_modules/\nbun.lock\nbun.lockb\n");
	try {
		writeHostStandIns(packagesRoot(scope, cwd));
		manifest.overrides = { ...(manifest.overrides as object), ...hostOverrides(packagesRoot(scope, cwd)) };
		writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
		const r = await bun(["install", "--cwd", dir, "--production", "--omit=peer", "--no-progress", "--no-summary", "--no-save", ...scriptFlags(options)], dir, options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
		if (r.code !== 0) throw new PackageInstallError(source, `installing its dependencies failed: ${tail(r.output)}`);
	} finally {
		writeFileSync(manifestPath, original);
	}
}

/** Clone into `dir` at the source's ref, then install its dependencies. A failed clone leaves nothing behind. */
export async function installGit(source: GitSource, label: string, dir: string, scope: PackageScope, cwd: string, options: InstallOptions = {}): Promise<void> {
	requireGit(label);
	if (scope !== "temporary") ignoreInGit(packagesRoot(scope, cwd));
	mkdirSync(dirname(dir), { recursive: true });
	try {
		await git(["clone", "--quiet", source.repo, dir], dirname(dir), label);
		if (source.ref) await git(["checkout", "--quiet", source.ref], dir, label);
		await installGitDependencies(dir, scope, cwd, label, options);
	} catch (error) {
		rmSync(dir, { recursive: true, force: true });
		throw error;
	}
}

/** HEAD's commit, short. */
export async function gitHead(dir: string, label: string): Promise<string> {
	return (await git(["rev-parse", "--short", "HEAD"], dir, label)).split("\n")[0]!;
}

/**
 * Bring a checkout to the remote: its branch (the ref, or the remote's default branch) is fetched
 * and reset to; a tag or commit ref stays where it is. Returns the commits before and after.
 */
export async function updateGit(source: GitSource, label: string, dir: string, scope: PackageScope, cwd: string, options: InstallOptions = {}): Promise<{ before: string; after: string; pinned: boolean }> {
	const before = await gitHead(dir, label);
	await git(["fetch", "--quiet", "--tags", "origin"], dir, label);
	let target: string | undefined;
	if (!source.ref) target = "origin/HEAD";
	else if ((await run([requireGit(label), "rev-parse", "--verify", "--quiet", `refs/remotes/origin/${source.ref}`], dir, {}, 60_000)).code === 0) target = `origin/${source.ref}`;
	if (!target) return { before, after: before, pinned: true };
	if (target === "origin/HEAD") await run([requireGit(label), "remote", "set-head", "origin", "--auto"], dir, {}, 60_000);
	await git(["reset", "--quiet", "--hard", target], dir, label);
	const after = await gitHead(dir, label);
	if (after !== before) await installGitDependencies(dir, scope, cwd, label, options);
	return { before, after, pinned: false };
}
