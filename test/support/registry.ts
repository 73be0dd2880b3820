// A small npm registry on 127.0.0.1 for tests: it serves packuments and real tarballs made with
// `npm pack` from package folders the test writes, so the binary installs them like from npmjs.org.
// Versions can be published while it runs (for `agent update`); every request is recorded.
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Server } from "bun";

interface Published {
	manifest: Record<string, unknown>;
	tarball: Uint8Array;
	file: string;
}

export interface TestRegistry extends AsyncDisposable {
	/** e.g. "http://127.0.0.1:40123/" (with the trailing slash npm config values carry). */
	readonly url: string;
	/** Paths requested, oldest first. */
	readonly requests: string[];
	/** `npm pack` the folder and serve it as `name@version` (read from its package.json); latest moves to it. */
	publish(folder: string): Promise<{ name: string; version: string }>;
	close(): Promise<void>;
}

/** Run `npm pack` in `folder` into a temp dir and return the tarball's bytes and file name. */
async function npmPack(folder: string): Promise<{ bytes: Uint8Array; file: string }> {
	const out = mkdtempSync(join(tmpdir(), "agent-pack-"));
	try {
		// Bounded: a stuck npm must fail the test or benchmark, not hang it (killed, it exits non-zero).
		const proc = Bun.spawn(["npm", "pack", "--silent", "--pack-destination", out], { cwd: folder, stdout: "pipe", stderr: "pipe", timeout: 60_000, killSignal: "SIGKILL", env: { ...process.env, npm_config_loglevel: "error", npm_config_update_notifier: "false" } });
		const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
		if (code !== 0) throw new Error(`npm pack in ${folder} failed (${code}): ${stderr}`);
		const file = stdout.trim().split("\n").at(-1)!;
		return { bytes: new Uint8Array(readFileSync(join(out, file))), file };
	} finally {
		rmSync(out, { recursive: true, force: true });
	}
}

export async function startRegistry(): Promise<TestRegistry> {
	const packages = new Map<string, Map<string, Published>>();
	const latest = new Map<string, string>();
	const requests: string[] = [];
	let server: Server<undefined> | undefined;

	const packument = (name: string, origin: string) => {
		const versions = packages.get(name)!;
		return {
			name,
			"dist-tags": { latest: latest.get(name) },
			versions: Object.fromEntries(
				[...versions].map(([version, p]) => [
					version,
					{
						...p.manifest,
						_id: `${name}@${version}`,
						dist: {
							tarball: `${origin}/${name}/-/${p.file}`,
							shasum: createHash("sha1").update(p.tarball).digest("hex"),
							integrity: `sha512-${createHash("sha512").update(p.tarball).digest("base64")}`,
						},
					},
				]),
			),
		};
	};

	server = Bun.serve({
		hostname: "127.0.0.1",
		port: 0,
		fetch(request) {
			const url = new URL(request.url);
			const path = decodeURIComponent(url.pathname);
			requests.push(path);
			const tar = /^\/(.+)\/-\/([^/]+\.tgz)$/.exec(path);
			if (tar) {
				const found = [...(packages.get(tar[1]!)?.values() ?? [])].find((p) => p.file === tar[2]);
				return found ? new Response(found.tarball, { headers: { "content-type": "application/octet-stream" } }) : new Response("not found", { status: 404 });
			}
			const name = path.slice(1);
			if (!packages.has(name)) return Response.json({ error: "Not found" }, { status: 404 });
			return Response.json(packument(name, url.origin));
		},
	});

	const registry: TestRegistry = {
		url: `http://127.0.0.1:${server.port}/`,
		requests,
		async publish(folder) {
			const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8")) as Record<string, unknown>;
			const name = String(manifest.name);
			const version = String(manifest.version);
			const { bytes, file } = await npmPack(folder);
			if (!packages.has(name)) packages.set(name, new Map());
			packages.get(name)!.set(version, { manifest, tarball: bytes, file: file.replace(/^.*\//, "") });
			latest.set(name, version);
			return { name, version };
		},
		async close() {
			const s = server;
			server = undefined;
			await s?.stop(true);
		},
		async [Symbol.asyncDispose]() {
			await registry.close();
		},
	};
	return registry;
}
