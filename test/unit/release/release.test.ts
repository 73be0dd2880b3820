// release.ts without cross-compiling: artifact names, the SHA256SUMS writer (checked against a
// known digest and by sha256sum itself), and the executable-header check.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { artifactName, executableKind, sha256Line, TARGETS, writeChecksums } from "../../../scripts/release.ts";

describe("artifact names", () => {
	test("one per target, .exe only on windows", () => {
		expect(TARGETS.map((t) => artifactName("1.2.3", t))).toEqual([
			"agent-1.2.3-linux-x64",
			"agent-1.2.3-linux-arm64",
			"agent-1.2.3-darwin-x64",
			"agent-1.2.3-darwin-arm64",
			"agent-1.2.3-windows-x64.exe",
		]);
	});
});

describe("SHA256SUMS", () => {
	test("lines match sha256sum's format and digest", () => {
		const dir = mkdtempSync(join(realpathSync(tmpdir()), "agent-release-test-"));
		try {
			writeFileSync(join(dir, "a.bin"), "hello\n");
			writeFileSync(join(dir, "empty.exe"), "");
			expect(sha256Line(join(dir, "a.bin"))).toBe("5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  a.bin\n");
			const out = writeChecksums(dir, ["a.bin", "empty.exe"]);
			expect(out).toBe(join(dir, "SHA256SUMS"));
			expect(readFileSync(out, "utf8")).toBe(
				"5891b5b522d5df086d0ff0b110fbd9d21bb4fc7163af34d08286a2e846f6be03  a.bin\n" +
					"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.exe\n",
			);
			const check = Bun.spawnSync(["sha256sum", "--check", "--strict", "SHA256SUMS"], { cwd: dir, stdout: "pipe", stderr: "pipe" });
			expect(check.stdout.toString()).toBe("a.bin: OK\nempty.exe: OK\n");
			expect(check.exitCode).toBe(0);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});

describe("executableKind", () => {
	const bytes = (n: number, set: (v: DataView) => void) => {
		const b = new Uint8Array(n);
		set(new DataView(b.buffer));
		return b;
	};
	const elf = (machine: number) => bytes(64, (v) => (v.setUint32(0, 0x7f454c46), v.setUint16(18, machine, true)));
	const macho = (cpu: number) => bytes(32, (v) => (v.setUint32(0, 0xfeedfacf, true), v.setUint32(4, cpu, true)));
	const pe = (machine: number) => bytes(256, (v) => (v.setUint16(0, 0x4d5a), v.setUint32(0x3c, 0x80, true), v.setUint32(0x80, 0x50450000), v.setUint16(0x84, machine, true)));

	test("recognises each release format and CPU", () => {
		expect(executableKind(elf(0x3e))).toBe("linux-x64");
		expect(executableKind(elf(0xb7))).toBe("linux-arm64");
		expect(executableKind(macho(0x01000007))).toBe("darwin-x64");
		expect(executableKind(macho(0x0100000c))).toBe("darwin-arm64");
		expect(executableKind(pe(0x8664))).toBe("windows-x64");
	});

	test("anything else is unknown", () => {
		expect(executableKind(elf(0x28))).toBeNull();
		expect(executableKind(pe(0xaa64))).toBeNull();
		expect(executableKind(new TextEncoder().encode("#!/bin/sh\necho hi\n"))).toBeNull();
		expect(executableKind(new Uint8Array(0))).toBeNull();
	});

	test("the running bun executable is recognised as this machine's", async () => {
		const head = new Uint8Array(await Bun.file(process.execPath).slice(0, 4096).arrayBuffer());
		expect(executableKind(head)).toBe(`${process.platform}-${process.arch}`);
	});
});

describe("archives", () => {
	test("tar.gz keeps the binary executable beside README.md and LICENSE under one folder; zip for Windows", async () => {
		const { archiveName, writeArchive } = await import("../../../scripts/release.ts");
		const dir = mkdtempSync(join(realpathSync(tmpdir()), "agent-archive-"));
		try {
			expect(TARGETS.map((t) => archiveName("1.2.3", t))).toEqual([
				"agent-1.2.3-linux-x64.tar.gz",
				"agent-1.2.3-linux-arm64.tar.gz",
				"agent-1.2.3-darwin-x64.tar.gz",
				"agent-1.2.3-darwin-arm64.tar.gz",
				"agent-1.2.3-windows-x64.zip",
			]);
			const binary = join(dir, "bin");
			writeFileSync(binary, "#!/bin/sh\necho hi\n");
			const files = { readme: join(dir, "README.md"), license: join(dir, "LICENSE") };
			writeFileSync(files.readme, "readme\n");
			writeFileSync(files.license, "MIT\n");
			await writeArchive(join(dir, "agent-1.2.3-linux-x64.tar.gz"), binary, files);
			const listing = Bun.spawnSync(["tar", "-tvzf", join(dir, "agent-1.2.3-linux-x64.tar.gz")]).stdout.toString();
			expect(listing).toMatch(/^-rwxr-xr-x .* agent-1\.2\.3-linux-x64\/agent$/m);
			expect(listing).toMatch(/ agent-1\.2\.3-linux-x64\/README\.md$/m);
			expect(listing).toMatch(/ agent-1\.2\.3-linux-x64\/LICENSE$/m);
			Bun.spawnSync(["tar", "-xzf", join(dir, "agent-1.2.3-linux-x64.tar.gz"), "-C", dir]);
			expect(Bun.spawnSync([join(dir, "agent-1.2.3-linux-x64/agent")]).stdout.toString()).toBe("hi\n");

			await writeArchive(join(dir, "agent-1.2.3-windows-x64.zip"), binary, files);
			const { unzipSync } = await import("fflate");
			const entries = unzipSync(new Uint8Array(readFileSync(join(dir, "agent-1.2.3-windows-x64.zip"))));
			expect(Object.keys(entries).sort()).toEqual(["agent-1.2.3-windows-x64/", "agent-1.2.3-windows-x64/LICENSE", "agent-1.2.3-windows-x64/README.md", "agent-1.2.3-windows-x64/agent.exe"]);
			expect(new TextDecoder().decode(entries["agent-1.2.3-windows-x64/LICENSE"])).toBe("MIT\n");
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
