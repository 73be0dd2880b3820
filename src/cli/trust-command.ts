// `agent trust [dir]` / `agent trust --revoke [dir]`: record a trust decision for a folder
// (default: the current one) without starting a session.
import { statSync } from "node:fs";
import { resolve } from "node:path";
import { CONFIG_DIR_NAME, tildify } from "../config.ts";
import { saveTrust, trustFilePath } from "../core/resources/trust.ts";
import { writeStdout } from "../stdio.ts";
import { UserError } from "../core/errors.ts";

export function runTrustCommand(dir: string | undefined, revoke: boolean, cwd = process.cwd()): number {
	const folder = resolve(cwd, dir ?? ".");
	let isDir = false;
	try {
		isDir = statSync(folder).isDirectory();
	} catch {}
	if (!isDir) throw new UserError(`Not a folder: ${folder}. Usage: agent trust [--revoke] [dir]`);
	const key = saveTrust(folder, !revoke);
	const saved = `(saved in ${tildify(trustFilePath())})`;
	writeStdout(
		revoke
			? `No longer trusted: ${tildify(key)}. Its ${CONFIG_DIR_NAME}/ extensions and settings will not load ${saved}.\n`
			: `Trusted: ${tildify(key)}. Its ${CONFIG_DIR_NAME}/ extensions and settings will load, and those of folders inside it ${saved}.\n`,
	);
	return 0;
}
