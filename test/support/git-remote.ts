// A git remote on 127.0.0.1 for tests: a local bare repository served over git's "dumb" HTTP
// protocol (static files after `git update-server-info`), so the binary clones and fetches it with
// a plain http:// URL. Commits are made from a work tree the helper keeps next to it.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, normalize } from "node:path";
import type { Server } from "bun";

export interface GitRemote extends AsyncDisposable {
	/** `http://127.0.0.1:<port>/<name>.git` */
	readonly url: string;
	/** The bare repository on disk (what `file://` would clone). */
	readonly bareDir: string;
	/** Replace the work tree's files with `folder`'s, commit them, push; returns the commit. */
	commit(folder: string, message: string): Promise<string>;
	/** `git tag <name>` on the last commit, pushed. */
	tag(name: string): Promise<void>;
	close(): Promise<void>;
}

async function git(args: string[], cwd: string): Promise<string> {
	const proc = Bun.spawn(["git", ...args], {
		cwd,
		stdout: "pipe",
		stderr: "pipe",
		env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" },
	});
	const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
	if (code !== 0) throw new Error(`git ${args.join(" ")} failed (${code}): ${err}`);
	return out.trim();
}

export async function startGitRemote(name = "demo/tools"): Promise<GitRemote> {
	const root = mkdtempSync(join(tmpdir(), "agent-git-"));
	const served = join(root, "served");
	const bareDir = join(served, `${name}.git`);
	const work = join(root, "work");
	mkdirSync(bareDir, { recursive: true });
	await git(["init", "--quiet", "--bare", "--initial-branch=main", bareDir], root);
	await git(["init", "--quiet", "--initial-branch=main", work], root);
	await git(["remote", "add", "origin", bareDir], work);

	let server: Server<undefined> | undefined = Bun.serve({
		hostname: "127.0.0.1",
		port: 0,
		async fetch(request) {
			const path = normalize(decodeURIComponent(new URL(request.url).pathname));
			if (path.includes("..")) return new Response("bad path", { status: 400 });
			const file = Bun.file(join(served, path));
			return (await file.exists()) ? new Response(file) : new Response("not found", { status: 404 });
		},
	});

	const remote: GitRemote = {
		url: `http://127.0.0.1:${server.port}/${name}.git`,
		bareDir,
		async commit(folder, message) {
			for (const entry of readdirSync(work)) if (entry !== ".git") rmSync(join(work, entry), { recursive: true, force: true });
			cpSync(folder, work, { recursive: true });
			await git(["add", "-A"], work);
			await git(["commit", "--quiet", "-m", message], work);
			await git(["push", "--quiet", "origin", "HEAD:main", "--tags"], work);
			await git(["update-server-info"], bareDir);
			return git(["rev-parse", "--short", "HEAD"], work);
		},
		async tag(tagName) {
			await git(["tag", tagName], work);
			await git(["push", "--quiet", "origin", tagName], work);
			await git(["update-server-info"], bareDir);
		},
		async close() {
			const s = server;
			server = undefined;
			await s?.stop(true);
			rmSync(root, { recursive: true, force: true });
		},
		async [Symbol.asyncDispose]() {
			await remote.close();
		},
	};
	return remote;
}
