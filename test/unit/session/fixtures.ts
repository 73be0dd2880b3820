// Shared test fixtures for the session store: a temporary directory removed afterwards, and
// small message builders with fixed timestamps.
import { mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AssistantMessage, UserMessage } from "../../../src/core/agent/messages.ts";
import { emptyUsage } from "../../../src/core/providers/types.ts";

export interface TempDir extends Disposable {
	path: string;
}

export function tempDir(): TempDir {
	const path = mkdtempSync(join(realpathSync(tmpdir()), "agent-session-test-"));
	return { path, [Symbol.dispose]: () => rmSync(path, { recursive: true, force: true }) };
}

export function user(text: string, timestamp = 1_700_000_000_000): UserMessage {
	return { role: "user", content: text, timestamp };
}

export function assistant(text: string, timestamp = 1_700_000_000_001): AssistantMessage {
	return {
		role: "assistant",
		content: [{ type: "text", text }],
		api: "openai-completions",
		provider: "mock",
		model: "mock-1",
		usage: emptyUsage(),
		stopReason: "stop",
		timestamp,
	};
}

/** The file's lines, parsed; a line that does not parse fails the test. */
export function readLines(path: string): Record<string, unknown>[] {
	return readFileSync(path, "utf8")
		.split("\n")
		.filter((l) => l !== "")
		.map((l) => JSON.parse(l) as Record<string, unknown>);
}

export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
export const ENTRY_ID = /^[0-9a-f]{8}$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
