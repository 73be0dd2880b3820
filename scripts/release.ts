// Cross-compile the binary for every release target and pack each into dist/release/ as an archive
// (.tar.gz, .zip for Windows) holding the binary, README.md and LICENSE, with a SHA256SUMS file.
// A target that cannot be built here is reported with its reason and fails the run; never faked.
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { buildBinary } from "./build.ts";

export interface ReleaseTarget {
	/** Bun compile target. */
	bun: Bun.Build.CompileTarget;
	os: "linux" | "darwin" | "windows";
	arch: "x64" | "arm64";
}

export const TARGETS: ReleaseTarget[] = [
	{ bun: "bun-linux-x64", os: "linux", arch: "x64" },
	{ bun: "bun-linux-arm64", os: "linux", arch: "arm64" },
	{ bun: "bun-darwin-x64", os: "darwin", arch: "x64" },
	{ bun: "bun-darwin-arm64", os: "darwin", arch: "arm64" },
	{ bun: "bun-windows-x64", os: "windows", arch: "x64" },
];

export function artifactName(version: string, t: ReleaseTarget): string {
	return `agent-${version}-${t.os}-${t.arch}${t.os === "windows" ? ".exe" : ""}`;
}

/** The archive a target ships as: `agent-<version>-<os>-<arch>.tar.gz`, `.zip` for Windows. */
export function archiveName(version: string, t: ReleaseTarget): string {
	return `agent-${version}-${t.os}-${t.arch}${t.os === "windows" ? ".zip" : ".tar.gz"}`;
}

/**
 * Pack `binary` with README.md and LICENSE into `archive`, under a folder named like the archive:
 * tar.gz through node-tar (the executable bit kept, owner and times made portable), zip through fflate.
 */
export async function writeArchive(archive: string, binary: string, files: { readme: string; license: string }): Promise<void> {
	const folder = basename(archive).replace(/\.(tar\.gz|zip)$/, "");
	const exe = archive.endsWith(".zip") ? "agent.exe" : "agent";
	const staging = mkdtempSync(join(tmpdir(), "agent-release-"));
	try {
		const root = join(staging, folder);
		mkdirSync(root);
		copyFileSync(binary, join(root, exe));
		chmodSync(join(root, exe), 0o755);
		copyFileSync(files.readme, join(root, "README.md"));
		copyFileSync(files.license, join(root, "LICENSE"));
		if (archive.endsWith(".zip")) {
			const { zipSync } = await import("fflate");
			const entry = (name: string): [Uint8Array, { level: 9 }] => [new Uint8Array(readFileSync(join(root, name))), { level: 9 }];
			writeFileSync(archive, zipSync({ [folder]: { [exe]: entry(exe), "README.md": entry("README.md"), LICENSE: entry("LICENSE") } }));
		} else {
			const tar = await import("tar");
			await tar.create({ gzip: { level: 9 }, file: archive, cwd: staging, portable: true }, [folder]);
		}
	} finally {
		rmSync(staging, { recursive: true, force: true });
	}
}

/** One line in `sha256sum` format: hex digest, two spaces (text mode), file name. */
export function sha256Line(path: string, name = basename(path)): string {
	const digest = createHash("sha256").update(readFileSync(path)).digest("hex");
	return `${digest}  ${name}\n`;
}

/** Write `SHA256SUMS` in `dir` for `files` (names inside `dir`), checkable with `sha256sum -c`. */
export function writeChecksums(dir: string, files: string[]): string {
	const out = join(dir, "SHA256SUMS");
	writeFileSync(out, files.map((f) => sha256Line(join(dir, f), f)).join(""));
	return out;
}

/**
 * What an executable's header says it is ("linux-x64", "darwin-arm64", "windows-x64"), or null.
 * A cheap check that each artifact is the format and CPU its name claims.
 */
export function executableKind(head: Uint8Array): string | null {
	const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
	if (head.length >= 20 && view.getUint32(0) === 0x7f454c46) {
		const machine = view.getUint16(18, true);
		return machine === 0x3e ? "linux-x64" : machine === 0xb7 ? "linux-arm64" : null;
	}
	if (head.length >= 8 && view.getUint32(0, true) === 0xfeedfacf) {
		const cpu = view.getUint32(4, true);
		return cpu === 0x01000007 ? "darwin-x64" : cpu === 0x0100000c ? "darwin-arm64" : null;
	}
	if (head.length >= 0x40 && head[0] === 0x4d && head[1] === 0x5a) {
		const pe = view.getUint32(0x3c, true);
		if (pe + 6 > head.length || view.getUint32(pe) !== 0x50450000) return null;
		return view.getUint16(pe + 4, true) === 0x8664 ? "windows-x64" : null;
	}
	return null;
}

interface TargetResult {
	target: ReleaseTarget;
	file: string;
	ok: boolean;
	bytes?: number;
	/** The archive, once packed. */
	archive?: string;
	archiveBytes?: number;
	note: string;
}

async function buildTarget(dir: string, t: ReleaseTarget): Promise<TargetResult> {
	const file = artifactName(pkg.version, t);
	const path = join(dir, file);
	try {
		await buildBinary({ outfile: path, target: t.bun });
	} catch (error) {
		return { target: t, file, ok: false, note: `build failed: ${reason(error)}` };
	}
	let bytes: number;
	try {
		bytes = statSync(path).size;
	} catch {
		return { target: t, file, ok: false, note: "build reported success but wrote no file" };
	}
	const fd = Bun.file(path);
	const kind = executableKind(new Uint8Array(await fd.slice(0, 4096).arrayBuffer()));
	const expected = `${t.os}-${t.arch}`;
	if (kind !== expected) return { target: t, file, ok: false, bytes, note: `header says ${kind ?? "unknown format"}, expected ${expected}` };
	// The target this machine can run gets a smoke test: it must print its version.
	if (expected === `${process.platform === "win32" ? "windows" : process.platform}-${process.arch}`) {
		const r = Bun.spawnSync([path, "--version"], { stdout: "pipe", stderr: "pipe" });
		const out = r.stdout.toString();
		if (r.exitCode !== 0 || out !== `${pkg.version}\n`) {
			return { target: t, file, ok: false, bytes, note: `--version printed ${JSON.stringify(out)} (exit ${r.exitCode})` };
		}
		return { target: t, file, ok: true, bytes, note: `${kind}; --version ok` };
	}
	return { target: t, file, ok: true, bytes, note: kind };
}

/** Bun.build throws an AggregateError whose `errors` carry the useful text. */
function reason(error: unknown): string {
	if (error instanceof AggregateError && error.errors.length > 0) return error.errors.map((e) => String(e?.message ?? e)).join("; ");
	return error instanceof Error ? error.message : String(error);
}

const mb = (bytes: number | undefined) => (bytes === undefined ? "–" : `${(bytes / 1e6).toFixed(1)} MB`);

function resultTable(results: TargetResult[]): string {
	const lines = ["| target | archive | archive size | binary size | status |", "| --- | --- | --- | --- | --- |"];
	for (const r of results) lines.push(`| ${r.target.bun} | ${r.archive ?? r.file} | ${mb(r.archiveBytes)} | ${mb(r.bytes)} | ${r.ok ? "ok" : "FAILED"}: ${r.note} |`);
	return `${lines.join("\n")}\n`;
}

async function main(): Promise<number> {
	const dir = resolve(import.meta.dir, "../dist/release");
	// Start clean so SHA256SUMS never lists a stale artifact from an earlier run.
	rmSync(dir, { recursive: true, force: true });
	mkdirSync(dir, { recursive: true });
	const results: TargetResult[] = [];
	const files = { readme: resolve(import.meta.dir, "../README.md"), license: resolve(import.meta.dir, "../LICENSE") };
	for (const t of TARGETS) {
		const r = await buildTarget(dir, t);
		if (r.ok) {
			const archive = archiveName(pkg.version, t);
			try {
				await writeArchive(join(dir, archive), join(dir, r.file), files);
				Object.assign(r, { archive, archiveBytes: statSync(join(dir, archive)).size });
			} catch (error) {
				Object.assign(r, { ok: false, note: `packing failed: ${reason(error)}` });
			}
		}
		// Only archives ship; the raw binary was their input.
		rmSync(join(dir, r.file), { force: true });
		results.push(r);
	}
	const built = results.filter((r) => r.ok).map((r) => r.archive!);
	for (const r of results) if (!r.ok && r.archive) rmSync(join(dir, r.archive), { force: true });
	if (built.length > 0) writeChecksums(dir, built);
	process.stdout.write(resultTable(results));
	const failed = results.length - built.length;
	process.stdout.write(failed === 0 ? `\n${built.length} targets built into dist/release with SHA256SUMS.\n` : `\n${failed} of ${results.length} targets failed; see the table.\n`);
	return failed === 0 ? 0 : 1;
}

if (import.meta.main) process.exit(await main());
