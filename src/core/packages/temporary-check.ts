// `-e npm:…|git:…` packages are cached under ~/.agent/tmp/packages and checked against their
// source at most once a day (an exact npm version never), so trying a package on every run costs
// no registry round trip and still picks up a new release. When each was last checked is kept in
// `checked.json` beside the cache, by install folder.
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { readJsonFile } from "../file-reader.ts";
import type { ConfiguredPackage } from "./configured.ts";
import { packagesRoot } from "./source.ts";

/** How long a check holds. */
export const TEMPORARY_CHECK_MS = 24 * 60 * 60 * 1000;

function checksFile(cwd: string): string {
	return join(packagesRoot("temporary", cwd), "checked.json");
}

function readChecks(cwd: string): Record<string, string> {
	try {
		const value = readJsonFile(checksFile(cwd))?.value;
		return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, string>) : {};
	} catch {
		// Unreadable: every package counts as unchecked, and the file is written afresh.
		return {};
	}
}

/** Whether a `-e` package that is installed should be checked for a newer version now. */
export function dueForCheck(pkg: ConfiguredPackage, now = Date.now()): boolean {
	if (pkg.scope !== "temporary" || pkg.parsed.type === "local") return false;
	if (pkg.parsed.type === "npm" && pkg.parsed.pinned) return false;
	const last = Date.parse(readChecks(pkg.cwd)[pkg.dir] ?? "");
	return !Number.isFinite(last) || now - last >= TEMPORARY_CHECK_MS || last > now;
}

/** Note that these packages were installed or checked at `now` (a failed check counts: one try a day). */
export function recordChecks(packages: ConfiguredPackage[], now = Date.now()): void {
	const temporary = packages.filter((p) => p.scope === "temporary" && p.parsed.type !== "local");
	if (temporary.length === 0) return;
	const file = checksFile(temporary[0]!.cwd);
	const checks = readChecks(temporary[0]!.cwd);
	for (const pkg of temporary) checks[pkg.dir] = new Date(now).toISOString();
	try {
		mkdirSync(dirname(file), { recursive: true });
		const tmp = `${file}.${process.pid}.tmp`;
		writeFileSync(tmp, `${JSON.stringify(checks, null, 2)}\n`);
		renameSync(tmp, file);
	} catch {
		// A cache that cannot be written only means the next run checks again.
	}
}
