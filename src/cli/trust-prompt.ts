// The interactive `Trust project folder?` prompt (SPEC §4): shows the folder and the files that
// would load, and returns the choice. Only reached when stdin and stdout are terminals.
import { dirname, relative } from "node:path";
import { tildify } from "../config.ts";

export type TrustChoice = "trust" | "trust-parent" | "dont-trust" | "cancelled";

export async function promptProjectTrust(folder: string, files: string[]): Promise<TrustChoice> {
	const { select, isCancel } = await import("@clack/prompts");
	const shown = files.map((f) => {
		const rel = relative(folder, f);
		return `  ${rel.startsWith("..") ? tildify(f) : rel}`;
	});
	const parent = dirname(folder);
	const answer = await select({
		message: [
			"Trust project folder?",
			tildify(folder),
			"",
			`Project code that would run (${files.length} ${files.length === 1 ? "file" : "files"}):`,
			...shown,
		].join("\n"),
		options: [
			{ value: "trust" as const, label: "Trust this folder", hint: "load its .agent/ extensions and settings" },
			{ value: "trust-parent" as const, label: `Trust the parent folder (${tildify(parent)})`, hint: "and every folder inside it" },
			{ value: "dont-trust" as const, label: "Don't trust", hint: "skip project extensions; ask no more" },
		],
		initialValue: "dont-trust" as const,
	});
	if (isCancel(answer)) return "cancelled";
	return answer;
}
