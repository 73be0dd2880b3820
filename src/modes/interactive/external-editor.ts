// $VISUAL / $EDITOR on a temporary file, with the terminal handed over while it runs: the TUI
// stops (cooked mode, cursor shown), the editor gets the terminal, then the TUI redraws in full.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpDir } from "../../config.ts";
import type { TUI } from "@earendil-works/pi-tui";

export function externalEditorCommand(): string | undefined {
	return process.env.VISUAL || process.env.EDITOR || undefined;
}

/** Edit `text`; undefined when no editor is set or it exits non-zero. */
export async function editExternally(tui: TUI, text: string): Promise<string | undefined> {
	const command = externalEditorCommand();
	if (!command) return undefined;
	const dir = mkdtempSync(join(tmpDir(), "agent-edit-"));
	const file = join(dir, "message.md");
	tui.stop();
	try {
		writeFileSync(file, text);
		const proc = Bun.spawn(["sh", "-c", `${command} "$1"`, "sh", file], { stdin: "inherit", stdout: "inherit", stderr: "inherit" });
		const code = await proc.exited;
		return code === 0 ? readFileSync(file, "utf8").replace(/\n$/, "") : undefined;
	} finally {
		rmSync(dir, { recursive: true, force: true });
		tui.start();
		tui.requestRender(true);
	}
}
