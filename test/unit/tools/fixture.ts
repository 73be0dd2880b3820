// A throwaway project folder for tool tests, plus a private TMPDIR so the temp files that
// truncated output is saved to land inside it and go away with it.
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { AgentTool, AgentToolResult } from "../../../src/core/tools/types.ts";

export class TempProject implements Disposable {
	readonly root: string;
	readonly cwd: string;
	readonly tmp: string;
	private readonly previousTmp: string | undefined;

	constructor() {
		this.root = mkdtempSync(join(realpathSync(tmpdir()), "agent-tools-test-"));
		this.cwd = join(this.root, "project");
		this.tmp = join(this.root, "tmp");
		mkdirSync(this.cwd);
		mkdirSync(this.tmp);
		this.previousTmp = process.env.TMPDIR;
		process.env.TMPDIR = this.tmp;
	}

	write(rel: string, content: string | Uint8Array): string {
		const path = join(this.cwd, rel);
		mkdirSync(dirname(path), { recursive: true });
		writeFileSync(path, content);
		return path;
	}

	read(rel: string): string {
		return readFileSync(join(this.cwd, rel), "utf8");
	}

	[Symbol.dispose](): void {
		if (this.previousTmp === undefined) delete process.env.TMPDIR;
		else process.env.TMPDIR = this.previousTmp;
		rmSync(this.root, { recursive: true, force: true });
	}
}

/** Call a tool the way the loop does, without a ctx. */
export function run<T extends AgentTool<any, any>>(
	tool: T,
	params: unknown,
	options: { signal?: AbortSignal; onUpdate?: (partial: AgentToolResult<any>) => void } = {},
): Promise<AgentToolResult<any>> {
	return tool.execute("call-1", params as never, options.signal, options.onUpdate, undefined);
}

/** The text of a result's first content block. */
export function textOf(result: AgentToolResult<unknown>): string {
	const first = result.content[0];
	if (first?.type !== "text") throw new Error(`expected text content, got ${JSON.stringify(first)}`);
	return first.text;
}

/** The message a tool call fails with. */
export async function errorOf(promise: Promise<unknown>): Promise<string> {
	try {
		await promise;
	} catch (error) {
		return (error as Error).message;
	}
	throw new Error("expected the tool call to fail");
}
