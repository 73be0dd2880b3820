// A project's `.agent/mcp.json` starts programs, so it is a trust-gated input (SPEC §4): its
// servers are listed in the trust prompt and counted in the `Skipped …` line of an untrusted run.
import { registerGatedInputs } from "../resources/gated-inputs.ts";
import { projectMcpPath, readMcpFile } from "./mcp-config.ts";
import { validateServerConfig } from "./server-config.ts";
import { targetOf } from "./status.ts";

registerGatedInputs({ kind: "mcp", noun: ["MCP server", "MCP servers"], counted: true, heading: "Project MCP servers that would start" }, (context) => {
	const path = projectMcpPath(context.cwd);
	let file;
	try {
		file = readMcpFile(path);
	} catch {
		// A broken file is reported once the folder is trusted; the file itself is what would be read.
		return [{ kind: "mcp", path, declaredBy: path }];
	}
	return (file?.entries ?? []).map((entry) => {
		const config = validateServerConfig(entry.raw);
		// What the prompt shows: the server and what it runs (or where it connects).
		const what = "message" in config ? entry.name : `${entry.name}: ${targetOf({ name: entry.name, config, source: "project", origin: path })}`;
		return { kind: "mcp", path: what, declaredBy: path };
	});
});
