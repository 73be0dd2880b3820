// `--resume` outside the REPL: the sessions of this folder as text, newest first.
import { tildify } from "../config.ts";
import { SessionManager } from "../core/session/session-manager.ts";

export async function listSessionsText(cwd: string, sessionDir?: string): Promise<string> {
	const sessions = await SessionManager.list(cwd, sessionDir);
	if (sessions.length === 0) return `No sessions for ${tildify(cwd)} yet.\n`;
	// Ids are UUIDv7 (time first), so sessions made within a minute share 8 characters: show each
	// id's shortest prefix, 8 at least, that no other listed session shares — it works with --session.
	const prefixes = sessions.map((s) => {
		let n = 8;
		while (n < s.id.length && sessions.some((o) => o !== s && o.id.startsWith(s.id.slice(0, n)))) n++;
		return s.id.slice(0, n);
	});
	const width = Math.max(...prefixes.map((p) => p.length));
	const lines = sessions.map((s, i) => {
		const first = s.firstMessage.replace(/\s+/g, " ").slice(0, 60);
		return `${prefixes[i]!.padEnd(width)}  ${s.modified.toISOString().slice(0, 16).replace("T", " ")}  ${String(s.messageCount).padStart(3)} msgs  ${s.name ? `${s.name} — ` : ""}${first}`;
	});
	return `${lines.join("\n")}\n\nResume one with: agent --session <id>\n`;
}
