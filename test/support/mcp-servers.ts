// Real MCP servers written by others, for end-to-end tests: `@modelcontextprotocol/server-everything`
// and `@modelcontextprotocol/server-filesystem`, installed as devDependencies and started with node
// from this repo's node_modules (no network). Plus what tests need to watch processes: the children
// of a pid, whether a pid is alive, and waiting for a condition without sleeping blindly.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join, resolve } from "node:path";
import { agentBinary, type TempWorld } from "./agent.ts";

const repoRoot = resolve(import.meta.dir, "../..");
export const EVERYTHING_SERVER = join(repoRoot, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
export const FILESYSTEM_SERVER = join(repoRoot, "node_modules/@modelcontextprotocol/server-filesystem/dist/index.js");

/** Absolute path of node, so the agent's PATH does not matter. */
export function nodePath(): string {
	const node = Bun.which("node");
	if (!node) throw new Error("node is not on PATH: the MCP server tests run real servers with node");
	return node;
}

/** An mcp.json entry that starts server-everything over stdio. */
export function everythingStdio(extra: Record<string, unknown> = {}): Record<string, unknown> {
	return { command: nodePath(), args: [EVERYTHING_SERVER, "stdio"], ...extra };
}

/**
 * server-everything kept alive after its input ends (a timer keeps node's event loop busy), as
 * servers that block in their own loop are: only a signal ends it, so a test can tell whether the
 * agent ended it or merely closed the pipe.
 */
export function stubbornEverythingStdio(): Record<string, unknown> {
	return { command: nodePath(), args: ["--import", "data:text/javascript,setInterval(()=>{},1e9)", EVERYTHING_SERVER, "stdio"] };
}

/** An mcp.json entry that starts server-filesystem over stdio, allowed into `dir`. */
export function filesystemStdio(dir: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
	return { command: nodePath(), args: [FILESYSTEM_SERVER, dir], ...extra };
}

export function mcpJson(servers: Record<string, unknown>): string {
	return `${JSON.stringify({ mcpServers: servers }, null, 2)}\n`;
}

async function freePort(): Promise<number> {
	return new Promise((resolvePort, reject) => {
		const server = createServer();
		server.once("error", reject);
		server.listen(0, "127.0.0.1", () => {
			const address = server.address();
			const port = typeof address === "object" && address ? address.port : 0;
			server.close(() => resolvePort(port));
		});
	});
}

export interface HttpMcpServer extends AsyncDisposable {
	/** e.g. http://127.0.0.1:40123/mcp */
	readonly url: string;
	readonly port: number;
	readonly pid: number;
	close(): Promise<void>;
}

/** server-everything over streamable HTTP on a free loopback port (or `port`); resolves once it listens. */
export async function startEverythingHttp(options: { port?: number } = {}): Promise<HttpMcpServer> {
	for (let attempt = 0; ; attempt++) {
		const port = options.port ?? (await freePort());
		const proc = Bun.spawn([nodePath(), EVERYTHING_SERVER, "streamableHttp"], {
			env: { PATH: process.env.PATH ?? "/usr/bin:/bin", PORT: String(port), HOME: process.env.HOME ?? "/tmp" },
			stdin: "ignore",
			stdout: "ignore",
			stderr: "pipe",
		});
		let log = "";
		const decoder = new TextDecoder();
		const listening = (async () => {
			for await (const chunk of proc.stderr) {
				log += decoder.decode(chunk, { stream: true });
				if (log.includes(`listening on port ${port}`)) return true;
				if (log.includes("already in use")) return false;
			}
			return false;
		})();
		const ok = await Promise.race([listening, proc.exited.then(() => false)]);
		if (!ok) {
			proc.kill("SIGKILL");
			await proc.exited;
			if (attempt < 3) continue;
			throw new Error(`server-everything (streamableHttp) did not start:\n${log}`);
		}
		const close = async () => {
			if (proc.exitCode === null && proc.signalCode === null) proc.kill("SIGTERM");
			await proc.exited;
		};
		return { url: `http://127.0.0.1:${port}/mcp`, port, pid: proc.pid, close, [Symbol.asyncDispose]: close };
	}
}

/** Direct children of `pid` (Linux /proc). */
export function childPids(pid: number): number[] {
	const out: number[] = [];
	for (const name of readdirSync("/proc")) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const stat = readFileSync(`/proc/${name}/stat`, "utf8");
			// Fields after the command (which may hold spaces) start after the last ")".
			const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
			if (Number(fields[1]) === pid) out.push(Number(name));
		} catch {
			// Gone while we looked.
		}
	}
	return out;
}

/** Whether a process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
	if (!existsSync(`/proc/${pid}`)) return false;
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
		return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
	} catch {
		return false;
	}
}

/** The command line of a process, words joined by spaces. */
export function commandLine(pid: number): string {
	try {
		return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
	} catch {
		return "";
	}
}

/** Poll until `condition` holds; throws after `timeoutMs` with `what`. Not a timed assertion: a deadline for a hang. */
export async function waitFor<T>(condition: () => T | undefined | false | Promise<T | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await condition();
		if (value) return value;
		if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
		await Bun.sleep(25);
	}
}

/** The agent as a child we can signal, its stderr collected as it comes (killed after 60 s if it hangs). */
export function spawnAgent(world: TempWorld, argv: string[], options: { newGroup?: boolean } = {}) {
	const command = options.newGroup ? ["setsid", agentBinary(), ...argv] : [agentBinary(), ...argv];
	const proc = Bun.spawn(command, { cwd: world.cwd, env: world.environment(), stdin: "ignore", stdout: "pipe", stderr: "pipe" });
	// A hung agent must not outlive the test run.
	const guard = setTimeout(() => proc.kill("SIGKILL"), 60_000);
	void proc.exited.then(() => clearTimeout(guard));
	let stderr = "";
	const decoder = new TextDecoder();
	const stderrDone = (async () => {
		for await (const chunk of proc.stderr) stderr += decoder.decode(chunk, { stream: true });
	})();
	const stdout = new Response(proc.stdout).text();
	return {
		proc,
		get stderr() {
			return stderr;
		},
		async finish() {
			const code = await proc.exited;
			await stderrDone;
			return { code, stdout: await stdout, stderr };
		},
	};
}

/** The pid of the agent's child running server-everything. */
export function serverChild(agentPid: number): number | undefined {
	return childPids(agentPid).find((pid) => commandLine(pid).includes(EVERYTHING_SERVER));
}
