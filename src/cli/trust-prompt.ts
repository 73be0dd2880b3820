// The interactive `Trust project folder?` prompt (SPEC §4): shows the folder and the files that
// would load, and returns the choice. Only reached when stdin and stdout are terminals.
import { dirname, relative } from "node:path";
import { tildify } from "../config.ts";
import { type GatedInput, promptSections } from "../core/resources/gated-inputs.ts";

export type TrustChoice = "trust" | "trust-parent" | "dont-trust" | "cancelled";

/** `inputs`: everything the folder would load, each with the file that asks for it. */
export async function promptProjectTrust(folder: string, inputs: GatedInput[]): Promise<TrustChoice> {
	const { select, isCancel } = await import("@clack/prompts");
	const shown = (path: string) => {
		const rel = relative(folder, path);
		return rel.startsWith("..") ? tildify(path) : rel;
	};
	// Where a path is not in the usual place, say which file asked for it.
	const line = (item: GatedInput) => {
		const usual = item.declaredBy === item.path || item.path.startsWith(`${item.declaredBy}/`);
		return `  ${shown(item.path)}${usual ? "" : ` (from ${shown(item.declaredBy)})`}`;
	};
	const parent = dirname(folder);
	const sections = promptSections(inputs).flatMap(({ heading, counted, noun, items }) => {
		const count = counted ? ` (${items.length} ${items.length === 1 ? noun[0] : noun[1]})` : "";
		return [`${heading}${count}:`, ...items.map(line)];
	});
	const answer = await select({
		message: ["Trust project folder?", tildify(folder), "", ...sections].join("\n"),
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
