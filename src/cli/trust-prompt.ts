// The interactive `Trust project folder?` prompt (SPEC §4): shows the folder and the files that
// would load, and returns the choice. Only reached when stdin and stdout are terminals.
import { dirname, relative } from "node:path";
import { tildify } from "../config.ts";

export type TrustChoice = "trust" | "trust-parent" | "dont-trust" | "cancelled";

/** `resources`: the project's skill and prompt-template folders, which steer the model rather than run. */
export async function promptProjectTrust(folder: string, files: string[], resources: string[] = [], mcp?: { path: string; servers: string[] }): Promise<TrustChoice> {
	const { select, isCancel } = await import("@clack/prompts");
	const show = (paths: string[]) =>
		paths.map((f) => {
			const rel = relative(folder, f);
			return `  ${rel.startsWith("..") ? tildify(f) : rel}`;
		});
	const parent = dirname(folder);
	const code = files.length > 0 ? [`Project code that would run (${files.length} ${files.length === 1 ? "file" : "files"}):`, ...show(files)] : [];
	const steer = resources.length > 0 ? ["Project skills and prompt templates the model would follow:", ...show(resources)] : [];
	const servers = mcp ? [`Project MCP servers that would start (${show([mcp.path])[0]!.trim()}):`, ...mcp.servers.map((s) => `  ${s}`)] : [];
	const answer = await select({
		message: ["Trust project folder?", tildify(folder), "", ...code, ...steer, ...servers].join("\n"),
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
