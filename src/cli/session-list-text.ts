// `--resume` outside the REPL: the sessions of this folder as text, newest first.
import { tildify } from "../config.ts";
import { SessionManager } from "../core/session/session-manager.ts";

export async function listSessionsText(cwd: string, sessionDir?: string): Promise<string> {
	const sessions = await SessionManager.list(cwd, sessionDir);
	if (sessions.length === 0) return `No sessions for ${tildify(cwd)} yet.\n`;
	const lines = sessions.map((s) => {
		const first = s.firstMessage.replace(/\s+/g, " ").slice(0, 60);
		return `${s.id.slice(0, 8)}  ${s.modified.toISOString().slice(0, 16).replace("T", " ")}  ${String(s.messageCount).padStart(3)} msgs  ${s.name ? `${s.name} — ` : ""}${first}`;
	});
	return `${lines.join("\n")}\n\nResume one with: agent --session <id>\n`;
}
